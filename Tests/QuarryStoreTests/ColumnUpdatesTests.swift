// A save's one-column UPDATEs go several rows per statement on SQLite
// (ColumnUpdates.swift) and one row per statement elsewhere. Either way the
// store must end up as a row-by-row save leaves it: every row of full
// batches and of the part-batch left over, columns and entities switching
// between objects, statements in the order the save made them (a UNIQUE
// value freed by one row taken by the next), and a failure on any row
// rolling the whole save back.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Context: batched column updates")
struct ColumnUpdatesTests {
    /// `count` employees E0… with increasing keys, ages 20...69, salaries 1000….
    private func staff(_ engine: TestEngine, _ count: Int) throws -> SQLStore {
        let store = try emptyCompanyStore(engine)
        for i in 0..<count {
            _ = try store.insert("Employee", ["name": .string("E\(i)"), "salary": .int(Int64(1000 + i)), "age": .int(Int64(20 + i % 50))])
        }
        return store
    }

    /// Every employee's (name, age, salary), in key order, read by a fresh context.
    private func rows(_ store: SQLStore) throws -> [[Value?]] {
        try Context(store: store).fetch(FetchRequest(entity: "Employee")).map { [$0["name"], $0["age"], $0["salary"]] }
    }

    @Test(arguments: TestEngine.available, [1, 255, 256, 257, 600])
    func everyRowOfFullAndPartBatchesIsWritten(engine: TestEngine, count: Int) throws {
        let store = try staff(engine, count)
        let context = Context(store: store)
        let objects = try context.fetch(FetchRequest(entity: "Employee"))
        for (i, o) in objects.enumerated() { try o.setValue(.int(Int64(100 - i % 80)), forKey: "age") }
        try context.save()
        let expected: [[Value?]] = (0..<count).map { i in [Value.string("E\(i)"), Value.int(Int64(100 - i % 80)), Value.int(Int64(1000 + i))] }
        #expect(try rows(store) == expected)
        #expect(!context.hasChanges)
    }

    @Test(arguments: TestEngine.available)
    func columnsAndEntitiesSwitchingBetweenObjects(engine: TestEngine) throws {
        let store = try staff(engine, 800)
        for i in 0..<300 { _ = try store.insert("Department", ["name": .string("D\(i)")]) }
        let context = Context(store: store)
        let employees = try context.fetch(FetchRequest(entity: "Employee"))
        let departments = try context.fetch(FetchRequest(entity: "Department"))
        var expected = try rows(store)
        for (i, o) in employees.enumerated() {
            switch i {
            case 0..<300, 600..<700:
                try o.setValue(.int(30), forKey: "age")
                expected[i][1] = .int(30)
            case 300..<600:
                try o.setValue(.int(Int64(7 * i)), forKey: "salary")
                expected[i][2] = .int(Int64(7 * i))
            default:
                // Two changes: the object's own UPDATE, between batches.
                try o.setValue(.int(40), forKey: "age")
                try o.setValue(.string("F\(i)"), forKey: "name")
                expected[i][0] = .string("F\(i)")
                expected[i][1] = .int(40)
            }
        }
        for (i, d) in departments.enumerated() { try d.setValue(.string("Renamed \(i)"), forKey: "name") }
        try context.save()
        #expect(try rows(store) == expected)
        let names = try Context(store: store).fetch(FetchRequest(entity: "Department")).map { $0["name"] }
        #expect(names == (0..<300).map { Value.string("Renamed \($0)") })
    }

    @Test(arguments: TestEngine.available)
    func aUniqueValueFreedByOneRowIsTakenByTheNext(engine: TestEngine) throws {
        let store = try emptyCompanyStore(engine)
        for i in 0..<600 { _ = try store.insert("Department", ["name": .string("D\(i)")]) }
        let context = Context(store: store)
        let departments = try context.fetch(FetchRequest(entity: "Department"))
        // In key order each row takes the name the row before it just gave up.
        try departments[0].setValue(.string("first"), forKey: "name")
        for i in 1..<600 { try departments[i].setValue(.string("D\(i - 1)"), forKey: "name") }
        try context.save()
        let names = try Context(store: store).fetch(FetchRequest(entity: "Department")).map { $0["name"] }
        let expected: [Value?] = [Value.string("first")] + (0..<599).map { Value.string("D\($0)") }
        #expect(names == expected)
    }

    @Test(arguments: TestEngine.available)
    func aFailingRowRollsTheWholeSaveBack(engine: TestEngine) throws {
        let store = try staff(engine, 600)
        // Refuses the one row given age 99 (in the second batch).
        switch engine {
        case .sqlite:
            try store.database.run("CREATE TRIGGER boom BEFORE UPDATE ON \"Employee\" WHEN NEW.\"age\" = 99 BEGIN SELECT RAISE(ABORT, 'boom'); END")
        case .postgres:
            try store.database.run("CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.\"age\" = 99 THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$")
            try store.database.run("CREATE TRIGGER boom BEFORE UPDATE ON \"Employee\" FOR EACH ROW EXECUTE FUNCTION boom()")
        }
        let before = try dump(store)
        let context = Context(store: store)
        let objects = try context.fetch(FetchRequest(entity: "Employee"))
        for (i, o) in objects.enumerated() { try o.setValue(.int(i == 400 ? 99 : 77), forKey: "age") }
        #expect(throws: (any Error).self) { try context.save() }
        #expect(try dump(store) == before)
        #expect(context.updatedObjects.count == 600 && objects[0]["age"] == .int(77))
        try objects[400].setValue(.int(78), forKey: "age")
        try context.save()
        let ages: [Value?] = (0..<600).map { Value.int($0 == 400 ? 78 : 77) }
        #expect(try rows(store).map { $0[1] } == ages)
    }

    @Test(arguments: TestEngine.available)
    func keysInAnyOrderReachTheirRows(engine: TestEngine) throws {
        let store = try staff(engine, 300)
        var generator = Seeded(state: 9)
        let keys = try store.database.rows(#"SELECT "_pk" FROM "Employee" ORDER BY "_pk""#).map { row -> Int64 in
            guard case .int(let k) = row[0] else { Issue.record("no key"); return 0 }
            return k
        }
        // Runs in order broken by keys that go back: each starts a new batch.
        var order: [Int64] = []
        var rest = keys.shuffled(using: &generator)
        while !rest.isEmpty {
            let n = min(rest.count, Int.random(in: 1...120, using: &generator))
            order += rest.prefix(n).sorted()
            rest.removeFirst(n)
        }
        try store.database.inTransaction {
            let updates = try ColumnUpdates(table: #""Employee""#, column: #""salary""#, database: store.database)
            for k in order { try updates.add(key: k, value: .int(k * 3)) }
            try updates.flush()
        }
        let salaries = try store.database.rows(#"SELECT "_pk", "salary" FROM "Employee" ORDER BY "_pk""#)
        #expect(salaries.map { $0[1] } == keys.map { Value.int($0 * 3) })
    }

    @Test(arguments: TestEngine.available)
    func badValuesAmongManyAreAllReportedAndNothingWritten(engine: TestEngine) throws {
        let store = try staff(engine, 300)
        let before = try dump(store)
        let context = Context(store: store)
        let objects = try context.fetch(FetchRequest(entity: "Employee"))
        // Every 7th too young, every 11th too old; the rest valid.
        func age(_ i: Int) -> Int64 { i % 7 == 0 ? 15 : i % 11 == 0 ? 121 : 30 }
        for (i, o) in objects.enumerated() { try o.setValue(.int(age(i)), forKey: "age") }
        let error = try #require(throws: ValidationError.self) { try context.save() }
        let expected = objects.indices.filter { age($0) != 30 }.map { i in
            ValidationFailure(entity: "Employee", objectID: objects[i].objectID, property: "age",
                              reason: age(i) == 15 ? .tooSmall(minimum: .int(16)) : .tooLarge(maximum: .int(120)))
        }
        #expect(error.failures == expected)
        #expect(try dump(store) == before)
        // (Those already 30 have no change.)
        #expect(context.updatedObjects.count == objects.indices.filter { age($0) != Int64(20 + $0 % 50) }.count)
    }
}

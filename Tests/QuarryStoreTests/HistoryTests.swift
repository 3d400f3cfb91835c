// Persistent history on SQLite and PostgreSQL: each write path — a context's
// save (insert, update, relationship change, delete), batch update in SQL
// and object by object, batch delete in one statement and with delete
// rules, batch insert, the store's own insert — leaves exactly the expected
// transaction; a failed write leaves none; replaying the history from empty
// reproduces the store after a mixed series of writes; a context merging
// another's history sees the same objects; trimming; tokens; the store's
// setting kept across opens; the model flag for tombstones.
import Foundation
import QuarryPostgres
import QuarryPostgresTestSupport
import Testing
@testable import QuarryStore

@Suite("Persistent history")
struct HistoryTests {
    static let yaml = """
    entities:
      Department:
        attributes:
          name: { type: string, preserveAfterDeletion: true }
          budget: { type: integer64, default: 0 }
        relationships:
          employees: { to: Employee, many: true, inverse: department }
      Employee:
        attributes:
          name: { type: string, userInfo: { preserveValueInHistoryOnDeletion: "YES" } }
          salary: { type: integer64, default: 0 }
          note: { type: string }
        relationships:
          department: { to: Department, inverse: employees }
    """
    static let model = try! ModelReader.read(yaml: yaml, file: "history.yaml")

    static func d(_ pk: Int64) -> ObjectID { ObjectID(entity: "Department", primaryKey: pk) }
    static func e(_ pk: Int64) -> ObjectID { ObjectID(entity: "Employee", primaryKey: pk) }

    /// Departments D1 (1), D2 (2); employees E1 (1, D1, 100, "a"), E2 (2, D1, 200, "b"),
    /// E3 (3, D2, 300, "c"); then history turned on, so it starts empty.
    static func seeded(_ engine: TestEngine) throws -> SQLStore {
        let store = try engine.emptyStore(model: model)
        let d1 = try store.insert("Department", ["name": "D1"])
        let d2 = try store.insert("Department", ["name": "D2"])
        try store.insert("Employee", ["name": "E1", "salary": 100, "note": "a"], toOne: ["department": d1])
        try store.insert("Employee", ["name": "E2", "salary": 200, "note": "b"], toOne: ["department": d1])
        try store.insert("Employee", ["name": "E3", "salary": 300, "note": "c"], toOne: ["department": d2])
        #expect(!store.recordsHistory)
        try store.setHistoryTracking(true)
        #expect(try store.history().isEmpty)
        return store
    }

    /// A change as the cases spell it.
    struct Expected: Hashable, CustomStringConvertible {
        var id: ObjectID, type: HistoryChangeType, keys: [String] = [], tombstone: [String: Value] = [:]
        init(_ id: ObjectID, _ type: HistoryChangeType, _ keys: [String] = [], _ tombstone: [String: Value] = [:]) {
            self.id = id; self.type = type; self.keys = keys; self.tombstone = tombstone
        }
        init(_ c: HistoryChange) { self.init(c.objectID, c.type, c.changedKeys, c.tombstone) }
        var description: String { "\(type) \(id) \(keys) \(tombstone)" }
    }

    typealias Write = @Sendable (SQLStore) throws -> Void

    static func save(_ body: @escaping @Sendable (Context) throws -> Void) -> Write {
        { store in
            let context = Context(store: store)
            context.transactionAuthor = "tester"
            context.name = "editor"
            try body(context)
            try context.save()
        }
    }

    static let cases: [(String, HistoryRequestKind, Write, Set<Expected>)] = [
        ("save: insert", .save, save { c in
            let x = try c.insert("Employee")
            try x.setValue("E4", forKey: "name")
        }, [Expected(e(4), .insert)]),
        ("save: update", .save, save { c in try c.object(with: e(1)).setValue(150, forKey: "salary") },
         [Expected(e(1), .update, ["salary"])]),
        ("save: two keys", .save, save { c in
            try c.object(with: e(1)).setValue(150, forKey: "salary")
            try c.object(with: e(1)).setValue("z", forKey: "note")
        }, [Expected(e(1), .update, ["note", "salary"])]),
        ("save: relationship", .save, save { c in try c.object(with: e(1)).setValue(c.object(with: d(2)), forKey: "department") },
         [Expected(e(1), .update, ["department"]), Expected(d(1), .update, ["employees"]), Expected(d(2), .update, ["employees"])]),
        ("save: delete, tombstone", .save, save { c in try c.delete(c.object(with: e(3))) },
         [Expected(e(3), .delete, [], ["name": "E3"]), Expected(d(2), .update, ["employees"])]),
        ("batch update in SQL", .batchUpdate, { store in
            try store.batchUpdate(entity: "Employee", predicate: try Parser.parsePredicate("salary >= 200"), set: [("salary", try Parser.parseExpression("salary + 1"))])
        }, [Expected(e(2), .update, ["salary"]), Expected(e(3), .update, ["salary"])]),
        ("batch update object by object", .batchUpdate, { store in
            try store.batchUpdate(entity: "Employee", predicate: try Parser.parsePredicate("salary < 250"), set: [("note", try Parser.parseExpression("uppercase:(note)"))])
        }, [Expected(e(1), .update, ["note"]), Expected(e(2), .update, ["note"])]),
        ("batch update matching nothing", .batchUpdate, { store in
            try store.batchUpdate(entity: "Employee", predicate: try Parser.parsePredicate("salary > 1000"), set: [("salary", try Parser.parseExpression("0"))])
        }, []),
        ("batch delete in one statement", .batchDelete, { store in
            try store.batchDelete(entity: "Employee", predicate: try Parser.parsePredicate("salary < 250"))
        }, [Expected(e(1), .delete, [], ["name": "E1"]), Expected(e(2), .delete, [], ["name": "E2"])]),
        ("batch delete with rules (nullify)", .batchDelete, { store in
            try store.batchDelete(entity: "Department", predicate: try Parser.parsePredicate("name == 'D1'"))
        }, [Expected(d(1), .delete, [], ["name": "D1"]), Expected(e(1), .update, ["department"]), Expected(e(2), .update, ["department"])]),
        ("batch insert", .batchInsert, { store in
            try store.batchInsert("Employee", objects: [["name": "E4"], ["name": "E5", "salary": 5]])
        }, [Expected(e(4), .insert), Expected(e(5), .insert)]),
        ("store insert with a to-one", .storeWrite, { store in
            try store.insert("Employee", ["name": "E4"], toOne: ["department": d(2)])
        }, [Expected(e(4), .insert), Expected(d(2), .update, ["employees"])]),
    ]

    @Test(arguments: TestEngine.available, cases.indices)
    func eachWritePathLeavesItsTransaction(engine: TestEngine, index: Int) throws {
        let (name, kind, write, expected) = Self.cases[index]
        let store = try Self.seeded(engine)
        try write(store)
        let history = try store.history()
        if expected.isEmpty {
            #expect(history.isEmpty, "\(name)")
            return
        }
        try #require(history.count == 1, "\(name): \(history)")
        #expect(history[0].kind == kind, "\(name)")
        #expect(Set(history[0].changes.map(Expected.init)) == expected, "\(name)")
        #expect(history[0].changes.count == expected.count, "\(name): one change per object")
        if kind == .save {
            #expect(history[0].author == "tester" && history[0].contextName == "editor", "\(name)")
        }
    }

    @Test(arguments: TestEngine.available)
    func contextBatchRequestsRecordTheirOrigin(engine: TestEngine) throws {
        let store = try Self.seeded(engine)
        let context = Context(store: store)
        context.transactionAuthor = "importer"
        context.name = "background"
        try context.batchUpdate(entity: "Employee", predicate: nil, set: [("salary", try Parser.parseExpression("0"))])
        try context.batchInsert("Employee", objects: [["name": "E9"]])
        try context.batchDelete(entity: "Employee", predicate: try Parser.parsePredicate("name == 'E9'"))
        let history = try store.history()
        #expect(history.map(\.kind) == [.batchUpdate, .batchInsert, .batchDelete])
        #expect(history.allSatisfy { $0.author == "importer" && $0.contextName == "background" })
        #expect(history[0].changes.count == 3)
        // The origin is the context's only while its call runs.
        try store.batchUpdate(entity: "Employee", predicate: nil, set: [("salary", try Parser.parseExpression("1"))])
        #expect(try store.history().last?.author == nil)
        #expect(history.map(\.token) == history.map(\.token).sorted())
    }

    /// A failing write of each kind: its transaction rolls back with no history.
    static let failures: [(String, Write)] = [
        ("save failing at its insert", { store in
            let c = Context(store: store)
            try c.object(with: e(1)).setValue(999, forKey: "salary")
            try c.delete(c.object(with: e(2)))
            let x = try c.insert("Employee")
            try x.setValue("boom", forKey: "name")
            try c.save()
        }),
        ("batch insert failing at its second row", { store in
            try store.batchInsert("Employee", objects: [["name": "E4"], ["name": "boom"]])
        }),
        ("save rolled back by its caller", { store in
            struct Abandon: Error {}
            try store.database.inTransaction {
                let c = Context(store: store)
                try c.object(with: e(1)).setValue(999, forKey: "salary")
                try c.save()
                throw Abandon()
            }
        }),
    ]

    @Test(arguments: TestEngine.available, failures.indices)
    func aFailedWriteLeavesNoHistory(engine: TestEngine, index: Int) throws {
        let store = try Self.seeded(engine)
        // Rows named "boom" are refused by the database itself, inside the transaction.
        if engine == .sqlite {
            try store.database.run(#"CREATE TRIGGER "no_boom" BEFORE INSERT ON "Employee" WHEN NEW."name" = 'boom' BEGIN SELECT RAISE(ABORT, 'boom'); END"#)
        } else {
            try store.database.run(#"ALTER TABLE "Employee" ADD CONSTRAINT "no_boom" CHECK ("name" <> 'boom')"#)
        }
        #expect(throws: (any Error).self, "\(Self.failures[index].0)") { try Self.failures[index].1(store) }
        #expect(try store.history().isEmpty, "\(Self.failures[index].0)")
        // And the store is as it was.
        #expect(try store.database.rows(#"SELECT "salary" FROM "Employee" WHERE "_pk" = 1"#, as: [.int]) == [[.int(100)]])
        #expect(try store.database.rows(#"SELECT COUNT(*) FROM "Employee""#, as: [.int]) == [[.int(3)]])
    }

    // MARK: replay

    /// Every object's attributes and to-one keys (`department`), read from the store.
    static func snapshot(_ store: SQLStore) throws -> [ObjectID: [String: Value]] {
        store.forgetObjects()
        var all: [ObjectID: [String: Value]] = [:]
        for entity in ["Department", "Employee"] {
            for object in try store.fetch(FetchRequest(entity: entity)) {
                var values: [String: Value] = [:]
                for (key, value) in object.values {
                    values[key.hasPrefix("_fk_") ? String(key.dropFirst(4)) : key] = value
                }
                all[object.id] = values
            }
        }
        return all
    }

    /// Applies `transactions` to `replica` as a reader that knows only the
    /// history would: inserts copy the new object, updates copy exactly the
    /// changed keys (to-manys are the other side's to-ones here), deletes drop it.
    static func replay(_ transactions: [HistoryTransaction], into replica: inout [ObjectID: [String: Value]], from now: [ObjectID: [String: Value]]) {
        for t in transactions {
            for change in t.changes {
                switch change.type {
                case .insert: replica[change.objectID] = now[change.objectID]
                case .update:
                    for key in change.changedKeys where key != "employees" { replica[change.objectID]?[key] = now[change.objectID]?[key] ?? .null }
                case .delete: replica[change.objectID] = nil
                }
            }
        }
    }

    static let mixedSeries: [Write] = [
        save { c in
            for i in 0..<5 {
                let x = try c.insert("Employee")
                try x.setValue(.string("N\(i)"), forKey: "name")
                try x.setValue(.int(Int64(i * 50)), forKey: "salary")
                try x.setValue(c.object(with: d(Int64(i % 2 + 1))), forKey: "department")
            }
        },
        { store in try store.batchUpdate(entity: "Employee", predicate: try Parser.parsePredicate("salary > 120"), set: [("salary", try Parser.parseExpression("salary * 2"))]) },
        save { c in
            try c.object(with: e(2)).setValue("renamed", forKey: "note")
            try c.delete(c.object(with: e(1)))
            try c.object(with: e(3)).setValue(c.object(with: d(1)), forKey: "department")
        },
        { store in try store.batchUpdate(entity: "Employee", predicate: nil, set: [("note", try Parser.parseExpression("uppercase:(name)"))]) },
        { store in try store.batchInsert("Department", objects: [["name": "D3", "budget": 7]]) },
        { store in try store.batchDelete(entity: "Department", predicate: try Parser.parsePredicate("name == 'D2'")) },
        save { c in
            let x = try c.insert("Employee")
            try x.setValue("late", forKey: "name")
            try x.setValue(c.object(with: d(3)), forKey: "department")
            try c.object(with: d(1)).setValue(42, forKey: "budget")
        },
        { store in try store.batchDelete(entity: "Employee", predicate: try Parser.parsePredicate("salary < 60")) },
        { store in try store.insert("Employee", ["name": "direct", "salary": 1], toOne: ["department": d(3)]) },
    ]

    @Test(arguments: TestEngine.available)
    func replayFromEmptyReproducesTheStore(engine: TestEngine) throws {
        let store = try engine.emptyStore(model: Self.model)
        try store.setHistoryTracking(true)
        try store.insert("Department", ["name": "D1"])
        try store.insert("Department", ["name": "D2"])
        try store.insert("Employee", ["name": "E1", "salary": 100], toOne: ["department": Self.d(1)])
        try store.insert("Employee", ["name": "E2", "salary": 200], toOne: ["department": Self.d(1)])
        try store.insert("Employee", ["name": "E3", "salary": 300], toOne: ["department": Self.d(2)])
        var replica: [ObjectID: [String: Value]] = [:]
        var last: HistoryToken?
        // Replayed after each write, reading the values as they are then: a
        // change whose keys missed one would leave the replica behind.
        for (step, write) in ([{ _ in }] + Self.mixedSeries).enumerated() {
            try write(store)
            let now = try Self.snapshot(store)
            let new = try store.history(after: last)
            Self.replay(new, into: &replica, from: now)
            last = new.last?.token ?? last
            #expect(replica == now, "after step \(step)")
        }
        #expect(try Self.snapshot(store).count == replica.count)
        #expect(replica.count > 5)
    }

    // MARK: contexts

    @Test(arguments: TestEngine.available)
    func aContextMergingAnothersHistorySeesTheSameObjects(engine: TestEngine) throws {
        let store = try Self.seeded(engine)
        let reader = Context(store: store)
        let before = try reader.fetch(FetchRequest(entity: "Employee"))
        #expect(before.count == 3)
        _ = before.map { $0.value(forKey: "salary") }
        let start = try store.lastHistoryToken()
        let writer = Context(store: store)
        try writer.object(with: Self.e(1)).setValue(111, forKey: "salary")
        try writer.delete(writer.object(with: Self.e(2)))
        let x = try writer.insert("Employee")
        try x.setValue("E4", forKey: "name")
        try writer.save()
        try store.batchUpdate(entity: "Employee", predicate: try Parser.parsePredicate("name == 'E3'"), set: [("salary", try Parser.parseExpression("333"))])
        var events: [ContextChanges] = []
        reader.addObserver { if case .objectsDidChange(let c) = $0 { events.append(c) } }
        let history = try store.history(after: start)
        reader.merge(history: history)
        #expect(events.count == 1)
        #expect(events.first?.deleted == [Self.e(2)])
        #expect(events.first?.inserted == [Self.e(4)])
        func seen(_ c: Context) throws -> [String: Value] {
            Dictionary(uniqueKeysWithValues: try c.fetch(FetchRequest(entity: "Employee")).map {
                ($0.value(forKey: "name")?.stringValue ?? "?", $0.value(forKey: "salary") ?? .null)
            })
        }
        #expect(try seen(reader) == seen(Context(store: store)))
        #expect(try seen(reader) == ["E1": 111, "E3": 333, "E4": 0])
        #expect(before[1].isDeleted || before[1].context == nil)
    }

    @Test
    func netChangesOfAHistory() {
        func t(_ token: Int64, _ changes: [HistoryChange]) -> HistoryTransaction {
            HistoryTransaction(token: HistoryToken(token), timestamp: Date(), author: nil, contextName: nil, kind: .save, changes: changes)
        }
        let a = Self.e(1), b = Self.e(2), c = Self.e(3)
        let changes = Context.changes(in: [
            t(1, [HistoryChange(objectID: a, type: .insert), HistoryChange(objectID: b, type: .update, changedKeys: ["x"])]),
            t(2, [HistoryChange(objectID: a, type: .update, changedKeys: ["x"]), HistoryChange(objectID: c, type: .delete)]),
            t(3, [HistoryChange(objectID: b, type: .delete), HistoryChange(objectID: c, type: .insert)]),
        ])
        #expect(changes.inserted == [a])
        #expect(changes.deleted == [b])
        #expect(changes.updated == [c])
    }

    // MARK: trimming, tokens, the setting

    @Test(arguments: TestEngine.available)
    func trimming(engine: TestEngine) throws {
        let store = try Self.seeded(engine)
        for salary in [1, 2, 3] {
            try store.batchUpdate(entity: "Employee", predicate: nil, set: [("salary", try Parser.parseExpression("\(salary)"))])
        }
        let tokens = try store.history().map(\.token)
        try #require(tokens.count == 3)
        #expect(try store.deleteHistory(before: tokens[1]) == 1)
        #expect(try store.history().map(\.token) == Array(tokens[1...]))
        #expect(try store.history(after: tokens[1]).map(\.token) == [tokens[2]])
        #expect(try store.history().allSatisfy { $0.changes.count == 3 })
        #expect(try store.deleteHistory(before: HistoryToken(Int64.max)) == 2)
        #expect(try store.history().isEmpty)
        // Tokens keep increasing after a trim: a reader's last token stays meaningful.
        try store.batchUpdate(entity: "Employee", predicate: nil, set: [("salary", try Parser.parseExpression("9"))])
        #expect(try store.history().first!.token > tokens[2])
    }

    @Test
    func tokensAreCodableAndOrdered() throws {
        let token = HistoryToken(42)
        let data = try JSONEncoder().encode(token)
        #expect(String(decoding: data, as: UTF8.self) == "42")
        #expect(try JSONDecoder().decode(HistoryToken.self, from: data) == token)
        #expect(HistoryToken(3) < HistoryToken(41))
    }

    @Test(arguments: TestEngine.available)
    func offByDefaultAndRefusedToRead(engine: TestEngine) throws {
        let store = try engine.emptyStore(model: Self.model)
        #expect(!store.recordsHistory)
        try store.insert("Department", ["name": "D1"])
        #expect(throws: HistoryError.self) { try store.history() }
        #expect(!(try store.database.tableNames().contains(StoreMapping.historyTable)))
        // Not inside a transaction: rolled back, it would leave the store recording into no table.
        #expect(throws: HistoryError.self) { try store.database.inTransaction { try store.setHistoryTracking(true) } }
        #expect(!store.recordsHistory)
        try store.setHistoryTracking(true)
        try store.setHistoryTracking(false)
        try store.insert("Department", ["name": "D2"])
        // Off again: nothing more recorded, what was recorded still readable.
        #expect(try store.history().isEmpty)
    }

    @Test
    func theSettingIsKeptInTheStore() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-history-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        do {
            let store = try SQLStore(path: path, model: Self.model)
            try store.insert("Department", ["name": "old"])
        }
        do {
            // A store made without history: turned on, it gets its tables.
            let store = try SQLStore(path: path, model: Self.model)
            #expect(!store.recordsHistory)
            try store.setHistoryTracking(true)
        }
        let reopened = try SQLStore(path: path, model: Self.model)
        #expect(reopened.recordsHistory)
        try reopened.insert("Department", ["name": "new"])
        #expect(try reopened.history().flatMap(\.changes).map(\.type) == [.insert])
    }

    @Test
    func tombstoneFlagsReadFromModelFiles() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Note" representedClassName="Note" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String" preserveAfterDeletion="YES"/>
                <attribute name="body" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """
        let fromXML = try ModelReader.read(xml: xml, file: "notes.xml")
        let note = try #require(fromXML.entity(named: "Note"))
        #expect(note.attribute(named: "title", in: fromXML)?.preservesValueInHistoryOnDeletion == true)
        #expect(note.attribute(named: "body", in: fromXML)?.preservesValueInHistoryOnDeletion == false)
        let employee = try #require(Self.model.entity(named: "Department"))
        #expect(employee.attribute(named: "name", in: Self.model)?.preservesValueInHistoryOnDeletion == true)
        // The flag survives the model kept in the store.
        let archived = try ModelReader.read(json: ModelArchive.json(Self.model), file: "archive.json")
        #expect(archived.entity(named: "Department")?.attribute(named: "name", in: archived)?.preservesValueInHistoryOnDeletion == true)
    }
}

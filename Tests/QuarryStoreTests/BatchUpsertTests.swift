// Batch inserts that meet a uniqueness constraint (SQLStore+BatchUpsert.swift),
// on SQLite and PostgreSQL: under each merge policy the rows after the batch,
// its count and its listed IDs; the same inserts through a context's save
// under the same policy leave the same rows (the batch must mean what a
// save means); rows of one batch colliding with each other; persistent
// history of an upsert; what is refused before anything is written.
import Foundation
import QuarrySQL
import Testing
@testable import QuarryStore

@Suite("Batch inserts merging on uniqueness constraints")
struct BatchUpsertTests {
    static let model = UniqueMergeTests.model

    /// Sales (10, "S") and Ops (20, "O") are saved; the batch brings Sales
    /// (99, "N"), Dev (5) and Ops (7): two collisions, one new row.
    static let batch: [[String: Value]] = [
        ["name": "Sales", "budget": 99, "code": "N"],
        ["name": "Dev", "budget": 5],
        ["name": "Ops", "budget": 7],
    ]

    /// The Team rows after the batch (name, budget, code, version), by name;
    /// nil: the batch fails and nothing changes.
    struct Case: Sendable, CustomTestStringConvertible {
        let policy: MergePolicy
        let rows: [[Value]]?
        let count: Int
        var testDescription: String { policy.rawValue }
    }

    static let unchanged: [[Value]] = [["Ops", 20, "O", 1], ["Sales", 10, "S", 1]]

    static let cases: [Case] = [
        Case(policy: .error, rows: nil, count: 0),
        Case(policy: .rollback, rows: nil, count: 0),
        Case(policy: .overwrite, rows: nil, count: 0),
        // Every attribute of the batch row: Ops's code becomes nil, as a new
        // object's unset attribute does under a context's upsert.
        Case(policy: .mergeByPropertyObjectTrump, rows: [["Dev", 5, .null, 1], ["Ops", 7, .null, 2], ["Sales", 99, "N", 2]], count: 3),
        Case(policy: .mergeByPropertyStoreTrump, rows: [["Dev", 5, .null, 1], ["Ops", 20, "O", 1], ["Sales", 10, "S", 1]], count: 1),
    ]

    static var arguments: [(TestEngine, Case)] { TestEngine.available.flatMap { e in cases.map { (e, $0) } } }

    static func savedTeams(_ engine: TestEngine) throws -> (SQLStore, sales: ObjectID, ops: ObjectID) {
        let store = try engine.emptyStore(model: model)
        let sales = try store.insert("Team", ["name": "Sales", "budget": 10, "code": "S"])
        let ops = try store.insert("Team", ["name": "Ops", "budget": 20, "code": "O"])
        return (store, sales, ops)
    }

    static func rows(_ store: SQLStore) throws -> [[Value]] {
        try store.database.rows(#"SELECT "name", "budget", "code", "_version" FROM "Team" ORDER BY "name""#, as: [.string, .int, .string, .int])
    }

    @Test(arguments: arguments)
    func aBatchCollidingWithSavedRows(engine: TestEngine, c: Case) throws {
        let (store, sales, ops) = try Self.savedTeams(engine)
        guard let expected = c.rows else {
            let error = try #require(throws: BatchInsertError.self) {
                try store.batchInsert("Team", objects: Self.batch, mergePolicy: c.policy)
            }
            #expect(error.row == 0, "the first row collides")
            #expect(try Self.rows(store) == Self.unchanged)
            return
        }
        let result = try store.batchInsert("Team", objects: Self.batch, resultType: .count, mergePolicy: c.policy)
        #expect(result == .count(c.count))
        #expect(try Self.rows(store) == expected)

        // Listing the rows written: the updated saved rows keep their IDs.
        let (again, sales2, ops2) = try Self.savedTeams(engine)
        guard case .objectIDs(let ids) = try again.batchInsert("Team", objects: Self.batch, resultType: .objectIDs, mergePolicy: c.policy) else {
            Issue.record("no IDs listed"); return
        }
        #expect(ids.count == c.count)
        #expect(ids.contains(sales2) == (c.policy == .mergeByPropertyObjectTrump))
        #expect(ids.contains(ops2) == (c.policy == .mergeByPropertyObjectTrump))
        #expect(try Self.rows(again) == expected)
        #expect(sales == sales2 && ops == ops2, "both stores were filled alike")
    }

    /// The same three inserts as objects of a context saved under the same
    /// policy: the same rows, apart from versions where a save fails.
    @Test(arguments: arguments)
    func aContextSaveUnderTheSamePolicyLeavesTheSameRows(engine: TestEngine, c: Case) throws {
        let (store, _, _) = try Self.savedTeams(engine)
        let context = Context(store: store)
        context.mergePolicy = c.policy
        for values in Self.batch {
            let team = try context.insert("Team")
            for (key, value) in values { try team.setValue(value, forKey: key) }
        }
        do {
            try context.save()
            #expect(c.rows != nil, "the save merged where the batch fails")
        } catch is ValidationError {
            #expect(c.rows == nil, "the save failed where the batch merges")
        }
        #expect(try Self.rows(store) == c.rows ?? Self.unchanged)
    }

    @Test(arguments: TestEngine.available)
    func rowsOfOneBatchCollidingWithEachOtherMergeInOrder(engine: TestEngine) throws {
        let store = try engine.emptyStore(model: Self.model)
        // Within one multi-row statement on PostgreSQL (500 rows a statement).
        let rows: [[String: Value]] = [["name": "A", "budget": 1], ["name": "B", "budget": 2], ["name": "A", "budget": 3, "code": "x"]]
        #expect(try store.batchInsert("Team", objects: rows, mergePolicy: .mergeByPropertyObjectTrump) == .count(3))
        #expect(try Self.rows(store) == [["A", 3, "x", 2], ["B", 2, .null, 1]])
        #expect(try store.batchInsert("Team", objects: rows, mergePolicy: .mergeByPropertyStoreTrump) == .count(0))
        #expect(try Self.rows(store) == [["A", 3, "x", 2], ["B", 2, .null, 1]])
    }

    @Test(arguments: TestEngine.available)
    func anUpsertIsRecordedAsInsertsAndUpdates(engine: TestEngine) throws {
        let (store, sales, ops) = try Self.savedTeams(engine)
        try store.setHistoryTracking(true)
        try store.batchInsert("Team", objects: Self.batch, mergePolicy: .mergeByPropertyObjectTrump)
        let history = try store.history()
        #expect(history.map(\.kind) == [.batchInsert])
        let changes = history.flatMap(\.changes)
        let updated = changes.filter { $0.type == .update }
        #expect(Set(updated.map(\.objectID)) == [sales, ops])
        #expect(updated.allSatisfy { Set($0.changedKeys) == ["name", "budget", "code"] })
        let inserted = changes.filter { $0.type == .insert }.map(\.objectID)
        #expect(inserted.count == 1 && !inserted.contains(sales) && !inserted.contains(ops))
    }

    @Test(arguments: TestEngine.available)
    func aContextHoldingAnUpdatedRowReadsItsNewValues(engine: TestEngine) throws {
        let (store, sales, _) = try Self.savedTeams(engine)
        let context = Context(store: store)
        let team = context.object(with: sales)
        #expect(team["budget"] == .int(10))
        let result = try context.batchInsert("Team", objects: Self.batch, mergePolicy: .mergeByPropertyObjectTrump)
        guard case .objectIDs(let ids) = result else { Issue.record("no IDs"); return }
        #expect(ids.count == 3 && ids.contains(sales))
        #expect(team["budget"] == .int(99) && team["code"] == .string("N"))
        // Its next save is no conflict: the merge took the new version.
        try team.setValue(1, forKey: "budget")
        try context.save()
        #expect(try store.database.rows(#"SELECT "budget", "_version" FROM "Team" WHERE "name" = 'Sales'"#, as: [.int, .int]) == [[.int(1), .int(3)]])
    }

    /// Models a single statement cannot merge exactly, and why.
    static let refusals: [(yaml: String, entity: String, reason: String)] = [
        ("""
        entities:
          Team:
            attributes: { name: string, code: string }
            unique: [[name], [code]]
        """, "Team", "2 uniqueness constraints"),
        ("""
        entities:
          Group: { attributes: { name: string } }
          Team:
            attributes: { name: string }
            relationships: { group: { to: Group } }
            unique: [[name, group]]
        """, "Team", "the relationship 'group'"),
        ("""
        entities:
          Person:
            attributes: { name: { type: string, unique: true } }
          Manager:
            parent: Person
            attributes: { level: integer16 }
        """, "Manager", "also holds Person"),
    ]

    @Test(arguments: TestEngine.available.flatMap { e in refusals.indices.map { (e, $0) } })
    func whatOneStatementCannotMergeIsRefusedBeforeAnyWrite(engine: TestEngine, index: Int) throws {
        let refusal = Self.refusals[index]
        let model = try ModelReader.read(yaml: refusal.yaml, file: "refusal.yaml")
        let store = try engine.emptyStore(model: model)
        for policy in [MergePolicy.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump] {
            let error = try #require(throws: StoreError.self) {
                try store.batchInsert(refusal.entity, objects: [["name": "a"]], mergePolicy: policy)
            }
            guard case .upsertRefused(let entity, let reason) = error else { Issue.record("\(error)"); continue }
            #expect(entity == refusal.entity)
            #expect(reason.contains(refusal.reason), "\(reason)")
            #expect(error.code == "A006")
            #expect(try store.count(FetchRequest(entity: refusal.entity)) == 0)
        }
        // A policy that fails on collision is a plain insert, as before.
        #expect(try store.batchInsert(refusal.entity, objects: [["name": "a"]]) == .count(1))
    }
}

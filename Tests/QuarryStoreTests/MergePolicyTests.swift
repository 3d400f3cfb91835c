// Optimistic locking and merge policies, on SQLite and PostgreSQL: the row
// version every write raises (context saves, batch updates on both paths,
// store links), the version column added to a store that lacks it, and what
// each merge policy makes of a row changed (or deleted) in the store between
// a context's read and its save — the store's row and the context's object
// afterwards, as Core Data's NSMergePolicy types define them.
import Foundation
import QuarryPostgres
import QuarryPostgresTestSupport
import QuarryStressWriting
import Testing
@testable import QuarryStore

@Suite("Merge policies and row versions")
struct MergePolicyTests {
    /// The counters model the stress writers write too (QuarryStressWriting).
    static let yaml = CounterWriter.yaml
    static let model = CounterWriter.model

    /// A store with one counter: value 1, note "orig", label "orig".
    static func seeded(_ engine: TestEngine) throws -> (SQLStore, ObjectID) {
        let store = try engine.emptyStore(model: model)
        let id = try store.insert("Counter", ["name": "c", "value": 1, "note": "orig", "label": "orig"])
        return (store, id)
    }

    static func row(_ store: SQLStore, _ id: ObjectID) throws -> (value: Int64, note: String, label: String, version: Int64)? {
        let rows = try store.database.rows(#"SELECT "value", "note", "label", "_version" FROM "Counter" WHERE "_pk" = ?"#,
                                           [.int(id.primaryKey)], as: [.int, .string, .string, .int])
        guard let r = rows.first, case .int(let v) = r[0], case .string(let n) = r[1], case .string(let l) = r[2], case .int(let ver) = r[3] else { return nil }
        return (v, n, l, ver)
    }

    static func value(_ store: SQLStore, _ id: ObjectID) throws -> Int64? {
        let rows = try store.database.rows(#"SELECT "value" FROM "Counter" WHERE "_pk" = ?"#, [.int(id.primaryKey)], as: [.int])
        if case .int(let v)? = rows.first?.first { return v }
        return nil
    }

    static func version(_ store: SQLStore, _ table: String, _ id: ObjectID) throws -> Int64? {
        let rows = try store.database.rows("SELECT \"_version\" FROM \"\(table)\" WHERE \"_pk\" = ?", [.int(id.primaryKey)], as: [.int])
        if case .int(let v)? = rows.first?.first { return v }
        return nil
    }

    // MARK: versions

    @Test(arguments: TestEngine.available)
    func everyWriteRaisesTheVersion(engine: TestEngine) throws {
        let (store, id) = try Self.seeded(engine)
        #expect(try Self.version(store, "Counter", id) == 1)
        let context = Context(store: store)
        try context.object(with: id).setValue(5, forKey: "value")
        try context.save()
        #expect(try Self.version(store, "Counter", id) == 2)
        // Batch update, in one SQL UPDATE and object by object.
        try store.batchUpdate(entity: "Counter", predicate: nil, set: [("value", try Parser.parseExpression("value + 1"))])
        #expect(try Self.version(store, "Counter", id) == 3)
        try store.batchUpdate(entity: "Counter", predicate: nil, set: [("note", try Parser.parseExpression("uppercase:(note)"))])
        #expect(try Self.version(store, "Counter", id) == 4)
        // A store-level link that writes the counter's row.
        let owner = try store.insert("Owner", ["name": "o"])
        try store.link(owner, "counters", id)
        #expect(try Self.version(store, "Counter", id) == 5)
        #expect(try Self.version(store, "Owner", owner) == 1)
        // A relationship change through a context raises both objects once per save.
        let second = Context(store: store)
        let counter = second.object(with: id)
        try counter.setValue(.null, forKey: "owner")
        try second.save()
        #expect(try Self.version(store, "Counter", id) == 6)
        #expect(try Self.version(store, "Owner", owner) == 2)
        // The context knows the version it wrote: its next save is no conflict.
        try counter.setValue(9, forKey: "value")
        try second.save()
        #expect(try Self.row(store, id)?.version == 7)
    }

    @Test(arguments: TestEngine.available)
    func aStoreWithoutVersionsGetsThemAtOpen(engine: TestEngine) throws {
        let (store, id) = try Self.seeded(engine)
        try store.database.run(#"ALTER TABLE "Counter" DROP COLUMN "_version""#, [])
        let reopened = try SQLStore(database: store.database, model: Self.model)
        #expect(try Self.version(reopened, "Counter", id) == 1)
        let context = Context(store: reopened)
        try context.object(with: id).setValue(2, forKey: "value")
        try context.save()
        #expect(try Self.version(reopened, "Counter", id) == 2)
    }

    /// A migration that rebuilds the table on SQLite (integer → double
    /// changes the column's type) keeps each row's version, on a store made
    /// before versions too.
    @Test(arguments: TestEngine.available, [false, true])
    func migrationKeepsTheVersions(engine: TestEngine, fromAStoreWithoutVersions: Bool) throws {
        let v1 = try ModelReader.read(yaml: "entities:\n  Counter:\n    attributes:\n      name: { type: string }\n      value: { type: integer32 }\n", file: "v1.yaml")
        let v2 = try ModelReader.read(yaml: "entities:\n  Counter:\n    attributes:\n      name: { type: string }\n      value: { type: double }\n", file: "v2.yaml")
        let store = try engine.emptyStore(model: v1)
        let id = try store.insert("Counter", ["name": "c", "value": 1])
        if fromAStoreWithoutVersions {
            try store.database.run(#"ALTER TABLE "Counter" DROP COLUMN "_version""#, [])
        } else {
            try store.batchUpdate(entity: "Counter", predicate: nil, set: [("value", try Parser.parseExpression("value + 1"))])
            try store.batchUpdate(entity: "Counter", predicate: nil, set: [("value", try Parser.parseExpression("value + 1"))])
        }
        let migrated = try SQLStore(database: store.database, model: v2, migration: .automatic)
        #expect(try Self.version(migrated, "Counter", id) == (fromAStoreWithoutVersions ? 1 : 3))
        let context = Context(store: migrated)
        try context.object(with: id).setValue(2.5, forKey: "value")
        try context.save()
        #expect(try Self.version(migrated, "Counter", id) == (fromAStoreWithoutVersions ? 2 : 4))
    }

    @Test(arguments: TestEngine.available)
    func storeObjectsDoNotShowTheVersionAsAValue(engine: TestEngine) throws {
        let (store, id) = try Self.seeded(engine)
        let object = try #require(try store.fetch(FetchRequest(entity: "Counter")).first)
        #expect(object.id == id)
        #expect(object.values[StoreMapping.versionColumn] == nil)
        #expect(!object.description.contains(StoreMapping.versionColumn))
        #expect(object.value(forKey: StoreMapping.versionColumn) == .int(1))
    }

    // MARK: policies

    /// The row after: the context read (1, orig, orig), another context
    /// saved value 10 and note "store", then the context saved value 2 and
    /// label "mine" under `policy`.
    struct PolicyCase: Sendable, CustomTestStringConvertible {
        let policy: MergePolicy
        let value: Int64, note: String, label: String
        let throwsConflict: Bool
        var testDescription: String { policy.rawValue }
    }

    static let policyCases: [PolicyCase] = [
        PolicyCase(policy: .error, value: 10, note: "store", label: "orig", throwsConflict: true),
        PolicyCase(policy: .rollback, value: 10, note: "store", label: "orig", throwsConflict: false),
        PolicyCase(policy: .overwrite, value: 2, note: "orig", label: "mine", throwsConflict: false),
        PolicyCase(policy: .mergeByPropertyObjectTrump, value: 2, note: "store", label: "mine", throwsConflict: false),
        PolicyCase(policy: .mergeByPropertyStoreTrump, value: 10, note: "store", label: "mine", throwsConflict: false),
    ]

    static var policyArguments: [(TestEngine, PolicyCase)] {
        TestEngine.available.flatMap { e in policyCases.map { (e, $0) } }
    }

    @Test(arguments: policyArguments)
    func aConflictingSaveFollowsThePolicy(engine: TestEngine, c: PolicyCase) throws {
        let (store, id) = try Self.seeded(engine)
        let mine = Context(store: store)
        mine.mergePolicy = c.policy
        let object = mine.object(with: id)
        #expect(object["value"] == .int(1))   // read: version 1

        let theirs = Context(store: store)
        try theirs.object(with: id).setValue(10, forKey: "value")
        try theirs.object(with: id).setValue("store", forKey: "note")
        try theirs.save()

        try object.setValue(2, forKey: "value")
        try object.setValue("mine", forKey: "label")
        if c.throwsConflict {
            let error = try #require(throws: MergeConflictError.self) { try mine.save() }
            #expect(error.report.code == "R008")
            let conflict = try #require(error.conflicts.first)
            #expect(error.conflicts.count == 1)
            #expect(conflict.objectID == id)
            #expect(conflict.readVersion == 1 && conflict.storeVersion == 2)
            let keys = Dictionary(uniqueKeysWithValues: conflict.keys.map { ($0.key, $0) })
            #expect(keys["value"] == MergeConflict.Key(key: "value", read: .int(1), store: .int(10), new: .int(2)))
            #expect(keys["note"] == MergeConflict.Key(key: "note", read: "orig", store: "store", new: nil))
            #expect(keys["label"] == MergeConflict.Key(key: "label", read: "orig", store: "orig", new: "mine"))
            #expect(keys["name"] == nil)
            // Nothing written, the context's edits kept.
            #expect(mine.hasChanges)
            #expect(object["label"] == "mine")
        } else {
            try mine.save()
        }
        let row = try #require(try Self.row(store, id))
        #expect((row.value, row.note, row.label) == (c.value, c.note, c.label))
        #expect(row.version == (c.policy == .error || c.policy == .rollback ? 2 : 3))
        guard !c.throwsConflict else { return }
        // The context's object holds what the store holds, and its next save is no conflict.
        #expect(!mine.hasChanges)
        #expect(object["value"] == .int(c.value) && object["note"] == .string(c.note) && object["label"] == .string(c.label))
        try object.setValue("again", forKey: "label")
        try mine.save()
        #expect(try Self.row(store, id)?.label == "again")
    }

    @Test(arguments: policyArguments)
    func aRowDeletedInTheStore(engine: TestEngine, c: PolicyCase) throws {
        let (store, id) = try Self.seeded(engine)
        let mine = Context(store: store)
        mine.mergePolicy = c.policy
        let object = mine.object(with: id)
        #expect(object["value"] == .int(1))
        let theirs = Context(store: store)
        try theirs.delete(theirs.object(with: id))
        try theirs.save()

        try object.setValue(2, forKey: "value")
        if c.policy == .error {
            let error = try #require(throws: MergeConflictError.self) { try mine.save() }
            #expect(error.conflicts.map(\.deletedInStore) == [true])
            #expect(error.conflicts.first?.keys.map(\.key) == ["value"])
            #expect(object.context === mine)
        } else {
            // The store's delete wins: nothing comes back, the object leaves the context.
            try mine.save()
            #expect(object.context == nil)
            #expect(!mine.hasChanges)
        }
        #expect(try Self.row(store, id) == nil)
    }

    @Test(arguments: TestEngine.available)
    func deletingARowChangedInTheStore(engine: TestEngine) throws {
        for policy in MergePolicy.allCases {
            let (store, id) = try Self.seeded(engine)
            let mine = Context(store: store)
            mine.mergePolicy = policy
            let object = mine.object(with: id)
            #expect(object["value"] == .int(1))
            let theirs = Context(store: store)
            try theirs.object(with: id).setValue(10, forKey: "value")
            try theirs.save()
            try mine.delete(object)
            if policy == .error {
                let error = try #require(throws: MergeConflictError.self) { try mine.save() }
                #expect(error.conflicts.first?.objectDeleted == true)
            } else {
                try mine.save()
            }
            // Error and rollback keep the row (rollback discards the delete); the others delete it.
            let kept = policy == .error || policy == .rollback
            #expect(try (Self.row(store, id) != nil) == kept, "\(policy)")
            if policy == .rollback { #expect(!object.isDeleted && object["value"] == .int(10)) }
        }
    }

    @Test(arguments: TestEngine.available)
    func aConflictErrorListsEveryConflictAndWritesNothing(engine: TestEngine) throws {
        let store = try engine.emptyStore(model: Self.model)
        let ids = try (0..<3).map { try store.insert("Counter", ["name": .string("c\($0)"), "value": 0]) }
        let mine = Context(store: store)
        let objects = ids.map { mine.object(with: $0) }
        for o in objects { _ = o["value"] }
        // Two of the three change in the store.
        try store.batchUpdate(entity: "Counter", predicate: try Parser.parsePredicate("name != 'c1'"), set: [("value", try Parser.parseExpression("7"))])
        for o in objects { try o.setValue(1, forKey: "value") }
        let inserted = try mine.insert("Counter")
        try inserted.setValue("new", forKey: "name")
        let error = try #require(throws: MergeConflictError.self) { try mine.save() }
        #expect(Set(error.conflicts.map(\.objectID)) == [ids[0], ids[2]])
        // The unconflicted update and the insert were not written either.
        #expect(try Self.value(store, ids[1]) == 0)
        #expect(try store.count(FetchRequest(entity: "Counter")) == 3)
        // Refreshed, the context saves.
        for o in [objects[0], objects[2]] { mine.refresh(o, mergeChanges: true) }
        try mine.save()
        #expect(try ids.map { try Self.value(store, $0) } == [1, 1, 1])
    }
}

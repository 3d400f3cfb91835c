// Z_OPT in a Core Data store opened writable: Core Data raises a row's Z_OPT
// on every change to the row, so Quarry's writes that change a row without
// claiming it — a delete rule clearing a key in a row the context never
// loaded, an ordered to-many's positions rewritten in members not otherwise
// changed — raise it too, once per transaction (CoreDataViews+Touched.swift,
// CoreDataDatabase+Versions.swift). Each case runs on a fresh copy of the
// hand-made store (SyntheticStoreTests) and reads Z_OPT straight from the
// file with plain SQL: a save's claim +1 exactly, bookkeeping +1, a row
// both claimed and touched +1 (not +2) whichever comes first, a save run
// twice (its folded claim missed) each row once, a rolled-back save nothing, a batch
// update +1, a manual BEGIN … COMMIT like the shell's the same as a save.
// And the context that saved follows the versions it caused: a loaded,
// unchanged member of a reordered relationship saves again without a
// (false) conflict.
import Foundation
@testable import QuarryCoreData
import QuarryModel
import QuarrySQLite
import QuarryStore
import QuarrySyntax
import Testing

@Suite("Z_OPT of a writable Core Data store", .serialized)
struct CoreDataZOPTTests {
    /// The store's rows: Ann (1) and Bob (2) are Persons on Acme's (3)
    /// ordered staff, Bob first; Ann's friend is Bob (no inverse). Every Z_OPT is 1.
    struct Case: CustomStringConvertible, Sendable {
        let description: String
        /// Z_PK in ZPARTY → Z_OPT afterwards (nil: the row is gone).
        let expected: [Int64: Int64?]
        let work: @Sendable (SQLStore, Context) throws -> Void
    }

    static func person(_ context: Context, _ name: String) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entity: "Person", predicate: try Parser.parsePredicate("name == '\(name)'"))).first)
    }

    static func acme(_ context: Context) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entity: "Company")).first)
    }

    static let cases: [Case] = [
        Case(description: "attribute save: +1 exactly", expected: [1: 2, 2: 1, 3: 1]) { _, context in
            try person(context, "Ann").setValue(.string("Anne"), forKey: "name")
            try context.save()
        },
        Case(description: "delete rule clears the key of a row never loaded: +1", expected: [1: 2, 2: nil, 3: 2]) { _, context in
            // Bob goes; Ann's friend (no inverse) is cleared by the save's
            // cleanup, and her position rewritten in Acme's staff: once.
            try context.delete(try person(context, "Bob"))
            try context.save()
        },
        // Bob (1024) then Ann (2048) become Ann, Bob: written as Core Data
        // spaces them (2048, 3072), so Ann's row keeps its value and is not
        // changed at all; Bob's moves.
        Case(description: "order rewrite: a member whose position changed +1, one whose value stayed unchanged, the owner +1", expected: [1: 1, 2: 2, 3: 2]) { _, context in
            try acme(context).move(from: 0, to: 1, in: "staff")
            try context.save()
        },
        Case(description: "claimed row also reordered: +1, not +2", expected: [1: 2, 2: 2, 3: 2]) { _, context in
            try person(context, "Ann").setValue(.string("Anne"), forKey: "name")
            try acme(context).move(from: 0, to: 1, in: "staff")
            try context.save()
        },
        Case(description: "claimed row also cleared by a delete rule first: +1, not +2", expected: [1: 2, 2: nil, 3: 2]) { _, context in
            try person(context, "Ann").setValue(.string("Anne"), forKey: "name")
            try context.delete(try person(context, "Bob"))
            try context.save()
        },
        Case(description: "claimed first (a relationship changed), then reordered: +1, not +2", expected: [1: 2, 2: 2, 3: 2]) { _, context in
            // Ann's claim is a statement of its own, before the order rewrite and her key's UPDATE.
            let acme = try acme(context)
            try person(context, "Ann").setValue(acme, forKey: "friend")
            try acme.move(from: 0, to: 1, in: "staff")
            try context.save()
        },
        Case(description: "save run twice (a folded claim missed after the cleanup; the policy merges): each row once", expected: [1: 3, 2: nil, 3: 2]) { store, context in
            let ann = try person(context, "Ann")
            let bob = try person(context, "Bob")
            _ = try store.batchUpdate(entity: "Person", predicate: try Parser.parsePredicate("name == 'Ann'"), set: [("score", try Parser.parseExpression("7"))])
            context.mergePolicy = .mergeByPropertyObjectTrump
            try ann.setValue(.string("Anne"), forKey: "name")
            try context.delete(bob)
            try context.save()
            // Ann: 1, the batch 2, the save 3 — the first run's notes went with its rollback.
        },
        Case(description: "rolled-back save: unchanged", expected: [1: 1, 2: 1, 3: 1]) { store, context in
            try acme(context).move(from: 0, to: 1, in: "staff")
            struct Abandon: Error {}
            #expect(throws: Abandon.self) {
                try store.database.inTransaction {
                    try context.save()
                    throw Abandon()
                }
            }
        },
        Case(description: "save rolled back by a conflict after its cleanup: only the other writer's +1", expected: [1: 2, 2: 1, 3: 1]) { store, context in
            // Ann's claim is folded into her UPDATE, which runs after Bob's
            // cleanup wrote her row: it misses, the save reruns, the conflict throws.
            let ann = try person(context, "Ann")
            let bob = try person(context, "Bob")
            _ = try store.batchUpdate(entity: "Person", predicate: try Parser.parsePredicate("name == 'Ann'"), set: [("score", try Parser.parseExpression("7"))])
            try ann.setValue(.string("Anne"), forKey: "name")
            try context.delete(bob)
            #expect(throws: (any Error).self) { try context.save() }
        },
        Case(description: "batch update: +1", expected: [1: 2, 2: 1, 3: 1]) { store, _ in
            _ = try store.batchUpdate(entity: "Person", predicate: try Parser.parsePredicate("name == 'Ann'"), set: [("score", try Parser.parseExpression("9"))])
        },
        Case(description: "store insert placed last in an ordered to-many: the new row 1, others unchanged", expected: [1: 1, 2: 1, 3: 1, 4: 1]) { store, _ in
            _ = try store.insert("Person", ["name": .string("Dee")], toOne: ["employer": ObjectID(entity: "Company", primaryKey: 3)])
        },
        Case(description: "manual BEGIN … COMMIT (the shell's): raised at the COMMIT", expected: [1: 1, 2: 2, 3: 2]) { store, context in
            try store.database.run("BEGIN IMMEDIATE")
            try acme(context).move(from: 0, to: 1, in: "staff")
            try context.save()
            try store.database.run("COMMIT")
        },
        Case(description: "manual BEGIN … ROLLBACK: unchanged, and nothing left over for the next commit", expected: [1: 1, 2: 1, 3: 2]) { store, context in
            try store.database.run("BEGIN IMMEDIATE")
            try acme(context).move(from: 0, to: 1, in: "staff")
            try context.save()
            try store.database.run("ROLLBACK")
            // A store write of Acme alone afterwards: only Acme moves.
            _ = try store.batchUpdate(entity: "Company", predicate: nil, set: [("founded", try Parser.parseExpression("2000"))])
        },
    ]

    @Test(arguments: cases)
    func zOPT(_ c: Case) throws {
        let scratch = Scratch()
        let path = try SyntheticStoreTests.make(in: scratch, checkpointed: true)
        let store = try SQLStore(coreDataStore: path, model: SyntheticStoreTests.model, writable: true)
        let context = Context(store: store)
        try c.work(store, context)
        #expect(!store.database.isInTransaction, "\(c): a transaction was left open")
        store.database.close()
        let z = try CoreDataWritableTests.Z(path)
        defer { z.c.close() }
        for (key, opt) in c.expected.sorted(by: { $0.key < $1.key }) {
            #expect(try z.int("SELECT Z_OPT FROM ZPARTY WHERE Z_PK = ?", [.int(key)]) == opt, "\(c): Z_PK \(key)")
        }
        #expect(try z.value("PRAGMA integrity_check") == .string("ok"))
        #expect(try z.int("SELECT count(*) FROM sqlite_master WHERE name LIKE 'quarry%'") == 0, "nothing of Quarry's in the file")
    }

    /// A reorder raises the Z_OPT of loaded, unchanged members; the context
    /// that saved follows, so editing such a member and saving again
    /// succeeds (no conflict with its own earlier save) and raises once more.
    @Test func noFalseConflictAfterAReorder() throws {
        let scratch = Scratch()
        let path = try SyntheticStoreTests.make(in: scratch, checkpointed: true)
        let store = try SQLStore(coreDataStore: path, model: SyntheticStoreTests.model, writable: true)
        let context = Context(store: store)
        let acme = try Self.acme(context)
        let staff = acme.objects(forKey: "staff")
        #expect(CoreDataWritableTests.names(staff) == ["Bob", "Ann"], "members loaded, Bob first")
        try acme.move(from: 0, to: 1, in: "staff")
        try context.save()
        // Ann's position value stayed 2048 (not raised); Bob's moved 1024 → 3072 (raised).
        let ann = try #require(staff.first { $0.objectID.primaryKey == 1 })
        try ann.setValue(.string("Anne"), forKey: "name")
        try context.save()
        // Bob, raised by the reorder, through the batched claims of a save with two objects.
        let bob = try #require(staff.first { $0.objectID.primaryKey == 2 })
        try bob.setValue(.string("Robert"), forKey: "name")
        try acme.setValue(.string("Acme Ltd"), forKey: "name")
        try context.save()
        store.database.close()
        let z = try CoreDataWritableTests.Z(path)
        defer { z.c.close() }
        #expect(try z.rows("SELECT Z_PK, Z_OPT, ZNAME FROM ZPARTY ORDER BY Z_PK")
                == [[.int(1), .int(2), .string("Anne")], [.int(2), .int(3), .string("Robert")], [.int(3), .int(3), .string("Acme Ltd")]])
    }
}

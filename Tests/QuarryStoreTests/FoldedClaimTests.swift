// Row claims folded into the UPDATEs that write the rows
// (ContextWriter+Versions.swift): a save whose objects changed only columns
// of their own rows writes each row once — held to the version the context
// read and raising it — instead of claiming it with one UPDATE and writing
// it with another. What must not change: a row changed or deleted in the
// store since it was read is still a conflict that the merge policy
// resolves before anything is written, wherever it falls in a batch of the
// bulk save (the first row, the middle of a 48-row batch, the rows left
// over after the last full batch).
import Foundation
import Testing
@testable import QuarryStore

@Suite("Row claims folded into the save's UPDATEs")
struct FoldedClaimTests {
    static let yaml = """
    entities:
      Item:
        attributes:
          n: { type: integer64 }
          label: { type: string, optional: true }
    """
    static let model = try! ModelReader.read(yaml: yaml, file: "items.yaml")
    static let count = 120   // two full batches of 48 on SQLite, and 24 left over

    static func seeded(_ engine: TestEngine) throws -> (SQLStore, [ObjectID]) {
        let store = try engine.emptyStore(model: model)
        var ids: [ObjectID] = []
        for i in 0..<count { ids.append(try store.insert("Item", ["n": .int(Int64(i)), "label": "orig"])) }
        return (store, ids)
    }

    static func rows(_ store: SQLStore) throws -> [Int64: (n: Int64, label: String, version: Int64)] {
        var result: [Int64: (Int64, String, Int64)] = [:]
        for r in try store.database.rows(#"SELECT "_pk", "n", "label", "_version" FROM "Item""#, as: [.int, .int, .string, .int]) {
            guard case .int(let pk) = r[0], case .int(let n) = r[1], case .string(let l) = r[2], case .int(let v) = r[3] else { continue }
            result[pk] = (n, l, v)
        }
        return result
    }

    /// How the bulk edit changes each object: one attribute (the batched
    /// one-column UPDATEs) or two (the one-row UPDATE of several columns).
    enum Edit: String, CaseIterable, CustomTestStringConvertible {
        case oneColumn, twoColumns
        var testDescription: String { rawValue }
        func apply(_ object: ManagedObject) throws {
            guard case .int(let n)? = object["n"] else { return }
            try object.setValue(.int(n + 1000), forKey: "n")
            if self == .twoColumns { try object.setValue("mine", forKey: "label") }
        }
        func expectedLabel(_ written: Bool) -> String { written && self == .twoColumns ? "mine" : "orig" }
    }

    @Test(arguments: TestEngine.available, Edit.allCases)
    func aBulkSaveWritesEachRowOnceAndRaisesItsVersionByOne(engine: TestEngine, edit: Edit) throws {
        let (store, ids) = try Self.seeded(engine)
        let context = Context(store: store)
        let objects = try context.fetch(FetchRequest(entity: "Item", sortDescriptors: [QuerySortDescriptor("n")]))
        #expect(objects.count == Self.count)
        for o in objects { try edit.apply(o) }
        let before = store.database.changeCounter
        try context.save()
        if engine == .sqlite {
            // SQLite counts every row changed: one write per row (claiming
            // first, as before the fold, changed each row twice).
            #expect(store.database.changeCounter - before == Self.count)
        }
        let rows = try Self.rows(store)
        for (i, id) in ids.enumerated() {
            let row = try #require(rows[id.primaryKey])
            #expect(row.n == Int64(i) + 1000 && row.label == edit.expectedLabel(true) && row.version == 2)
        }
        // The objects know their new versions: a second bulk edit is no conflict.
        for o in objects { try edit.apply(o) }
        try context.save()
        #expect(try Self.rows(store).values.allSatisfy { $0.version == 3 })
    }

    /// Where, in the save's order, the row changed by another writer falls.
    static let positions = [0, 47, 60, Self.count - 1]

    @Test(arguments: TestEngine.available, Edit.allCases)
    func aRowChangedInTheStoreIsAConflictWhereverItFalls(engine: TestEngine, edit: Edit) throws {
        for position in Self.positions {
            for policy in [MergePolicy.error, .rollback, .overwrite] {
                let (store, ids) = try Self.seeded(engine)
                let context = Context(store: store)
                context.mergePolicy = policy
                let objects = try context.fetch(FetchRequest(entity: "Item", sortDescriptors: [QuerySortDescriptor("n")]))
                for o in objects { try edit.apply(o) }
                // Another writer changes one row after the read.
                let theirs = ids[position]
                try store.database.run(#"UPDATE "Item" SET "n" = -1, "_version" = "_version" + 1 WHERE "_pk" = ?"#, [.int(theirs.primaryKey)])
                let label = "\(engine) \(edit) row \(position) \(policy)"
                if policy == .error {
                    let error = try #require(throws: MergeConflictError.self, "\(label)") { try context.save() }
                    #expect(error.conflicts.map(\.objectID) == [theirs], "\(label)")
                    #expect(error.conflicts.first?.readVersion == 1 && error.conflicts.first?.storeVersion == 2, "\(label)")
                    // Nothing written; the context keeps its edits.
                    let rows = try Self.rows(store)
                    for (i, id) in ids.enumerated() where id != theirs {
                        #expect(rows[id.primaryKey]?.n == Int64(i) && rows[id.primaryKey]?.version == 1, "\(label)")
                    }
                    #expect(context.hasChanges, "\(label)")
                    continue
                }
                try context.save()
                let rows = try Self.rows(store)
                for (i, id) in ids.enumerated() {
                    let row = try #require(rows[id.primaryKey])
                    if id == theirs && policy == .rollback {
                        // The store's change wins; the object is refreshed to it.
                        #expect(row.n == -1 && row.label == "orig" && row.version == 2, "\(label)")
                        #expect(context.object(with: id)["n"] == .int(-1), "\(label)")
                    } else {
                        // Written over the row, its version raised once more.
                        #expect(row.n == Int64(i) + 1000 && row.label == edit.expectedLabel(true), "\(label)")
                        #expect(row.version == (id == theirs ? 3 : 2), "\(label)")
                    }
                }
                #expect(!context.hasChanges, "\(label)")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func aRowDeletedInTheStoreIsAConflictOrStaysDeleted(engine: TestEngine) throws {
        for policy in [MergePolicy.error, .overwrite] {
            let (store, ids) = try Self.seeded(engine)
            let context = Context(store: store)
            context.mergePolicy = policy
            let objects = try context.fetch(FetchRequest(entity: "Item", sortDescriptors: [QuerySortDescriptor("n")]))
            for o in objects { try Edit.oneColumn.apply(o) }
            let gone = ids[50]
            try store.database.run(#"DELETE FROM "Item" WHERE "_pk" = ?"#, [.int(gone.primaryKey)])
            if policy == .error {
                let error = try #require(throws: MergeConflictError.self) { try context.save() }
                #expect(error.conflicts.map(\.objectID) == [gone] && error.conflicts.first?.deletedInStore == true)
                #expect(try Self.rows(store).values.allSatisfy { $0.version == 1 })
                continue
            }
            try context.save()
            let rows = try Self.rows(store)
            #expect(rows.count == Self.count - 1 && rows[gone.primaryKey] == nil)
            #expect(rows.values.allSatisfy { $0.n >= 1000 && $0.version == 2 })
        }
    }
}

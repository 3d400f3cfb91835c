// A context and persistent history (SQLStore+History.swift): what a save
// notes in its history draft, and `merge(history:)`, which brings a context
// up to date with transactions read from the store — made by other
// contexts, other stores on the same file, other processes — through the
// same machinery as `merge(changes:)`: updated objects it holds are
// refreshed, deleted ones leave it, inserts reload the to-manys it has.
import Foundation

extension Context {
    /// Notes a save's objects in its history draft (inside its transaction,
    /// after every row is written). An insert a uniqueness merge turned into
    /// an update of the existing row is an update (under object trumps) or
    /// nothing (the store's row won: nothing was written).
    func recordSave(_ history: HistoryScope?, inserted: [ManagedObject], updated: [ManagedObject],
                    permanent: [ObjectID: ObjectID], merges: UniqueMerges) throws {
        guard let draft = history?.draft else { return }
        var stored: [String: [String: Bool]] = [:]
        func storedKeys(_ object: ManagedObject) -> [String] {
            var keys: [String] = []
            for (key, _) in object.changes {
                let entity = object.entity.name
                if let known = stored[entity]?[key] {
                    if known { keys.append(key) }
                    continue
                }
                var isStored = false
                switch object.entity.property(named: key, in: model) {
                case .attribute(let a)?: isStored = !a.isTransient
                case .relationship(let r)?: isStored = !r.isTransient
                default: isStored = false
                }
                stored[entity, default: [:]][key] = isStored
                if isStored { keys.append(key) }
            }
            return keys
        }
        for object in inserted {
            guard let id = permanent[object.objectID] else { continue }
            if !merges.isEmpty, merges.rows[ObjectIdentifier(object)] == id {
                if merges.policy == .mergeByPropertyObjectTrump { draft.note(id, .update, keys: storedKeys(object)) }
                continue
            }
            draft.note(id, .insert)
        }
        for object in updated {
            let keys = storedKeys(object)
            // Only transient values changed: nothing of the row was written.
            if !keys.isEmpty { draft.note(object.objectID, .update, keys: keys) }
        }
        try store.writeHistory(history)
    }

    /// Brings this context up to date with `history` (as read by
    /// `store.history(after:)`, oldest first): objects it holds that were
    /// updated are refreshed (unsaved edits stay on top), deleted ones
    /// leave it, inserted ones appear in fetches and relationships. Posts
    /// `.objectsDidChange`, as `merge(changes:)` does.
    ///
    /// ```swift
    /// var last: HistoryToken? = nil
    /// let transactions = try store.history(after: last)
    /// context.merge(history: transactions)
    /// last = transactions.last?.token ?? last
    /// ```
    public func merge(history: [HistoryTransaction]) {
        var changes = Self.changes(in: history)
        // An object inserted in these transactions that this context already
        // holds was read after the insert, and any later update is folded
        // into "inserted": refresh it as updated.
        let held = changes.inserted.filter { registry[$0] != nil }
        changes.inserted.subtract(held)
        changes.updated.formUnion(held)
        merge(changes: changes)
    }

    /// The net effect of `history` on each object: inserted (and maybe
    /// updated) is inserted; inserted then deleted is nothing; deleted then
    /// inserted again (an undone delete) is updated.
    public static func changes(in history: [HistoryTransaction]) -> ContextChanges {
        var changes = ContextChanges()
        for transaction in history {
            for change in transaction.changes {
                let id = change.objectID
                switch change.type {
                case .insert:
                    if changes.deleted.remove(id) != nil { changes.updated.insert(id) } else { changes.inserted.insert(id) }
                case .update:
                    if !changes.inserted.contains(id) { changes.updated.insert(id) }
                case .delete:
                    changes.updated.remove(id)
                    if changes.inserted.remove(id) == nil { changes.deleted.insert(id) }
                }
            }
        }
        return changes
    }

    /// Batch requests made through this context record its author and name.
    func withHistoryOrigin<T>(_ body: () throws -> T) rethrows -> T {
        try store.withHistoryOrigin(author: transactionAuthor, contextName: name, body)
    }
}

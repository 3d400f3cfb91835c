// Saving: pending deletes are propagated (Cascade, Nullify), every pending
// object is validated — all failures gathered, none written —, then the whole
// change set is written in ONE transaction: rows of inserted objects first
// — deletes (with the keys and join rows that pointed at the deleted rows),
// attribute updates, inserts (which turn temporary IDs into primary keys),
// then foreign keys and join-table rows. Nothing in the context changes
// until COMMIT has succeeded, so a failed save — validation or SQL — leaves
// both the file and the context's pending state as they were. That is also
// what lets the transaction run twice: when a row whose claim was folded
// into its UPDATE turns out changed by another writer, it is rolled back
// and run again with every row claimed first (Context+MergePolicy.swift).
//
// Core Data applies delete rules in `processPendingChanges`, which it runs at
// the end of each event; there is no event loop here, so `save()`, fetches
// and `undo()` run it, and so can the caller. Its effects join the most
// recent undo group, so undoing a delete also undoes its cascade.
import Foundation

extension Context {
    /// Applies delete rules to new deletes and announces the changes made
    /// since the last announcement (an `.objectsDidChange` event).
    public func processPendingChanges() throws {
        try undoGroupingForPropagation {
            while !unpropagatedDeletes.isEmpty {
                let object = unpropagatedDeletes.removeFirst()
                guard object.isDeleted, object.context === self else { continue }
                try propagateDelete(object)
            }
        }
        announceChanges()
    }

    private func propagateDelete(_ object: ManagedObject) throws {
        for r in object.entity.allRelationships(in: model) where !r.isTransient {
            let related: [ObjectID]
            switch try object.current(.relationship(r)) {
            case .toOne(let id?): related = [id]
            case .toMany(let ids): related = ids
            default: related = []
            }
            switch r.deleteRule {
            case .cascade:
                for id in related {
                    let target = self.object(with: id)
                    if !target.isDeleted { markDeleted(target) }
                }
            case .nullify:
                guard let inverse = inverse(of: r) else { continue }
                for id in related {
                    let target = self.object(with: id)
                    if !target.isDeleted { try detach(target, inverse, object) }
                }
            case .deny, .noAction:
                // Deny is a validation failure at save, when the objects
                // still related are known; No Action leaves dangling inverses.
                break
            }
        }
    }

    /// Writes every unsaved change to the store in one transaction.
    ///
    /// Throws ``ValidationError`` (listing every failing object and property)
    /// before anything is written, or the store's error; either way the store
    /// and the context's pending changes are left as they were.
    public func save() throws {
        if parent != nil { return try saveIntoParent() }   // Context+Parent+Saving.swift
        defer { store.finishExternalWrites() }   // ExternalBinaryStorage.swift
        try processPendingChanges()
        guard hasChanges else { return }
        try store.checkWritable()
        let (objects, updatesOnly) = Self.inInsertionOrder(pending.values)
        // The app's hooks first (they may correct values the model's rules then judge).
        let hooked = try runValidationHooks(objects)
        // Inserts colliding with saved rows on a uniqueness constraint may merge into them (Context+MergePolicy+Uniqueness.swift).
        let merges = UniqueMerges(policy: mergePolicy)
        let failures = mergeUniqueness(try Validator(context: self).validate(objects) + hooked, into: merges)
        if !failures.isEmpty { throw ValidationError(failures: failures) }

        // Everything below runs inside the transaction and only computes;
        // the context is changed after COMMIT.
        var inserted: [ManagedObject] = [], toUpdate: [ManagedObject] = [], toDelete: [ManagedObject] = [], dropped: [ManagedObject] = []
        if updatesOnly {
            // Updates only (a bulk edit): the list itself, not a copy built
            // by appending (and retaining) each object again.
            toUpdate = objects
        } else {
            for object in objects {
                switch (object.isInserted, object.isDeleted) {
                case (true, false): inserted.append(object)
                case (false, false): toUpdate.append(object)
                case (false, true): toDelete.append(object)
                case (true, true): dropped.append(object)
                }
            }
        }
        var updated = toUpdate, deleted = toDelete
        var permanent: [ObjectID: ObjectID] = [:]
        // An interrupt (Ctrl-C) asked for during the save rolls it back, even
        // one that fell between two statements (checked before COMMIT).
        if !store.database.isInTransaction { store.database.clearInterruptRequest() }
        // Versions the database raises at COMMIT are known only when this save's COMMIT is the outermost.
        let commits = !store.database.isInTransaction
        var derived: [RecomputedColumn] = []
        var locking = SaveLocking()
        // First with row claims folded into the rows' UPDATEs; if one of
        // those rows changed meanwhile, once more claiming first
        // (ContextWriter+Versions.swift). Uniqueness merges never fold.
        var foldsClaims = merges.isEmpty
        while true {
            updated = toUpdate
            deleted = toDelete
            permanent = [:]
            derived = []
            locking = SaveLocking()
            do { try store.database.inTransaction {
                // Deletes, then updates, then inserts: a UNIQUE value that this
                // save frees (by deleting or renaming a row) can be reused by a
                // new row. Relationships last, once every row has its key.
                let writer = ContextWriter(context: self)
                // Rows changed in the store since they were read: the merge policy decides (Context+MergePolicy.swift).
                try claimRows(updated: &updated, deleted: &deleted, writer: writer, into: locking, foldsClaims: foldsClaims)
                // Persistent history, written with the save's rows (Context+History.swift).
                let history = store.beginHistory(.save, author: transactionAuthor, contextName: name)
                defer { store.endHistory(history) }
                try store.noteDeletions(deleted.map(\.objectID), in: history?.draft)
                try writer.deleteRows(deleted)
                // Updated objects whose changes are not all attributes: only
                // they can have relationships to write.
                var linked: [ManagedObject] = []
                for object in updated where try writer.writeAttributes(object) { linked.append(object) }
                try writer.flushUpdates()
                for object in inserted { permanent[object.objectID] = try writeMerged(object, merges, writer: writer) ?? writer.insertRow(object) }
                for object in inserted where merges.writesRelationships(of: object) { try writer.writeRelationships(object, permanentIDs: permanent) }
                for object in linked { try writer.writeRelationships(object, permanentIDs: permanent) }
                derived = try recomputeDerived(inserted: inserted, updated: updated, deleted: deleted, permanent: permanent)   // Context+Derived.swift
                try recordSave(history, inserted: inserted, updated: updated, permanent: permanent, merges: merges)
                try store.checkInterrupt()
            } } catch is FoldedClaimMissed where foldsClaims {
                restore(locking)
                foldsClaims = false
                continue
            } catch {
                restore(locking)
                throw error
            }
            break
        }
        // Rows the save changed without claiming them (RaisedVersions.swift), read before anything else commits.
        let raised = commits ? store.database.takeRaisedVersions() : []
        try refreshDerived(derived, saved: inserted + updated, permanent: permanent)
        finishSave(inserted: inserted, updated: updated, deleted: deleted, permanent: permanent, dropped: dropped)
        finishLocking(locking, inserted: inserted)
        followRaisedVersions(raised)
        if !children.isEmpty, !permanent.isEmpty { passPermanentIDs(permanent) }   // Context+Parent.swift
        if !merges.isEmpty { finishUniqueMerges(merges) }
    }

    /// `insertionOrder` over many objects: the sort compares plain keys, not
    /// IDs (whose entity strings a comparison would retain and release).
    /// Objects edited in the order they were fetched are often in order
    /// already: that is checked first, in one pass — which also tells
    /// whether every object is an update (no insert, no delete), so that
    /// no second pass over them all is needed to find out.
    static func inInsertionOrder(_ all: [ManagedObject]) -> (objects: [ManagedObject], updatesOnly: Bool) {
        func key(_ object: ManagedObject) -> UInt64 {
            let pk = object.primaryKey
            return (pk < 0 ? 1 << 63 : 0) | pk.magnitude
        }
        var sorted = true
        var updatesOnly = true
        var previous: UInt64 = 0
        for object in all {
            if object.isInserted || object.isDeleted { updatesOnly = false }
            let k = key(object)
            if k < previous { sorted = false }
            previous = k
        }
        if sorted { return (all, updatesOnly) }
        var keys: [(key: UInt64, index: Int)] = []
        keys.reserveCapacity(all.count)
        for (i, object) in all.enumerated() { keys.append((key(object), i)) }
        keys.sort { $0.key != $1.key ? $0.key < $1.key : $0.index < $1.index }
        return (keys.map { all[$0.index] }, updatesOnly)
    }

    /// After COMMIT: permanent IDs, saved values, a clean context, the event.
    private func finishSave(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject],
                            permanent: [ObjectID: ObjectID], dropped: [ManagedObject]) {
        // Store-side cached rows are stale now; later store fetches read anew.
        store.registeredObjects.removeAll()
        forgetFetchedProperties()
        for object in inserted + dropped + deleted { registry[object.objectID] = nil }
        func remap(_ v: PropertyValue) -> PropertyValue {
            switch v {
            case .toOne(let id?): return .toOne(permanent[id] ?? id)
            case .toMany(let ids): return .toMany(ids.compactMap { id in
                permanent[id] ?? (registry[id] == nil && id.isTemporary ? nil : id) })
            default: return v
            }
        }
        for object in inserted {
            object.objectID = permanent[object.objectID]!
            registry[object.objectID] = object
        }
        let deletedIDs = Set(deleted.map(\.objectID))
        // Only inserts (new IDs), drops and deletes change what other objects
        // refer to; a save of updates alone leaves every reference as it is.
        if !permanent.isEmpty || !deletedIDs.isEmpty || !dropped.isEmpty {
            func fixed(_ v: PropertyValue, saved: Bool) -> PropertyValue? {
                var new = remap(v)
                // Saved relationships no longer list deleted objects.
                if saved, !deletedIDs.isEmpty {
                    if case .toMany(let ids) = new { new = .toMany(ids.filter { !deletedIDs.contains($0) }) }
                    if case .toOne(let id?) = new, deletedIDs.contains(id) { new = .toOne(nil) }
                }
                return new == v ? nil : new
            }
            for object in registry.values {
                // In place, and only where something changed: most objects refer to nothing affected.
                for (key, value) in object.committed {
                    if case .attribute = value { continue }
                    if let new = fixed(value, saved: true) { object.committed[key] = new }
                }
                for (key, value) in object.changes {
                    if case .attribute = value { continue }
                    if let new = fixed(value, saved: false) { object.changes[key] = new }
                }
            }
        }
        for object in inserted {
            for (key, value) in object.changes { object.committed[key] = value }
            object.changes.removeAll()
            // An inserted object has every value in hand.
            object.rowLoaded = true
            object.isInserted = false
        }
        for object in updated {
            // It may still be a fault (only a relationship of it changed).
            if let (key, value) = object.changes.takeSingle() {
                object.committed[key] = value
                continue
            }
            for (key, value) in object.changes { object.committed[key] = value }
            object.changes.removeAll()
        }
        for object in deleted + dropped {
            object.context = nil
        }
        undoState.remap(permanent)
        pending.removeAll()
        unannounced = ContextChanges()
        _ = unannouncedUpdates.take()
        // The event's sets of IDs are built only for someone to receive them.
        guard !observers.isEmpty else { return }
        var changes = ContextChanges(deleted: deletedIDs, permanentIDs: permanent)
        changes.inserted.reserveCapacity(inserted.count)
        for object in inserted { changes.inserted.insert(object.objectID) }
        changes.updated.reserveCapacity(updated.count)
        for object in updated { changes.updated.insert(object.objectID) }
        post(.didSave(changes))
    }
}

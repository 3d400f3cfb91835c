// A child context's save: its changes become its parent's own pending
// changes — nothing reaches the store (Core Data commits "one store up").
//
// The steps, as for a save to the store: delete rules are applied in the
// child, its objects are validated — the model's rules and the app's hooks,
// as Core Data's save validates whatever the context's parent is; uniqueness
// constraints are left to the store, judged when the root context saves, as
// Core Data checks them only there — then the changes are compared with the
// parent, and only then written into it, in one undo group of the parent
// and one `.objectsDidChange` of it:
//
// - an object inserted in the child is inserted in the parent under the
//   same (temporary) ID with the child's values;
// - each changed key of an updated object is set on the parent's object;
//   a to-many the parent also changed since the child read it is merged
//   (the parent's members, less those the child removed, plus those it
//   added), so neither side's membership change is lost;
// - a deleted object is deleted in the parent, which applies its own delete
//   rules on top (to objects the child never saw).
//
// Conflicts: an updated or deleted object whose attributes or to-ones the
// parent changed (or which the parent deleted) since the child read it is
// resolved by the child's `mergePolicy`, as a save to the store resolves a
// row changed under it (Context+MergePolicy.swift): `.error` refuses the
// whole save (`MergeConflictError` listing each object and key, nothing
// pushed); `.rollback` drops the child's changes to it; `.overwrite` pushes
// every key the child holds; `.mergeByPropertyObjectTrump` pushes the keys
// the child changed and takes the parent's other values;
// `.mergeByPropertyStoreTrump` drops the child's changes to keys the parent
// changed. An object the parent deleted stays deleted (under all but
// `.error`), as a row deleted in the store does.
import Foundation

extension Context {
    func saveIntoParent() throws {
        guard let parent else { return }
        try processPendingChanges()
        guard hasChanges else { return }
        let (objects, _) = Self.inInsertionOrder(pending.values)
        let hooked = try runValidationHooks(objects)
        let validator = Validator(context: self)
        validator.checksUniqueness = false
        let failures = try validator.validate(objects) + hooked
        if !failures.isEmpty { throw ValidationError(failures: failures) }

        var inserted: [ManagedObject] = [], updated: [ManagedObject] = [], deleted: [ManagedObject] = [], dropped: [ManagedObject] = []
        for object in objects {
            switch (object.isInserted, object.isDeleted) {
            case (true, false): inserted.append(object)
            case (false, false): updated.append(object)
            case (false, true): deleted.append(object)
            case (true, true): dropped.append(object)
            }
        }

        // Compare with the parent (reads only: the parent's faults fire here, before anything changes).
        var sources: [ObjectIdentifier: ManagedObject] = [:]
        var conflicts: [MergeConflict] = []
        var gone: [ManagedObject] = [], discarded: [ManagedObject] = []
        var fromParent: [(ManagedObject, [String: PropertyValue])] = []
        var overwritten: [(ManagedObject, [String])] = []
        var trumped: [(ManagedObject, [String])] = []
        var alreadyGone: [ManagedObject] = []
        for object in updated + deleted {
            guard let source = try parentObject(object.objectID) else {
                // Deleted in the parent too: both want it gone.
                if object.isDeleted { alreadyGone.append(object); continue }
                if mergePolicy == .error { conflicts.append(parentConflict(object, parentValues: nil)) } else { gone.append(object) }
                continue
            }
            sources[ObjectIdentifier(object)] = source
            let now = try parentValues(of: object, in: source)
            let differing = now.keys.filter { now[$0] != object.committed[$0] }
            guard !differing.isEmpty else { continue }
            switch mergePolicy {
            case .error:
                conflicts.append(parentConflict(object, parentValues: now))
            case .rollback:
                discarded.append(object)
            case .overwrite:
                if !object.isDeleted { overwritten.append((object, now.keys.filter { object.changes[$0] == nil })) }
            case .mergeByPropertyObjectTrump:
                if !object.isDeleted { fromParent.append((object, now.filter { object.changes[$0.key] == nil })) }
            case .mergeByPropertyStoreTrump:
                guard !object.isDeleted else { continue }
                let lost = differing.filter { object.changes[$0] != nil }
                if !lost.isEmpty, lost.count == object.changes.count, lost.allSatisfy({ now[$0] != nil }) {
                    // Every change it made lost to the parent's: nothing left to push.
                    discarded.append(object)
                    continue
                }
                trumped.append((object, lost))
                fromParent.append((object, now.filter { object.changes[$0.key] == nil || lost.contains($0.key) }))
            }
        }
        if !conflicts.isEmpty { throw MergeConflictError(conflicts: conflicts) }
        let skipped = Set((gone + discarded + alreadyGone).map(ObjectIdentifier.init))
        // The policies' edits of the child's changes (nothing has changed yet: this cannot fail).
        for (object, keys) in overwritten { for key in keys { object.changes[key] = object.committed[key] } }
        for (object, keys) in trumped { for key in keys { object.changes[key] = nil } }

        // Every value to write, worked out before the parent changes (merging a to-many reads the parent's).
        var writes: [(ManagedObject, String, PropertyValue)] = []
        for object in updated where !skipped.contains(ObjectIdentifier(object)) {
            let source = sources[ObjectIdentifier(object)]!
            for (key, value) in object.changes {
                writes.append((source, key, try merged(value, key, of: object, into: source)))
            }
        }
        let doomed = deleted.filter { !skipped.contains(ObjectIdentifier($0)) }.map { sources[ObjectIdentifier($0)]! }

        parent.groupUndo {
            for object in inserted {
                let twin = ManagedObject(id: object.objectID, info: parent.entityInfo(named: object.entity.name), context: parent)
                for (key, value) in object.changes { twin.changes[key] = value }
                twin.isInserted = true
                parent.registry[twin.objectID] = twin
                parent.notePending(twin)
                parent.unannounced.inserted.insert(twin.objectID)
                parent.recordUndo(.insert(twin))
            }
            for (source, key, value) in writes { parent.setPrimitive(source, key, value) }
            for source in doomed where !source.isDeleted { parent.markDeleted(source) }
        }

        // The child: what it pushed is now what it read.
        for object in inserted {
            for (key, value) in object.changes { object.committed[key] = value }
            object.changes.removeAll()
            object.rowLoaded = true
            object.isInserted = false
        }
        for object in updated where !skipped.contains(ObjectIdentifier(object)) {
            for (key, value) in object.changes { object.committed[key] = value }
            object.changes.removeAll()
        }
        for (object, values) in fromParent { for (key, value) in values { object.committed[key] = value } }
        for object in discarded { refresh(object, mergeChanges: false) }
        for object in deleted + dropped + gone where !discarded.contains(where: { $0 === object }) {
            object.changes.removeAll()
            registry[object.objectID] = nil
            object.context = nil
        }
        let changes = ContextChanges(inserted: Set(inserted.map(\.objectID)),
                                     updated: Set(updated.filter { !skipped.contains(ObjectIdentifier($0)) }.map(\.objectID)),
                                     deleted: Set(deleted.filter { !discarded.contains($0) }.map(\.objectID)))
        pending.removeAll()
        unpropagatedDeletes = []
        unannounced = ContextChanges()
        _ = unannouncedUpdates.take()
        forgetFetchedProperties()
        if !observers.isEmpty { post(.didSave(changes)) }
        // The parent applies its delete rules and announces the change set once.
        try parent.processPendingChanges()
    }

    /// The parent's current values of the keys the child read of `object`:
    /// attributes (not transient) and to-ones — what a conflict is judged on.
    /// (To-manys are merged member by member instead: see `merged`.)
    func parentValues(of object: ManagedObject, in source: ManagedObject) throws -> [String: PropertyValue] {
        var values: [String: PropertyValue] = [:]
        for a in object.entity.allAttributes(in: model) where !a.isTransient && object.committed[a.name] != nil {
            values[a.name] = try source.current(attribute: a)
        }
        for r in object.entity.allRelationships(in: model) where !r.isToMany && !r.isTransient && object.committed[r.name] != nil {
            values[r.name] = try source.current(.relationship(r))
        }
        return values
    }

    /// The value to set on the parent's object for the child's change of
    /// `key`: as it is, except a to-many the parent changed since the child
    /// read it, whose members are merged.
    private func merged(_ value: PropertyValue, _ key: String, of object: ManagedObject, into source: ManagedObject) throws -> PropertyValue {
        guard case .toMany(let new) = value, case .toMany(let read)? = object.committed[key],
              case .relationship(let r)? = object.entity.property(named: key, in: model) else { return value }
        let now = try source.current(.relationship(r))
        guard case .toMany(let current) = now, current != read else { return value }
        let removed = Set(read).subtracting(new)
        let kept = current.filter { !removed.contains($0) }
        let present = Set(kept)
        return .toMany(kept + new.filter { !present.contains($0) && !read.contains($0) })
    }

    /// The conflict of `object` with its parent's (nil: deleted there), for the error.
    private func parentConflict(_ object: ManagedObject, parentValues: [String: PropertyValue]?) -> MergeConflict {
        func shown(_ v: PropertyValue?) -> Value {
            switch v {
            case .attribute(let value)?: return value
            case .toOne(let id?)?: return .string(id.description)
            default: return .null
            }
        }
        var keys: [MergeConflict.Key] = []
        var names = (parentValues.map { Array($0.keys) } ?? []) + object.changes.map { $0.key }
        names = Array(Set(names)).sorted()
        for key in names {
            if case .toMany? = object.changes[key] { continue }
            let read = object.committed[key], now = parentValues?[key], new = object.changes[key]
            guard new != nil || (parentValues != nil && now != read) else { continue }
            keys.append(MergeConflict.Key(key: key, read: shown(read), store: shown(now), new: new.map { shown($0) }))
        }
        var conflict = MergeConflict(objectID: object.objectID, readVersion: nil, storeVersion: parentValues == nil ? nil : 0,
                                     objectDeleted: object.isDeleted, keys: keys)
        conflict.inParent = true
        return conflict
    }
}

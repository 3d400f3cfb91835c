// Merge policies: what a save does with rows that changed in the store since
// the context read them (optimistic locking, StoreMapping+Versions.swift).
// Inside the save's transaction, before anything else is written, every
// updated and deleted object's row is claimed — its version bumped where it
// is still the one read (ContextWriter+Versions.swift); an object whose
// changes are all columns of its row is claimed by the UPDATE that writes
// it instead, and if that finds the row changed, the save starts over
// claiming first. The rows that do not match are the conflicts, all of
// them collected first, then resolved by `mergePolicy`, as Core Data's
// NSMergePolicy does:
//
// - `.error` (the default): the save throws `MergeConflictError` listing
//   every conflict (object, key, value read, value in the store, new value);
//   the transaction is rolled back, so nothing is written.
// - `.rollback`: the store's state wins: a conflicting object is not written,
//   its unsaved changes (a delete too) are discarded and it is refreshed.
// - `.overwrite`: the object's whole state (every stored attribute and
//   to-one key, changed or not) is written over the row.
// - `.mergeByPropertyObjectTrump`: keys the object changed are written; its
//   other keys take the store's values.
// - `.mergeByPropertyStoreTrump`: keys changed in the store keep the store's
//   values (the object's changes to them are dropped); the object's other
//   changes are written.
//
// A row deleted in the store is a conflict under `.error`; under every other
// policy the store's delete wins — the object's edits are dropped and it
// leaves the context, as when another context's delete is merged — since
// writing it back would resurrect a row someone deliberately removed (Core
// Data reports such a row with a nil persisted snapshot). A delete of a row
// already deleted in the store is no conflict: both agree. A deleted object
// whose row changed is a conflict under `.error` and `.rollback` (the delete
// is discarded); the other policies let the delete go through.
//
// Compared are the values the row holds: attributes and to-one keys kept on
// it. An object changed while a fault (never read, or refreshed since) has
// no version to hold its row to: its row is claimed whatever its version,
// and the save writes only the keys it changed (nothing stale read, nothing
// stale written). Writes the save's own bookkeeping makes — references to a
// deleted row cleared, ordered to-many positions, derived attributes — do
// not raise the version of rows it does not claim. The context changes nothing until COMMIT: changes a policy adds or
// drops for the write are put back if the save fails.
import Foundation

/// How a save resolves rows changed in the store since the context read
/// them (Core Data's NSMergePolicy types).
///
/// ```swift
/// context.mergePolicy = .mergeByPropertyObjectTrump
/// try context.save()   // the context's edits win key by key; other keys take the store's values
/// ```
public enum MergePolicy: String, Sendable, CaseIterable {
    /// The save fails with ``MergeConflictError``; nothing is written.
    case error
    /// The store's state wins: conflicting objects' changes are discarded.
    case rollback
    /// The object's whole state is written over the store's.
    case overwrite
    /// Keys the object changed win; other keys take the store's values.
    case mergeByPropertyObjectTrump
    /// Keys changed in the store win; the object's other changes are written.
    case mergeByPropertyStoreTrump
}

/// What optimistic locking decided in one save, applied to the context
/// after COMMIT (or undone if the save fails).
final class SaveLocking {
    /// Written rows and their new versions.
    var versions: [(ManagedObject, Int64)] = []
    /// Objects the rollback policy leaves unwritten: refreshed after COMMIT.
    var discarded: [ManagedObject] = []
    /// Objects whose row the store deleted: they leave the context.
    var gone: [ManagedObject] = []
    /// Keys that take the store's values after COMMIT (the trump policies).
    var fromStore: [(ManagedObject, [String: Value], Set<String>)] = []
    /// Each object's changes before a policy changed them, for a failed save.
    var restores: [(ManagedObject, ChangedValues)] = []
}

extension Context {
    /// The version of `object`'s row when the context read it (nil: not read).
    func readVersion(of object: ManagedObject) -> Int64? {
        if case .attribute(.int(let v))? = object.committed[StoreMapping.versionColumn] { return v }
        return nil
    }

    /// Claims the rows of `updated` and `deleted` (inside the save's
    /// transaction) and resolves the conflicts by `mergePolicy`, taking out
    /// of the lists what must not be written. Throws `MergeConflictError`
    /// under `.error`.
    /// With `foldsClaims`, an updated object whose every change is a column
    /// of its row is not claimed here: the UPDATE that writes it is held to
    /// the version read and raises it (ContextWriter.foldedClaim(of:)) —
    /// one write of the row instead of two. Such a row found changed throws
    /// `FoldedClaimMissed` there, and the save runs again without folding,
    /// so that every conflict reaches the policy here, before any write.
    func claimRows(updated: inout [ManagedObject], deleted: inout [ManagedObject], writer: ContextWriter,
                   into locking: SaveLocking, foldsClaims: Bool = false) throws {
        guard store.mapping.storesVersions, claimsRows else { return }
        writer.foldsClaims = foldsClaims
        let claims = RowClaims(writer)
        var conflicts: [(object: ManagedObject, row: [String: Value]?)] = []
        // Rows read with a version are claimed many per statement; faults one by one.
        var held: [(object: ManagedObject, read: Int64)] = []
        held.reserveCapacity(updated.count)
        locking.versions.reserveCapacity(updated.count)
        for object in updated {
            if let read = writer.foldedClaim(of: object) {
                // Claimed by the UPDATE that writes it (ContextWriter.writeAttributes).
                locking.versions.append((object, read + 1))
            } else if let read = readVersion(of: object) {
                held.append((object, read))
            } else if try !claims.claim(object, read: nil) {
                conflicts.append((object, try writer.currentRow(of: object)))
            }
        }
        let failed = Set(try claims.claimAll(held).map(ObjectIdentifier.init))
        for (object, read) in held {
            if failed.contains(ObjectIdentifier(object)) {
                conflicts.append((object, try writer.currentRow(of: object)))
            } else {
                locking.versions.append((object, read + 1))
            }
        }
        for object in deleted {
            let read = readVersion(of: object)
            if try claims.claim(object, read: read) { continue }
            let row = try writer.currentRow(of: object)
            // Already deleted in the store: both want it gone.
            if row != nil { conflicts.append((object, row)) }
        }
        guard !conflicts.isEmpty else { return }
        if mergePolicy == .error {
            throw MergeConflictError(conflicts: conflicts.map { mergeConflict($0.object, row: $0.row) })
        }
        var skipped = Set<ObjectIdentifier>()
        for (object, row) in conflicts {
            guard let row else {
                // Deleted in the store: the store's delete wins.
                skipped.insert(ObjectIdentifier(object))
                locking.gone.append(object)
                continue
            }
            if mergePolicy == .rollback {
                skipped.insert(ObjectIdentifier(object))
                locking.discarded.append(object)
                continue
            }
            let keys = storedKeys(of: object)
            if mergePolicy == .mergeByPropertyStoreTrump, !object.isDeleted,
               object.changes.allSatisfy({ keys.contains($0.key) && storeChanged(object, $0.key, row) }) {
                // Every change it made lost to the store's: nothing left to write.
                skipped.insert(ObjectIdentifier(object))
                locking.discarded.append(object)
                continue
            }
            // The object is written (or deleted) over the row as it is now.
            try claims.claim(object, read: nil)
            if object.isDeleted { continue }
            if case .int(let v)? = row[StoreMapping.versionColumn] { locking.versions.append((object, v + 1)) }
            locking.restores.append((object, object.changes))
            switch mergePolicy {
            case .overwrite:
                for key in keys where object.changes[key] == nil {
                    if let v = object.committed[key] { object.changes[key] = v }
                }
            case .mergeByPropertyObjectTrump:
                let written = Set(keys.filter { object.changes[$0] != nil })
                locking.fromStore.append((object, row, written))
            case .mergeByPropertyStoreTrump:
                for key in keys where object.changes[key] != nil && storeChanged(object, key, row) {
                    object.changes[key] = nil
                }
                let written = Set(keys.filter { object.changes[$0] != nil })
                locking.fromStore.append((object, row, written))
            case .error, .rollback:
                break
            }
        }
        if !skipped.isEmpty {
            updated.removeAll { skipped.contains(ObjectIdentifier($0)) }
            deleted.removeAll { skipped.contains(ObjectIdentifier($0)) }
        }
    }

    /// Puts back the changes a policy changed, after a failed save.
    func restore(_ locking: SaveLocking) {
        for (object, changes) in locking.restores { object.changes = changes }
    }

    /// After COMMIT (and `finishSave`): new versions, the store's values
    /// where the store won, discarded and vanished objects.
    func finishLocking(_ locking: SaveLocking, inserted: [ManagedObject]) {
        guard store.mapping.storesVersions else { return }
        for object in inserted { object.committed[StoreMapping.versionColumn] = .attribute(.int(1)) }
        for (object, row, written) in locking.fromStore {
            for key in storedKeys(of: object) where !written.contains(key) {
                if let value = row[key] { object.committed[key] = savedValue(key, value, of: object) }
            }
        }
        for (object, version) in locking.versions { object.committed[StoreMapping.versionColumn] = .attribute(.int(version)) }
        for object in locking.discarded { refresh(object, mergeChanges: false) }
        for object in locking.gone {
            object.changes.removeAll()
            registry[object.objectID] = nil
            pending.remove(object)
            object.context = nil
        }
    }

    /// The keys a row holds for `object`: stored attributes (not derived:
    /// the store computes those) and to-one keys kept on the row.
    func storedKeys(of object: ManagedObject) -> [String] {
        var keys: [String] = []
        for a in object.entity.allAttributes(in: model) where !a.isTransient && a.derivation == nil {
            if store.mapping.column(for: a.name, of: object.entity.name) != nil { keys.append(a.name) }
        }
        for r in object.entity.allRelationships(in: model) where !r.isToMany {
            if case .foreignKey? = store.mapping.storage(of: r.name, of: object.entity.name) { keys.append(r.name) }
        }
        return keys
    }

    /// Whether the store's value of `key` differs from the one read.
    func storeChanged(_ object: ManagedObject, _ key: String, _ row: [String: Value]) -> Bool {
        comparable(readValue(object, key)) != comparable(row[key] ?? .null)
    }

    /// The value of `key` the context read, as the row holds it (a to-one as its key).
    func readValue(_ object: ManagedObject, _ key: String) -> Value {
        switch object.committed[key] {
        case .attribute(let v)?: return v
        case .toOne(let id?)?: return .int(id.primaryKey)
        case .toOne(nil)?: return .null
        default: return object.unresolvedKeys[key].map { .int($0) } ?? .null
        }
    }

    /// Values compared as the row stores them (a Boolean as 0 or 1).
    private func comparable(_ v: Value) -> Value {
        if case .bool(let b) = v { return .int(b ? 1 : 0) }
        return v
    }

    /// A value of the row as the object keeps it saved.
    private func savedValue(_ key: String, _ value: Value, of object: ManagedObject) -> PropertyValue {
        guard case .relationship(let r)? = object.entity.property(named: key, in: model) else { return .attribute(value) }
        guard case .int(let pk) = value else { return .toOne(nil) }
        return .toOne(ObjectID(entity: exactEntity(r.destination) ?? r.destination, primaryKey: pk))
    }

    /// The conflict of `object` with its row now (nil: deleted in the store), for the error.
    func mergeConflict(_ object: ManagedObject, row: [String: Value]?) -> MergeConflict {
        var keys: [MergeConflict.Key] = []
        for key in storedKeys(of: object) {
            let read = readValue(object, key)
            let now = row?[key] ?? .null
            var new: Value?
            switch object.changes[key] {
            case .attribute(let v)?: new = v
            case .toOne(let id?)?: new = .string(id.description)
            case .toOne(nil)?: new = .null
            default: new = nil
            }
            guard new != nil || (row != nil && comparable(read) != comparable(now)) else { continue }
            keys.append(MergeConflict.Key(key: key, read: shown(object, key, read), store: row == nil ? .null : shown(object, key, now), new: new))
        }
        var storeVersion: Int64?
        if case .int(let v)? = row?[StoreMapping.versionColumn] { storeVersion = v }
        return MergeConflict(objectID: object.objectID, readVersion: readVersion(of: object), storeVersion: storeVersion,
                             objectDeleted: object.isDeleted, keys: keys)
    }

    /// A to-one key shown as the target's ID; attributes as they are.
    private func shown(_ object: ManagedObject, _ key: String, _ value: Value) -> Value {
        guard case .relationship(let r)? = object.entity.property(named: key, in: model), case .int(let pk) = value else { return value }
        return .string(ObjectID(entity: exactEntity(r.destination) ?? r.destination, primaryKey: pk).description)
    }
}

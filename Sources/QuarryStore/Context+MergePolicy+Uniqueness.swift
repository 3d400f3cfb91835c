// Uniqueness constraints through the merge policy, as Core Data's constraint
// merge does. Validation finds an inserted object whose constrained values
// a saved row already has (Validation.swift); under `.error`, `.rollback`
// and `.overwrite` that stays the save's validation failure, as before.
// Under the two property policies the inserted object becomes that row:
//
// - `.mergeByPropertyObjectTrump`: an upsert — the row is updated with the
//   inserted object's attributes (all of them: a new object holds every
//   attribute, its default or nil where not set, and Core Data counts them
//   all as changed — as `INSERT … ON CONFLICT DO UPDATE` of every column)
//   and its relationships are written;
// - `.mergeByPropertyStoreTrump`: the row keeps its values; the inserted
//   object takes them (its own values and relationships are dropped).
//
// Either way the save gives the object the row's ID (so other objects'
// references to it point at the row) and, after COMMIT, the row's values
// for every key it did not write. Refused, as validation failures still:
// a collision between two unsaved objects, an object colliding with two
// different rows (on two constraints), and a row this context already holds
// as an object (two objects cannot be one row).
import Foundation

/// The inserted objects a save turns into saved rows, and what those rows held.
final class UniqueMerges {
    /// Per inserted object, the row it becomes.
    var rows: [ObjectIdentifier: ObjectID] = [:]
    /// After the write: the row's values to adopt (keys the object did not write).
    var adopted: [(ManagedObject, [String: Value], Set<String>)] = []
    let policy: MergePolicy

    init(policy: MergePolicy) { self.policy = policy }

    var isEmpty: Bool { rows.isEmpty }

    /// Whether the object's relationships are written (not when the store's row wins).
    func writesRelationships(of object: ManagedObject) -> Bool {
        rows[ObjectIdentifier(object)] == nil || policy == .mergeByPropertyObjectTrump
    }
}

extension Context {
    /// The validation failures left once uniqueness collisions of inserted
    /// objects with saved rows are merged by the policy (into `merges`).
    func mergeUniqueness(_ failures: [ValidationFailure], into merges: UniqueMerges) -> [ValidationFailure] {
        guard mergePolicy == .mergeByPropertyObjectTrump || mergePolicy == .mergeByPropertyStoreTrump else { return failures }
        var targets: [ObjectID: ObjectID] = [:]
        var refused: Set<ObjectID> = []
        for f in failures {
            guard case .notUnique(_, let row) = f.reason else { continue }
            guard let object = registry[f.objectID], object.isInserted, !object.isDeleted, !row.isTemporary,
                  registry[row] == nil, targets[f.objectID] ?? row == row else { refused.insert(f.objectID); continue }
            targets[f.objectID] = row
        }
        // One row per object, and one object per row.
        var byRow: [ObjectID: Int] = [:]
        for row in targets.values { byRow[row, default: 0] += 1 }
        for (object, row) in targets where refused.contains(object) || byRow[row]! > 1 { targets[object] = nil }
        for (id, row) in targets { merges.rows[ObjectIdentifier(registry[id]!)] = row }
        return failures.filter { f in
            if case .notUnique = f.reason, targets[f.objectID] != nil { return false }
            return true
        }
    }

    /// Writes an inserted object that becomes a saved row (inside the save's
    /// transaction); returns that row's ID, or nil to insert it as usual
    /// (no merge, or the row went meanwhile).
    func writeMerged(_ object: ManagedObject, _ merges: UniqueMerges, writer: ContextWriter) throws -> ObjectID? {
        guard let row = merges.rows[ObjectIdentifier(object)] else { return nil }
        // The row's entity may differ (a sibling in the hierarchy): only the same entity becomes it.
        try writer.flushUpdates()
        guard row.entity == object.entity.name, let current = try writer.currentRow(of: row) else { return nil }
        var written: Set<String> = []
        if merges.policy == .mergeByPropertyObjectTrump {
            var assignments: [String] = []
            var arguments: [Value] = []
            for a in object.entity.allAttributes(in: model) where !a.isTransient && a.derivation == nil {
                guard case .attribute(let v)? = object.changes[a.name], let column = store.mapping.column(for: a.name, of: row.entity) else { continue }
                assignments.append("\(SQLIdentifier.quoted(column)) = ?")
                arguments.append(try StoreValues.storable(v, for: a, entity: row.entity))
                written.insert(a.name)
            }
            for r in object.entity.allRelationships(in: model) where object.changes[r.name] != nil { written.insert(r.name) }
            if let bump = store.mapping.versionIncrement() { assignments.append(bump) }
            if !assignments.isEmpty, let table = store.mapping.table(for: row.entity) {
                try store.database.run(StoreMapping.updateRow(table: table, set: assignments.joined(separator: ", ")),
                                       arguments + [.int(row.primaryKey)])
            }
        }
        var values = current
        if merges.policy == .mergeByPropertyObjectTrump, case .int(let v)? = current[StoreMapping.versionColumn] {
            values[StoreMapping.versionColumn] = .int(v + 1)
        }
        merges.adopted.append((object, values, written))
        return row
    }

    /// After COMMIT (and `finishSave`): the merged objects hold the row's
    /// values for the keys they did not write; under store trumps, their
    /// own changes are gone.
    func finishUniqueMerges(_ merges: UniqueMerges) {
        for (object, row, written) in merges.adopted {
            for key in storedKeys(of: object) where !written.contains(key) {
                guard let value = row[key] else { continue }
                if case .relationship(let r)? = object.entity.property(named: key, in: model) {
                    if case .int(let pk) = value { object.committed[key] = .toOne(ObjectID(entity: exactEntity(r.destination) ?? r.destination, primaryKey: pk)) }
                    else { object.committed[key] = .toOne(nil) }
                } else {
                    object.committed[key] = .attribute(value)
                }
            }
            if case .int(let v)? = row[StoreMapping.versionColumn] { object.committed[StoreMapping.versionColumn] = .attribute(.int(v)) }
        }
    }
}

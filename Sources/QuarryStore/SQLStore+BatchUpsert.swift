// Batch inserts whose rows meet a uniqueness constraint, merged as a
// context's save merges inserted objects (Context+MergePolicy+Uniqueness.swift):
//
// - `.mergeByPropertyObjectTrump`: an upsert. A row whose constrained values
//   a saved row already has updates that row instead — every attribute the
//   batch writes (all of them: a batch row holds each attribute, its
//   default or nil where not given, as a new object does) and the row's
//   version raised: `INSERT … ON CONFLICT (…) DO UPDATE`. Core Data's batch
//   insert upserts the same way.
// - `.mergeByPropertyStoreTrump`: the saved row stays as it is and the batch
//   row is dropped: `ON CONFLICT (…) DO NOTHING`.
// - `.error`, `.rollback`, `.overwrite`: the collision fails the batch and
//   nothing is written, as a context's save fails under them.
//
// Unlike a context's save, two rows of one batch may collide with each
// other: the later one merges into the earlier, as if inserted one after
// the other. The count a batch reports is the rows it wrote (inserted or
// updated), so rows kept under store-trumps are not counted.
//
// One statement does it, so what one statement cannot do exactly is
// refused before anything runs: more than one constraint on the entity
// (ON CONFLICT names one index), a constraint over a relationship (a batch
// writes attributes only), a table shared with other entities (the saved
// row may be another entity's), attributes derived from `now()` (only new
// rows would be recomputed), externally stored binaries (a replaced
// value's file would be left behind), and tables without a version column
// (a Core Data store's views refuse an upsert clause).
import QuarryModel
import QuarrySQL

/// How a batch insert's statement merges a collision, and what it reads back.
struct BatchUpsert {
    /// ` ON CONFLICT (…) DO UPDATE SET …` or ` ON CONFLICT (…) DO NOTHING`.
    let clause: String
    /// ` RETURNING "_pk", "_version"`: the row written and whether it is new
    /// (version 1) or an updated one (raised by the clause).
    static let returning = " RETURNING \(StoreMapping.quotedPrimaryKey), \(SQLIdentifier.quoted(StoreMapping.versionColumn))"
    /// The keys an updated row had written (its history's changed keys).
    let keys: [String]
}

/// What a batch insert wrote: the rows it inserted and (when merging
/// collisions) the saved rows it updated, listed when asked for.
struct BatchInsertOutcome {
    var count = 0
    var inserted: [ObjectID] = []
    var updated: [ObjectID] = []

    func result(_ type: BatchResultType) -> BatchResult {
        switch type {
        case .status: return .status
        case .count: return .count(count)
        case .objectIDs: return .objectIDs(inserted + updated)
        }
    }
}

extension SQLStore {
    /// The merge of collisions for a batch insert of `entity` under `policy`:
    /// nil for a plain INSERT (a policy that fails on collision, or no
    /// constraint to collide on); throws where the statement could not be exact.
    func batchUpsert(_ entity: Entity, table: String, attributes: [Attribute], policy: MergePolicy) throws -> BatchUpsert? {
        guard policy == .mergeByPropertyObjectTrump || policy == .mergeByPropertyStoreTrump else { return nil }
        let constraints = ([entity] + entity.ancestors(in: model)).flatMap(\.uniquenessConstraints)
        guard let constraint = constraints.first else { return nil }
        func refused(_ reason: String) -> StoreError { .upsertRefused(entity: entity.name, reason: reason) }
        guard mapping.storesVersions else { throw refused("the store's tables are views over another layout, which take no ON CONFLICT clause") }
        guard constraints.count == 1 else {
            throw refused("it has \(constraints.count) uniqueness constraints and one statement can merge on one")
        }
        let targets = try constraint.properties.map { property -> String in
            guard entity.attribute(named: property, in: model) != nil, let column = mapping.column(for: property, of: entity.name) else {
                throw refused("its constraint names the relationship '\(property)', which a batch insert does not write")
            }
            return SQLIdentifier.quoted(column)
        }
        let sharing = model.entities.filter { $0.name != entity.name && mapping.table(for: $0.name) == table }.map(\.name)
        guard sharing.isEmpty else {
            throw refused("its table also holds \(sharing.sorted().joined(separator: ", ")), so a colliding row may be another entity's")
        }
        if let now = mapping.derived.first(where: { $0.derivation.usesNow && entity.isKind(of: $0.entity, in: model) }) {
            throw refused("'\(now.attribute)' is derived from now(), which a batch recomputes for new rows only")
        }
        if let external = attributes.first(where: \.allowsExternalBinaryDataStorage) {
            throw refused("'\(external.name)' may be stored in an external file, which an updated row would leave behind")
        }
        let target = " ON CONFLICT (\(targets.joined(separator: ", ")))"
        guard policy == .mergeByPropertyObjectTrump else { return BatchUpsert(clause: target + " DO NOTHING", keys: []) }
        let set = attributes.map { a -> String in
            let c = SQLIdentifier.quoted(mapping.column(for: a.name, of: entity.name)!)
            return "\(c) = excluded.\(c)"
        }
        // Qualified by the table: PostgreSQL finds a bare column ambiguous here.
        let clause = target + " DO UPDATE SET " + set.joined(separator: ", ") + mapping.versionIncrementSuffix(alias: SQLIdentifier.quoted(table))
        return BatchUpsert(clause: clause, keys: attributes.map(\.name))
    }
}

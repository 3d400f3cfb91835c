// Which of a store's names a migration keeps (Migration.swift): the new
// model's mapping is built from the old store's layout record with only the
// entries of what the new model keeps unchanged — an entity under the same
// name in the same hierarchy, an attribute under the same name, a
// relationship under the same name with the same destination, cardinality
// and inverse (both sides, so that the two agree on where the key is). So
// an added entity, sub-entity, attribute or relationship is derived around
// the names already in use and never renames one. What was renamed or
// changed shape leaves the record and is derived for the new model, as the
// planner has always done it (a rename renames the column or table; a
// to-one become to-many moves its links).
import QuarryModel

extension ModelDifference {
    /// The part of `old` (the store's layout) that still holds for the new model.
    public func carriedLayout(_ old: StoreLayoutRecord) -> StoreLayoutRecord {
        var out = StoreLayoutRecord()
        for entity in new.entities where entityMatch[entity.name] == entity.name {
            guard let was = old.entities[entity.name], let oldEntity = self.old.entity(named: entity.name) else { continue }
            // Its hierarchy's table only while the root is the same entity (a parent change is refused anyway).
            let root = entity.ancestors(in: new).last?.name ?? entity.name
            guard entityMatch[root] == root, (oldEntity.ancestors(in: self.old).last?.name ?? oldEntity.name) == root else { continue }
            var layout = StoreLayoutRecord.EntityLayout(table: was.table)
            for a in entity.allAttributes(in: new) where !a.isTransient && propertyMatch[entity.name]?[a.name] == a.name {
                guard let oldA = oldEntity.attribute(named: a.name, in: self.old), !oldA.isTransient, let column = was.columns[a.name] else { continue }
                layout.columns[a.name] = column
            }
            for r in entity.allRelationships(in: new) where relationshipKept(entity.name, r) {
                if let kept = was.relationships[r.name] { layout.relationships[r.name] = kept }
            }
            out.entities[entity.name] = layout
        }
        var named: Set<String> = []
        for entity in out.entities.values {
            for r in entity.relationships.values { if case .joinTable(let table, _, _) = r.storage { named.insert(table) } }
        }
        out.joinTables = old.joinTables.filter { named.contains($0.table) }
        return out
    }

    /// Whether `r` of `entity` and its inverse are both kept as they were.
    private func relationshipKept(_ entity: String, _ r: Relationship) -> Bool {
        guard sideKept(entity, r) else { return false }
        guard let inverse = r.inverse else { return true }
        guard let inverseR = new.entity(named: r.destination)?.relationship(named: inverse, in: new) else { return false }
        return sideKept(r.destination, inverseR)
    }

    private func sideKept(_ entity: String, _ r: Relationship) -> Bool {
        guard !r.isTransient, entityMatch[entity] == entity, propertyMatch[entity]?[r.name] == r.name,
              let was = old.entity(named: entity)?.relationship(named: r.name, in: old), !was.isTransient else { return false }
        return entityMatch[r.destination] == r.destination && was.destination == r.destination
            && was.isToMany == r.isToMany && was.inverse == r.inverse
    }
}

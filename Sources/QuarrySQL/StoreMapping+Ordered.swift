// Ordered to-many relationships in the layout. The order is stored where
// the link is: a join table of an ordered relationship has a `position`
// column (SchemaBuilder), and an ordered to-many whose inverse is to-one —
// stored as the destination's foreign key — has an order column on the
// destination's table, `_order_<Entity>_<relationship>` (Core Data's Z_FOK_
// column; the leading underscore keeps it apart from every attribute, whose
// names start with a letter). A model without ordered relationships gets
// no new column, so its stores are laid out as before.
import QuarryModel

extension StoreMapping {
    /// The order column on the destination's table of an ordered to-many
    /// stored as the destination's foreign key (nil for any other relationship).
    public func orderColumn(of relationship: String, of entity: String) -> String? {
        guard storesOrderColumns else { return nil }
        return orderColumnNames[entity]?[relationship]
    }

    /// Per entity, the order column of each ordered to-many kept as the
    /// destination's key: inherited from the parent, kept from the mapping's
    /// record, or derived (`_order_<Entity>_<relationship>`). Run once, by
    /// the initialiser, after the relationships' storage is known.
    func deriveOrderColumns() -> [String: [String: String]] {
        var out: [String: [String: String]] = [:]
        for e in model.entities {
            var map: [String: String] = [:]
            for r in e.allRelationships(in: model) where r.isToMany && r.isOrdered && !r.isTransient {
                guard case .inverseForeignKey? = storage(of: r.name, of: e.name) else { continue }
                map[r.name] = e.parent.flatMap { out[$0]?[r.name] }
                    ?? layout?.entities[e.name]?.relationships[r.name]?.orderColumn
                    ?? "_order_" + declaringEntity(of: r.name, from: e) + "_" + r.name
            }
            if !map.isEmpty { out[e.name] = map }
        }
        return out
    }

    /// For a join table, whether it keeps an order read from its `source` side.
    public func joinTableIsOrdered(_ table: String) -> Bool {
        joinTables.first { $0.table == table }?.ordered == true
    }

    /// Every order column the table `table` needs (quoted names), in model order.
    public func orderColumns(onTable table: String) -> [String] {
        var out: [String] = []
        for entity in model.entities {
            for r in entity.relationships where r.isToMany && r.isOrdered && self.table(for: r.destination) == table {
                if let c = orderColumn(of: r.name, of: entity.name), !out.contains(c) { out.append(c) }
            }
        }
        return out
    }

    private func declaringEntity(of relationship: String, from entity: Entity) -> String {
        for candidate in [entity] + entity.ancestors(in: model) where candidate.relationships.contains(where: { $0.name == relationship }) {
            return candidate.name
        }
        return entity.name
    }
}

extension StoreMapping {
    /// `alias."_order_…", ` when `relationship` of `entity` keeps its order
    /// in an order column, for the front of an ORDER BY; "" otherwise.
    public func orderPrefix(of relationship: String, of entity: String, alias: String) -> String {
        orderColumn(of: relationship, of: entity).map { alias + "." + SQLIdentifier.quoted($0) + ", " } ?? ""
    }
}

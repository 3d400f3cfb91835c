// Ordered to-many relationships in the layout. The order is stored where
// the link is: a join table of an ordered relationship has a `position`
// column (SchemaBuilder), and an ordered to-many whose inverse is to-one —
// stored as the destination's foreign key — has an order column on the
// destination's table, `_order_<Entity>_<relationship>` (Core Data's Z_FOK_
// column; the leading underscore keeps it apart from every attribute, whose
// names start with a letter). A model without ordered relationships gets
// no new column, so its stores are laid out as before.
//
// The values written there are the layout's (`orderSpacing`): Quarry's
// own stores number a list 0, 1, 2, …; Core Data numbers it 2048, 3072,
// 4096, … (2048 + 1024·i, gaps left by deletions), and a store Quarry
// writes in Core Data's layout should look as Core Data would have written
// it. Reading only orders by the values, so either reads right.
import QuarryModel

extension StoreMapping {
    /// How a layout numbers the members of an ordered to-many: the first
    /// member's value and the step between neighbours.
    public struct OrderSpacing: Sendable, Equatable {
        public let first: Int64
        public let step: Int64
        /// Only the layouts' own (below): a step of at least 1 and a first
        /// value a step above Int64.min keep `beforeFirst` and
        /// `lastFollowable` in range.
        init(first: Int64, step: Int64) {
            self.first = first
            self.step = step
        }
        /// Quarry's own layout: 0, 1, 2, … (every existing store).
        public static let quarry = OrderSpacing(first: 0, step: 1)
        /// Core Data's `Z_FOK_` columns: 2048, 3072, 4096, … (every corpus store).
        public static let coreData = OrderSpacing(first: 2048, step: 1024)

        /// The value of the member at `index` (from 0), or nil when it does
        /// not fit an Int64 (absurd input must not trap): `first + step·index`.
        public func value(at index: Int) -> Int64? {
            guard index >= 0, let i = Int64(exactly: index) else { return nil }
            let (scaled, o1) = step.multipliedReportingOverflow(by: i)
            guard !o1 else { return nil }
            let (sum, o2) = first.addingReportingOverflow(scaled)
            return o2 ? nil : sum
        }

        /// The largest value that one more member can follow without
        /// overflow (`placeLast`'s guard): `Int64.max - step`.
        public var lastFollowable: Int64 { Int64.max - step }
        /// One step before the first value (`placeLast`'s start when the
        /// owner has no other member): `first - step`.
        public var beforeFirst: Int64 { first - step }
    }

    /// The value of the member at `index` of an ordered to-many in this
    /// layout (nil: past Int64, see `OrderSpacing.value(at:)`).
    public func orderValue(at index: Int) -> Int64? { orderSpacing.value(at: index) }
}

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

// The order of an ordered to-many whose inverse is a to-one. Quarry keeps it
// in an order column on the destination's table (`_order_<Entity>_<rel>`,
// QuarrySQL/StoreMapping+Ordered.swift); Core Data keeps it in the same
// place, `Z_FOK_<INVERSE>` beside the inverse's foreign key (`ZMESSAGE`'s
// `Z_FOK_VISIBLEINCONVERSATION` orders a conversation's `messages`; the
// values are spaced, 2048, 3072, …, so only their order means anything).
// The view of the destination's hierarchy presents that column under
// Quarry's name, so faults, prefetching and `[FIRST]`/`[LAST]`/`[n]` read
// the app's order. Before this file the views had no such column and the
// store read these relationships in primary-key order — a silent wrong
// order whenever the user had reordered. The column is looked up, never
// assumed: where it is missing the view gives 0 (key order) and the
// opening warns, as for a join table without its Z_FOK_ column.
import QuarryModel
import QuarrySQL

extension CoreDataViews {
    /// One order column of a hierarchy's view: Quarry's name, and the
    /// Core Data column that holds it (nil: not in the store, read as 0).
    struct OrderColumn {
        let name: String
        let cdColumn: String?
        /// The ordered to-many, "Entity.relationship" (migration reads it).
        var relationship = ""
    }

    /// Adds to each hierarchy's view the order columns of the ordered
    /// to-manys that point into it.
    mutating func addOrderColumns(model: Model, schema: CoreDataSchema, renames: RenamingIdentifiers) {
        let mapping = StoreMapping(model: model)
        for entity in model.entities {
            for r in entity.relationships where !r.isTransient && r.isToMany && r.isOrdered {
                guard let name = mapping.orderColumn(of: r.name, of: entity.name), let inverse = r.inverse,
                      let destinationTable = mapping.table(for: r.destination),
                      let index = hierarchies.firstIndex(where: { $0.name == destinationTable }),
                      !hierarchies[index].orderColumns.contains(where: { $0.name == name }) else { continue }
                // The inverse as stored: a renamed relationship keeps its old name.
                let storedInverse = renames.property(inverse, of: r.destination) ?? inverse
                let wanted = "Z_FOK_" + storedInverse.uppercased()
                let found = schema.table(hierarchies[index].cdTable)?.columns[wanted]
                if found == nil {
                    warnings.append("\(entity.name).\(r.name) is ordered but \(hierarchies[index].cdTable) has no \(wanted) column: read in key order")
                }
                hierarchies[index].orderColumns.append(OrderColumn(name: name, cdColumn: found, relationship: entity.name + "." + r.name))
            }
        }
    }
}

// The order of an ordered to-many, written by a save: after the links are
// written, each member's position — the layout's value for its index in
// the order the context keeps: 0, 1, … in Quarry's layout, 2048, 3072, …
// in Core Data's (StoreMapping+Ordered.swift) — goes to the join table's
// `position` column or to the destination's order column. The whole order
// is rewritten when the relationship changed: an insert at the front
// moves every member.
import Foundation

extension ContextWriter {
    func writeOrder(_ r: Relationship, of entity: String, pk: Int64, ids: [ObjectID], key: (ObjectID) -> Int64?) throws {
        guard r.isToMany, r.isOrdered else { return }
        let sql: String
        switch mapping.storage(of: r.name, of: entity) {
        case .joinTable(let table, let source, let target)? where source == StoreMapping.joinSourceColumn && mapping.joinTableIsOrdered(table):
            sql = "UPDATE \(SQLIdentifier.quoted(table)) SET \(StoreMapping.quotedJoinPosition) = ? WHERE \(SQLIdentifier.quoted(source)) = ? AND \(SQLIdentifier.quoted(target)) = ?"
            let run = try store.database.preparedRunner(sql)
            for (i, id) in ids.enumerated() {
                guard let k = key(id) else { continue }
                try run([.int(try mapping.checkedOrderValue(at: i, of: r.name, of: entity)), .int(pk), .int(k)])
            }
        case .inverseForeignKey?:
            guard let column = mapping.orderColumn(of: r.name, of: entity), let table = mapping.table(for: r.destination) else { return }
            sql = StoreMapping.updateRow(table: table, set: "\(SQLIdentifier.quoted(column)) = ?")
            let run = try store.database.preparedRunner(sql)
            for (i, id) in ids.enumerated() {
                guard let k = key(id) else { continue }
                try run([.int(try mapping.checkedOrderValue(at: i, of: r.name, of: entity)), .int(k)])
            }
        default:
            return
        }
    }
}

// The order of ordered one-to-manys in a Core Data fixture store. The
// generator wires a child to its parent through the child's foreign key
// and gives it no place in the parent's list, so Quarry's own store keeps
// its order column at 0 (the list reads in key order); in Core Data's
// layout that column is `Z_FOK_<INVERSE>`, which Core Data always fills
// (2048, 3072, … per parent). After the rows are written, each parent's
// children are numbered in key order — the order both stores read — in
// Core Data's spacing, through the writable views, so the file looks as
// Core Data would have written it. (Join-table positions come with their
// links, DatabaseFixtureWriter.swift.)
import QuarryCoreData

extension FixtureGenerator {
    /// Numbers the members of every ordered to-many kept as the
    /// destination's foreign key, per owner in key order, in the store's
    /// spacing: one UPDATE per order column, in one transaction.
    func numberOrderedMembers(in store: SQLStore) throws {
        let mapping = store.mapping
        var done: Set<[String]> = []
        try store.database.inTransaction {
            for entity in model.entities {
                for r in entity.relationships where r.isToMany && r.isOrdered && !r.isTransient {
                    guard case .inverseForeignKey(let key)? = mapping.storage(of: r.name, of: entity.name),
                          let column = mapping.orderColumn(of: r.name, of: entity.name),
                          let table = mapping.table(for: r.destination),
                          done.insert([table, column]).inserted else { continue }
                    let t = SQLIdentifier.quoted(table), k = SQLIdentifier.quoted(key), pk = StoreMapping.quotedPrimaryKey
                    // The largest list must fit (checked arithmetic, never a wrapped value).
                    let largest = try store.database.query("SELECT COALESCE(MAX(n), 0) FROM (SELECT COUNT(*) AS n FROM \(t) WHERE \(k) IS NOT NULL GROUP BY \(k)) AS lists",
                                                           [], as: [.int]).first?.first
                    if case .int(let n)? = largest, n > 0 {
                        _ = try mapping.checkedOrderValue(at: Int(clamping: n - 1), of: r.name, of: entity.name)
                    }
                    try store.database.run("UPDATE \(t) SET \(SQLIdentifier.quoted(column)) = ? + ? * members.i FROM "
                                           + "(SELECT \(pk) AS member, ROW_NUMBER() OVER (PARTITION BY \(k) ORDER BY \(pk)) - 1 AS i FROM \(t) WHERE \(k) IS NOT NULL) AS members "
                                           + "WHERE \(t).\(pk) = members.member",
                                           [.int(mapping.orderSpacing.first), .int(mapping.orderSpacing.step)])
                }
            }
        }
    }
}

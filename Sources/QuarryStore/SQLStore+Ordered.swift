// Order columns in stores made before Quarry stored the order of ordered
// to-manys kept as the destination's foreign key: such a store lacks the
// destination's `_order_…` column (StoreMapping+Ordered.swift), so opening
// it adds the column (every existing link at position 0: they read back in
// key order, as before). Only a model with such a relationship can need
// this; any other store is not touched.
import Foundation

extension SQLStore {
    func addMissingOrderColumns() throws {
        var wanted: [(table: String, column: String)] = []
        for table in Set(model.entities.compactMap { mapping.table(for: $0.name) }).sorted() {
            for column in mapping.orderColumns(onTable: table) { wanted.append((table, column)) }
        }
        guard !wanted.isEmpty else { return }
        var missing: [(table: String, column: String)] = []
        for (table, column) in wanted where try !columnNames(of: table).contains(column) { missing.append((table, column)) }
        guard !missing.isEmpty else { return }
        try database.inTransaction {
            for (table, column) in missing {
                try database.run("ALTER TABLE \(SQLIdentifier.quoted(table)) ADD COLUMN \(SQLIdentifier.quoted(column)) INTEGER NOT NULL DEFAULT 0", [])
            }
        }
    }

    func columnNames(of table: String) throws -> Set<String> {
        let sql = database.dialect == .sqlite
            ? "SELECT name FROM pragma_table_info(?)"
            : "SELECT column_name::text FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?"
        return Set(try database.query(sql, [.string(table)], as: [.string]).compactMap { row in
            if case .string(let s) = row[0] { return s } else { return nil }
        })
    }
}

extension SQLStore {
    /// A link made by the store itself (`insert(_:_:toOne:)`, `link`) joins
    /// the end of an ordered to-many, as `add(_:to:)` does in a context:
    /// its position is one past the largest of its owner's other members.
    func placeLast(_ source: ObjectID, _ r: Relationship, _ target: ObjectID) throws {
        var owner = source, member = target, relationship = r
        if !r.isToMany {
            guard let inverse = r.inverse.flatMap({ model.entity(named: r.destination)?.relationship(named: $0, in: model) }),
                  inverse.isToMany else { return }
            owner = target
            member = source
            relationship = inverse
        }
        guard relationship.isOrdered else { return }
        switch mapping.storage(of: relationship.name, of: owner.entity) {
        case .inverseForeignKey(let key)?:
            guard let column = mapping.orderColumn(of: relationship.name, of: owner.entity),
                  let table = mapping.table(for: relationship.destination).map(SQLIdentifier.quoted) else { return }
            let c = SQLIdentifier.quoted(column)
            try database.run("UPDATE \(table) SET \(c) = (SELECT COALESCE(MAX(o.\(c)), -1) + 1 FROM \(table) o WHERE o.\(SQLIdentifier.quoted(key)) = ? AND o.\(StoreMapping.quotedPrimaryKey) <> ?) WHERE \(StoreMapping.quotedPrimaryKey) = ?",
                             [.int(owner.primaryKey), .int(member.primaryKey), .int(member.primaryKey)])
        case .joinTable(let join, let s, let t)? where s == StoreMapping.joinSourceColumn && mapping.joinTableIsOrdered(join):
            let j = SQLIdentifier.quoted(join)
            try database.run("UPDATE \(j) SET \(StoreMapping.quotedJoinPosition) = (SELECT COALESCE(MAX(o.\(StoreMapping.quotedJoinPosition)), -1) + 1 FROM \(j) o WHERE o.\(SQLIdentifier.quoted(s)) = ? AND o.\(SQLIdentifier.quoted(t)) <> ?) "
                             + "WHERE \(SQLIdentifier.quoted(s)) = ? AND \(SQLIdentifier.quoted(t)) = ?",
                             [.int(owner.primaryKey), .int(member.primaryKey), .int(owner.primaryKey), .int(member.primaryKey)])
        default:
            return
        }
    }
}

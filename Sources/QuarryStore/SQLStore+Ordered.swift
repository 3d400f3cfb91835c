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

    private func columnNames(of table: String) throws -> Set<String> {
        let sql = database.dialect == .sqlite
            ? "SELECT name FROM pragma_table_info(?)"
            : "SELECT column_name::text FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?"
        return Set(try database.query(sql, [.string(table)], as: [.string]).compactMap { row in
            if case .string(let s) = row[0] { return s } else { return nil }
        })
    }
}

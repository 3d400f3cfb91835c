// Version columns in stores made before Quarry kept a row version
// (StoreMapping+Versions.swift): opening such a store adds `_version` to
// each of its tables, every existing row at version 1 (the column's
// default), as the order columns of ordered to-manys are added
// (SQLStore+Ordered.swift). A store that has them is not touched. A
// migration adds them first too, inside its transaction (Migration.run), so
// that a table it rebuilds carries its rows' versions over.
import Foundation

extension SQLStore {
    func addMissingVersionColumns() throws {
        guard mapping.storesVersions else { return }
        let missing = try SQLStore.tablesWithoutVersions(mapping, in: database)
        guard !missing.isEmpty else { return }
        try database.inTransaction { try SQLStore.addVersionColumns(to: missing, in: database) }
    }

    /// The entity tables of `mapping` that lack the version column in `database`.
    static func tablesWithoutVersions(_ mapping: StoreMapping, in database: any SQLDatabase) throws -> [String] {
        let tables = Set(mapping.model.entities.compactMap { mapping.table(for: $0.name) }).sorted()
        let sql = database.dialect == .sqlite
            ? "SELECT 1 FROM pragma_table_info(?) WHERE name = ?"
            : "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? AND column_name = ?"
        var missing: [String] = []
        for table in tables where try database.rows(sql, [.string(table), .string(StoreMapping.versionColumn)]).isEmpty {
            // A table the database does not have (yet) is not this check's business.
            if try database.tableNames().contains(table) { missing.append(table) }
        }
        return missing
    }

    /// Adds the version column to `tables` (inside the caller's transaction).
    static func addVersionColumns(to tables: [String], in database: any SQLDatabase) throws {
        for table in tables {
            try database.run("ALTER TABLE \(SQLIdentifier.quoted(table)) ADD COLUMN \(StoreMapping.versionColumnDefinition(database.dialect))", [])
        }
    }
}

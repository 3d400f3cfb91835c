// Version columns in stores made before Quarry kept a row version
// (StoreMapping+Versions.swift): opening such a store adds `_version` to
// each of its tables, every existing row at version 1 (the column's
// default), as the order columns of ordered to-manys are added
// (SQLStore+Ordered.swift). A store that has them is not touched. A
// migration adds them first too, inside its transaction (Migration.run), so
// that a table it rebuilds carries its rows' versions over.
import Foundation

extension SQLStore {
    func addMissingVersionColumns(_ columns: [String: Set<String>]) throws {
        guard mapping.storesVersions else { return }
        let missing = SQLStore.tablesWithoutVersions(mapping, columns: columns)
        guard !missing.isEmpty else { return }
        try database.inTransaction { try SQLStore.addVersionColumns(to: missing, in: database) }
    }

    /// The entity tables of `mapping` that lack the version column, given
    /// the database's columns by table (`columnsByTable`); a table the
    /// database does not have (yet) is not this check's business.
    static func tablesWithoutVersions(_ mapping: StoreMapping, columns: [String: Set<String>]) -> [String] {
        Set(mapping.model.entities.compactMap { mapping.table(for: $0.name) }).sorted().filter { table in
            columns[table].map { !$0.contains(StoreMapping.versionColumn) } ?? false
        }
    }

    /// Adds the version column to `tables` (inside the caller's transaction).
    static func addVersionColumns(to tables: [String], in database: any SQLDatabase) throws {
        for table in tables {
            try database.run("ALTER TABLE \(SQLIdentifier.quoted(table)) ADD COLUMN \(StoreMapping.versionColumnDefinition(database.dialect))", [])
        }
    }
}

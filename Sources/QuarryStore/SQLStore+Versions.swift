// Version columns in stores made before Quarry kept a row version
// (StoreMapping+Versions.swift): opening such a store adds `_version` to
// each of its tables, every existing row at version 1 (the column's
// default), as the order columns of ordered to-manys are added
// (SQLStore+Ordered.swift). A store that has them is not touched.
import Foundation

extension SQLStore {
    func addMissingVersionColumns() throws {
        guard mapping.storesVersions else { return }
        let tables = Set(model.entities.compactMap { mapping.table(for: $0.name) }).sorted()
        var missing: [String] = []
        for table in tables where try !columnNames(of: table).contains(StoreMapping.versionColumn) { missing.append(table) }
        guard !missing.isEmpty else { return }
        try database.inTransaction {
            for table in missing {
                try database.run("ALTER TABLE \(SQLIdentifier.quoted(table)) ADD COLUMN \(StoreMapping.versionColumnDefinition(database.dialect))", [])
            }
        }
    }
}

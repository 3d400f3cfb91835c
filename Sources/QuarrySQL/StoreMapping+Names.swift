// The fixed names of Quarry's layout, and the statement pieces that name
// them. Every table of a Quarry store has `_pk` (the key) and `_entity` (the
// row's entity) and `_version` (StoreMapping+Versions.swift); a join table
// has `source`, `target` and, when ordered, `position`; the store's own
// tables start with `_quarry_`. These spellings live here and in the other
// StoreMapping files only: code elsewhere asks for them (LayoutNameGuardTests
// fails when one is spelt outside the layout), so that a second layout — Core
// Data's `Z_PK`, `Z_ENT`, `Z_OPT` — has one place to differ.
import QuarryModel

extension StoreMapping {
    /// A join table's column holding the keys of its owning side's rows.
    public static let joinSourceColumn = "source"
    /// A join table's column holding the keys of the other side's rows.
    public static let joinTargetColumn = "target"
    /// An ordered join table's order column (read from the source side).
    public static let joinPositionColumn = "position"
    /// The store's key/value table: format, entity names, model, settings.
    public static let metadataTable = "_quarry_metadata"
    /// The session's temporary list of rows a batch delete removes.
    public static let deleteListTable = "_quarry_delete"
    /// The connection's TEMP table of external data file names that writes
    /// dropped, and its triggers' names (QuarryStore's ExternalBinaryStorage+Sweep.swift).
    public static let externalDroppedNamesTable = "_quarry_external_dropped"
    public static func externalDropTrigger(table: String, column: String, on event: String) -> String {
        "_quarry_external_\(event)_\(table)_\(column)"
    }
    /// The table a migration rebuilds another into, and the prefix of the
    /// temporary columns a migration converts through.
    public static let migrationRebuildTable = "_quarry_rebuild"
    public static let migrationTemporaryPrefix = "_quarry_migrating_"

    /// `"_pk"`.
    public static let quotedPrimaryKey = SQLIdentifier.quoted(primaryKey)
    /// `"_entity"`.
    public static let quotedEntityColumn = SQLIdentifier.quoted(entityColumn)
    /// `"_quarry_metadata"`.
    public static let quotedMetadataTable = SQLIdentifier.quoted(metadataTable)
    /// `"source"`, `"target"`, `"position"`.
    public static let quotedJoinSource = SQLIdentifier.quoted(joinSourceColumn)
    public static let quotedJoinTarget = SQLIdentifier.quoted(joinTargetColumn)
    public static let quotedJoinPosition = SQLIdentifier.quoted(joinPositionColumn)

    /// `alias."_pk"`.
    public static func primaryKey(_ alias: String) -> String { alias + "." + quotedPrimaryKey }
    /// `alias."_entity"`.
    public static func entityColumn(_ alias: String) -> String { alias + "." + quotedEntityColumn }

    /// `UPDATE <table> SET <assignments> WHERE "_pk" = ?` — one row's write;
    /// `table` is unquoted, `assignments` already SQL (`"c" = ?, …`).
    public static func updateRow(table: String, set assignments: String) -> String {
        "UPDATE \(SQLIdentifier.quoted(table)) SET \(assignments) WHERE \(quotedPrimaryKey) = ?"
    }

    /// `DELETE FROM <table> WHERE "_pk" = ?`.
    public static func deleteRow(table: String) -> String {
        "DELETE FROM \(SQLIdentifier.quoted(table)) WHERE \(quotedPrimaryKey) = ?"
    }

    /// `"_pk" IN (?, ?, …)` with `count` placeholders, qualified by `alias` when given.
    public static func keyIn(_ count: Int, alias: String? = nil) -> String {
        (alias.map(primaryKey) ?? quotedPrimaryKey) + " IN (" + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
    }

    /// The columns of a join table, in the order they are created and copied.
    public static func joinColumns(ordered: Bool) -> [String] {
        ordered ? [joinSourceColumn, joinTargetColumn, joinPositionColumn] : [joinSourceColumn, joinTargetColumn]
    }

    /// `SELECT "value" FROM "_quarry_metadata" WHERE "key" = ?`.
    public static let metadataValueQuery = "SELECT \"value\" FROM \(quotedMetadataTable) WHERE \"key\" = ?"
}

extension RelationshipStorage {
    /// For a join table, whether this side is the one its `source` column
    /// names (the side that declares it, and reads its order): the other
    /// side sees the same table with source and target swapped.
    public var isJoinTableOwner: Bool {
        if case .joinTable(_, let source, _) = self { return source == StoreMapping.joinSourceColumn }
        return false
    }
}

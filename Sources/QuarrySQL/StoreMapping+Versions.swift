// The row version of optimistic locking (Core Data's Z_OPT): every table of
// a Quarry store has a `_version` column, 1 when the row is inserted (its
// default, so writers that do not name it — fixtures, batch inserts — give
// it too) and one more on every write of the row: a context's save, batch
// updates, the store's own writes, relationship changes that rewrite the
// row. A context remembers the version of each row it read (read with the
// row, last in the row select) and a save claims it with
// `… WHERE "_pk" = ? AND "_version" = ?` — no row changed is a conflict,
// resolved by the context's merge policy (Context+MergePolicy.swift).
// The leading underscore keeps the name apart from every attribute (whose
// names start with a letter); views over another layout (a Core Data
// store read in place) have no such column: `storesVersions` is false there.
import QuarryModel

extension StoreMapping {
    /// The version column's name: the one place it is spelt.
    public static let versionColumn = "_version"

    /// `"_version" = "_version" + 1` (qualified by `alias` on the right when
    /// given), for the SET list of an UPDATE that writes rows; nil when the
    /// tables have no version column.
    public func versionIncrement(alias: String? = nil) -> String? {
        guard storesVersions else { return nil }
        let c = SQLIdentifier.quoted(StoreMapping.versionColumn)
        return "\(c) = \(alias.map { $0 + "." } ?? "")\(c) + 1"
    }

    /// `, "_version" = "_version" + 1`, or "" without versions: appended to a SET list.
    public func versionIncrementSuffix(alias: String? = nil) -> String {
        versionIncrement(alias: alias).map { ", " + $0 } ?? ""
    }

    /// The version column's definition in CREATE TABLE and ALTER TABLE ADD COLUMN.
    public static func versionColumnDefinition(_ dialect: SQLDialect) -> String {
        "\(SQLIdentifier.quoted(versionColumn)) \(dialect == .sqlite ? "INTEGER" : "BIGINT") NOT NULL DEFAULT 1"
    }
}

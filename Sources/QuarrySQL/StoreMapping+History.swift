// The layout of persistent history (SQLStore+History.swift records and reads
// it): two bookkeeping tables beside the entity tables, as
// `_quarry_metadata` is. `_quarry_history` holds one row per write
// transaction — its token (increasing, never reused: SQLite's AUTOINCREMENT,
// PostgreSQL's identity), timestamp, author, context name and request
// kind; `_quarry_history_changes` one row per changed object — entity,
// primary key, change type, the changed keys of an update (comma-separated:
// model names are identifiers and hold no comma) and, for a deletion, the
// tombstone (the marked attributes' last values, as JSON). The names are
// spelt here only; the leading underscore keeps them apart from entity
// tables (whose names start with a letter).

extension StoreMapping {
    /// The table of history transactions.
    public static let historyTable = "_quarry_history"
    /// The table of history changes, by transaction token and order within it.
    public static let historyChangesTable = "_quarry_history_changes"

    /// CREATE TABLE statements for the two history tables (and the index
    /// that finds an object's changes), for `dialect`.
    public static func historyCreateStatements(_ dialect: SQLDialect) -> [String] {
        let t = SQLIdentifier.quoted(historyTable), c = SQLIdentifier.quoted(historyChangesTable)
        let token = dialect == .sqlite ? "INTEGER PRIMARY KEY AUTOINCREMENT" : "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
        let real = dialect == .sqlite ? "REAL" : "DOUBLE PRECISION"
        return [
            "CREATE TABLE \(t) (\"token\" \(token), \"timestamp\" \(real) NOT NULL, \"author\" TEXT, \"context\" TEXT, \"kind\" TEXT NOT NULL)",
            "CREATE TABLE \(c) (\"token\" BIGINT NOT NULL, \"seq\" INTEGER NOT NULL, \"entity\" TEXT NOT NULL, \"pk\" BIGINT NOT NULL, "
                + "\"change\" TEXT NOT NULL, \"keys\" TEXT, \"tombstone\" TEXT, PRIMARY KEY (\"token\", \"seq\"))",
            "CREATE INDEX \(SQLIdentifier.quoted(historyChangesTable + "_object")) ON \(c) (\"entity\", \"pk\")",
        ]
    }
}

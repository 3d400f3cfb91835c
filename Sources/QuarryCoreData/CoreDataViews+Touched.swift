// Core Data raises a row's Z_OPT on every change to the row (its optimistic
// locking version), where Quarry raises `_version` only when a save claims
// the row or a batch writes it: a save's bookkeeping — a delete rule
// clearing the key of a row the context never loaded, an ordered to-many's
// positions rewritten in rows not otherwise changed — writes a row and
// leaves its version. An app holding a snapshot of such a row would not see
// the change. So the triggers note every row they change in a TEMP table,
// with whether its version changed, and just before the outermost COMMIT
// CoreDataDatabase+Versions.swift raises Z_OPT by one on the rows noted
// without a version change — once per transaction, however many times the
// row was touched, and never on a row the save claimed or inserted (that
// row has its new version already: a second raise would make the context's
// next claim miss). Noting rather than raising at once also keeps a delete
// rule's cleanup, which runs before the updated rows' UPDATEs, from making
// their folded claims (held to the version read) miss. The notes are TEMP,
// like everything of Quarry's, and roll back with the transaction.
import QuarrySQL

extension CoreDataViews {
    /// The TEMP table of rows changed in the open transaction.
    static let touchedTable = "quarry_coredata_touched"

    static func touchedTableStatement() -> String {
        "CREATE TEMP TABLE \(SQLIdentifier.quoted(touchedTable)) (\"view\" TEXT NOT NULL, \"ztable\" TEXT NOT NULL, \"pk\" INTEGER NOT NULL, "
            + "\"versioned\" INTEGER NOT NULL, PRIMARY KEY (\"view\", \"pk\"))"
    }

    /// The UPDATE trigger's note of its row, when anything in it changed:
    /// `changed` lists the view's columns the trigger writes. A new version
    /// replaces any note of the row (once so noted, a row stays so noted); a
    /// change without one is noted only if the row has no note yet. Two
    /// plain INSERTs, no lookup: every row of a bulk edit passes here.
    func touchedNoteOnUpdate(_ h: HierarchyView, changed columns: [String]) -> String {
        let notes = SQLIdentifier.quoted(Self.touchedTable), pk = StoreMapping.quotedPrimaryKey
        let version = SQLIdentifier.quoted(StoreMapping.versionColumn)
        let changed = columns.map { "NEW.\(SQLIdentifier.quoted($0)) IS NOT OLD.\(SQLIdentifier.quoted($0))" }
        let row = "\(sqlString(h.name)), \(sqlString(h.cdTable)), OLD.\(pk)"
        // Unqualified: SQLite allows no schema name on a trigger's INSERT (the TEMP table is found first).
        let into = "INTO \(notes) (\"view\", \"ztable\", \"pk\", \"versioned\")"
        var out = "INSERT OR REPLACE \(into) SELECT \(row), 1 WHERE NEW.\(version) IS NOT OLD.\(version);"
        if !changed.isEmpty {
            out += "INSERT OR IGNORE \(into) SELECT \(row), 0 WHERE NEW.\(version) IS OLD.\(version) AND (\(changed.joined(separator: " OR ")));"
        }
        return out
    }

    /// The INSERT trigger's note of its new row (key `key`): it has its
    /// first version already, whatever else the transaction writes to it.
    func touchedNoteOnInsert(_ h: HierarchyView, key: String) -> String {
        "INSERT OR REPLACE INTO \(SQLIdentifier.quoted(Self.touchedTable)) (\"view\", \"ztable\", \"pk\", \"versioned\") "
            + "VALUES (\(sqlString(h.name)), \(sqlString(h.cdTable)), \(key), 1);"
    }
}

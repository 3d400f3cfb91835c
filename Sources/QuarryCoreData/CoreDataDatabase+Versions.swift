// Z_OPT of rows changed without a new version (CoreDataViews+Touched.swift):
// raised once, just before the outermost COMMIT, whichever way the
// transaction ends — a store's `inTransaction`, or the shell's own BEGIN …
// COMMIT sent through `run`. A write sent when no transaction is open runs
// in one of its own, so that its rows are raised in the same commit (never
// a second, separate one that a crash could lose). A rollback needs nothing:
// the notes are in a TEMP table and roll back with it. What was raised is
// kept for the context that saved (`takeRaisedVersions`), so that its
// objects' versions follow (QuarryStore's RaisedVersions.swift).
import QuarrySQL
import QuarrySQLite
import QuarryStore

/// What the last outermost COMMIT raised, until the context that saved takes it.
final class RaisedRows {
    var raised: [RaisedVersion] = []

    func take() -> [RaisedVersion] {
        defer { raised = [] }
        return raised
    }
}

extension CoreDataDatabase {
    private var notes: String { "temp." + SQLIdentifier.quoted(CoreDataViews.touchedTable) }

    /// `inTransaction`: the outermost level starts with no notes (none can
    /// be left, but a stale one would keep a row from being raised) and
    /// raises the rows noted before it commits.
    func raisingVersions<T>(_ body: () throws -> T) throws -> T {
        guard !connection.isInTransaction else { return try connection.inTransaction(body) }
        raisedRows.raised = []
        var raised: [RaisedVersion] = []
        let result = try connection.inTransaction {
            try connection.execute("DELETE FROM \(notes)")
            let result = try body()
            raised = try raiseTouchedRows()
            return result
        }
        raisedRows.raised = raised
        return result
    }

    /// `run`'s part: nil when the statement runs as usual. A COMMIT (the
    /// shell's) raises the rows first; a write outside any transaction runs
    /// in its own; a BEGIN (the shell's) starts with no notes.
    func runKeepingVersions(_ sql: String, _ arguments: [Value]) throws -> Int? {
        if connection.isInTransaction {
            // Every statement of a save passes here: most are told apart by their first letter.
            guard let first = sql.utf8.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x09 && $0 != 0x0D }),
                  [UInt8(ascii: "C"), UInt8(ascii: "c"), UInt8(ascii: "E"), UInt8(ascii: "e")].contains(first) else { return nil }
            let verb = Self.firstWord(sql)
            guard verb == "COMMIT" || verb == "END" else { return nil }
            let raised = try raiseTouchedRows()
            try connection.execute(sql, arguments)
            raisedRows.raised = raised
            return 0
        }
        let verb = Self.firstWord(sql)
        if verb == "BEGIN" {
            try connection.execute(sql, arguments)
            try connection.execute("DELETE FROM \(notes)")
            return 0
        }
        guard Self.writes(verb) else { return nil }
        return try inTransaction { try run(sql, arguments) }
    }

    /// Whether a statement starting with `verb` may write rows through the
    /// views; a WITH counts unless told it more likely reads (`query`'s).
    static func writes(_ verb: String, orReads: Bool = true) -> Bool {
        ["INSERT", "UPDATE", "DELETE", "REPLACE"].contains(verb) || (orReads && verb == "WITH")
    }

    /// The statement's first keyword, in capitals.
    static func firstWord(_ sql: String) -> String {
        String(sql.drop { $0.isWhitespace }.prefix { $0.isLetter }).uppercased()
    }

    /// Raises Z_OPT by one on every row noted without a version change,
    /// clears the notes, and returns what was raised (by view and key).
    private func raiseTouchedRows() throws -> [RaisedVersion] {
        var raised: [RaisedVersion] = []
        let tables = try connection.query("SELECT DISTINCT \"view\", \"ztable\" FROM \(notes) WHERE \"versioned\" = 0 ORDER BY 1")
        for row in tables {
            guard case .string(let view) = row[0], case .string(let table) = row[1] else { continue }
            let sql = "UPDATE \(SQLIdentifier.quoted(table)) SET \"Z_OPT\" = \"Z_OPT\" + 1 "
                + "WHERE \"Z_PK\" IN (SELECT n.\"pk\" FROM \(notes) n WHERE n.\"view\" = ? AND n.\"versioned\" = 0) RETURNING \"Z_PK\", \"Z_OPT\""
            for r in try connection.query(sql, [.string(view)]) {
                if case .int(let key) = r[0], case .int(let version) = r[1] { raised.append(RaisedVersion(table: view, key: key, version: version)) }
            }
        }
        try connection.execute("DELETE FROM \(notes)")
        return raised
    }
}

// Removing the external data files of a Core Data store opened writable
// once a committed write dropped the last reference to them, as Core Data
// does when a value that allows external storage goes (its row deleted, or
// the value replaced or set to nil). Without this every such file would
// stay in `.<store>_SUPPORT/_EXTERNAL_DATA` forever: Quarry writes new
// values inline (0x01, CoreDataViews+Writing.swift) and never a file, but
// deleting or replacing an old value drops its 0x02 reference.
//
// The design is that of Quarry's own external files
// (QuarryStore/ExternalBinaryStorage+Sweep.swift):
// - TEMP triggers on the real Z-tables (TEMP: nothing enters the file's
//   schema) — one AFTER DELETE per table, one AFTER UPDATE OF per column —
//   note every 0x02 reference a statement drops into a TEMP table, inside
//   the write's own transaction, so a rollback (or ROLLBACK TO a savepoint)
//   un-notes them with the rows it restores;
// - after a commit — checked after every statement and every outermost
//   `inTransaction` of CoreDataDatabase, which is also how the shell's
//   `BEGIN … COMMIT` reaches the store (`run("COMMIT")`) — the noted names
//   are read under the write lock (BEGIN IMMEDIATE), every reference still
//   in the store is looked for, and only the files no row names go.
// What is Core Data's own here: the reference is a BLOB (0x02, the name,
// usually a NUL), decoded exactly as ExternalData.swift reads it; the
// columns looked at are every BLOB column of every entity's Z-table (the
// model's external-storage attributes and any other BLOB column: a model
// given without the flag must not let a still-referenced file go); and a
// name is joined to the folder path only when it is a UUID
// (`ExternalBinaryStorage.isFileName`), so `../x` in a value is never followed.
//
// Unlike Quarry's own storage there is no sweep of the whole folder at
// open: the folder is the app's, and a Core Data writer has its new file
// in the folder before it commits the row naming it — a full sweep could
// delete that file under it. Only names this connection's committed writes
// dropped are ever candidates (a name is a fresh UUID: no other writer
// starts naming it again).
import Foundation
import QuarrySQL
import QuarrySQLite
import QuarryStore

final class CoreDataExternalSweep {
    /// The TEMP table the triggers note dropped references in.
    static let notesTable = "quarry_coredata_dropped_references"

    /// `.<store name>_SUPPORT/_EXTERNAL_DATA` beside the store.
    let folder: URL
    /// (Z-table, column) of every column that may hold a reference.
    let columns: [(table: String, column: String)]

    /// The sweep of the store at `storePath`, or nil when no entity table
    /// has a BLOB column (nothing can hold a reference).
    init?(views: CoreDataViews, connection: SQLiteConnection, storePath: String) throws {
        var columns: [(table: String, column: String)] = []
        for h in views.hierarchies {
            var names = h.columns.filter(\.tagged).map(\.cdColumn)
            for row in try connection.query("SELECT name, type FROM pragma_table_info(?, 'main')", [.string(h.cdTable)]) {
                if case .string(let name) = row[0], case .string(let type) = row[1], type.uppercased().contains("BLOB"),
                   !names.contains(where: { $0.uppercased() == name.uppercased() }) {
                    names.append(name)
                }
            }
            for name in names where !columns.contains(where: { $0 == (h.cdTable, name) }) { columns.append((h.cdTable, name)) }
        }
        guard !columns.isEmpty else { return nil }
        self.columns = columns
        self.folder = ExternalBinaryStorage.folder(forStoreAt: storePath)
    }

    /// A value that may be a reference: 0x02 first (SQL, for `x`).
    private static func mayBeReference(_ x: String) -> String {
        "typeof(\(x)) = 'blob' AND substr(\(x), 1, 1) = x'02'"
    }

    /// The TEMP table and triggers, run at open with the views' own statements.
    func statements() -> [String] {
        let notes = SQLIdentifier.quoted(Self.notesTable)
        var out = ["CREATE TEMP TABLE \(notes) (\"reference\" BLOB NOT NULL)"]
        for table in columns.map(\.table).reduce(into: [String](), { if !$0.contains($1) { $0.append($1) } }) {
            let mine = columns.filter { $0.table == table }.map(\.column)
            let on = SQLIdentifier.quoted(table)
            // Only the head is noted (a name is 36 characters): a huge value
            // of a plain BLOB column that happens to start with 0x02 is not copied.
            func note(_ column: String) -> String {
                let c = "OLD." + SQLIdentifier.quoted(column)
                return "INSERT INTO \(notes) SELECT substr(\(c), 1, 128) WHERE \(Self.mayBeReference(c));"
            }
            out.append("CREATE TEMP TRIGGER \(SQLIdentifier.quoted("quarry_cd_dropped_delete_" + table)) AFTER DELETE ON \(on) BEGIN "
                       + mine.map(note).joined(separator: " ") + " END")
            for column in mine {
                let c = SQLIdentifier.quoted(column)
                let name = SQLIdentifier.quoted("quarry_cd_dropped_update_" + table + "." + column)
                out.append("CREATE TEMP TRIGGER \(name) AFTER UPDATE OF \(c) ON \(on) WHEN OLD.\(c) IS NOT NEW.\(c) BEGIN \(note(column)) END")
            }
        }
        return out
    }

    /// After a statement or a transaction of the store's connection: when
    /// none is open any more and a committed write dropped references,
    /// removes the files no row names. Never throws: the write committed
    /// already, and a sweep that cannot run now (another writer holds the
    /// lock) keeps its notes for the next one.
    func afterWrite(_ connection: SQLiteConnection) {
        guard !connection.isInTransaction else { return }
        // The common case — nothing dropped — costs this one read.
        let notes = SQLIdentifier.quoted(Self.notesTable)
        guard let any = try? connection.query("SELECT 1 FROM temp.\(notes) LIMIT 1"), !any.isEmpty else { return }
        _ = try? connection.transaction { try removeUnreferenced(connection) }
    }

    /// Under the write lock: deletes the noted files no reference names any
    /// more, forgets the notes; returns the names removed.
    @discardableResult
    func removeUnreferenced(_ connection: SQLiteConnection) throws -> [String] {
        let notes = SQLIdentifier.quoted(Self.notesTable)
        var dropped: Set<String> = []
        for row in try connection.query("SELECT \"reference\" FROM temp.\(notes)") {
            if case .data(let bytes) = row[0], let name = ExternalData.fileName(fromReference: bytes),
               ExternalBinaryStorage.isFileName(name) { dropped.insert(name) }
        }
        var removed: [String] = []
        if !dropped.isEmpty {
            let still = try referencedNames(connection, among: dropped)
            for name in dropped.subtracting(still).sorted() {
                // A file that cannot be removed (permissions) stays, ignored:
                // the write that dropped it committed and must not fail now,
                // and the store has no channel for a warning after open. The
                // file is then an orphan, harmless but for its space.
                if ExternalBinaryStorage.removeFile(named: name, in: folder) { removed.append(name) }
            }
        }
        try connection.execute("DELETE FROM temp.\(notes)")
        return removed
    }

    /// Which of `names` a value of the store still refers to, in any
    /// column that may hold a reference (the whole value decoded, as
    /// ExternalData reads it: a name twice in the store keeps its file).
    private func referencedNames(_ connection: SQLiteConnection, among names: Set<String>) throws -> Set<String> {
        var found: Set<String> = []
        for c in columns {
            let column = SQLIdentifier.quoted(c.column)
            try connection.streamRows("SELECT \(column) FROM main.\(SQLIdentifier.quoted(c.table)) WHERE \(Self.mayBeReference(column))",
                                      [], as: [.data]) { row in
                if case .data(let bytes) = row[0], let name = ExternalData.fileName(fromReference: bytes), names.contains(name) {
                    found.insert(name)
                }
            }
        }
        return found
    }
}

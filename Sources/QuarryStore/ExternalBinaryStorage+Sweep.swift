// Removing the files of externally stored values that no row names any more
// (the rules are at the top of ExternalBinaryStorage.swift). Two sweeps:
//
// - At open, `sweep` lists the folder and scans every external column: the
//   orphans of a writer that crashed between writing a file and committing,
//   and of writers that are not Quarry's (a row deleted with sqlite3), go.
// - After each write, `sweepAfterWrite` checks only candidates: the files
//   this storage wrote since the last sweep (a rolled-back transaction's, or
//   a value replaced in the same transaction), and the names the write
//   dropped — which the connection's TEMP triggers note, one AFTER DELETE
//   and one AFTER UPDATE OF per external column, into a TEMP table, in the
//   write's own transaction (so a rollback un-notes them with the rows it
//   restores). A write that touched no file name costs one read of that
//   empty TEMP table — before, every write listed the folder and scanned
//   every name (32.5 ms for one insert beside 10,000 files).
// The triggers are the connection's own (TEMP: nothing is added to the
// store's schema, other writers are not affected); where they cannot be
// made, every sweep after a write is the full one, as before.
import Foundation
import QuarrySQL

extension ExternalBinaryStorage {
    /// Installs the TEMP table and triggers that note dropped file names on
    /// `database`'s connection (after any migration: they name the columns).
    func noteDroppedNames(on database: any SQLDatabase) {
        let table = SQLIdentifier.quoted(StoreMapping.externalDroppedNamesTable)
        var statements = ["CREATE TEMP TABLE IF NOT EXISTS \(table) (\"name\" TEXT NOT NULL)"]
        for c in columns {
            let on = SQLIdentifier.quoted(c.table)
            let note = "BEGIN INSERT INTO \(table) VALUES (OLD.\(c.column)); END"
            let deleted = SQLIdentifier.quoted(StoreMapping.externalDropTrigger(table: c.table, column: c.column, on: "delete"))
            let updated = SQLIdentifier.quoted(StoreMapping.externalDropTrigger(table: c.table, column: c.column, on: "update"))
            statements.append("CREATE TEMP TRIGGER IF NOT EXISTS \(deleted) AFTER DELETE ON \(on) "
                              + "WHEN typeof(OLD.\(c.column)) = 'text' \(note)")
            statements.append("CREATE TEMP TRIGGER IF NOT EXISTS \(updated) AFTER UPDATE OF \(c.column) ON \(on) "
                              + "WHEN typeof(OLD.\(c.column)) = 'text' AND OLD.\(c.column) IS NOT NEW.\(c.column) \(note)")
        }
        do {
            for s in statements { try database.run(s, []) }
            notesDroppedNames = true
        } catch {
            notesDroppedNames = false   // every sweep after a write is the full one
        }
    }

    /// After a write, outside any transaction: deletes the candidate files
    /// (written since the last sweep, or dropped by a write) that no row
    /// names. Returns how many went.
    @discardableResult
    func sweepAfterWrite(_ database: any SQLDatabase) throws -> Int {
        guard notesDroppedNames else { return try sweep(database) }
        guard !database.isInTransaction else { return 0 }
        let table = SQLIdentifier.quoted(StoreMapping.externalDroppedNamesTable)
        let noted = try database.query("SELECT \"name\" FROM \(table)", [], as: [.string])
        guard !noted.isEmpty || !written.isEmpty else { return 0 }
        // Under the write lock: no other writer is between writing a file and
        // committing the row that names it (a name is a fresh UUID, so no
        // other writer can name one of these candidates anyway).
        return try database.inTransaction {
            var candidates = written
            for row in try database.query("SELECT \"name\" FROM \(table)", [], as: [.string]) {
                if case .string(let name) = row[0], Self.isFileName(name) { candidates.insert(name) }
            }
            let referenced = try namesStillStored(among: Array(candidates), database)
            var removed = 0
            for name in candidates where !referenced.contains(name) {
                if Self.removeFile(named: name, in: folder) { removed += 1 }
            }
            try database.run("DELETE FROM \(table)", [])
            written.removeAll()
            return removed
        }
    }

    /// Which of `names` a row still names, in any external column.
    private func namesStillStored(among names: [String], _ database: any SQLDatabase) throws -> Set<String> {
        var found: Set<String> = []
        for start in stride(from: 0, to: names.count, by: 500) {
            let chunk = names[start..<min(start + 500, names.count)]
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            for c in columns {
                let rows = try database.query("SELECT \(c.column) FROM \(SQLIdentifier.quoted(c.table)) WHERE \(c.column) IN (\(marks))",
                                              chunk.map { .string($0) }, as: [.string])
                for row in rows { if case .string(let name) = row[0] { found.insert(name) } }
            }
        }
        return found
    }

    /// Deletes every file no row of `database` names: the sweep at open.
    /// Runs in a transaction of its own (SQLite's write lock: no other writer
    /// is between writing a file and committing the row that names it).
    /// Returns how many went.
    @discardableResult
    func sweep(_ database: any SQLDatabase) throws -> Int {
        guard !database.isInTransaction else { return 0 }
        guard !fileNames().isEmpty else { return 0 }
        return try database.inTransaction {
            let files = fileNames()
            guard !files.isEmpty else { return 0 }
            var referenced: Set<String> = []
            for c in columns {
                try database.streamRows("SELECT \(c.column) FROM \(SQLIdentifier.quoted(c.table)) WHERE typeof(\(c.column)) = 'text'",
                                        [], as: [.string]) { row in
                    if case .string(let name) = row[0] { referenced.insert(name) }
                }
            }
            var removed = 0
            for name in files where !referenced.contains(name) {
                if Self.removeFile(named: name, in: folder) { removed += 1 }
            }
            if notesDroppedNames { try database.run("DELETE FROM \(SQLIdentifier.quoted(StoreMapping.externalDroppedNamesTable))", []) }
            written.removeAll()
            return removed
        }
    }
}

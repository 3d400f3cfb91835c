// The connection of a Core Data store opened writable, as the store's
// `SQLDatabase`: SQLite's own conformance for everything, except what the
// TEMP views' `INSTEAD OF` triggers (CoreDataViews+Writing.swift) change.
// - SQLite counts no change for a statement on a view, so `run` reads how
//   many view rows the triggers wrote from their TEMP counter (a claim's
//   "exactly one row" and a batch's count depend on it);
// - after a trigger `last_insert_rowid()` is the value from before it, so
//   `insertReturningKey` reads the key the trigger allocated from `Z_MAX`;
// - `restartKeys(after:)` has nothing to do: a row inserted with an explicit
//   key moved `Z_MAX` past it in the same trigger;
// - `UPDATE … RETURNING` on such a view returns NULL for some columns
//   (SQLite 3.40), so the store is told to claim rows one by one;
// - `UPDATE "View" AS t0 …` and `DELETE FROM "View" AS t0 …` fail to
//   prepare on a view ("no such column: t0.name", SQLite 3.40), so the
//   alias is taken out and its uses spelt with the view's name, which
//   means the same row (values are bound, never in the text, so only
//   identifiers are rewritten);
// - a row the triggers changed without a new version gets its Z_OPT raised
//   before the outermost COMMIT (CoreDataDatabase+Versions.swift).
import Foundation
import QuarrySQL
import QuarrySQLite
import QuarryStore

final class CoreDataDatabase: SQLDatabase {
    let connection: SQLiteConnection
    private let counter = "temp." + SQLIdentifier.quoted(CoreDataViews.writesTable)
    /// Z_OPT raised at COMMIT for rows changed without a new version (CoreDataDatabase+Versions.swift).
    let raisedRows = RaisedRows()

    init(_ connection: SQLiteConnection) { self.connection = connection }

    /// Removes the external data files committed writes dropped the last
    /// reference to, after each statement and outermost transaction
    /// (CoreDataExternalSweep.swift); nil when nothing can hold one.
    var externalSweep: CoreDataExternalSweep?

    var dialect: SQLDialect { connection.dialect }
    var location: String { connection.location }
    var changeCounter: Int { connection.changeCounter }
    var isInTransaction: Bool { connection.isInTransaction }
    var maximumArguments: Int { connection.maximumArguments }
    var updatesReturnRows: Bool { false }

    func isArithmeticOverflow(_ error: any Error) -> Bool { connection.isArithmeticOverflow(error) }
    func isInterruption(_ error: any Error) -> Bool { connection.isInterruption(error) }
    func constraintViolation(in error: any Error) -> SQLConstraintViolation? { connection.constraintViolation(in: error) }
    func isValueOutOfRange(_ error: any Error) -> Bool { connection.isValueOutOfRange(error) }
    func message(for error: any Error) -> String? { connection.message(for: error) }

    /// The view rows the triggers have written so far on this connection.
    private func writtenRows() throws -> Int {
        if case .int(let n)? = try connection.query("SELECT \"rows\" FROM \(counter)").first?.first { return Int(n) }
        return 0
    }

    /// `UPDATE "T" AS a SET … a."c" …` → `UPDATE "T" SET … "T"."c" …` (and DELETE likewise).
    static func unaliased(_ sql: String) -> String {
        let head = #"^(UPDATE|DELETE FROM) ("(?:[^"]|"")*") AS ([A-Za-z_][A-Za-z0-9_]*) "#
        guard let match = try? NSRegularExpression(pattern: head).firstMatch(in: sql, range: NSRange(sql.startIndex..., in: sql)),
              let verb = Range(match.range(at: 1), in: sql), let table = Range(match.range(at: 2), in: sql),
              let alias = Range(match.range(at: 3), in: sql), let whole = Range(match.range, in: sql) else { return sql }
        let name = String(sql[table])
        let rest = String(sql[whole.upperBound...])
        let uses = try! NSRegularExpression(pattern: #"(?<![A-Za-z0-9_"])"# + NSRegularExpression.escapedPattern(for: String(sql[alias])) + #"\."#)
        let rewritten = uses.stringByReplacingMatches(in: rest, range: NSRange(rest.startIndex..., in: rest),
                                                      withTemplate: NSRegularExpression.escapedTemplate(for: name + "."))
        return "\(sql[verb]) \(name) " + rewritten
    }

    @discardableResult
    func run(_ sql: String, _ arguments: [Value]) throws -> Int {
        // Whichever way the statement ends — a COMMIT (the shell's) that
        // raised versions first included —, the files of external references
        // it dropped go once no transaction is open (after the count below).
        defer { externalSweep?.afterWrite(connection) }
        if let done = try runKeepingVersions(sql, arguments) { return done }   // CoreDataDatabase+Versions.swift
        let sql = Self.unaliased(sql)
        let before = try writtenRows()
        try connection.execute(sql, arguments)
        // A statement on a real table (the TEMP delete list) counts as usual;
        // one on a view counts 0 there, and its rows in the counter.
        let changes = connection.changes
        return changes > 0 ? changes : try writtenRows() - before
    }

    func query(_ sql: String, _ arguments: [Value], as kinds: [SQLValueKind]) throws -> [[Value]] {
        if !connection.isInTransaction, Self.writes(Self.firstWord(sql), orReads: false) { return try inTransaction { try query(sql, arguments, as: kinds) } }
        return try connection.query(Self.unaliased(sql), arguments, as: kinds)
    }

    func streamRows(_ sql: String, _ arguments: [Value], as kinds: [SQLValueKind],
                    _ body: (any SQLRowReading) throws -> Void) throws {
        try connection.streamRows(sql, arguments, as: kinds, body)
    }

    func insertReturningKey(_ sql: String, _ arguments: [Value]) throws -> Int64 {
        if !connection.isInTransaction { return try inTransaction { try insertReturningKey(sql, arguments) } }
        // Always inside a transaction here: its end sweeps external files.
        try connection.execute(sql, arguments)
        guard case .int(let key)? = try connection.query("SELECT \"last_key\" FROM \(counter)").first?.first else {
            throw CoreDataError(.unreadableStore, "no key was allocated for the inserted row (the statement did not go through a view of the store)")
        }
        return key
    }

    func inTransaction<T>(_ body: () throws -> T) throws -> T {
        defer { externalSweep?.afterWrite(connection) }   // does nothing inside an outer transaction
        return try raisingVersions(body)                   // Z_OPT raised before the outermost COMMIT
    }
    func takeRaisedVersions() -> [RaisedVersion] { raisedRows.take() }
    func interrupt() { connection.interrupt() }
    var interrupter: @Sendable () -> Void { connection.interrupter }
    func clearInterruptRequest() { connection.clearInterruptRequest() }
    func throwIfInterruptRequested() throws { try connection.throwIfInterruptRequested() }
    func restartKeys(after table: String) throws {}
    func tableNames() throws -> [String] { try connection.tableNames() }
    func close() { connection.close() }
}

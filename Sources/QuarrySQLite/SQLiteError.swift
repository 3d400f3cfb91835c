// SQLiteError: every failure of this module, as one value type that keeps
// what SQLite said (primary and extended result code, `sqlite3_errmsg`) next
// to the SQL that failed, and sorts it into the few kinds callers act on:
// not a database, busy / locked (retry later), a constraint (and which one),
// interrupted (the user cancelled), a regular expression that was invalid or
// too slow (raised by `quarry_matches`), or a value that cannot be bound.
//
// The message is SQLite's own, untouched, except where SQLite's wording is
// known to confuse ("file is not a database" says nothing about *which*
// file): those cases get a sentence naming the path.
import CSQLite

/// An error from SQLite, or from this module's use of it.
///
/// ```swift
/// do {
///     try connection.execute("INSERT INTO person(name) VALUES (?)", [.string("José")])
/// } catch let error as SQLiteError where error.kind == .constraint {
///     print("duplicate:", error.constraint ?? "?")   // "person.name"
/// }
/// ```
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What callers usually need to tell apart.
    public enum Kind: Sendable, Equatable {
        /// The file exists but is not a SQLite database (`SQLITE_NOTADB`).
        case notADatabase
        /// The file could not be opened (missing, a directory, no permission).
        case cannotOpen
        /// Another connection holds a conflicting lock and the busy timeout ran out.
        case busy
        /// A lock held within this connection's own process (`SQLITE_LOCKED`).
        case locked
        /// A constraint failed; see ``SQLiteError/constraint`` for which.
        case constraint
        /// The statement was cancelled through ``SQLiteInterruptHandle/interrupt()``.
        case interrupted
        /// A write on a read-only connection or file.
        case readOnly
        /// `quarry_matches` was given a pattern that is not a regular expression.
        case invalidRegularExpression
        /// `quarry_matches` ran past its time limit and was stopped.
        case regularExpressionTooComplex
        /// A value with no SQLite representation (array, set, dictionary, object).
        case unbindableValue
        /// Anything else: look at ``SQLiteError/code`` and ``SQLiteError/message``.
        case other
    }

    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT` ...).
    public let code: Int32
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE` ...), equal to
    /// `code` when SQLite gives nothing more precise.
    public let extendedCode: Int32
    /// SQLite's message (`sqlite3_errmsg`), or this module's for its own errors.
    public let message: String
    /// The SQL being prepared or run, when there was one.
    public let sql: String?
    public let kind: Kind

    public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil, kind: Kind? = nil) {
        self.code = code & 0xFF
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
        self.kind = kind ?? SQLiteError.kind(forPrimaryCode: code & 0xFF)
    }

    /// Which constraint failed, as SQLite names it after "constraint failed: "
    /// ("person.name" for UNIQUE, the constraint's name for CHECK), or nil
    /// when SQLite does not say (FOREIGN KEY) or this is not a constraint error.
    public var constraint: String? {
        guard kind == .constraint, let r = message.range(of: "constraint failed: ") else { return nil }
        let name = message[r.upperBound...]
        return name.isEmpty ? nil : String(name)
    }

    /// The kind of constraint from the extended code: "UNIQUE", "PRIMARY KEY",
    /// "NOT NULL", "CHECK", "FOREIGN KEY", or nil.
    public var constraintKind: String? {
        // The extended codes are C macros Swift cannot import:
        // SQLITE_CONSTRAINT | (n << 8), as in sqlite3.h.
        guard code == SQLITE_CONSTRAINT else { return nil }
        switch extendedCode >> 8 {
        case 8: return "UNIQUE"
        case 6: return "PRIMARY KEY"
        case 5: return "NOT NULL"
        case 1: return "CHECK"
        case 3: return "FOREIGN KEY"
        default: return nil
        }
    }

    public var description: String {
        var s = "SQLite error \(extendedCode)"
        if let name = String(validatingCString: sqlite3_errstr(extendedCode)) { s += " (\(name))" }
        s += ": \(message)"
        if let sql { s += " — in: \(sql)" }
        return s
    }

    static func kind(forPrimaryCode code: Int32) -> Kind {
        switch code {
        case SQLITE_NOTADB: return .notADatabase
        case SQLITE_CANTOPEN: return .cannotOpen
        case SQLITE_BUSY: return .busy
        case SQLITE_LOCKED: return .locked
        case SQLITE_CONSTRAINT: return .constraint
        case SQLITE_INTERRUPT: return .interrupted
        case SQLITE_READONLY: return .readOnly
        default: return .other
        }
    }
}

extension SQLiteError {
    /// The error SQLite reports on `db` for result `code`.
    ///
    /// `sqlite3_errmsg` must be read right after the failing call, on the
    /// connection's own thread: the next call overwrites it.
    init(db: OpaquePointer?, code: Int32, sql: String?) {
        let message = db.flatMap { String(validatingCString: sqlite3_errmsg($0)) }
            ?? String(validatingCString: sqlite3_errstr(code)) ?? "unknown error"
        let extended = db.map { sqlite3_extended_errcode($0) } ?? code
        // sqlite3_extended_errcode can lag behind when the failing call was a
        // step on an already-reset statement; trust `code` when they disagree.
        let ext = (extended & 0xFF) == (code & 0xFF) ? extended : code
        // "database is locked" alone does not say that waiting already happened.
        let text = (code & 0xFF) == SQLITE_BUSY
            ? message + " (another connection held the lock longer than the busy timeout)" : message
        self.init(code: code, extendedCode: ext, message: text, sql: sql)
    }

    /// The same error with a different message or kind, keeping the codes.
    func with(message: String? = nil, kind: Kind? = nil) -> SQLiteError {
        SQLiteError(code: code, extendedCode: extendedCode, message: message ?? self.message, sql: sql,
                    kind: kind ?? self.kind)
    }

    static func notADatabase(path: String, underlying: SQLiteError) -> SQLiteError {
        underlying.with(message: "'\(path)' is not a SQLite database (\(underlying.message))", kind: .notADatabase)
    }

    static func misuse(_ message: String, sql: String? = nil) -> SQLiteError {
        SQLiteError(code: SQLITE_MISUSE, message: message, sql: sql, kind: .other)
    }
}

extension SQLiteError {
    /// Errors raised inside `quarry_matches` arrive as a plain SQLITE_ERROR;
    /// their message prefix says which they are.
    func classifiedFunctionError() -> SQLiteError {
        guard code == SQLITE_ERROR else { return self }
        if message.hasPrefix(RegexMatcher.invalidPrefix) { return with(kind: .invalidRegularExpression) }
        if message.hasPrefix(RegexMatcher.timeoutPrefix) { return with(kind: .regularExpressionTooComplex) }
        return self
    }
}

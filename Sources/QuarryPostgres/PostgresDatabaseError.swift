// PostgresDatabaseError: the one error type the PostgreSQL driver throws.
//
// postgres-nio reports failures as several types (PSQLError from connect,
// PostgresError from the future-based query API, NIO's connection errors
// underneath); callers of a store should not need to know any of them. This
// type keeps what a person needs to act — which kind of failure, the server's
// SQLSTATE, message, detail and hint, and the SQL that failed — and its
// description reads as one sentence ("could not connect to 127.0.0.1:5432:
// connection refused — is the server running?").
import Foundation

/// An error from Quarry's PostgreSQL driver.
///
/// ```swift
/// do { try db.run("SELEC 1", []) }
/// catch let e as PostgresDatabaseError where e.kind == .server {
///     print(e.sqlState ?? "")   // "42601"
/// }
/// ```
public struct PostgresDatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What callers usually need to tell apart.
    public enum Kind: Sendable, Equatable {
        /// The URL could not be parsed.
        case malformedURL
        /// No connection: refused, unreachable, DNS, or no answer within the connect timeout.
        case connectionFailed
        /// The server rejected the role or its password (SQLSTATE class 28).
        case authenticationFailed
        /// The database named in the URL does not exist (3D000).
        case databaseNotFound
        /// The server reported an error running a statement.
        case server
        /// `interrupt()` canceled the running statement.
        case canceled
        /// The statement ran longer than `statement_timeout`.
        case timedOut
        /// Another session held a lock the statement needed for longer than
        /// `lock_timeout` (55P03); the statement, and its transaction, did nothing.
        case locked
        /// The connection broke or was closed (`close()`, server shutdown).
        case connectionClosed
        /// A value that has no SQL form (arrays, sets, dictionaries, objects).
        case unbindableValue
        /// Anything else the driver or postgres-nio reported.
        case other
    }

    public var kind: Kind
    /// The main text (the server's message for server errors).
    public var message: String
    /// The five-character SQLSTATE for server errors (`23505`, `57014` ...).
    public var sqlState: String?
    public var detail: String?
    public var hint: String?
    /// The statement that failed, as sent (with `$n` placeholders).
    public var sql: String?

    public init(_ kind: Kind, _ message: String, sqlState: String? = nil, detail: String? = nil,
                hint: String? = nil, sql: String? = nil) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
        self.detail = detail
        self.hint = hint
        self.sql = sql
    }

    public var description: String {
        var s = message
        if let state = sqlState { s += " (SQLSTATE \(state))" }
        if let d = detail, !d.isEmpty { s += "\nDETAIL: \(d)" }
        if let h = hint, !h.isEmpty { s += "\nHINT: \(h)" }
        if let q = sql { s += "\nSQL: \(q)" }
        return s
    }
}



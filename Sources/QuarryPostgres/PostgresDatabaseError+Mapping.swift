// Turning whatever postgres-nio and NIO throw into `PostgresDatabaseError`.
//
// Three families arrive here: `PSQLError` (connect and startup: refused,
// timed out, bad role, missing database), `PostgresError.server` (the
// future-based query API converts server errors into it), and NIO's own
// connection errors underneath `PSQLError.connectionError`. The SQLSTATE
// decides the kind for server errors: class 28 is authentication, 3D000 a
// missing database, 57014 a canceled statement (by `interrupt()` or by
// `statement_timeout`; which one is told by whether we asked), 55P03 a lock
// not granted within `lock_timeout`, class 08 and
// 57P0x a connection the server ended.
import Foundation
import PostgresNIO

extension PostgresDatabaseError {
    /// Maps `error` from connecting to `url`.
    static func connecting(_ error: any Error, url: PostgresURL, timeout: Double) -> PostgresDatabaseError {
        if let e = error as? PostgresDatabaseError { return e }
        let target = "could not connect to \(url.endpoint)"
        if let psql = error as? PSQLError {
            if psql.code == .server, let info = psql.serverInfo {
                let state = info[.sqlState]
                let message = info[.message] ?? "the server refused the connection"
                var e = PostgresDatabaseError(.other, "\(target) as \"\(url.user)\": \(message)", sqlState: state,
                                              detail: info[.detail], hint: info[.hint])
                switch state {
                case "3D000":
                    e.kind = .databaseNotFound
                    e.message = "\(target): database \"\(url.database)\" does not exist"
                case let s? where s.hasPrefix("28"):
                    e.kind = .authenticationFailed
                default:
                    e.kind = .connectionFailed
                }
                return e
            }
            if psql.code == .authMechanismRequiresPassword {
                return PostgresDatabaseError(.authenticationFailed, "\(target) as \"\(url.user)\": the server asks for a password and the URL has none")
            }
            if psql.code == .connectionError, let underlying = psql.underlying {
                return connecting(underlying, url: url, timeout: timeout)
            }
            return PostgresDatabaseError(.connectionFailed, "\(target): \(psql.code)")
        }
        if let e = error as? ChannelError, case .connectTimeout = e {
            return PostgresDatabaseError(.connectionFailed, "\(target): no answer within \(formatSeconds(timeout)) (connect timeout)")
        }
        if let e = error as? NIOConnectionError {
            if let first = e.connectionErrors.first { return connecting(first.error, url: url, timeout: timeout) }
            if let dns = e.dnsAError ?? e.dnsAAAAError {
                return PostgresDatabaseError(.connectionFailed, "\(target): cannot resolve host \"\(e.host)\" (\(dns))")
            }
            return PostgresDatabaseError(.connectionFailed, "\(target): cannot resolve host \"\(e.host)\"")
        }
        if let e = error as? IOError {
            switch e.errnoCode {
            case ECONNREFUSED:
                return PostgresDatabaseError(.connectionFailed, "\(target): connection refused — is the server running?")
            case ENOENT:
                return PostgresDatabaseError(.connectionFailed, "\(target): no such socket — is the server running, with this socket directory and port?")
            case ETIMEDOUT:
                return PostgresDatabaseError(.connectionFailed, "\(target): timed out")
            case EHOSTUNREACH, ENETUNREACH:
                return PostgresDatabaseError(.connectionFailed, "\(target): host unreachable")
            case EACCES:
                return PostgresDatabaseError(.connectionFailed, "\(target): permission denied")
            default:
                return PostgresDatabaseError(.connectionFailed, "\(target): \(String(cString: strerror(e.errnoCode)))")
            }
        }
        if let e = error as? PostgresError { return statement(e, sql: nil, canceledByUs: false) }
        return PostgresDatabaseError(.connectionFailed, "\(target): \(error)")
    }

    /// Maps `error` from running `sql`. `canceledByUs` says `interrupt()`
    /// asked for a cancel while it ran (57014 then means canceled, else timed out).
    static func statement(_ error: any Error, sql: String?, canceledByUs: Bool) -> PostgresDatabaseError {
        if let e = error as? PostgresDatabaseError { return e }
        func server(_ field: (PostgresMessage.Error.Field) -> String?) -> PostgresDatabaseError {
            let state = field(.sqlState)
            let message = field(.message) ?? "the server reported an error"
            var e = PostgresDatabaseError(.server, message, sqlState: state, detail: field(.detail), hint: field(.hint), sql: sql)
            switch state {
            case "57014":
                if canceledByUs || !message.contains("statement timeout") {
                    e.kind = .canceled
                    e.message = "statement canceled" + (canceledByUs ? " (interrupted)" : "") + ": \(message)"
                } else {
                    e.kind = .timedOut
                    e.message = "statement timed out (statement_timeout): \(message)"
                }
            case "55P03":
                e.kind = .locked
                e.message = "database is locked: another session holds a lock this statement needs, "
                    + "and it was not released within lock_timeout (\(message)); nothing was changed"
            case let s? where s.hasPrefix("08") || s.hasPrefix("57P"):
                e.kind = .connectionClosed
            default: break
            }
            return e
        }
        switch error {
        case PostgresError.server(let m):
            return server { m.fields[$0] }
        case PostgresError.connectionClosed:
            return PostgresDatabaseError(.connectionClosed, "the connection to the server is closed", sql: sql)
        case PostgresError.protocol(let text):
            return PostgresDatabaseError(.other, "protocol error: \(text)", sql: sql)
        case let psql as PSQLError:
            if psql.code == .server, let info = psql.serverInfo {
                return server { f in
                    switch f {
                    case .sqlState: return info[.sqlState]
                    case .message: return info[.message]
                    case .detail: return info[.detail]
                    case .hint: return info[.hint]
                    default: return nil
                    }
                }
            }
            if psql.code == .queryCancelled {
                return PostgresDatabaseError(.canceled, "statement canceled", sql: sql)
            }
            if psql.code == .clientClosedConnection || psql.code == .serverClosedConnection || psql.code == .uncleanShutdown {
                return PostgresDatabaseError(.connectionClosed, "the connection to the server is closed (\(psql.code))", sql: sql)
            }
            return PostgresDatabaseError(.other, "\(psql.code)" + (psql.underlying.map { ": \($0)" } ?? ""), sql: sql)
        case let e as ChannelError:
            return PostgresDatabaseError(.connectionClosed, "the connection to the server broke: \(e)", sql: sql)
        default:
            return PostgresDatabaseError(.other, "\(error)", sql: sql)
        }
    }

    private static func formatSeconds(_ s: Double) -> String {
        s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
    }
}

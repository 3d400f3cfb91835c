// PostgresURL: where a PostgreSQL store lives, parsed from the libpq-style
// URL people already write (`postgres://user:password@host:port/database`),
// plus the few query items Quarry understands (`schema`, `connect_timeout`,
// `statement_timeout`, `lock_timeout`, `host` for a Unix-socket directory, `sslmode`).
//
// Parsed by hand rather than with Foundation's URL so that every malformed
// piece gets its own message (a bad port, a bad percent escape, an unknown
// query item) and so that an empty host with `?host=/dir` works, which URL
// parsers disagree about. Unknown query items are errors, not ignored: a typo
// in `statment_timeout` should not silently run without a timeout.
import Foundation

/// A parsed `postgres://` (or `postgresql://`) URL.
///
/// ```swift
/// let url = try PostgresURL("postgres://app:s3cret@127.0.0.1:5432/quarry?schema=tenant_1")
/// url.redacted   // "postgres://app:***@127.0.0.1:5432/quarry?schema=tenant_1"
/// ```
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    /// The role to log in as (default `postgres`).
    public var user: String
    /// The password, if the URL had one.
    public var password: String?
    /// The TCP host (`nil` when `socketDirectory` is used).
    public var host: String?
    /// The TCP port, or the number in the socket file's name (default 5432).
    public var port: Int
    /// A directory holding the server's Unix socket (`?host=/path`).
    public var socketDirectory: String?
    /// The database (default: the user's name, as libpq does).
    public var database: String
    /// A schema to create if missing and put first on the search path.
    public var schema: String?
    /// Seconds to wait for the server to accept a connection (default 10).
    public var connectTimeout: Double?
    /// The server's `statement_timeout`, as PostgreSQL spells it
    /// (`5000` milliseconds, `5s`, `1min`).
    public var statementTimeout: String?
    /// The server's `lock_timeout` (same spelling): how long a statement
    /// waits for a lock another session holds before it fails (default:
    /// the server's, which waits for ever).
    public var lockTimeout: String?

    /// Shown in `pg_stat_activity` (`?application_name=`; default "quarry").
    public var applicationName: String?

    /// Query items this parser understands (`sslmode` only as disable,
    /// allow or prefer: the driver does not use TLS).
    public static let knownQueryItems = ["schema", "connect_timeout", "statement_timeout", "lock_timeout", "host", "port", "user", "password", "dbname", "sslmode", "application_name"]

    public init(user: String = "postgres", password: String? = nil, host: String? = "127.0.0.1", port: Int = 5432,
                socketDirectory: String? = nil, database: String? = nil, schema: String? = nil,
                connectTimeout: Double? = nil, statementTimeout: String? = nil) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.socketDirectory = socketDirectory
        self.database = database ?? user
        self.schema = schema
        self.connectTimeout = connectTimeout
        self.statementTimeout = statementTimeout
    }

    /// Parses `text`; throws `PostgresDatabaseError` of kind `.malformedURL`.
    public init(_ text: String) throws {
        func fail(_ why: String) -> PostgresDatabaseError {
            PostgresDatabaseError(.malformedURL, "malformed PostgreSQL URL \(PostgresURL.redact(text)): \(why)")
        }
        func decode(_ s: Substring, _ what: String) throws -> String {
            guard let d = String(s).removingPercentEncoding else { throw fail("bad percent escape in the \(what)") }
            return d
        }

        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        if rest.hasPrefix("postgres://") { rest = rest.dropFirst("postgres://".count) }
        else if rest.hasPrefix("postgresql://") { rest = rest.dropFirst("postgresql://".count) }
        else { throw fail("it must start with postgres:// or postgresql://") }

        // Split off the query, then the path: what is left is the authority.
        var queryText: Substring?
        if let q = rest.firstIndex(of: "?") { queryText = rest[rest.index(after: q)...]; rest = rest[..<q] }
        if rest.contains("#") { throw fail("a fragment (#...) is not allowed; percent-encode # as %23") }
        var pathText: Substring?
        if let slash = rest.firstIndex(of: "/") { pathText = rest[rest.index(after: slash)...]; rest = rest[..<slash] }
        var authority = rest

        var user: String?
        var password: String?
        // The last @ separates user info, so an unencoded @ in a password still works.
        if let at = authority.lastIndex(of: "@") {
            let info = authority[..<at]
            authority = authority[authority.index(after: at)...]
            if let colon = info.firstIndex(of: ":") {
                user = try decode(info[..<colon], "user name")
                password = try decode(info[info.index(after: colon)...], "password")
            } else {
                user = try decode(info, "user name")
            }
            if user == "" { throw fail("the user name before @ is empty") }
        }

        var host: String?
        var port: Int?
        if authority.hasPrefix("[") {
            // [IPv6]:port
            guard let close = authority.firstIndex(of: "]") else { throw fail("missing ] after an IPv6 address") }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw fail("unexpected text after the IPv6 address") }
                port = try Self.parsePort(after.dropFirst(), fail)
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = try decode(authority[..<colon], "host")
            port = try Self.parsePort(authority[authority.index(after: colon)...], fail)
        } else if !authority.isEmpty {
            host = try decode(authority, "host")
        }
        if host == "" { host = nil }

        var database: String?
        if let p = pathText, !p.isEmpty {
            if p.contains("/") { throw fail("the database name contains a /; percent-encode it as %2F") }
            database = try decode(p, "database name")
        }

        var socketDirectory: String?
        var schema: String?
        var connectTimeout: Double?
        var statementTimeout: String?
        var lockTimeout: String?
        var applicationName: String?
        if let q = queryText, !q.isEmpty {
            for item in q.split(separator: "&", omittingEmptySubsequences: true) {
                guard let eq = item.firstIndex(of: "=") else { throw fail("query item \"\(item)\" has no =value") }
                let key = try decode(item[..<eq], "query")
                let value = try decode(item[item.index(after: eq)...].replacingOccurrences(of: "+", with: " ")[...], "query")
                switch key {
                case "schema":
                    guard PostgresIdentifier.isValid(value) else {
                        throw fail("schema \"\(value)\" is not a plain identifier (letters, digits, _, at most 63 bytes, not starting with a digit)")
                    }
                    schema = value
                case "connect_timeout":
                    guard let t = Double(value), t > 0, t.isFinite else { throw fail("connect_timeout must be a positive number of seconds, not \"\(value)\"") }
                    connectTimeout = t
                case "statement_timeout":
                    guard Self.isTimeout(value) else {
                        throw fail("statement_timeout must be milliseconds or a number with a unit (ms, s, min, h), not \"\(value)\"")
                    }
                    statementTimeout = value
                case "lock_timeout":
                    guard Self.isTimeout(value) else {
                        throw fail("lock_timeout must be milliseconds or a number with a unit (ms, s, min, h), not \"\(value)\"")
                    }
                    lockTimeout = value
                case "host":
                    if value.hasPrefix("/") { socketDirectory = value } else if !value.isEmpty { host = value }
                case "port": port = try Self.parsePort(value[...], fail)
                case "user", "password", "dbname":
                    if key == "user" { user = value } else if key == "password" { password = value } else { database = value }
                case "sslmode":
                    guard ["disable", "allow", "prefer"].contains(value) else {
                        throw fail("sslmode=\(value) is not supported: Quarry's PostgreSQL driver does not use TLS (use disable, allow or prefer)")
                    }
                case "application_name": applicationName = value
                default:
                    throw fail("unknown query item \"\(key)\" (known: \(Self.knownQueryItems.joined(separator: ", ")))")
                }
            }
        }

        if host == nil && socketDirectory == nil { host = "127.0.0.1" }
        if socketDirectory != nil { host = nil }
        let u = user ?? "postgres"
        self.init(user: u, password: password, host: host, port: port ?? 5432, socketDirectory: socketDirectory,
                  database: database ?? u, schema: schema, connectTimeout: connectTimeout, statementTimeout: statementTimeout)
        self.applicationName = applicationName
        self.lockTimeout = lockTimeout
    }

    /// The path of the Unix socket file, as libpq names it.
    public var socketPath: String? {
        socketDirectory.map { ($0.hasSuffix("/") ? String($0.dropLast()) : $0) + "/.s.PGSQL.\(port)" }
    }

    /// Where connections go, for messages: `127.0.0.1:5432` or the socket path.
    public var endpoint: String {
        if let s = socketPath { return s }
        let h = host ?? "127.0.0.1"
        return h.contains(":") ? "[\(h)]:\(port)" : "\(h):\(port)"
    }

    /// The URL with the password replaced by `***`, safe for logs and messages.
    public var redacted: String { render(passwordText: password == nil ? nil : "***") }

    /// The full URL, password included (percent-encoded).
    public var urlString: String { render(passwordText: password.map(Self.encode)) }

    public var description: String { redacted }

    private static func encode(_ s: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s
    }

    /// `passwordText` is already encoded (or `***`).
    private func render(passwordText: String?) -> String {
        let enc = Self.encode
        var s = "postgres://" + enc(user)
        if let p = passwordText { s += ":" + p }
        s += "@"
        if socketDirectory == nil { s += (host ?? "127.0.0.1").contains(":") ? "[\(host!)]" : enc(host ?? "127.0.0.1") }
        s += ":\(port)/" + enc(database)
        var items: [String] = []
        if let d = socketDirectory { items.append("host=" + enc(d).replacingOccurrences(of: "%2F", with: "/")) }
        if let s = schema { items.append("schema=" + enc(s)) }
        if let t = connectTimeout { items.append("connect_timeout=\(t == t.rounded() ? String(Int(t)) : String(t))") }
        if let t = statementTimeout { items.append("statement_timeout=" + enc(t)) }
        if let t = lockTimeout { items.append("lock_timeout=" + enc(t)) }
        if let a = applicationName { items.append("application_name=" + enc(a)) }
        if !items.isEmpty { s += "?" + items.joined(separator: "&") }
        return s
    }

    private static func parsePort(_ s: Substring, _ fail: (String) -> PostgresDatabaseError) throws -> Int {
        guard let p = Int(s), (1...65535).contains(p) else { throw fail("port \"\(s)\" is not a number from 1 to 65535") }
        return p
    }

    private static func isTimeout(_ s: String) -> Bool {
        let digits = s.prefix(while: { $0.isASCII && $0.isNumber })
        guard !digits.isEmpty else { return false }
        return ["", "ms", "s", "min", "h"].contains(s.dropFirst(digits.count).trimmingCharacters(in: .whitespaces))
    }

    /// Best-effort redaction of text that failed to parse: drops whatever
    /// sits between the first `:` after the scheme and the last `@`.
    static func redact(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://"), let at = text.range(of: "@", options: .backwards),
              at.lowerBound > schemeEnd.upperBound else { return "\"\(text)\"" }
        let info = text[schemeEnd.upperBound..<at.lowerBound]
        guard let colon = info.firstIndex(of: ":") else { return "\"\(text)\"" }
        return "\"" + text[..<colon] + ":***" + text[at.lowerBound...] + "\""
    }
}

/// Plain SQL identifiers for names Quarry itself puts into SQL text (schema
/// names): values are always bound, but an identifier cannot be, so it is
/// validated and quoted instead.
public enum PostgresIdentifier {
    /// Letters, digits and `_`, not starting with a digit, 1...63 bytes
    /// (PostgreSQL's NAMEDATALEN - 1).
    public static func isValid(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 63 else { return false }
        func isLetter(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F }
        return isLetter(first) && name.utf8.allSatisfy { isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    /// `name` double-quoted (after `isValid`, no quote can occur in it).
    public static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

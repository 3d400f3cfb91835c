// SQLite's connection as a store's `SQLDatabase`: the one file of the store
// that speaks SQLite's vocabulary. It maps the store's value kinds to
// SQLite's decodings, and classifies `SQLiteError`s for the store and the
// shell (interrupted, a broken constraint, SUM's integer overflow) so that
// nothing else casts to SQLite's types (DriverVocabularyGuardTests lists
// the few files allowed to).
import QuarrySQL
import QuarrySQLite

extension SQLValueKind {
    /// The SQLite decoding of this kind.
    var sqlite: SQLiteValueKind {
        switch self {
        case .automatic: .automatic
        case .bool: .bool
        case .int: .int
        case .double: .double
        case .decimal: .decimal
        case .string: .string
        case .date: .date
        case .data: .data
        case .uuid: .uuid
        }
    }
}

extension Array where Element == SQLValueKind {
    var sqlite: [SQLiteValueKind] { map(\.sqlite) }
}

extension SQLiteRow: SQLRowReading {
    // By storage class, whatever kind the column was asked to decode as.
    public func storedNumber(at index: Int) -> StoredNumber {
        if let n = integer(at: index) { return .integer(n) }
        if let d = real(at: index) { return .real(d) }
        return isNull(at: index) ? .null : .other
    }
}

extension SQLiteConnection: SQLDatabase {
    public var dialect: SQLDialect { .sqlite }
    public var location: String { path }
    public var changeCounter: Int { totalChanges }
    public var maximumArguments: Int { variableLimit }
    public var interrupter: @Sendable () -> Void { { [handle = interruptHandle] in handle.interrupt() } }

    @discardableResult
    public func run(_ sql: String, _ arguments: [Value]) throws -> Int {
        try execute(sql, arguments)
        return changes
    }

    public func query(_ sql: String, _ arguments: [Value], as kinds: [SQLValueKind]) throws -> [[Value]] {
        try query(sql, arguments, as: kinds.sqlite)
    }

    public func streamRows(_ sql: String, _ arguments: [Value], as kinds: [SQLValueKind],
                           _ body: (any SQLRowReading) throws -> Void) throws {
        // The cursor is boxed as `any SQLRowReading` once, not once per row.
        try withCursor(sql, arguments, as: kinds.sqlite) { (row: SQLiteRow, next) in
            let reading: any SQLRowReading = row
            while try next() { try body(reading) }
        }
    }

    public func insertReturningKey(_ sql: String, _ arguments: [Value]) throws -> Int64 {
        try execute(sql, arguments)
        return lastInsertRowID
    }

    /// A statement of its own (not the cache's, which a nested query of the
    /// same text could be using), reset after every run.
    public func preparedRunner(_ sql: String) throws -> ([Value]) throws -> Void {
        let run = try preparedCountingRunner(sql)
        return { arguments in _ = try run(arguments) }
    }

    public func preparedCountingRunner(_ sql: String) throws -> ([Value]) throws -> Int {
        // From the statement cache: a save makes its runners anew each time.
        let statement = try reusableStatement(sql)
        return { arguments in
            defer {
                statement.reset()
                // As the cache's helpers leave it: no bound copy of a blob kept.
                statement.clearBindings()
            }
            try statement.bind(arguments)
            while try statement.step() {}
            return self.changes
        }
    }

    public func inTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction(.immediate, body)
    }

    public func restartKeys(after table: String) throws {}

    public func isArithmeticOverflow(_ error: any Error) -> Bool {
        // SQLite has no code of its own for it: SUM raises SQLITE_ERROR
        // with exactly this message (sumFinalize in func.c).
        guard let e = error as? SQLiteError else { return false }
        return e.code == 1 && e.message == "integer overflow"
    }

    public func isInterruption(_ error: any Error) -> Bool {
        (error as? SQLiteError)?.kind == .interrupted
    }

    public func constraintViolation(in error: any Error) -> SQLConstraintViolation? {
        guard let e = error as? SQLiteError, e.kind == .constraint else { return nil }
        switch e.constraintKind {
        case "UNIQUE", "PRIMARY KEY": return SQLConstraintViolation(.unique, name: e.constraint)
        // SQLite names no foreign key.
        case "FOREIGN KEY": return SQLConstraintViolation(.foreignKey)
        case "NOT NULL": return SQLConstraintViolation(.notNull, name: e.constraint)
        case "CHECK": return SQLConstraintViolation(.check, name: e.constraint)
        default: return SQLConstraintViolation(.other, name: e.constraint)
        }
    }

    /// SQLite's columns take any integer: a value never is out of range.
    public func isValueOutOfRange(_ error: any Error) -> Bool { false }

    public func message(for error: any Error) -> String? {
        (error as? SQLiteError)?.message
    }

    public func tableNames() throws -> [String] {
        try query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap {
            if case .string(let s) = $0.first { return s }
            return nil
        }
    }
}

extension SQLDatabase {
    /// The file this database lives in (a SQLite file's path), or nil for
    /// an in-memory or a server database: what has a folder beside it for
    /// externally stored values (ExternalBinaryStorage.swift).
    /// A `file:` URI gives the file it opens (SQLiteFilePath.swift), not
    /// its text, which would put the folder under the working directory.
    var databaseFile: String? {
        guard let sqlite = self as? SQLiteConnection else { return nil }
        return SQLiteFilePath.file(of: sqlite.path)
    }
}

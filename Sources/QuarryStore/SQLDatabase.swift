// What a store needs from a SQL engine's connection, so that one store
// implementation (planning, decoding objects, batch requests with delete
// rules, the context's saves) runs on SQLite and on PostgreSQL alike.
//
// The contract every driver keeps:
// - SQL text uses `?` placeholders; a driver that numbers them (`$1`)
//   renumbers them itself. Values are only ever bound, never pasted in.
// - Rows decode to `Value`s by the kinds the caller asks for (a boolean
//   stored as 0/1, a date stored as seconds since 2001); `.automatic` decodes
//   by the engine's own column type.
// - `inTransaction` commits when its body returns and rolls back when it
//   throws; nested calls become savepoints.
// - `run` returns how many rows the statement changed.
// (The names differ from SQLiteConnection's own `execute` / `transaction`,
// whose overloads would otherwise be ambiguous on a SQLite connection.)
import QuarrySQL
import QuarrySQLite

/// How to decode a result column (shared by every driver).
public typealias SQLValueKind = SQLiteValueKind

/// One row of a result, read column by column while the row is current.
public protocol SQLRowReading {
    subscript(_ index: Int) -> Value { get }
    /// Initializes `destination[0..<columns.count]` with the values of
    /// `columns` (as the subscript reads them), in one call per row.
    func initialize(_ destination: UnsafeMutablePointer<Value>, columns: Range<Int>)
    /// Whether column `index` is text equal to `text` (drivers may compare
    /// without making a String of the column).
    func text(at index: Int, equals text: String) -> Bool
    /// Column `index` when it holds an integer (a row's key), else nil; as
    /// `.int` from the subscript, without making a `Value`.
    func integer(at index: Int) -> Int64?
    /// Column `index` as the engine stores it, for sorting rows in memory
    /// (MemorySorter.swift): SQLite's storage class, not the declared type.
    func storedNumber(at index: Int) -> StoredNumber
}

/// A sort key as stored: a number, NULL, or something memory does not sort
/// (text, a blob).
public enum StoredNumber: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case other
}

extension SQLRowReading {
    public func initialize(_ destination: UnsafeMutablePointer<Value>, columns: Range<Int>) {
        for (offset, i) in columns.enumerated() { (destination + offset).initialize(to: self[i]) }
    }

    public func text(at index: Int, equals text: String) -> Bool {
        if case .string(let s) = self[index] { return s == text }
        return false
    }

    public func integer(at index: Int) -> Int64? {
        if case .int(let n) = self[index] { return n }
        return nil
    }

    public func storedNumber(at index: Int) -> StoredNumber {
        switch self[index] {
        case .null: return .null
        case .int(let n): return .integer(n)
        case .double(let d): return .real(d)
        default: return .other
        }
    }
}

/// A connection to a SQL engine, as a store uses it.
public protocol SQLDatabase: AnyObject {
    /// The SQL the planner must write for this engine.
    var dialect: SQLDialect { get }
    /// Where the data lives, for messages and cache fingerprints: a file
    /// path, `:memory:`, or a server URL without its password.
    var location: String { get }
    /// A number that changes whenever this connection changed data (cache
    /// fingerprints of in-memory and server stores use it).
    var changeCounter: Int { get }
    /// True between BEGIN and COMMIT / ROLLBACK.
    var isInTransaction: Bool { get }
    /// How many `?` arguments one statement may bind: IN-lists of keys
    /// (batches, prefetching) are cut into chunks of at most this many.
    var maximumArguments: Int { get }

    /// Whether `error` is this database refusing an integer result that
    /// does not fit (SQLite's SUM "integer overflow", PostgreSQL's SQLSTATE
    /// 22003): a dictionary fetch then reruns in memory, where the
    /// evaluator answers the exact total or the nearest double.
    func isArithmeticOverflow(_ error: any Error) -> Bool

    /// Runs one statement; returns the number of rows it changed.
    @discardableResult
    func run(_ sql: String, _ arguments: [Value]) throws -> Int
    /// A statement to run many times with different arguments (a save's
    /// UPDATEs, one per object): the returned closure runs it once per call.
    /// The default goes through `run` each time; SQLite keeps the statement
    /// prepared and binds straight into it, sparing every call the lookup of
    /// the statement by its text. Keep the closure no longer than the work
    /// that needs it (it may hold the prepared statement).
    func preparedRunner(_ sql: String) throws -> ([Value]) throws -> Void
    /// Runs one statement and returns all its rows.
    func query(_ sql: String, _ arguments: [Value], as kinds: [SQLValueKind]) throws -> [[Value]]
    /// Streams the rows of one statement through `body`.
    func streamRows(_ sql: String, _ arguments: [Value], as kinds: [SQLValueKind],
                    _ body: (any SQLRowReading) throws -> Void) throws
    /// Runs an INSERT of one row into a table whose key is `"_pk"` and
    /// returns the new row's key (a SQLite rowid, a PostgreSQL identity).
    func insertReturningKey(_ sql: String, _ arguments: [Value]) throws -> Int64
    /// Runs `body` in a transaction (a savepoint when one is open).
    func inTransaction<T>(_ body: () throws -> T) throws -> T
    /// Asks the statement running now (on another thread) to stop; it fails
    /// with the driver's interrupted error. Safe to call from any thread.
    func interrupt()
    /// `interrupt` as a closure another thread may keep (the shell's Ctrl-C
    /// watch); it must not keep the connection open by itself.
    var interrupter: @Sendable () -> Void { get }
    /// Forgets interrupts asked for before now: called when new work starts.
    func clearInterruptRequest()
    /// Throws the driver's interrupted error when `interrupt()` was called
    /// since the last `clearInterruptRequest()`. Work made of many short
    /// statements checks it between them: an interrupt that arrives while
    /// no statement runs would otherwise be lost.
    func throwIfInterruptRequested() throws
    /// After rows were inserted with explicit keys: later inserts into
    /// `table` must get keys past them (PostgreSQL moves the identity's
    /// sequence; SQLite's rowids need nothing).
    func restartKeys(after table: String) throws
    /// The names of the tables in the database (for schema checks and `.tables`).
    func tableNames() throws -> [String]
    /// Closes the connection; later calls fail.
    func close()
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

    public func streamRows(_ sql: String, _ arguments: [Value], as kinds: [SQLValueKind],
                           _ body: (any SQLRowReading) throws -> Void) throws {
        // The cursor is boxed as `any SQLRowReading` once, not once per row.
        try withCursor(sql, arguments, as: kinds) { (row: SQLiteRow, next) in
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
        let statement = try prepare(sql)
        return { arguments in
            defer { statement.reset() }
            try statement.bind(arguments)
            while try statement.step() {}
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

    public func tableNames() throws -> [String] {
        try query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap {
            if case .string(let s) = $0.first { return s }
            return nil
        }
    }
}

extension SQLDatabase {
    /// Drivers that cannot be interrupted have nothing to remember.
    public func clearInterruptRequest() {}
    public func throwIfInterruptRequested() throws {}

    /// SQLite's default since 3.32 (PostgreSQL allows 65535).
    public var maximumArguments: Int { 32_766 }

    /// Runs one statement without arguments.
    @discardableResult
    public func run(_ sql: String) throws -> Int { try run(sql, []) }

    /// Through `run` every time: drivers that cache prepared statements by
    /// their text themselves (PostgreSQL's) need nothing more.
    public func preparedRunner(_ sql: String) throws -> ([Value]) throws -> Void {
        { arguments in try self.run(sql, arguments) }
    }

    /// All rows of one statement (kinds default to `.automatic`).
    public func rows(_ sql: String, _ arguments: [Value] = [], as kinds: [SQLValueKind] = []) throws -> [[Value]] {
        try query(sql, arguments, as: kinds)
    }

    /// `INSERT ... ` that skips rows whose key is already there.
    func insertIgnoring(into target: String, _ rest: String) -> String {
        dialect == .sqlite ? "INSERT OR IGNORE INTO \(target) \(rest)" : "INSERT INTO \(target) \(rest) ON CONFLICT DO NOTHING"
    }

    /// The connection's private list of rows a batch delete removes.
    var deleteList: String { (dialect == .sqlite ? "temp." : "pg_temp.") + SQLIdentifier.quoted(StoreMapping.deleteListTable) }
}

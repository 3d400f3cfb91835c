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
// - Errors are the driver's own types; the store and the shell learn what
//   kind of failure one is only by asking the driver (`isInterruption`,
//   `constraintViolation(in:)` ...), never by casting to the driver's type.
// (The names differ from SQLite's own `execute` / `transaction`, whose
// overloads would otherwise be ambiguous on a SQLite connection.) SQLite's
// conformance is SQLiteConnection+SQLDatabase.swift, PostgreSQL's is in
// QuarryPostgres.
import QuarrySQL

/// How to decode a result column, in the store's terms: each driver maps
/// these to its own decoding (SQLite to `SQLiteValueKind`).
public enum SQLValueKind: Sendable, Equatable {
    /// By the column's declared type when the driver knows it (BOOL, DATE,
    /// DECIMAL, UUID), otherwise by the type of the value in hand.
    case automatic
    case bool, int, double, decimal, string, date, data, uuid
}

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
    /// Whether `error` is this database's statement stopped by `interrupt()`
    /// (SQLite's SQLITE_INTERRUPT, PostgreSQL's cancel we asked for; not a
    /// server's statement timeout).
    func isInterruption(_ error: any Error) -> Bool
    /// The constraint `error` says a write broke (unique, foreign key, not
    /// null, check), or nil when it is no such refusal.
    func constraintViolation(in error: any Error) -> SQLConstraintViolation?
    /// Whether `error` is this database refusing a value that does not fit
    /// a column's type (PostgreSQL's SQLSTATE 22003 on a write; SQLite's
    /// columns take any integer, so never there).
    func isValueOutOfRange(_ error: any Error) -> Bool
    /// What the database said about `error`, in its own words and without
    /// the SQL that failed; nil when `error` is not this driver's.
    func message(for error: any Error) -> String?

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
    /// `preparedRunner` whose closure returns the number of rows each run
    /// changed: a save's UPDATEs that hold rows to the version the context
    /// read count the rows they matched (ContextWriter+Versions.swift).
    func preparedCountingRunner(_ sql: String) throws -> ([Value]) throws -> Int
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
    /// Whether `UPDATE … RETURNING` names the rows it wrote (a save claims
    /// many rows per statement with it). False on a database whose tables
    /// are views with INSTEAD OF triggers (a Core Data store opened
    /// writable), where SQLite returns NULL for some columns: rows are then
    /// claimed one by one.
    var updatesReturnRows: Bool { get }
    /// The rows whose versions the database raised by itself at the last
    /// outermost COMMIT, handed out once (RaisedVersions.swift; by default
    /// none): a context that saved brings its objects' versions up to date.
    func takeRaisedVersions() -> [RaisedVersion]
    /// Closes the connection; later calls fail.
    func close()
}

extension SQLDatabase {
    /// Whether `error` is a write refused for a broken constraint.
    public func isConstraintViolation(_ error: any Error) -> Bool { constraintViolation(in: error) != nil }

    /// Drivers that cannot be interrupted have nothing to remember.
    public func clearInterruptRequest() {}
    public func throwIfInterruptRequested() throws {}

    /// Real tables return their rows.
    public var updatesReturnRows: Bool { true }

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

    public func preparedCountingRunner(_ sql: String) throws -> ([Value]) throws -> Int {
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

// SQLiteConnection: one open SQLite database — opening and configuring it,
// running SQL with bound `Value`s through a statement cache, and closing.
// Transactions are in SQLiteTransactions.swift, cancellation in
// SQLiteInterrupt.swift, the SQL functions in SQLiteFunctions.swift.
//
// Threading: the connection is opened with SQLITE_OPEN_NOMUTEX, so SQLite
// takes no locks of its own for it, and this class is deliberately not
// `Sendable`: create it and use it on one thread, or own it inside one
// actor. Other threads may only cancel, through ``interruptHandle``.
// Several connections to the same file (one per thread or actor) are the
// way to work in parallel: in WAL mode readers never wait for the writer.
//
// Every file connection runs `journal_mode=WAL` (readers and one writer at
// once) with `synchronous=NORMAL` (WAL's recommended setting: durable at
// checkpoints, and a crash can lose at most the last transactions but never
// corrupt), `foreign_keys=ON`, and a busy timeout: a writer that finds
// another writer in the way retries for that long, then fails with a
// `.busy` error.
import CSQLite
import Foundation

/// An open SQLite database.
///
/// ```swift
/// let db = try SQLiteConnection(path: "/tmp/company.sqlite")
/// try db.execute("CREATE TABLE IF NOT EXISTS person(id INTEGER PRIMARY KEY, name TEXT, born DATE)")
/// try db.execute("INSERT INTO person(name, born) VALUES (?, ?)", [.string("Zoë"), .date(0)])
/// let rows = try db.query("SELECT name, born FROM person WHERE quarry_begins(name, ?, 3)", [.string("zo")])
/// // rows == [[.string("Zoë"), .date(0)]]
/// ```
///
/// Not `Sendable`: confine a connection to one thread or actor. Only
/// ``interruptHandle`` may be used from elsewhere.
public final class SQLiteConnection {
    /// How to open a connection.
    public struct Options: Sendable {
        /// Open for reading only (no WAL switch, writes fail with `.readOnly`).
        public var readOnly: Bool
        /// Create the file when it does not exist (ignored when `readOnly`).
        public var create: Bool
        /// Seconds a statement waits for another connection's lock before
        /// failing with `.busy`. 0 fails at once.
        public var busyTimeout: Double
        /// Prepared statements kept by SQL text (least recently used go first).
        public var statementCacheCapacity: Int
        /// Seconds one `quarry_matches` call may run (the evaluator's default is 1).
        public var regexTimeLimit: Double
        /// Whether a writable file is switched to WAL with `synchronous =
        /// NORMAL` (Quarry's own stores). Off for a file whose journal mode
        /// is another program's to choose (a Core Data store opened writable).
        public var switchesToWAL = true
        /// Whether the `-wal` file stays (emptied) when the last connection
        /// closes, as Core Data leaves it, rather than being deleted.
        public var persistsWAL = false
        /// A connection that only looks (QuarryStore's SQLiteFileInspection,
        /// read-only, immutable): no header check (the caller made it), no
        /// Quarry SQL functions and no pragmas — only the schema read.
        public var onlyLooks = false

        public init(readOnly: Bool = false, create: Bool = true, busyTimeout: Double = 5,
                    statementCacheCapacity: Int = 64, regexTimeLimit: Double = 1) {
            self.readOnly = readOnly
            self.create = create
            self.busyTimeout = busyTimeout
            self.statementCacheCapacity = statementCacheCapacity
            self.regexTimeLimit = regexTimeLimit
        }
    }

    /// The path (or URI, or `:memory:`) the connection was opened with.
    public let path: String
    public let options: Options
    /// A handle that cancels this connection's running statement from any thread.
    public let interruptHandle: SQLiteInterruptHandle

    let db: OpaquePointer
    let cache: StatementCache
    private let functionSettings: SQLFunctionSettings
    private(set) public var isClosed = false
    /// Depth of nested `transaction` calls (names the savepoints).
    var savepointDepth = 0

    /// Opens (or creates) the database at `path`; `":memory:"` is a private
    /// in-memory database. `file:` URIs are accepted.
    ///
    /// Throws `.notADatabase` for a file that is not SQLite, `.cannotOpen`
    /// for a missing file when `create` is false (or an unusable path).
    public init(path: String, options: Options = Options()) throws(SQLiteError) {
        if !options.onlyLooks { try Self.checkHeader(path) }
        var handle: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI | SQLITE_OPEN_EXRESCODE
        flags |= options.readOnly ? SQLITE_OPEN_READONLY
            : (SQLITE_OPEN_READWRITE | (options.create ? SQLITE_OPEN_CREATE : 0))
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK, let handle else {
            let error = SQLiteError(db: handle, code: rc, sql: nil)
            sqlite3_close_v2(handle) // SQLite allocates a handle even on failure.
            throw error.with(message: "cannot open '\(path)': \(error.message)")
        }
        self.db = handle
        self.path = path
        self.options = options
        self.cache = StatementCache(capacity: options.statementCacheCapacity)
        self.functionSettings = SQLFunctionSettings(regexTimeLimit: options.regexTimeLimit)
        self.interruptHandle = SQLiteInterruptHandle(handle)
        do throws(SQLiteError) {
            try configure()
        } catch {
            close()
            throw error.kind == .notADatabase ? .notADatabase(path: path, underlying: error) : error
        }
    }

    /// Refuses a non-empty file that does not start as every SQLite database
    /// does ("SQLite format 3" and a NUL). SQLite finds most such files out
    /// itself, but it takes a file of exactly one byte for an empty database
    /// (a workaround for an old file-system bug) and would write a new
    /// database over it. An empty file is an empty database, as for SQLite.
    static func checkHeader(_ path: String) throws(SQLiteError) {
        guard let file = SQLiteFilePath.file(of: path) else { return }
        let start = SQLiteFilePath.firstBytes(of: file, count: 16)
        if !start.isEmpty && start != SQLiteFilePath.headerMagic {
            throw .notADatabase(path: path, underlying: SQLiteError(code: SQLITE_NOTADB, message: "file is not a database"))
        }
    }

    /// A private in-memory database (gone when the connection closes).
    public static func inMemory(options: Options = Options()) throws(SQLiteError) -> SQLiteConnection {
        try SQLiteConnection(path: ":memory:", options: options)
    }

    deinit { close() }

    private func configure() throws(SQLiteError) {
        sqlite3_extended_result_codes(db, 1)
        // Run once each, so not cached: the cache is for the caller's SQL.
        func run(_ sql: String) throws(SQLiteError) {
            let statement = try prepareStatement(sql, persistent: false)
            while try statement.step() {}
        }
        if options.onlyLooks { return try run("SELECT count(*) FROM sqlite_master") }
        busyTimeout = options.busyTimeout
        let rc = SQLiteFunctions.register(on: db, settings: functionSettings)
        if rc != SQLITE_OK { throw SQLiteError(db: db, code: rc, sql: nil) }
        try run("PRAGMA foreign_keys = ON")
        if options.persistsWAL {
            var on: Int32 = 1
            sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &on)
        }
        if !options.readOnly && !isMemory && options.switchesToWAL {
            // The first statement that reads the file: a non-SQLite file fails here.
            try run("PRAGMA journal_mode = WAL")
            try run("PRAGMA synchronous = NORMAL")
        }
        // Read the schema so that a file that is not a database fails now,
        // at open, rather than at the caller's first query.
        try run("SELECT count(*) FROM sqlite_master")
    }

    private var isMemory: Bool {
        path.isEmpty || path == ":memory:" || path.hasPrefix("file::memory:") || path.contains("mode=memory")
    }

    /// Closes the connection; later calls fail with a misuse error. Statements
    /// you prepared yourself keep the database open until they are released.
    /// Safe to call twice.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        cache.removeAll()
        interruptHandle.invalidate()
        // close_v2: if the caller still holds statements, the connection
        // stays alive as a "zombie" until they are finalized, instead of failing.
        sqlite3_close_v2(db)
    }

    // MARK: Settings and counters

    /// Seconds to wait for a lock held by another connection (see ``Options/busyTimeout``).
    public var busyTimeout: Double = 0 {
        didSet { sqlite3_busy_timeout(db, Int32(clamping: Int((max(0, busyTimeout) * 1000).rounded()))) }
    }

    /// Seconds one `quarry_matches` call may run before the statement fails.
    public var regexTimeLimit: Double {
        get { functionSettings.regexTimeLimit }
        set { functionSettings.regexTimeLimit = newValue }
    }

    /// The rowid of the most recent successful INSERT on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(db) }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes64(db)) }

    /// How many `?` arguments one statement may bind
    /// (`SQLITE_LIMIT_VARIABLE_NUMBER`: 32766 since SQLite 3.32, 999 before).
    public var variableLimit: Int { Int(sqlite3_limit(db, SQLITE_LIMIT_VARIABLE_NUMBER, -1)) }

    /// Rows changed since the connection opened.
    public var totalChanges: Int { Int(sqlite3_total_changes64(db)) }

    /// Cancels the statement running on this connection (same thread, e.g.
    /// from inside a `forEachRow` closure). From another thread use
    /// ``interruptHandle``.
    public func interrupt() { interruptHandle.interrupt() }

    /// Throws `.interrupted` when ``interrupt()`` was called since the last
    /// ``clearInterruptRequest()``: the check long work makes between its
    /// statements, where SQLite itself would not notice the interrupt.
    public func throwIfInterruptRequested() throws(SQLiteError) {
        if interruptHandle.isRequested {
            throw SQLiteError(code: SQLITE_INTERRUPT, message: "interrupted", kind: .interrupted)
        }
    }

    /// Forgets interrupts asked for before the work about to start.
    public func clearInterruptRequest() { interruptHandle.clearRequest() }
}

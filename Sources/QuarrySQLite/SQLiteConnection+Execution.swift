// Running SQL on a connection: prepare (cached or not), execute, query into
// arrays, stream rows, and scripts of several statements.
//
// The helpers take one statement each and refuse SQL with a second statement
// after the first: with bound arguments, a silently ignored tail is a bug
// waiting to happen. `executeScript` is the way to run several (schemas).
// Cached statements are reset and their bindings cleared after every use, so
// no read transaction is left open and no bound copy of a large blob lingers.
import CSQLite

extension SQLiteConnection {
    /// Prepares `sql` without caching it; the statement is yours to keep.
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try prepareStatement(sql, persistent: false)
    }

    /// The statement for `sql` from the connection's cache (prepared and
    /// cached on first use), for a caller that binds, steps and resets it
    /// itself, run after run — a context's save asks for the same UPDATE on
    /// every save, and compiling it each time cost more than running it.
    /// A fresh, uncached one when the cached one is being stepped right now
    /// (a helper's query of the same SQL). Run it to completion and reset it
    /// before the connection runs anything else, as the helpers do.
    public func reusableStatement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try checkOpen(sql)
        if let cached = cache.statement(for: sql) {
            return cached.isInUse ? try prepareStatement(sql, persistent: false) : cached
        }
        let statement = try prepareStatement(sql, persistent: true)
        cache.insert(statement)
        return statement
    }

    /// Runs one statement to completion (rows, if any, are discarded).
    ///
    /// ```swift
    /// try db.execute("UPDATE task SET done = ? WHERE id = ?", [.bool(true), .int(7)])
    /// print(db.changes)   // 1
    /// ```
    public func execute(_ sql: String, _ arguments: [Value] = []) throws(SQLiteError) {
        let statement = try acquire(sql, arguments)
        defer { release(statement) }
        while try statement.step() {}
    }

    /// Runs one statement and returns all its rows, decoded.
    ///
    /// `kinds` says how to read columns whose declared type does not tell
    /// (expressions such as `max(startDate)`); missing entries are `.automatic`.
    ///
    /// ```swift
    /// let rows = try db.query("SELECT name FROM person WHERE age > ?", [.int(30)])
    /// ```
    public func query(_ sql: String, _ arguments: [Value] = [],
                      as kinds: [SQLiteValueKind] = []) throws(SQLiteError) -> [[Value]] {
        let statement = try acquire(sql, arguments)
        defer { release(statement) }
        var rows: [[Value]] = []
        let row = SQLiteRow(statement: statement, kinds: kinds)
        while try statement.step() { rows.append(row.values) }
        return rows
    }

    /// The first column of the first row, or `.null` when there is no row.
    ///
    /// ```swift
    /// let count = try db.scalar("SELECT count(*) FROM person")   // .int(3)
    /// ```
    public func scalar(_ sql: String, _ arguments: [Value] = [],
                       as kind: SQLiteValueKind = .automatic) throws(SQLiteError) -> Value {
        let statement = try acquire(sql, arguments)
        defer { release(statement) }
        guard try statement.step(), statement.columnCount > 0 else { return .null }
        return SQLiteRow(statement: statement, kinds: [kind])[0]
    }

    /// Streams the rows of one statement through `body`, one at a time and
    /// decoded only as far as `body` reads them. Memory stays flat however
    /// many rows there are. Errors thrown by `body` stop the query and are
    /// rethrown; the row must not be kept past the call.
    ///
    /// ```swift
    /// var total = 0.0
    /// try db.forEachRow("SELECT salary FROM employee WHERE active") { row in
    ///     total += row.double(at: 0)
    /// }
    /// ```
    public func forEachRow(_ sql: String, _ arguments: [Value] = [], as kinds: [SQLiteValueKind] = [],
                           _ body: (SQLiteRow) throws -> Void) throws {
        let statement = try acquire(sql, arguments)
        defer { release(statement) }
        let row = SQLiteRow(statement: statement, kinds: kinds)
        while try statement.step() { try body(row) }
    }

    /// `forEachRow` turned inside out: `body` gets the row cursor once, and
    /// a function that steps to the next row (false after the last). For
    /// callers that wrap the cursor (in an existential, say) once rather
    /// than once per row.
    public func withCursor<T>(_ sql: String, _ arguments: [Value] = [], as kinds: [SQLiteValueKind] = [],
                              _ body: (SQLiteRow, () throws -> Bool) throws -> T) throws -> T {
        let statement = try acquire(sql, arguments)
        defer { release(statement) }
        return try body(SQLiteRow(statement: statement, kinds: kinds)) { try statement.step() }
    }

    /// Runs every statement in `sql` in order (no arguments), stopping at the
    /// first error. For schemas and migrations; statements are not cached.
    public func executeScript(_ sql: String) throws(SQLiteError) {
        try checkOpen(sql)
        var utf8 = Array(sql.utf8CString)
        try utf8.withUnsafeMutableBufferPointer { (buffer) throws(SQLiteError) -> Void in
            var next: UnsafePointer<CChar>? = UnsafePointer(buffer.baseAddress!)
            while let start = next, start.pointee != 0 {
                var handle: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let rc = sqlite3_prepare_v3(db, start, -1, 0, &handle, &tail)
                let text = tail.map { String(decoding: UnsafeRawBufferPointer(start: start, count: $0 - start), as: UTF8.self) }
                    ?? String(cString: start)
                if rc != SQLITE_OK { throw SQLiteError(db: db, code: rc, sql: text) }
                next = tail
                guard let handle else { continue } // only whitespace or a comment
                let statement = SQLiteStatement(handle: handle, sql: text)
                while try statement.step() {}
            }
        }
    }

    // MARK: Statements for the helpers

    /// A ready statement for `sql` with `arguments` bound: the cached one,
    /// or a fresh one when the cached one is busy (a nested query of the same
    /// SQL inside `forEachRow`). Pair with `release`.
    func acquire(_ sql: String, _ arguments: [Value]) throws(SQLiteError) -> SQLiteStatement {
        try checkOpen(sql)
        let statement: SQLiteStatement
        if let cached = cache.statement(for: sql) {
            statement = cached.isInUse ? try prepareStatement(sql, persistent: false) : cached
        } else {
            statement = try prepareStatement(sql, persistent: true)
            cache.insert(statement)
        }
        statement.isInUse = true
        do throws(SQLiteError) {
            try statement.bind(arguments)
        } catch {
            release(statement)
            throw error
        }
        return statement
    }

    func release(_ statement: SQLiteStatement) {
        statement.reset()
        if statement.parameterCount > 0 { statement.clearBindings() }
        statement.isInUse = false
    }

    /// Prepares exactly one statement. `persistent` tells SQLite the
    /// statement will be kept and reused (SQLITE_PREPARE_PERSISTENT), so it
    /// allocates from the heap rather than its short-lived lookaside memory.
    func prepareStatement(_ sql: String, persistent: Bool) throws(SQLiteError) -> SQLiteStatement {
        try checkOpen(sql)
        var handle: OpaquePointer?
        var extra = false
        let flags = UInt32(persistent ? SQLITE_PREPARE_PERSISTENT : 0)
        let rc = sql.withCString { start -> Int32 in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v3(db, start, -1, flags, &handle, &tail)
            if rc == SQLITE_OK, let tail, tail.pointee != 0 { extra = SQLiteConnection.hasStatement(db, tail) }
            return rc
        }
        if rc != SQLITE_OK { throw SQLiteError(db: db, code: rc, sql: sql).classifiedFunctionError() }
        guard let handle else {
            throw SQLiteError.misuse("no SQL statement to run (empty text or only a comment)", sql: sql)
        }
        if extra {
            sqlite3_finalize(handle)
            throw SQLiteError.misuse("more than one SQL statement given; run several with executeScript", sql: sql)
        }
        return SQLiteStatement(handle: handle, sql: sql)
    }

    /// True when `text` holds a statement (not just whitespace, `;` or comments).
    private static func hasStatement(_ db: OpaquePointer, _ text: UnsafePointer<CChar>) -> Bool {
        var next: UnsafePointer<CChar>? = text
        while let start = next, start.pointee != 0 {
            var handle: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v3(db, start, -1, 0, &handle, &tail)
            if handle != nil { sqlite3_finalize(handle); return true }
            if rc != SQLITE_OK { return true } // something that is not a comment
            next = tail
        }
        return false
    }

    func checkOpen(_ sql: String) throws(SQLiteError) {
        if isClosed { throw SQLiteError.misuse("the connection to '\(path)' is closed", sql: sql) }
    }
}

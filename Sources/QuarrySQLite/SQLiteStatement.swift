// SQLiteStatement: one prepared statement — bind `Value`s by position, step,
// read the current row, reset. It owns its `sqlite3_stmt` and finalizes it on
// deinit, so a statement evicted from the cache while a caller still steps it
// stays valid until that caller lets go.
//
// Values reach SQL only through binding (SQLiteValueBinding.swift): there is
// no API here that splices a value into SQL text.
//
// Like its connection, a statement is confined to the connection's thread.
import CSQLite

/// A prepared SQL statement on a ``SQLiteConnection``.
///
/// Most code never touches statements: ``SQLiteConnection/execute(_:_:)``,
/// ``SQLiteConnection/query(_:_:as:)`` and ``SQLiteConnection/forEachRow(_:_:as:_:)``
/// prepare, cache and reset them. Prepare one yourself to keep it across
/// many runs with different arguments:
///
/// ```swift
/// let insert = try connection.prepare("INSERT INTO task(title, done) VALUES (?, ?)")
/// for title in titles {
///     try insert.bind([.string(title), .bool(false)])
///     while try insert.step() {}
///     insert.reset()
/// }
/// ```
public final class SQLiteStatement {
    let handle: OpaquePointer
    /// The SQL text as given (for error messages and the cache key).
    public let sql: String
    /// The number of `?` parameters.
    public let parameterCount: Int
    /// The number of result columns (0 for statements that return no rows).
    public let columnCount: Int
    /// True while a connection helper is running it (the cache then hands
    /// out a fresh statement to a nested use of the same SQL).
    var isInUse = false
    private var declaredKinds: [SQLiteValueKind]?

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
        parameterCount = Int(sqlite3_bind_parameter_count(handle))
        columnCount = Int(sqlite3_column_count(handle))
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `arguments` to the parameters in order; their number must match.
    public func bind(_ arguments: [Value]) throws(SQLiteError) {
        guard arguments.count == parameterCount else {
            throw SQLiteError(code: SQLITE_RANGE,
                              message: "the statement has \(parameterCount) parameter(s) but \(arguments.count) argument(s) were given",
                              sql: sql, kind: .other)
        }
        for (i, value) in arguments.enumerated() {
            try ValueBinding.bind(value, at: Int32(i + 1), to: handle, sql: sql)
        }
    }

    /// Runs to the next row: true when a row is ready to read, false when done.
    ///
    /// On an error the statement is reset (releasing its locks) and the error
    /// thrown carries SQLite's message for it.
    public func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        // Read the message before reset, which may replace it.
        let error = SQLiteError(db: sqlite3_db_handle(handle), code: rc, sql: sql).classifiedFunctionError()
        sqlite3_reset(handle)
        throw error
    }

    /// Back to the start, keeping the bindings. Never fails: an error of the
    /// last run was already thrown by ``step()``.
    public func reset() { sqlite3_reset(handle) }

    /// Sets every parameter back to NULL (and frees copies of bound text and blobs).
    public func clearBindings() { sqlite3_clear_bindings(handle) }

    /// The current row; valid until the next ``step()`` or ``reset()``.
    public var row: SQLiteRow { SQLiteRow(statement: self) }

    /// Column `i`'s name as SQLite reports it (the `AS` alias if any).
    public func columnName(_ i: Int) -> String {
        sqlite3_column_name(handle, Int32(i)).map { String(cString: $0) } ?? ""
    }

    /// The declared type of column `i` when it is a plain table column.
    public func declaredType(_ i: Int) -> String? {
        sqlite3_column_decltype(handle, Int32(i)).map { String(cString: $0) }
    }

    /// True when the statement does not write (SELECT, most PRAGMAs, EXPLAIN).
    public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// The kinds implied by the declared column types, worked out once.
    func declaredKind(_ i: Int) -> SQLiteValueKind {
        if let declaredKinds { return declaredKinds[i] }
        let kinds = (0..<columnCount).map { SQLiteValueKind(declaredType: declaredType($0)) }
        declaredKinds = kinds
        return kinds[i]
    }
}

/// The current row of a statement: a cursor that decodes a column only when
/// asked for it.
///
/// Valid only inside the `forEachRow` closure (or until the statement steps
/// again): do not keep it. Copy out what you need, e.g. ``values``.
///
/// ```swift
/// try connection.forEachRow("SELECT name, salary FROM employee") { row in
///     if row.double(at: 1) > 50_000 { names.append(row.string(at: 0) ?? "") }
/// }
/// ```
public struct SQLiteRow {
    let statement: SQLiteStatement
    /// Column kinds asked for by the caller, overriding declared types.
    var kinds: [SQLiteValueKind] = []

    init(statement: SQLiteStatement, kinds: [SQLiteValueKind] = []) {
        self.statement = statement
        self.kinds = kinds
    }

    public var count: Int { statement.columnCount }

    /// Column `i` as a `Value`, by the kind given to the query for it if
    /// any, else by declared type, else by storage class.
    public subscript(_ i: Int) -> Value {
        let kind = i < kinds.count && kinds[i] != .automatic ? kinds[i] : statement.declaredKind(i)
        return ValueBinding.column(statement.handle, Int32(i), as: kind)
    }

    /// Initializes `destination[0..<columns.count]` with the values of
    /// `columns`, decoded as `self[i]` would: one call per row for readers
    /// that copy a whole row (a big fetch's objects), not one per column.
    public func initialize(_ destination: UnsafeMutablePointer<Value>, columns: Range<Int>) {
        let handle = statement.handle
        var target = destination
        for i in columns {
            // As the subscript decides, without asking it column by column.
            let kind = i < kinds.count ? kinds[i] : .automatic
            target.initialize(to: kind == .automatic ? self[i] : ValueBinding.column(handle, Int32(i), as: kind))
            target += 1
        }
    }

    /// Whether column `i` is text equal to `text`, byte for byte, without
    /// making a String of it (a fetch's `_entity` column repeats one name).
    public func text(at i: Int, equals text: String) -> Bool {
        guard let value = sqlite3_column_value(statement.handle, Int32(i)),
              sqlite3_value_type(value) == SQLITE_TEXT else { return false }
        // A TEXT value's bytes are UTF-8 already: the count needs no conversion first.
        let count = Int(sqlite3_value_bytes(value))
        guard count == text.utf8.count else { return false }
        guard count > 0 else { return true }
        guard let bytes = sqlite3_value_text(value) else { return false }
        var text = text
        return text.withUTF8 { utf8 in
            for i in 0..<count where utf8[i] != bytes[i] { return false }
            return true
        }
    }

    /// Column `i` read as `kind`, whatever was declared.
    public func value(at i: Int, as kind: SQLiteValueKind) -> Value {
        kind == .automatic ? self[i] : ValueBinding.column(statement.handle, Int32(i), as: kind)
    }

    /// Every column, decoded.
    public var values: [Value] { (0..<count).map { self[$0] } }

    /// Column `i` when its storage class is INTEGER, else nil (NULL, REAL,
    /// TEXT, BLOB): what `self[i]` read as `.int` gives as `.int`.
    public func integer(at i: Int) -> Int64? {
        guard let value = sqlite3_column_value(statement.handle, Int32(i)),
              sqlite3_value_type(value) == SQLITE_INTEGER else { return nil }
        return sqlite3_value_int64(value)
    }

    /// Column `i` when its storage class is REAL, else nil.
    public func real(at i: Int) -> Double? {
        guard let value = sqlite3_column_value(statement.handle, Int32(i)),
              sqlite3_value_type(value) == SQLITE_FLOAT else { return nil }
        return sqlite3_value_double(value)
    }

    public func isNull(at i: Int) -> Bool { sqlite3_column_type(statement.handle, Int32(i)) == SQLITE_NULL }
    /// Whether column `i`'s storage class is TEXT (whatever kind it is read as).
    public func isText(at i: Int) -> Bool { sqlite3_column_type(statement.handle, Int32(i)) == SQLITE_TEXT }

    // Typed reads skip the `Value` enum: SQLite's own conversions apply
    // (NULL reads as 0 / 0.0), so check `isNull` where NULL matters.
    public func int(at i: Int) -> Int64 { sqlite3_column_int64(statement.handle, Int32(i)) }
    public func double(at i: Int) -> Double { sqlite3_column_double(statement.handle, Int32(i)) }
    public func bool(at i: Int) -> Bool { sqlite3_column_int64(statement.handle, Int32(i)) != 0 }

    /// Text of column `i`, nil for NULL.
    public func string(at i: Int) -> String? {
        guard let value = sqlite3_column_value(statement.handle, Int32(i)), sqlite3_value_type(value) != SQLITE_NULL else { return nil }
        return ValueBinding.text(value)
    }

    /// Bytes of column `i`, nil for NULL.
    public func data(at i: Int) -> [UInt8]? {
        guard let value = sqlite3_column_value(statement.handle, Int32(i)), sqlite3_value_type(value) != SQLITE_NULL else { return nil }
        return ValueBinding.blob(value)
    }

    public func name(at i: Int) -> String { statement.columnName(i) }
}

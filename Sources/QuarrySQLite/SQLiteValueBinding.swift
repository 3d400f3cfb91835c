// How Quarry's `Value`s are stored in SQLite and read back.
//
//   Value         bound as                        read back as that kind when
//   .null         NULL                            always
//   .bool         INTEGER 0 / 1                   declared type contains BOOL
//   .int          INTEGER                         (storage class)
//   .double       REAL (NaN → NULL, SQLite has no NaN)  (storage class)
//   .decimal      TEXT, e.g. "0.1"  (exact)       declared type contains DECIMAL
//   .string       TEXT (UTF-8, NULs kept)         (storage class)
//   .date         REAL seconds since 2001-01-01   declared type contains DATE or TIME
//   .data         BLOB                            (storage class)
//   .uuid         BLOB of 16 bytes                declared type contains UUID
//   collections, objects: SQLiteError.unbindableValue
//
// Why these: dates are stored as Core Data stores them (REAL, Apple's
// reference date), so stores written by Core Data read naturally. Decimals
// go as TEXT because no SQLite number holds 38 significant digits exactly;
// declare such columns with TEXT affinity (e.g. `DECIMAL_TEXT`: "TEXT" in the
// declared type) or SQLite's NUMERIC affinity will turn "0.1" into a REAL.
// Comparing and ordering decimals in SQL is then the lowering's job. Reading
// a decimal accepts INTEGER and REAL too (a Core Data store's DECIMAL column).
//
// A column's declared type only exists for plain column references; for an
// expression (`max(startDate)`) ask with an explicit `SQLiteValueKind`.
// -0.0 keeps its sign in a column without REAL/NUMERIC affinity; a column
// with REAL affinity stores integral doubles as integers and reads back 0.0.
import CSQLite
import Foundation

/// How to read a column into a `Value`.
///
/// ```swift
/// let newest = try connection.query("SELECT max(startDate) FROM employee", as: [.date])
/// ```
public enum SQLiteValueKind: Sendable, Equatable {
    /// By the column's declared type when Quarry knows it (BOOL, DATE, DECIMAL,
    /// UUID), otherwise by the storage class of the value in hand.
    case automatic
    case bool, int, double, decimal, string, date, data, uuid

    /// The kind a declared column type implies (`BOOLEAN`, `TIMESTAMP`,
    /// `DECIMAL_TEXT`, `UUID` ...); `.automatic` for the rest.
    public init(declaredType: String?) {
        guard let t = declaredType?.uppercased(), !t.isEmpty else { self = .automatic; return }
        if t.contains("BOOL") { self = .bool }
        else if t.contains("DATE") || t.contains("TIME") { self = .date }
        else if t.contains("DECIMAL") { self = .decimal }
        else if t.contains("UUID") { self = .uuid }
        else { self = .automatic }
    }
}

enum ValueBinding {
    /// Binds `value` to parameter `index` (1-based) of `statement`.
    static func bind(_ value: Value, at index: Int32, to statement: OpaquePointer, sql: String) throws(SQLiteError) {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(statement, index)
        case .bool(let b): rc = sqlite3_bind_int64(statement, index, b ? 1 : 0)
        case .int(let i): rc = sqlite3_bind_int64(statement, index, i)
        case .double(let d): rc = sqlite3_bind_double(statement, index, d)
        case .date(let d): rc = sqlite3_bind_double(statement, index, d)
        case .decimal(let d):
            rc = d.isNaN ? sqlite3_bind_null(statement, index) : bindText(d.description, at: index, to: statement)
        case .string(let s): rc = bindText(s, at: index, to: statement)
        case .data(let bytes): rc = bindBlob(bytes, at: index, to: statement)
        case .uuid(let u):
            rc = withUnsafeBytes(of: u.uuid) { raw in
                sqlite3_bind_blob(statement, index, raw.baseAddress, 16, SQLITE_TRANSIENT)
            }
        case .array, .orderedSet, .set, .dictionary, .object:
            throw SQLiteError(code: SQLITE_MISMATCH,
                              message: "argument \(index) is \(kindName(value)), which SQLite cannot store; bind its elements one by one",
                              sql: sql, kind: .unbindableValue)
        }
        if rc != SQLITE_OK {
            throw SQLiteError(db: sqlite3_db_handle(statement), code: rc, sql: sql)
        }
    }

    private static func bindText(_ s: String, at index: Int32, to statement: OpaquePointer) -> Int32 {
        var s = s
        // withUTF8 is free for native strings and makes bridged ones contiguous.
        return s.withUTF8 { bytes in
            guard let base = bytes.baseAddress, bytes.count > 0 else {
                // A NULL pointer would bind NULL, not the empty string.
                return sqlite3_bind_text(statement, index, "", 0, SQLITE_TRANSIENT)
            }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text64(statement, index, $0, UInt64(bytes.count), SQLITE_TRANSIENT, UInt8(SQLITE_UTF8))
            }
        }
    }

    private static func bindBlob(_ bytes: [UInt8], at index: Int32, to statement: OpaquePointer) -> Int32 {
        // An empty array may have no storage: bind a zero-length blob, not NULL.
        if bytes.isEmpty { return sqlite3_bind_zeroblob(statement, index, 0) }
        return bytes.withUnsafeBytes { raw in
            sqlite3_bind_blob64(statement, index, raw.baseAddress, UInt64(raw.count), SQLITE_TRANSIENT)
        }
    }

    private static func kindName(_ v: Value) -> String {
        switch v {
        case .array: return "an array"
        case .orderedSet: return "an ordered set"
        case .set: return "a set"
        case .dictionary: return "a dictionary"
        default: return "an object"
        }
    }

    // MARK: Reading
    //
    // Every read goes through the column's `sqlite3_value` (one
    // `sqlite3_column_value` call per column), then `sqlite3_value_*`. Each
    // `sqlite3_column_*` call checks the column index, enters and leaves the
    // connection's mutex and checks for a malloc failure: asking a column's
    // type and then its value that way costs twice, and a big fetch reads
    // millions of columns. The value is "unprotected" in SQLite's terms,
    // which only matters to a connection shared between threads; a Quarry
    // connection is used by one thread at a time (SQLITE_OPEN_NOMUTEX). It is
    // valid until the statement steps or resets, like the column itself.

    /// Column `i` of the current row of `statement`, read as `kind`. A value
    /// whose storage class does not fit the kind is returned by storage class
    /// rather than guessed at (a TEXT "abc" in a DATE column stays a string).
    @inline(__always)
    static func column(_ statement: OpaquePointer, _ i: Int32, as kind: SQLiteValueKind) -> Value {
        guard let value = sqlite3_column_value(statement, i) else { return .null }
        return read(value, as: kind)
    }

    /// `column` for a value in hand.
    @inline(__always)
    static func read(_ value: OpaquePointer, as kind: SQLiteValueKind) -> Value {
        let type = sqlite3_value_type(value)
        // The common cases first, inlined where rows are decoded, where the
        // storage class is the kind's own: a big fetch decodes millions.
        switch kind {
        case .int where type == SQLITE_INTEGER: return .int(sqlite3_value_int64(value))
        case .string where type == SQLITE_TEXT: return .string(text(value))
        case .double where type == SQLITE_FLOAT: return .double(sqlite3_value_double(value))
        case .date where type == SQLITE_FLOAT: return .date(sqlite3_value_double(value))
        case .bool where type == SQLITE_INTEGER: return .bool(sqlite3_value_int64(value) != 0)
        case .automatic: return storageValue(value, type)
        default: return otherValue(value, type, as: kind)
        }
    }

    /// `read` for the rest: NULL, and values stored in another class than their kind's.
    @inline(never)
    static func otherValue(_ value: OpaquePointer, _ type: Int32, as kind: SQLiteValueKind) -> Value {
        switch (kind, type) {
        case (_, SQLITE_NULL): return .null
        case (.bool, SQLITE_INTEGER): return .bool(sqlite3_value_int64(value) != 0)
        case (.bool, SQLITE_FLOAT): return .bool(sqlite3_value_double(value) != 0)
        case (.double, SQLITE_INTEGER), (.date, SQLITE_INTEGER):
            let d = Double(sqlite3_value_int64(value))
            return kind == .date ? .date(d) : .double(d)
        case (.date, SQLITE_FLOAT): return .date(sqlite3_value_double(value))
        case (.decimal, SQLITE_INTEGER): return .decimal(Decimal(sqlite3_value_int64(value)))
        case (.decimal, SQLITE_FLOAT):
            // Through the shortest round-trip text, so a REAL 0.1 reads as 0.1
            // and not as 0.1000000000000000055511151231257827.
            let d = sqlite3_value_double(value)
            if let decimal = Decimal(string: "\(d)", locale: nil), d.isFinite { return .decimal(decimal) }
            return .double(d)
        case (.decimal, SQLITE_TEXT):
            let s = text(value)
            if let d = Decimal(string: s, locale: nil), isPlainNumber(s) { return .decimal(d) }
            return .string(s)
        case (.uuid, SQLITE_BLOB) where sqlite3_value_bytes(value) == 16:
            let p = sqlite3_value_blob(value)!.assumingMemoryBound(to: UInt8.self)
            return .uuid(UUID(uuid: (p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7],
                                     p[8], p[9], p[10], p[11], p[12], p[13], p[14], p[15])))
        case (.uuid, SQLITE_TEXT):
            let s = text(value)
            return UUID(uuidString: s).map(Value.uuid) ?? .string(s)
        case (.data, SQLITE_TEXT):
            return .data(Array(text(value).utf8))
        case (.string, SQLITE_INTEGER), (.string, SQLITE_FLOAT):
            return .string(text(value))
        default:
            return storageValue(value, type)
        }
    }

    /// The value by storage class alone.
    @inline(__always)
    static func storageValue(_ value: OpaquePointer, _ type: Int32) -> Value {
        switch type {
        case SQLITE_INTEGER: return .int(sqlite3_value_int64(value))
        case SQLITE_FLOAT: return .double(sqlite3_value_double(value))
        case SQLITE_TEXT: return .string(text(value))
        case SQLITE_BLOB: return .data(blob(value))
        default: return .null
        }
    }

    @inline(__always)
    static func text(_ value: OpaquePointer) -> String {
        // _text before _bytes: the documented order (bytes then counts the
        // UTF-8 form). Explicit length keeps embedded NULs.
        guard let p = sqlite3_value_text(value) else { return "" }
        let n = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    @inline(__always)
    static func blob(_ value: OpaquePointer) -> [UInt8] {
        guard let p = sqlite3_value_blob(value) else { return [] }
        let n = Int(sqlite3_value_bytes(value))
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }

    /// Decimal(string:) accepts a numeric prefix ("12abc" → 12); a stored
    /// decimal is all number, so anything else stays text.
    private static func isPlainNumber(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { (0x30...0x39).contains($0) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B || $0 == 0x45 || $0 == 0x65 }
    }
}

// How Quarry's `Value`s travel to PostgreSQL and back (binary format).
//
//   Value        bound as                      column type (schema builder)
//   .null        NULL of no type (OID 0)       — the server infers it from context
//   .bool        int8 0 / 1                    bigint (Core Data's SQLite layout)
//   .int         int8                          bigint
//   .double      float8                        double precision
//   .decimal     float8 (lossy past ~15 digits) double precision
//   .string      text                          text COLLATE "C"
//   .date        float8 seconds since 2001     double precision
//   .data        bytea                         bytea
//   .uuid        bytea of its 16 bytes         bytea
//   collections, objects: error `.unbindableValue`
//
// `.automatic` by type OID: int2/4/8 → .int, float4/8 and numeric → .double,
// text/varchar → .string, bytea → .data, bool → .bool (plus uuid → .uuid,
// timestamp/date → .date for tables Quarry did not create).
//
// Reading follows the kind the caller asks for, as the SQLite driver does:
// `.bool` from an integer is `x != 0`, `.date` from a float8 is a date,
// `.uuid` from 16 bytes is a UUID; a value whose type does not fit the kind
// is returned by its own type rather than guessed at. `.automatic` goes by the
// column's type OID, so expressions (`count(*)`, `max(x)`) decode naturally.
// Bytes are read by hand for the common types: this runs once per cell, and
// postgres-nio's generic `decode` throws and allocates more.
import Foundation
import PostgresNIO
import QuarryStore

enum PostgresValueCoding {
    // MARK: Binding

    /// The bind for `value`; `index` (1-based) and `sql` only feed the error.
    static func bind(_ value: Value, index: Int, sql: String) throws -> PostgresData {
        switch value {
        case .null: return PostgresData(type: .null, value: nil)
        case .bool(let b): return int8(b ? 1 : 0)
        case .int(let i): return int8(i)
        case .double(let d): return float8(d)
        case .date(let d): return float8(d)
        case .decimal(let d): return float8(NSDecimalNumber(decimal: d).doubleValue)
        case .string(let s):
            var buffer = ByteBufferAllocator().buffer(capacity: s.utf8.count)
            buffer.writeString(s)
            return PostgresData(type: .text, value: buffer)
        case .data(let bytes):
            var buffer = ByteBufferAllocator().buffer(capacity: bytes.count)
            buffer.writeBytes(bytes)
            return PostgresData(type: .bytea, value: buffer)
        case .uuid(let u):
            var buffer = ByteBufferAllocator().buffer(capacity: 16)
            _ = withUnsafeBytes(of: u.uuid) { buffer.writeBytes($0) }
            return PostgresData(type: .bytea, value: buffer)
        case .array, .orderedSet, .set, .dictionary, .object:
            throw PostgresDatabaseError(.unbindableValue,
                                        "argument \(index) is \(value.typeName == "array" ? "an array" : "a \(value.typeName)"), which PostgreSQL cannot store; bind its elements one by one",
                                        sql: sql)
        }
    }

    /// The cast that pins a prepared statement's parameter to the type we
    /// send (see PostgresPlaceholders); empty for NULL, which has no bytes.
    static func cast(for value: Value) -> String {
        switch value {
        case .bool, .int: return "::int8"
        case .double, .date, .decimal: return "::float8"
        case .string: return "::text"
        case .data, .uuid: return "::bytea"
        default: return ""
        }
    }

    private static func int8(_ i: Int64) -> PostgresData {
        var buffer = ByteBufferAllocator().buffer(capacity: 8)
        buffer.writeInteger(i, endianness: .big)
        return PostgresData(type: .int8, value: buffer)
    }

    private static func float8(_ d: Double) -> PostgresData {
        var buffer = ByteBufferAllocator().buffer(capacity: 8)
        buffer.writeInteger(d.bitPattern, endianness: .big)
        return PostgresData(type: .float8, value: buffer)
    }

    // MARK: Reading

    /// A cell's value by its own type, before the requested kind is applied.
    enum Raw {
        case null, int(Int64), double(Double), numeric(Decimal), text(String), bytes([UInt8]), bool(Bool), uuid(UUID), date(Double)
    }

    /// Seconds from PostgreSQL's epoch (2000-01-01) to Apple's (2001-01-01):
    /// 2000 is a leap year, so 366 days.
    static let secondsFrom2000To2001: Double = 366 * 86_400

    static func raw(_ cell: PostgresCell) -> Raw {
        guard var buffer = cell.bytes else { return .null }
        // postgres-nio always asks for binary results. (A prepared statement's
        // cells claim the text format: their description comes from Describe
        // of the statement, before Bind chose binary. So `cell.format` is
        // not consulted.)
        switch cell.dataType {
        case .int8: return buffer.readInteger(endianness: .big, as: Int64.self).map(Raw.int) ?? .null
        case .int4: return buffer.readInteger(endianness: .big, as: Int32.self).map { .int(Int64($0)) } ?? .null
        case .int2: return buffer.readInteger(endianness: .big, as: Int16.self).map { .int(Int64($0)) } ?? .null
        case .oid: return buffer.readInteger(endianness: .big, as: UInt32.self).map { .int(Int64($0)) } ?? .null
        case .float8: return buffer.readInteger(endianness: .big, as: UInt64.self).map { .double(Double(bitPattern: $0)) } ?? .null
        case .float4: return buffer.readInteger(endianness: .big, as: UInt32.self).map { .double(Double(Float(bitPattern: $0))) } ?? .null
        case .bool: return buffer.readInteger(as: UInt8.self).map { .bool($0 != 0) } ?? .null
        case .text, .varchar, .name, .bpchar, .json:
            return .text(buffer.readString(length: buffer.readableBytes) ?? "")
        case .bytea: return .bytes(buffer.readBytes(length: buffer.readableBytes) ?? [])
        case .numeric:
            if let d = try? cell.decode(Decimal.self) { return .numeric(d) }
            return .null
        case .uuid:
            if let u = try? cell.decode(UUID.self) { return .uuid(u) }
            return .null
        case .timestamp, .timestamptz:
            // Microseconds since 2000-01-01.
            return buffer.readInteger(endianness: .big, as: Int64.self).map {
                .date(Double($0) / 1_000_000 - secondsFrom2000To2001)
            } ?? .null
        case .date:
            return buffer.readInteger(endianness: .big, as: Int32.self).map {
                .date(Double($0) * 86_400 - secondsFrom2000To2001)
            } ?? .null
        default:
            if let s = try? cell.decode(String.self) { return .text(s) }
            return .bytes(buffer.readBytes(length: buffer.readableBytes) ?? [])
        }
    }

    /// `cell` read as `kind`.
    static func value(_ cell: PostgresCell, as kind: SQLValueKind) -> Value {
        let raw = raw(cell)
        switch (kind, raw) {
        case (_, .null): return .null
        case (.bool, .int(let i)): return .bool(i != 0)
        case (.bool, .double(let d)): return .bool(d != 0)
        case (.int, .double(let d)) where d == d.rounded() && abs(d) < 9.2e18: return .int(Int64(d))
        case (.int, .bool(let b)): return .int(b ? 1 : 0)
        case (.int, .numeric(let d)) where abs(d) < 9.2e18 && Decimal(NSDecimalNumber(decimal: d).int64Value) == d:
            return .int(NSDecimalNumber(decimal: d).int64Value)
        case (.decimal, .numeric(let d)): return .decimal(d)
        case (.double, .int(let i)): return .double(Double(i))
        case (.double, .numeric(let d)): return .double(NSDecimalNumber(decimal: d).doubleValue)
        case (.date, .int(let i)): return .date(Double(i))
        case (.date, .double(let d)): return .date(d)
        case (.decimal, .int(let i)): return .decimal(Decimal(i))
        case (.decimal, .double(let d)):
            // Through the shortest round-trip text, so 0.1 reads as 0.1 and
            // not 0.1000000000000000055511151231257827 (as the SQLite driver).
            if d.isFinite, let decimal = Decimal(string: "\(d)", locale: nil) { return .decimal(decimal) }
            return .double(d)
        case (.decimal, .text(let s)):
            if let d = Decimal(string: s, locale: nil), s.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B || $0 == 0x45 || $0 == 0x65 }) {
                return .decimal(d)
            }
            return .string(s)
        case (.uuid, .bytes(let b)) where b.count == 16:
            return .uuid(UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])))
        case (.uuid, .text(let s)): return UUID(uuidString: s).map(Value.uuid) ?? .string(s)
        case (.data, .text(let s)): return .data(Array(s.utf8))
        case (.data, .uuid(let u)): return .data(withUnsafeBytes(of: u.uuid) { Array($0) })
        case (.string, .int(let i)): return .string(String(i))
        case (.string, .double(let d)): return .string(String(d))
        case (.string, .uuid(let u)): return .string(u.uuidString)
        default: return natural(raw)
        }
    }

    /// The value by the column's own type (`.automatic`).
    static func natural(_ raw: Raw) -> Value {
        switch raw {
        case .null: return .null
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        // numeric is what sum() and avg() of bigint return; read as double like
        // the other numbers (ask for `.decimal` or `.int` to keep it exact).
        case .numeric(let d): return .double(NSDecimalNumber(decimal: d).doubleValue)
        case .text(let s): return .string(s)
        case .bytes(let b): return .data(b)
        case .bool(let b): return .bool(b)
        case .uuid(let u): return .uuid(u)
        case .date(let d): return .date(d)
        }
    }
}

// Binding every kind of Value and reading it back: the exact value, and the
// storage class SQLite keeps it in (Core Data's conventions where they exist).
import Foundation
import Testing
@testable import QuarrySQLite

@Suite struct ValueRoundTrips {
    /// (value, declared column type, SQLite's typeof() for the stored value).
    static let cases: [(Value, String, String)] = [
        (.null, "", "null"),
        (.bool(true), "BOOLEAN", "integer"), (.bool(false), "BOOL", "integer"),
        (.int(0), "", "integer"), (.int(Int64.min), "", "integer"), (.int(Int64.max), "INTEGER", "integer"),
        (.int(-1), "INTEGER", "integer"),
        (.double(0.1), "", "real"), (.double(0.1), "REAL", "real"), (.double(1.0 / 3.0), "DOUBLE", "real"),
        (.double(3.0), "REAL", "real"), (.double(-2.5e-308), "", "real"), (.double(5e-324), "", "real"),
        (.double(.greatestFiniteMagnitude), "", "real"), (.double(.infinity), "", "real"),
        (.double(-.infinity), "REAL", "real"), (.double(9_007_199_254_740_993), "", "real"),
        (.decimal(Decimal(string: "0.1")!), "DECIMAL_TEXT", "text"),
        (.decimal(Decimal(string: "-12345.6789")!), "DECIMAL_TEXT", "text"),
        (.decimal(Decimal(string: "12345678901234567890123456789012345678")!), "DECIMAL_TEXT", "text"),
        (.decimal(Decimal(string: "0.00000000000000000001")!), "DECIMAL_TEXT", "text"),
        (.decimal(0), "DECIMAL_TEXT", "text"),
        (.string(""), "TEXT", "text"), (.string("José"), "TEXT", "text"), (.string("Zoë MÜLLER Straße İı"), "", "text"),
        (.string("e\u{301}"), "TEXT", "text"), (.string("👩‍👩‍👧 日本語"), "TEXT", "text"),
        (.string("a\u{0}b\u{0}"), "TEXT", "text"), (.string(String(repeating: "ab", count: 50_000)), "TEXT", "text"),
        (.string("'; DROP TABLE t; --"), "TEXT", "text"),
        (.date(0), "TIMESTAMP", "integer"), (.date(-978_307_200), "DATE", "integer"),
        (.date(1234.5678), "DATETIME", "real"), (.date(700_000_000.25), "TIMESTAMP", "real"),
        (.data([]), "BLOB", "blob"), (.data([0, 1, 2, 255, 0]), "", "blob"),
        (.data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 31) }), "BLOB", "blob"),
        (.uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!), "UUID", "blob"),
        (.uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000000")!), "UUID", "blob"),
    ]

    @Test(arguments: cases)
    func valuesRoundTripExactly(_ value: Value, _ declared: String, _ storage: String) throws {
        let db = try SQLiteConnection.inMemory()
        try db.execute("CREATE TABLE t(x \(declared))")
        try db.execute("INSERT INTO t VALUES (?)", [value])
        let back = try db.scalar("SELECT x FROM t")
        #expect(back == value)
        #expect(try db.scalar("SELECT typeof(x) FROM t") == .string(storage))
        // Equality of doubles hides the sign of zero and NaN-ness: compare bits.
        if case .double(let d) = value, case .double(let e) = back { #expect(d.bitPattern == e.bitPattern) }
        if case .uuid = value { #expect(try db.scalar("SELECT length(x) FROM t") == .int(16)) }
        // Through a bound parameter too (no declared type: read by kind).
        if let kind = Self.kind(of: value) {
            #expect(try db.query("SELECT ?", [value], as: [kind]) == [[value]])
        }
    }

    static func kind(of v: Value) -> SQLiteValueKind? {
        switch v {
        case .bool: return .bool
        case .int: return .int
        case .double: return .double
        case .decimal: return .decimal
        case .string: return .string
        case .date: return .date
        case .data: return .data
        case .uuid: return .uuid
        default: return nil
        }
    }

    @Test func negativeZeroKeepsItsSignWithoutRealAffinity() throws {
        let db = try SQLiteConnection.inMemory()
        try db.execute("CREATE TABLE t(plain, real REAL)")
        try db.execute("INSERT INTO t VALUES (?, ?)", [.double(-0.0), .double(-0.0)])
        let row = try db.query("SELECT plain, real FROM t")[0]
        guard case .double(let plain) = row[0], case .double(let real) = row[1] else {
            Issue.record("not doubles: \(row)")
            return
        }
        #expect(plain.sign == .minus)
        // Documented: a REAL column stores integral doubles as integers.
        #expect(real == 0)
    }

    @Test func nanBindsAsNullBecauseSQLiteHasNoNaN() throws {
        let db = try SQLiteConnection.inMemory()
        #expect(try db.scalar("SELECT ? IS NULL", [.double(.nan)]) == .int(1))
        #expect(try db.scalar("SELECT ? IS NULL", [.decimal(.nan)]) == .int(1))
    }

    @Test(arguments: [
        (Value.array([.int(1)]), "an array"), (.set([.int(1)]), "a set"), (.orderedSet([]), "an ordered set"),
        (.dictionary(["a": .int(1)]), "a dictionary"),
    ])
    func collectionsCannotBeBound(_ value: Value, _ name: String) throws {
        let db = try SQLiteConnection.inMemory()
        let error = sqliteError { try db.execute("SELECT ?, ?", [.int(1), value]) }
        #expect(error?.kind == .unbindableValue)
        #expect(error?.message == "argument 2 is \(name), which SQLite cannot store; bind its elements one by one")
    }

    @Test func declaredTypesChooseTheKind() {
        #expect(SQLiteValueKind(declaredType: "BOOLEAN") == .bool)
        #expect(SQLiteValueKind(declaredType: "timestamp") == .date)
        #expect(SQLiteValueKind(declaredType: "DATETIME") == .date)
        #expect(SQLiteValueKind(declaredType: "DECIMAL(10,2)") == .decimal)
        #expect(SQLiteValueKind(declaredType: "UUID") == .uuid)
        #expect(SQLiteValueKind(declaredType: "VARCHAR(20)") == .automatic)
        #expect(SQLiteValueKind(declaredType: nil) == .automatic)
    }

    @Test func expressionsAreReadByTheKindAskedFor() throws {
        let db = try SQLiteConnection.inMemory()
        try db.execute("CREATE TABLE e(born TIMESTAMP, ok BOOLEAN)")
        try db.execute("INSERT INTO e VALUES (?, ?), (?, ?)", [.date(10.5), .bool(true), .date(20.25), .bool(false)])
        // max() has no declared type: automatic gives the storage class, a kind gives the Value.
        #expect(try db.scalar("SELECT max(born) FROM e") == .double(20.25))
        #expect(try db.scalar("SELECT max(born) FROM e", as: .date) == .date(20.25))
        #expect(try db.query("SELECT min(born), max(ok) FROM e", as: [.date, .bool]) == [[.date(10.5), .bool(true)]])
    }

    @Test func aCoreDataStyleDecimalColumnReadsBackAsDecimal() throws {
        // Core Data declares DECIMAL (NUMERIC affinity): SQLite keeps 0.1 as REAL.
        let db = try SQLiteConnection.inMemory()
        try db.execute("CREATE TABLE c(price DECIMAL)")
        try db.execute("INSERT INTO c VALUES (?), (?)", [.decimal(Decimal(string: "0.1")!), .decimal(7)])
        #expect(try db.query("SELECT typeof(price) FROM c") == [[.string("real")], [.string("integer")]])
        #expect(try db.query("SELECT price FROM c") == [[.decimal(Decimal(string: "0.1")!)], [.decimal(7)]])
    }

    @Test func valuesThatDoNotFitTheKindAreNotGuessedAt() throws {
        let db = try SQLiteConnection.inMemory()
        try db.execute("CREATE TABLE odd(d DATE, u UUID, m DECIMAL_TEXT)")
        try db.execute("INSERT INTO odd VALUES ('soon', X'0102', '12abc')")
        #expect(try db.query("SELECT d, u, m FROM odd") == [[.string("soon"), .data([1, 2]), .string("12abc")]])
    }

    @Test func rowAccessorsReadWithoutTheValueEnum() throws {
        let db = try SQLiteConnection.inMemory()
        var seen = 0
        try db.forEachRow("SELECT 42, 2.5, 'Zoë', X'00FF', NULL") { row in
            seen += 1
            #expect(row.int(at: 0) == 42)
            #expect(row.double(at: 1) == 2.5)
            #expect(row.string(at: 2) == "Zoë")
            #expect(row.data(at: 3) == [0, 255])
            #expect(row.isNull(at: 4) && row.string(at: 4) == nil && row.data(at: 4) == nil)
            #expect(row.values == [.int(42), .double(2.5), .string("Zoë"), .data([0, 255]), .null])
        }
        #expect(seen == 1)
    }
}

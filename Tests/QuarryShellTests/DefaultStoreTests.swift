// The embedded default store: its model, built in code, is the model of
// Examples/Models/Company.yaml; the compiled database image and the fast
// fill (prepared INSERTs, no Unicode normalization) leave every table
// exactly as the object-by-object `fill` does, value for value and type for
// type, with the same schema; and the names it skips normalizing are
// already NFC. With QUARRY_RECORD_DEFAULT_STORE_IMAGE=1 one test rewrites
// the image's C source instead (Scripts/generate-default-store-image.sh).
import Foundation
import Testing
@testable import QuarryShell

@Suite("Default store")
struct DefaultStoreTests {
    @Test func embeddedModelMatchesTheFile() throws {
        let file = try ModelReader.read(from: packageRoot.appendingPathComponent("Examples/Models/Company.yaml").path)
        let embedded = try DefaultStore.model()
        #expect(embedded == file)
        #expect(embedded.validationErrors().isEmpty)
    }

    /// Every table as text: `quote()` of each column, so 1 and 1.0 differ.
    static func dump(_ store: SQLStore) throws -> [String: [String]] {
        let db = store.connection
        var tables: [String: [String]] = [:]
        for table in try store.database.tableNames() {
            let columns = try db.query("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.string(table)]).map { row -> String in
                guard case .string(let name) = row[0] else { return "" }
                return "quote(\"\(name)\")"
            }
            let rows = try db.query("SELECT \(columns.joined(separator: " || '|' || ")) FROM \"\(table)\"", as: [.string])
            tables[table] = rows.map { row in if case .string(let s) = row[0] { s } else { "\(row[0])" } }
        }
        return tables
    }

    /// The schema: every table's and index's SQL, by name.
    static func schema(_ store: SQLStore) throws -> [String: String] {
        let rows = try store.connection.query("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL", as: [.string, .string])
        var schema: [String: String] = [:]
        for row in rows { if case .string(let name) = row[0], case .string(let sql) = row[1] { schema[name] = sql } }
        return schema
    }

    static var recording: Bool { ProcessInfo.processInfo.environment["QUARRY_RECORD_DEFAULT_STORE_IMAGE"] == "1" }

    @Test(.disabled(if: recording, "re-recording the image"))
    func compiledImageIsWhatTheCodeWrites() throws {
        let written = try DefaultStore.writtenStore()
        let loaded = try DefaultStore.make()
        #expect(try Self.schema(loaded) == Self.schema(written),
                "the default store's schema changed: run Scripts/generate-default-store-image.sh")
        #expect(try Self.dump(loaded) == Self.dump(written),
                "the default store's rows changed: run Scripts/generate-default-store-image.sh")
        #expect(try Self.schema(loaded).count >= 5)
    }

    @Test(.enabled(if: recording, "set QUARRY_RECORD_DEFAULT_STORE_IMAGE=1 to re-record"))
    func recordImage() throws {
        let bytes = try DefaultStore.image()
        let file = packageRoot.appendingPathComponent("Sources/CDefaultStoreImage/default_store_image.c")
        try DefaultStore.imageSource(bytes).write(to: file, atomically: true, encoding: .utf8)
        // The image must load and hold what the code writes.
        let connection = try SQLiteConnection.inMemory()
        try bytes.withUnsafeBytes { try connection.loadImage($0) }
        let reloaded = try SQLStore(database: connection, model: try DefaultStore.model())
        #expect(try Self.dump(reloaded) == Self.dump(try DefaultStore.writtenStore()))
    }

    @Test func fastFillWritesWhatFillWrites() throws {
        let slow = try SQLStore(path: ":memory:", model: try DefaultStore.model())
        try DefaultStore.fill(slow)
        let fast = try DefaultStore.writtenStore()
        let (a, b) = (try Self.dump(slow), try Self.dump(fast))
        #expect(try Self.schema(slow) == Self.schema(fast))
        #expect(a.keys.sorted() == b.keys.sorted())
        for table in a.keys.sorted() {
            #expect(a[table] == b[table], "table \(table)")
        }
        #expect(b[fast.mapping.table(for: "Employee")!]?.count == 200)
    }

    @Test func namesAreAlreadyComposed() {
        let names = DefaultStore.departments + DefaultStore.firstNames + DefaultStore.lastNames + DefaultStore.projects.map(\.0)
        for name in names { #expect(StoredText.composed(name) == name, "\(name)") }
        #expect(names.contains { !$0.unicodeScalars.allSatisfy(\.isASCII) })
    }

    @Test func employeesAreTheSameOnEveryRun() {
        let a = DefaultStore.employees(), b = DefaultStore.employees()
        #expect(a.map(\.name) == b.map(\.name))
        #expect(a.count == 200)
        #expect(a.filter { $0.age == nil }.count == 8)
    }
}

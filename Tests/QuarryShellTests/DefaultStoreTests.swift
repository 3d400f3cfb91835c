// The embedded default store: its model, built in code, is the model of
// Examples/Models/Company.yaml; the fast fill (multi-row INSERTs, no Unicode
// normalization) leaves every table exactly as the object-by-object `fill`
// does, value for value and type for type; and the names it skips
// normalizing are already NFC.
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

    @Test func fastFillWritesWhatFillWrites() throws {
        let slow = try SQLStore(path: ":memory:", model: try DefaultStore.model())
        try DefaultStore.fill(slow)
        let fast = try DefaultStore.make()
        let (a, b) = (try Self.dump(slow), try Self.dump(fast))
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

// SchemaBuilder says what each statement creates (SchemaStatement.swift),
// and a migration plan trusts it: here every statement of the example
// models' schemas, on both dialects, is held against its own SQL — a table
// statement creates that table (and renamed, the same definition), an
// index statement that index on that table (a unique one on exactly those
// columns), a PostgreSQL key statement adds that key — and each table the
// mapping has is created once.
import Foundation
import Testing
@testable import QuarrySQL

@Suite("Schema statements say what they create")
struct SchemaStatementTests {
    static let models = ["Company.yaml", "Books.yaml", "Tasks.yaml"]

    static func mapping(_ file: String, _ dialect: SQLDialect) throws -> StoreMapping {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/Models/" + file).path
        return StoreMapping(model: try ModelReader.read(from: path), dialect: dialect)
    }

    @Test(arguments: models, [SQLDialect.sqlite, .postgres])
    func eachStatementCreatesWhatItsKindSays(file: String, dialect: SQLDialect) throws {
        let mapping = try Self.mapping(file, dialect)
        let statements = SchemaBuilder.statements(for: mapping)
        #expect(SchemaBuilder.createStatements(for: mapping) == statements.map(\.sql))
        var tables: [String] = [], uniques = 0
        for s in statements {
            switch s.kind {
            case .table(let name):
                tables.append(name)
                let prefix = "CREATE TABLE \(SQLIdentifier.quoted(name)) ("
                #expect(s.sql.hasPrefix(prefix), "\(s.sql)")
                #expect(s.createTable(named: "r\"x") == "CREATE TABLE \"r\"\"x\" (" + s.sql.dropFirst(prefix.count), "\(s.sql)")
            case .index(let name, let table, let unique):
                let head = unique == nil ? "CREATE INDEX" : "CREATE UNIQUE INDEX"
                #expect(s.sql.hasPrefix("\(head) \(SQLIdentifier.quoted(name)) ON \(SQLIdentifier.quoted(table)) ("), "\(s.sql)")
                if let unique {
                    uniques += 1
                    #expect(s.sql.hasSuffix("(" + unique.map(SQLIdentifier.quoted).joined(separator: ", ") + ")"), "\(s.sql)")
                }
                #expect(s.createTable(named: "x") == nil)
            case .foreignKey(let table, let column):
                #expect(dialect == .postgres, "\(s.sql)")
                #expect(s.sql.hasPrefix("ALTER TABLE \(SQLIdentifier.quoted(table)) ADD FOREIGN KEY (\(SQLIdentifier.quoted(column))) REFERENCES "), "\(s.sql)")
            }
        }
        let expected = Set(mapping.tableNames).union(mapping.joinTables.map(\.table))
        #expect(tables.count == expected.count && Set(tables) == expected, "\(tables)")
        // Company's and Books' departments, publishers and books are unique by name or ISBN.
        #expect(uniques > 0 || file == "Tasks.yaml")
    }
}

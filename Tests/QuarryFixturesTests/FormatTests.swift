// The writers agree with each other: the SQL dump loaded into SQLite holds
// exactly the rows the SQLite writer wrote; JSON parses and holds every
// object and link; NDJSON has one object per line; CSV has a file per
// entity and join table with a header. Also the format from the extension.
import Foundation
import Testing
@testable import QuarryFixtures

@Suite struct FormatTests {
    static let company = try! ModelReader.read(from: Fixtures.examples + "/Models/Company.yaml")
    static let counts = ["Employee": 120, "Department": 8, "Project": 10]

    /// Every row of every table, as text, in primary-key order.
    func dump(_ db: SQLiteConnection) throws -> [String] {
        var lines: [String] = []
        let tables = try db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map { row -> String in
            guard case .string(let s) = row[0] else { return "" }
            return s
        }
        for table in tables {
            for row in try db.query("SELECT * FROM \(SQLIdentifier.quoted(table)) ORDER BY 1, 2") {
                lines.append(table + ": " + row.map { Printer.format($0) }.joined(separator: " | "))
            }
        }
        return lines
    }

    @Test func sqlDumpBuildsTheSameStore() throws {
        let sqlite = try generate(Self.company, seed: 11, counts: Self.counts, format: .sqlite)
        let sql = try generate(Self.company, seed: 11, counts: Self.counts, format: .sql)
        let loaded = try SQLiteConnection.inMemory()
        try loaded.executeScript(try String(contentsOfFile: sql, encoding: .utf8))
        let written = try SQLiteConnection(path: sqlite, options: .init(readOnly: true))
        let a = try dump(written), b = try dump(loaded)
        #expect(a.count > 200)
        #expect(a == b)
    }

    @Test func edgeCaseSQLDumpBuildsTheSameStore() throws {
        let sqlite = try generate(Self.company, seed: 3, counts: Self.counts, edgeCases: true, format: .sqlite)
        let sql = try generate(Self.company, seed: 3, counts: Self.counts, edgeCases: true, format: .sql)
        let loaded = try SQLiteConnection.inMemory()
        try loaded.executeScript(try String(contentsOfFile: sql, encoding: .utf8))
        #expect(try dump(SQLiteConnection(path: sqlite, options: .init(readOnly: true))) == dump(loaded))
    }

    @Test func jsonHoldsEveryObjectAndLink() throws {
        let path = try generate(Self.company, seed: 2, counts: Self.counts, format: .json)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: [[String: Any]]]
        #expect(json["Employee"]?.count == 120)
        #expect(json["Department"]?.count == 8)
        #expect((json["_Employee_projects"]?.count ?? 0) > 0)
        let first = try #require(json["Employee"]?.first)
        #expect(first["_pk"] as? Int == 1)
        #expect(first["salary"] is Int)
        #expect((first["startDate"] as? [String: Any]).map { $0["$date"] is Double } ?? (first["startDate"] is NSNull))
    }

    @Test func ndjsonIsOneObjectPerLine() throws {
        let path = try generate(Self.company, seed: 2, counts: Self.counts, format: .ndjson)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects.filter { $0["entity"] as? String == "Employee" }.count == 120)
        #expect(objects.contains { $0["table"] as? String == "_Employee_projects" })
    }

    @Test func csvIsAFolderOfTables() throws {
        let path = try generate(Self.company, seed: 2, counts: Self.counts, format: .csv)
        let files = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        #expect(files == ["Department.csv", "Employee.csv", "Project.csv", "_Employee_projects.csv"])
        let employees = try String(contentsOfFile: path + "/Employee.csv", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(employees[0] == "_pk,name,age,salary,startDate,active,email,department")
        #expect(employees.count == 122) // header, 120 rows, final newline
    }

    @Test(arguments: [("a.sqlite", FixtureFormat.sqlite), ("a.db", .sqlite), ("a.json", .json), ("a.jsonl", .ndjson),
                      ("a.ndjson", .ndjson), ("a.csv", .csv), ("a.sql", .sql)])
    func formatFromExtension(_ path: String, _ format: FixtureFormat) {
        #expect(FixtureFormat(path: path) == format)
    }

    @Test(arguments: [(Value.string("a,b"), "\"a,b\""), (.string(""), "\"\""), (.null, ""), (.string("say \"hi\""), "\"say \"\"hi\"\"\""),
                      (.bool(true), "true"), (.date(0), "2001-01-01T00:00:00.000Z")])
    func csvValues(_ value: Value, _ text: String) {
        #expect(TextValues.csv(value) == text)
    }

    @Test(arguments: [(Value.string("it's"), "'it''s'"), (.null, "NULL"), (.bool(false), "0"), (.double(0.1), "0.1"),
                      (.data([0, 255]), "X'00FF'"), (.date(-1.5), "-1.5")])
    func sqlLiterals(_ value: Value, _ text: String) {
        #expect(SQLFixtureWriter.literal(value) == text)
    }
}

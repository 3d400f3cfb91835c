// Fixtures written into an open store — the path `quarry fixtures --postgres`
// takes — hold exactly the rows the SQLite writer puts in a file for the same
// seed, on SQLite and on PostgreSQL; writing again replaces the rows; new
// inserts afterwards get fresh keys; and the command reports where it wrote.
import Foundation
import QuarryPostgres
import QuarryPostgresTestSupport
import Testing
@testable import QuarryFixtures

@Suite("Fixtures into an open store", .serialized)
struct DatabaseWriterTests {
    enum Engine: String, CaseIterable, Sendable { case sqlite, postgres }
    static var engines: [Engine] { PostgresTestEnvironment.shouldRun ? [.sqlite, .postgres] : [.sqlite] }

    func emptyStore(_ engine: Engine, _ model: Model) throws -> SQLStore {
        switch engine {
        case .sqlite: return try SQLStore(path: ":memory:", model: model)
        case .postgres: return try SQLStore(postgres: try PostgresTestEnvironment.freshDatabase(), model: model)
        }
    }

    /// Every row of every model table, ordered by key, as text.
    func rows(_ store: SQLStore) throws -> [String] {
        var out: [String] = []
        for table in store.mapping.tableNames {
            for row in try store.database.rows("SELECT * FROM \(SQLIdentifier.quoted(table)) ORDER BY 1, 2") {
                out.append(table + ": " + row.map { v in
                    // Both engines store booleans as integers; floats compare by value.
                    if case .double(let d) = v { return String(d) }
                    return Printer.format(v)
                }.joined(separator: ", "))
            }
        }
        return out
    }

    @Test(arguments: engines)
    func sameRowsAsTheSQLiteFileForTheSameSeed(engine: Engine) throws {
        let model = try ModelReader.read(from: Fixtures.examples + "/Models/Company.yaml")
        let counts = ["Employee": 300, "Department": 7, "Project": 9]
        let path = Fixtures.temporaryPath("db-writer.sqlite")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FixtureGenerator(model: model, seed: 11, counts: counts).write(to: path)
        let file = try SQLStore(path: path, model: model)

        let store = try emptyStore(engine, model)
        let summary = try FixtureGenerator(model: model, seed: 11, counts: counts).write(into: store)
        #expect(summary.objects["Employee"] == 300)
        #expect(try rows(store) == rows(file))

        // Again with another seed: the rows are replaced, not added to.
        try FixtureGenerator(model: model, seed: 12, counts: counts).write(into: store)
        #expect(try store.count(FetchRequest(entity: "Employee")) == 300)
        // Later inserts get keys past the generated ones.
        let id = try store.insert("Department", ["name": .string("New")])
        #expect(id.primaryKey == 8)
    }

    @Test(.enabled(if: PostgresTestEnvironment.shouldRun))
    func theCommandWritesToPostgreSQL() throws {
        var url = try PostgresTestEnvironment.requireURL()
        url.schema = PostgresTestEnvironment.freshSchemaName()
        let modelPath = Fixtures.examples + "/Models/Company.yaml"
        let target = FixturesCommand.Target.store(description: url.redacted) { model, file in
            try SQLStore(postgres: url.description, model: model, modelFile: file)
        }
        let outcome = FixturesCommand.run(model: modelPath, target: target, counts: ["Employee=40"], seed: 3)
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("Employee 40"), "\(outcome.stdout)")
        // The store opens again from its saved model.
        let saved = try #require(try SQLStore.storedModel(postgres: url.description))
        #expect(try SQLStore(postgres: url.description, model: saved).count(FetchRequest(entity: "Employee")) == 40)

        var unreachable = url
        unreachable.port = 1
        let failed = FixturesCommand.run(model: modelPath, target: .store(description: unreachable.redacted) { model, file in
            try SQLStore(postgres: unreachable.description, model: model, modelFile: file)
        }, counts: ["Employee=5"], seed: 3)
        #expect(failed.exitCode == 66)
        #expect(failed.stderr.contains("cannot open"), "\(failed.stderr)")
    }
}

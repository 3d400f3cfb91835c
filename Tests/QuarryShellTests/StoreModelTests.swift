// Every store Quarry creates carries its model: each way of making a store —
// the shell with a YAML model or a Core Data bundle, `quarry fixtures`,
// `SQLStore(path:model:)` with no model file, on SQLite and PostgreSQL — is
// followed by opening the store with its path (or URL) alone and counting
// what it holds. A store made without a saved model gets one when it is
// opened with `--model`; `.open` takes the opened store's own model (or the
// `--model` given with it), never the one of the store open before.
import Foundation
import QuarryFixtures
import QuarryPostgresTestSupport
import Testing
@testable import QuarryShell

/// Where a test store lives: a new SQLite file or a new PostgreSQL schema.
enum TestDatabase: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    static var available: [TestDatabase] { PostgresTestEnvironment.shouldRun ? allCases : [.sqlite] }
    var testDescription: String { rawValue }

    /// A location no store uses yet.
    func freshLocation(_ name: String) throws -> StoreLocation {
        switch self {
        case .sqlite:
            return .sqlite(NSTemporaryDirectory() + "quarry-\(name)-\(getpid())-\(UInt32.random(in: 0 ... .max)).sqlite")
        case .postgres:
            var url = try PostgresTestEnvironment.requireURL()
            url.schema = PostgresTestEnvironment.freshSchemaName()
            return .postgres(url.description)
        }
    }
}

extension StoreLocation {
    /// The SQLite path or PostgreSQL URL, as `--store`/`--postgres` take it.
    var argument: String {
        switch self {
        case .sqlite(let p), .postgres(let p): return p
        case .defaultStore: return ":memory:"
        }
    }

    func openStore(model: Model, modelFile: String? = nil) throws -> SQLStore {
        switch self {
        case .sqlite(let p): return try SQLStore(path: p, model: model, modelFile: modelFile)
        case .postgres(let url): return try SQLStore(postgres: url, model: model, modelFile: modelFile)
        case .defaultStore: return try SQLStore(path: ":memory:", model: model, modelFile: modelFile)
        }
    }

    func storedModel() throws -> Model? {
        switch self {
        case .sqlite(let p): return try SQLStore.storedModel(at: p)
        case .postgres(let url): return try SQLStore.storedModel(postgres: url)
        case .defaultStore: return nil
        }
    }
}

/// A session's stdout, stderr and exit status for a script.
struct Transcript: Equatable, CustomStringConvertible {
    var out = "", err = ""
    var status: Int32 = 0
    var description: String { "status \(status)\nstdout: \(out)\nstderr: \(err)" }
}

final class Capture: @unchecked Sendable { var out = "", err = "" }

/// Runs `script` in a new session on `location` (with `--model` when given).
func runShell(_ location: StoreLocation, model: String? = nil, _ script: String, arguments: [Value] = []) -> Transcript {
    let capture = Capture()
    let session = ShellSession(location: location, output: { capture.out += $0 }, errors: { capture.err += $0 })
    session.arguments = arguments
    var status = session.setUp(modelPath: model, openStore: location != .defaultStore)
    if status == 0 { status = session.run(script, stopOnError: true) }
    return Transcript(out: capture.out, err: capture.err, status: status)
}

@Suite("Stores carry their model", .serialized)
struct StoreModelTests {
    static let company = packageRoot.appendingPathComponent("Examples/Models/Company.yaml").path
    static let companyBundle = packageRoot.appendingPathComponent("Examples/Models/Company.xcdatamodeld").path
    static let tasks = packageRoot.appendingPathComponent("Examples/Models/Tasks.yaml").path

    /// The ways a store gets made; each returns how many Employees it holds.
    enum Maker: String, CaseIterable, CustomTestStringConvertible {
        case shellWithYAML, shellWithBundle, libraryWithoutModelFile, fixtures
        var testDescription: String { rawValue }

        func make(at location: StoreLocation) throws -> Int {
            switch self {
            case .shellWithYAML, .shellWithBundle:
                let model = self == .shellWithYAML ? StoreModelTests.company : StoreModelTests.companyBundle
                let t = runShell(location, model: model, "INSERT Department {name: 'Annex'}; INSERT Employee {name: 'Ann', department: 1};")
                #expect(t.status == 0, "\(t)")
                return 1
            case .libraryWithoutModelFile:
                let store = try location.openStore(model: try ModelReader.read(from: StoreModelTests.company))
                let d = try store.insert("Department", ["name": .string("Annex")])
                try store.insert("Employee", ["name": .string("Ann")], toOne: ["department": d])
                store.database.close()
                return 1
            case .fixtures:
                let target: FixturesCommand.Target
                switch location {
                case .sqlite(let path): target = .file(path, format: nil)
                default: target = .store(description: "the test schema") { model, file in try location.openStore(model: model, modelFile: file) }
                }
                let outcome = FixturesCommand.run(model: StoreModelTests.company, target: target, counts: ["Employee=12"], seed: 5)
                #expect(outcome.exitCode == 0, "\(outcome.stderr)")
                return 12
            }
        }
    }

    @Test(arguments: Maker.allCases, TestDatabase.available)
    func everyStoreReopensWithItsPathAlone(maker: Maker, database: TestDatabase) throws {
        let location = try database.freshLocation("model-\(maker.rawValue)")
        let employees = try maker.make(at: location)
        let saved = try #require(try location.storedModel())
        #expect(saved == (try ModelReader.read(from: Self.company)))
        let t = runShell(location, "COUNT Employee;")
        #expect(t.status == 0 && t.err.isEmpty && t.out.contains(" \(employees)\n"), "\(t)")
    }

    /// A store made before stores carried their model: `--model` once saves
    /// it; from then on the path alone opens it.
    @Test(arguments: TestDatabase.available)
    func openingWithModelSavesAMissingOne(database: TestDatabase) throws {
        let location = try database.freshLocation("model-missing")
        let store = try location.openStore(model: try ModelReader.read(from: Self.tasks))
        try store.database.run("DELETE FROM \"_quarry_metadata\" WHERE \"key\" IN ('model', 'model_format')", [])
        store.database.close()
        let without = runShell(location, "COUNT Task;")
        #expect(without.status != 0 && without.err.contains("model"), "\(without)")
        #expect(runShell(location, model: Self.tasks, "COUNT Task;").status == 0)
        let t = runShell(location, "INSERT Task {task: 'Write', date: '2025-01-02'}; COUNT Task;")
        #expect(t.status == 0 && t.out.contains(" 1\n"), "\(t)")
        // A model whose tables the store lacks is refused, and not saved.
        let wrong = runShell(location, model: Self.company, "COUNT Employee;")
        #expect(wrong.status != 0 && wrong.err.contains("not made for this model"), "\(wrong)")
        #expect(try location.storedModel() == (try ModelReader.read(from: Self.tasks)))
    }

    /// `.open` uses the opened store's model — before any statement, after
    /// one (when the company model is loaded), and with `--model` for a new file.
    @Test func openUsesTheStoresOwnModel() throws {
        let tasksStore = try TestDatabase.sqlite.freshLocation("open-tasks")
        let created = runShell(tasksStore, model: Self.tasks, "INSERT Task {task: 'A', date: '2025-01-01'};")
        #expect(created.status == 0, "\(created)")
        let path = tasksStore.argument

        let first = runShell(.defaultStore, ".open \(path)\nCOUNT Task;")
        #expect(first.status == 0 && first.out.contains(" 1\n"), "\(first)")
        let after = runShell(.defaultStore, "COUNT Employee;\n.open \(path)\nCOUNT Task;\nCOUNT Employee;")
        #expect(after.out.contains(" 200\n") && after.out.contains(" 1\n"), "\(after)")
        #expect(after.err.contains("unknown entity 'Employee'"), "\(after)")

        let fresh = try TestDatabase.sqlite.freshLocation("open-new").argument
        let refused = runShell(.defaultStore, "COUNT Employee;\n.open \(fresh)")
        #expect(refused.status == ExitStatus.usage && refused.err.contains("needs a model"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: fresh))
        let made = runShell(.defaultStore, ".open \(fresh) --model \(Self.tasks)\nINSERT Task {task: 'B', date: '2025-01-01'};")
        #expect(made.status == 0, "\(made)")
        let reopened = runShell(.sqlite(fresh), "COUNT Task;")
        #expect(reopened.status == 0 && reopened.out.contains(" 1\n"), "\(reopened)")
    }

    /// The model as JSON reads back as the same model, for every example.
    @Test(arguments: ["Company.yaml", "Company.xcdatamodeld", "Tasks.yaml", "Books.yaml"])
    func savedModelsReadBackEqual(file: String) throws {
        let model = try ModelReader.read(from: packageRoot.appendingPathComponent("Examples/Models/" + file).path)
        let store = try SQLStore(path: ":memory:", model: model)
        #expect(try SQLStore.storedModel(in: store.database) == model)
    }
}

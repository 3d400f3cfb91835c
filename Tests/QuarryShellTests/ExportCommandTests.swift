// `quarry export` as a person runs it (ExportCommand, the executable's
// logic): the summary line and exit code; a target that holds data refused
// without --force and left as it was, replaced with it; a damaged source,
// a missing one and one that is no store refused with nothing written; a
// Quarry store exported too; and, on real Core Data stores of the corpus
// (skipped loudly without ../shared), the export answers the shell's COUNT,
// FETCH with GROUP BY and SECTIONS exactly as the source does, and on the
// source itself SECTIONS, GROUP BY and EXPLAIN run and agree between the SQL
// and the memory engine. Into PostgreSQL when QUARRY_POSTGRES_URL is set.
import Foundation
import QuarryCoreData
import QuarryFixtures
import QuarryPostgresTestSupport
import Testing
@testable import QuarryShell

@Suite("quarry export", .serialized)
struct ExportCommandTests {
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-export-\(UUID().uuidString)", isDirectory: true)
        init() { try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
        var files: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// A Quarry store of the company model with a seeded population.
    static func companyStore(in folder: Folder) throws -> String {
        let path = folder.path("company.sqlite")
        let made = FixturesCommand.run(model: StoreModelTests.company, out: path, counts: ["Employee=40", "Department=4"], seed: 3)
        try #require(made.exitCode == 0, "\(made.stderr)")
        return path
    }

    static let queries = """
        COUNT Employee; COUNT Department;
        FETCH Employee PROPERTIES department.name AS d, count:(salary) AS c GROUP BY department.name SORT BY department.name;
        SECTIONS Employee BY department.name SORT BY department.name, name;
        FETCH Employee WHERE salary > 50000 SORT BY name;
        """

    @Test func exportsAQuarryStoreAndRefusesToReplaceWithoutForce() throws {
        let folder = Folder()
        let source = try Self.companyStore(in: folder)
        let target = folder.path("out.sqlite")
        let first = ExportCommand(store: source, model: nil, to: target, force: false, progress: false).run()
        #expect(first.exitCode == 0, "\(first.stderr)")
        #expect(first.stderr == "")
        #expect(first.stdout == "exported 54 objects (Department 4, Employee 40, Project 10) and 70 links to \(target)\n")
        #expect(folder.files == ["company.sqlite", "out.sqlite"])
        let answers = runShell(.sqlite(source), Self.queries)
        #expect(answers.status == 0, "\(answers.err)")
        #expect(runShell(.sqlite(target), Self.queries).out == answers.out)

        let bytes = FileManager.default.contents(atPath: target)
        let again = ExportCommand(store: source, model: nil, to: target, force: false, progress: false).run()
        #expect(again.exitCode == 1)
        #expect(again.stdout == "")
        #expect(again.stderr == "error: \(target) already holds data (\(bytes?.count ?? 0) bytes); add --force to replace it\n")
        #expect(FileManager.default.contents(atPath: target) == bytes)

        let forced = ExportCommand(store: source, model: nil, to: target, force: true, progress: false).run()
        #expect(forced.exitCode == 0, "\(forced.stderr)")
        #expect(runShell(.sqlite(target), Self.queries).out == answers.out)
        #expect(folder.files == ["company.sqlite", "out.sqlite"])
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        let name: String
        /// Bytes of the source file (nil: no file).
        let source: [UInt8]?
        let exitCode: Int32
        let message: String
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "missing source", source: nil, exitCode: 66, message: "no file at"),
        Refusal(name: "damaged source", source: Array("SQLite format 3\u{0}".utf8) + Array(repeating: 0xA5, count: 4000), exitCode: 66, message: "cannot be read as SQLite"),
        Refusal(name: "encrypted or not SQLite", source: Array(repeating: 0x5A, count: 4096), exitCode: 66, message: "not a SQLite database"),
        Refusal(name: "an empty file", source: [], exitCode: 65, message: "is not a Core Data store"),
    ]

    @Test(arguments: refusals)
    func refusesABadSourceAndWritesNothing(_ r: Refusal) throws {
        let folder = Folder()
        let source = folder.path("App.sqlite")
        if let bytes = r.source { _ = FileManager.default.createFile(atPath: source, contents: Data(bytes)) }
        let before = folder.files
        let outcome = ExportCommand(store: source, model: nil, to: folder.path("out.sqlite"), force: false, progress: false).run()
        #expect(outcome.exitCode == r.exitCode, "\(outcome.stderr)")
        #expect(outcome.stdout == "")
        #expect(outcome.stderr.contains(r.message), "\(outcome.stderr)")
        #expect(folder.files == before, "nothing written")
        if let bytes = r.source { #expect(FileManager.default.contents(atPath: source) == Data(bytes)) }
    }

    @Test func refusesToWriteOverItsSource() throws {
        let folder = Folder()
        let source = try Self.companyStore(in: folder)
        let bytes = FileManager.default.contents(atPath: source)
        let outcome = ExportCommand(store: source, model: nil, to: source, force: true, progress: false).run()
        #expect(outcome.exitCode == 64)
        #expect(outcome.stderr == "error: --to names the source store\n")
        #expect(FileManager.default.contents(atPath: source) == bytes)
    }

    @Test(.enabled(if: PostgresTestEnvironment.shouldRun))
    func exportsIntoPostgreSQLAndRefusesToReplaceWithoutForce() throws {
        let folder = Folder()
        let source = try Self.companyStore(in: folder)
        let location = try TestDatabase.postgres.freshLocation("export")
        let first = ExportCommand(store: source, model: nil, to: location.argument, force: false, progress: false).run()
        #expect(first.exitCode == 0, "\(first.stderr)")
        let answers = runShell(.sqlite(source), Self.queries).out
        #expect(runShell(location, Self.queries).out == answers)
        let again = ExportCommand(store: source, model: nil, to: location.argument, force: false, progress: false).run()
        #expect(again.exitCode == 1)
        #expect(again.stderr.contains("already holds") && again.stderr.contains("add --force"), "\(again.stderr)")
        let forced = ExportCommand(store: source, model: nil, to: location.argument, force: true, progress: false).run()
        #expect(forced.exitCode == 0, "\(forced.stderr)")
        #expect(runShell(location, Self.queries).out == answers)
    }

    // MARK: real Core Data stores

    struct CorpusCase: Sendable, CustomTestStringConvertible {
        let store: String
        var testDescription: String { store }
    }

    static let corpusFolder = packageRoot.appendingPathComponent("../shared/corpus/stores").standardized

    /// A few corpus stores that carry their model (so no --model is needed).
    static let corpus: [CorpusCase] = {
        guard let data = try? Data(contentsOf: corpusFolder.appendingPathComponent("stores.json")),
              let rows = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            print("SKIPPED ExportCommandTests corpus: \(corpusFolder.path) is absent; quarry export on real Core Data stores is NOT checked")
            return []
        }
        let cached = rows.filter { $0["modelcache"] as? Bool == true }.compactMap { $0["store"] as? String }
        // Spread over the list: different apps and framework versions.
        let step = max(1, cached.count / 6)
        return stride(from: 0, to: cached.count, by: step).prefix(6).map { CorpusCase(store: cached[$0]) }
    }()

    @Test(.enabled(if: corpus.isEmpty))
    func corpusAbsent() {
        print("SKIPPED ExportCommandTests corpus: \(Self.corpusFolder.path) is absent; quarry export on real Core Data stores is NOT checked")
    }

    /// Per entity with a string attribute: COUNT, GROUP BY, SECTIONS, a
    /// filter; and EXPLAIN (run on the source only: the plan names views).
    static func script(for model: Model, explain: Bool) -> String {
        var lines: [String] = []
        for entity in model.entities.prefix(8) {
            lines.append("COUNT \(entity.name);")
            guard let a = entity.allAttributes(in: model).first(where: { !$0.isTransient && $0.type == .string }) else { continue }
            let key = a.name
            lines.append("FETCH \(entity.name) PROPERTIES \(key) AS k, count:(\(key)) AS c GROUP BY \(key) SORT BY \(key);")
            lines.append("SECTIONS \(entity.name) BY \(key) SORT BY \(key);")
            lines.append("COUNT \(entity.name) WHERE \(key) BEGINSWITH[c] 'a' OR \(key) == nil;")
            if explain { lines.append("EXPLAIN FETCH \(entity.name) WHERE \(key) != nil SORT BY \(key);") }
        }
        return lines.joined(separator: "\n")
    }

    @Test(arguments: corpus)
    func coreDataStoreWorksInTheShellAndExportsAlike(_ c: CorpusCase) throws {
        let folder = Folder()
        let original = Self.corpusFolder.appendingPathComponent(c.store).path
        let source = folder.path("App.sqlite")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: original + suffix) {
            try FileManager.default.copyItem(atPath: original + suffix, toPath: source + suffix)
        }
        let bytes = ["", "-wal", "-shm"].map { FileManager.default.contents(atPath: source + $0) }
        let model = try CoreDataStore.open(path: source).store.model
        // On the source: SQL and memory agree, EXPLAIN included.
        let withExplain = Self.script(for: model, explain: true)
        let sql = runShell(.sqlite(source), ".engine sql\n" + withExplain)
        #expect(sql.status == 0, "\(c.store): \(sql.err)")
        #expect(sql.err.contains("is a Core Data store, opened read-only"))
        let memory = runShell(.sqlite(source), ".engine memory\n" + withExplain)
        #expect(memory.status == 0, "\(c.store): \(memory.err)")
        #expect(Self.withoutExplain(sql.out) == Self.withoutExplain(memory.out), "\(c.store): SQL and memory differ")
        #expect(sql.out.contains("sql:") || !withExplain.contains("EXPLAIN"), "\(c.store): EXPLAIN shows no SQL")

        let target = folder.path("out.sqlite")
        let outcome = ExportCommand(store: source, model: nil, to: target, force: false, progress: false).run()
        #expect(outcome.exitCode == 0, "\(c.store): \(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("exported ") && outcome.stdout.hasSuffix("links to \(target)\n"), "\(outcome.stdout)")
        let script = Self.script(for: model, explain: false)
        let fromSource = runShell(.sqlite(source), script)
        let fromExport = runShell(.sqlite(target), script)
        #expect(fromExport.status == 0, "\(c.store): \(fromExport.err)")
        #expect(fromExport.out == fromSource.out, "\(c.store): the export answers differently")
        // Into PostgreSQL too, when a server is there: the same answers.
        if PostgresTestEnvironment.shouldRun {
            let location = try TestDatabase.postgres.freshLocation("export-coredata")
            let pg = ExportCommand(store: source, model: nil, to: location.argument, force: false, progress: false).run()
            #expect(pg.exitCode == 0, "\(c.store) into PostgreSQL: \(pg.stderr)")
            let fromPostgres = runShell(location, script)
            #expect(fromPostgres.out == fromSource.out, "\(c.store): the PostgreSQL export answers differently")
        }
        #expect(["", "-wal", "-shm"].map { FileManager.default.contents(atPath: source + $0) } == bytes, "\(c.store): the source changed")
    }

    /// The output without EXPLAIN's blocks (the engines' plans differ by design).
    static func withoutExplain(_ text: String) -> String {
        var out: [Substring] = []
        var skipping = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("sql:") || line.hasPrefix("plan:") || line.hasPrefix("engine:") { skipping = true }
            if skipping {
                if line.isEmpty { skipping = false }
                continue
            }
            out.append(line)
        }
        return out.joined(separator: "\n")
    }
}

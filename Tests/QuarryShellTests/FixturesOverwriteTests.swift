// `quarry fixtures` never replaces data without `--force`: an existing,
// non-empty file (of any format) or a store whose tables hold rows is
// refused before anything is generated, and stays as it was; with
// `--force` it is replaced. Without `--seed` (and no seed in the
// factories) each run picks a fresh seed and says which.
import Foundation
import QuarryFixtures
import QuarryPostgresTestSupport
import Testing
@testable import QuarryShell

@Suite("Fixtures overwrite and seeds", .serialized)
struct FixturesOverwriteTests {
    func target(_ location: StoreLocation) -> FixturesCommand.Target {
        switch location {
        case .sqlite(let path): return .file(path, format: nil)
        default: return .store(description: "the test schema") { model, file in try location.openStore(model: model, modelFile: file) }
        }
    }

    func contents(_ location: StoreLocation) throws -> String {
        runShell(location, "COUNT Employee; COUNT Department;").out
    }

    @Test(arguments: TestDatabase.available)
    func refusesToReplaceAStoreWithoutForce(database: TestDatabase) throws {
        let location = try database.freshLocation("fixtures-force")
        let first = FixturesCommand.run(model: StoreModelTests.company, target: target(location), counts: ["Employee=7"], seed: 1)
        #expect(first.exitCode == 0, "\(first.stderr)")
        let before = try contents(location)
        let bytes = FileManager.default.contents(atPath: location.argument)

        let again = FixturesCommand.run(model: StoreModelTests.company, target: target(location), counts: ["Employee=9"], seed: 2)
        #expect(again.exitCode == 1)
        #expect(again.stderr.contains("already holds") && again.stderr.contains("--force"), "\(again.stderr)")
        #expect(try contents(location) == before)
        if database == .sqlite { #expect(FileManager.default.contents(atPath: location.argument) == bytes) }

        let forced = FixturesCommand.run(model: StoreModelTests.company, target: target(location), counts: ["Employee=9"], seed: 2, force: true)
        #expect(forced.exitCode == 0, "\(forced.stderr)")
        #expect(try contents(location).contains(" 9\n"))
    }

    /// `--append` adds after the rows there, keys moved past them, into a
    /// store of the same model only.
    @Test(arguments: TestDatabase.available)
    func appendsToAStoreOfTheSameModel(database: TestDatabase) throws {
        let location = try database.freshLocation("fixtures-append")
        #expect(FixturesCommand.run(model: StoreModelTests.company, target: target(location), counts: ["Employee=7"], seed: 1).exitCode == 0)
        let before = runShell(location, ".mode csv\nFETCH Employee PROPERTIES name, department.name SORT BY name;").out
        let appended = FixturesCommand.run(model: StoreModelTests.company, target: target(location), counts: ["Employee=5"], seed: 2, append: true)
        #expect(appended.exitCode == 0, "\(appended.stderr)")
        let t = runShell(location, ".mode csv\nCOUNT Employee; FETCH Employee PROPERTIES name, department.name SORT BY name;")
        #expect(t.status == 0 && t.out.hasPrefix("count\r\n12\r\n"), "\(t)")
        // The rows there before kept their values and their links.
        let lines = before.split(whereSeparator: \.isNewline).dropFirst()
        #expect(lines.count == 7)
        for line in lines {
            #expect(t.out.contains(line), "lost: \(line)\n\(t)")
        }
        if case .sqlite(let path) = location {
            let store = try SQLStore(path: path, model: try ModelReader.read(from: StoreModelTests.company))
            #expect(try store.database.rows("PRAGMA foreign_key_check").isEmpty)
        }
        // Another model's store is refused, and left as it was.
        let other = FixturesCommand.run(model: StoreModelTests.tasks, target: target(location), counts: ["Task=2"], seed: 1, append: true)
        // (A SQLite file is read first; a PostgreSQL schema refuses to open for another model.)
        #expect([1, 66].contains(other.exitCode) && other.stderr.contains("model"), "\(other.stderr)")
        #expect(runShell(location, ".mode csv\nCOUNT Employee;").out == "count\r\n12\r\n")
        #expect(FixturesCommand.run(model: StoreModelTests.company, target: target(location), force: true, append: true).exitCode == 64)
    }

    @Test func refusesAnyNonEmptyFile() throws {
        let path = NSTemporaryDirectory() + "quarry-fixtures-\(getpid())-\(UInt32.random(in: 0 ... .max)).json"
        try "precious".write(toFile: path, atomically: true, encoding: .utf8)
        let refused = FixturesCommand.run(model: StoreModelTests.tasks, out: path, counts: ["Task=3"], seed: 1)
        #expect(refused.exitCode == 1)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious")
        // An empty file is no data to lose.
        try "".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(FixturesCommand.run(model: StoreModelTests.tasks, out: path, counts: ["Task=3"], seed: 1).exitCode == 0)
    }

    @Test func freshSeedUnlessGiven() throws {
        func seed(_ given: UInt64?) -> String {
            let path = NSTemporaryDirectory() + "quarry-seed-\(getpid())-\(UInt32.random(in: 0 ... .max)).json"
            let outcome = FixturesCommand.run(model: StoreModelTests.tasks, out: path, counts: ["Task=2"], seed: given)
            return String(outcome.stdout.split(separator: " ").last ?? "")
        }
        #expect(seed(nil) != seed(nil))
        #expect(seed(42) == "42\n")
    }
}

// A migration is all or nothing even when its process dies: the built
// `quarry migrate` moves a 500k-row store to a model that renames an
// attribute, turns an integer16 into a double (SQLite's table rebuild) and
// adds one with a default, and is killed (SIGKILL) at several moments. Every
// time the reopened store holds either the old model with every old value or
// the new model with every row migrated, never a mix (as CrashSafetyTests
// checks for batch updates).
import Foundation
import Testing
@testable import QuarryShell

@Suite("Crash safety of migrations", .serialized)
struct MigrationCrashTests {
    static let rows = 500_000
    static let v1 = "entities:\n  Employee:\n    attributes:\n      name: string\n      nickname: string\n      age: integer16\n"
    static let v2 = """
    entities:
      Employee:
        attributes:
          name: string
          alias: { type: string, userInfo: { renamingIdentifier: nickname } }
          age: double
          email: { type: string, default: none }

    """

    @Test(.enabled(if: REPLTerminalTests.binary != nil, "needs the built quarry executable"), arguments: [0.05, 0.2, 0.5, 1.0])
    func killedMigrationLeavesOldOrNew(delay: Double) throws {
        let dir = NSTemporaryDirectory() + "quarry-migrate-crash-\(getpid())-\(Int(delay * 1000))/"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.v1.write(toFile: dir + "v1.yaml", atomically: true, encoding: .utf8)
        try Self.v2.write(toFile: dir + "v2.yaml", atomically: true, encoding: .utf8)
        let path = dir + "s.sqlite"
        let old = try ModelReader.read(from: dir + "v1.yaml"), new = try ModelReader.read(from: dir + "v2.yaml")
        do {
            let store = try SQLStore(path: path, model: old)
            _ = try store.database.run(#"""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \#(Self.rows))
                INSERT INTO "Employee" ("_pk", "_entity", "name", "nickname", "age") SELECT i, 'Employee', 'E' || i, 'n' || i, i % 100 FROM n
                """#)
            store.database.close()
        }
        let process = try KilledQuarry.run(["migrate", "--store", path, "--model", dir + "v2.yaml"], killedAfter: delay)

        let saved = try #require(try SQLStore.storedModel(at: path))
        #expect(saved == old || saved == new, "killed after \(delay) s: the saved model is neither version")
        let store = try SQLStore(path: path, model: saved)
        defer { store.database.close() }
        func count(_ predicate: String) throws -> Int {
            try store.count(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate(predicate)))
        }
        #expect(try count("TRUEPREDICATE") == Self.rows)
        if saved == old {
            #expect(try count("nickname BEGINSWITH 'n' AND age < 100") == Self.rows, "killed after \(delay) s: old model, values changed")
        } else {
            #expect(try count("alias BEGINSWITH 'n' AND email == 'none' AND age < 100") == Self.rows, "killed after \(delay) s: new model, rows not migrated")
        }
        if process.terminationReason == .exit {
            #expect(process.terminationStatus == 0 && saved == new, "finished before the kill after \(delay) s")
        }
    }
}

// A batch update is all or nothing even when its process dies: the built
// `quarry` runs `UPDATE Employee SET salary = salary + 1` on a 1M-row store
// (a SQLite file, or a PostgreSQL schema) and is killed (SIGKILL) at several
// moments; every time, the reopened store holds either every old salary or
// every new one, never a mix. The rows are made by one INSERT … SELECT (set-up
// only: quick even in a debug build); the update under test is Quarry's.
import Foundation
import QuarryPostgresTestSupport
import Testing
@testable import QuarryShell

@Suite("Crash safety", .serialized)
struct CrashSafetyTests {
    static let modelPath = packageRoot.appendingPathComponent("Examples/Models/Company.yaml").path
    static let rows = 1_000_000

    /// The process died of the kill, or finished first and then every
    /// salary must be new.
    static func check(_ process: Process, old: Int, new: Int, delay: Double) {
        #expect(old + new == rows)
        #expect(old == rows || new == rows, "killed after \(delay) s: \(old) old and \(new) new salaries")
        if process.terminationReason == .exit {
            #expect(process.terminationStatus == 0 && new == rows, "finished before the kill after \(delay) s, yet \(new) new salaries")
        }
    }

    @Test(.enabled(if: REPLTerminalTests.binary != nil, "needs the built quarry executable"),
          arguments: [0.05, 0.2, 0.5, 1.0])
    func killedBatchUpdateLeavesOldOrNew(delay: Double) throws {
        let path = NSTemporaryDirectory() + "quarry-crash-\(getpid())-\(Int(delay * 1000)).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        do {
            let store = try SQLStore(path: path, model: try ModelReader.read(from: Self.modelPath), modelFile: Self.modelPath)
            _ = try store.database.run(#"""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \#(Self.rows))
                INSERT INTO "Employee" ("_pk", "_entity", "name", "salary") SELECT i, 'Employee', 'E' || i, 1000 FROM n
                """#)
        }
        let process = try KilledQuarry.run(["--store", path, "-c", "UPDATE Employee SET salary = salary + 1"], killedAfter: delay)

        let store = try SQLStore(path: path, model: try ModelReader.read(from: Self.modelPath))
        let old = try store.count(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary == 1000")))
        let new = try store.count(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary == 1001")))
        Self.check(process, old: old, new: new, delay: delay)
    }

    @Test(.enabled(if: REPLTerminalTests.binary != nil && PostgresTestEnvironment.shouldRun, "needs the built quarry executable and PostgreSQL"),
          arguments: [0.05, 0.2, 0.5, 1.0])
    func killedBatchUpdateOnPostgresLeavesOldOrNew(delay: Double) throws {
        var url = try PostgresTestEnvironment.requireURL()
        url.schema = PostgresTestEnvironment.freshSchemaName()
        let model = try ModelReader.read(from: Self.modelPath)
        do {
            let store = try SQLStore(postgres: url.description, model: model, modelFile: Self.modelPath)
            _ = try store.database.run(#"""
                INSERT INTO "Employee" ("_pk", "_entity", "name", "salary")
                SELECT i, 'Employee', 'E' || i, 1000 FROM generate_series(1, \#(Self.rows)) AS i
                """#)
            store.database.close()
        }
        let process = try KilledQuarry.run(["--postgres", url.description, "-c", "UPDATE Employee SET salary = salary + 1"], killedAfter: delay)

        // The server notices the dropped client and rolls its transaction back.
        let store = try SQLStore(postgres: url.description, model: model)
        defer { store.database.close() }
        let old = try store.count(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary == 1000")))
        let new = try store.count(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary == 1001")))
        Self.check(process, old: old, new: new, delay: delay)
    }
}

// A batch update is all or nothing even when its process dies: the built
// `quarry` runs `UPDATE Employee SET salary = salary + 1` on a 300k-row store
// (a SQLite file, or a PostgreSQL schema) and is killed (SIGKILL) at several
// moments; every time, the reopened store holds either every old salary or
// every new one, never a mix.
import Foundation
import QuarryPostgresTestSupport
import Testing
@testable import QuarryShell

@Suite("Crash safety", .serialized)
struct CrashSafetyTests {
    static let modelPath = packageRoot.appendingPathComponent("Examples/Models/Company.yaml").path

    @Test(.enabled(if: REPLTerminalTests.binary != nil, "needs the built quarry executable"),
          arguments: [0.02, 0.08, 0.2, 0.5])
    func killedBatchUpdateLeavesOldOrNew(delay: Double) throws {
        let path = NSTemporaryDirectory() + "quarry-crash-\(getpid())-\(Int(delay * 1000)).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let rows = 300_000
        do {
            let store = try SQLStore(path: path, model: try ModelReader.read(from: Self.modelPath), modelFile: Self.modelPath)
            try store.batchInsert("Employee", objects: (0..<rows).map { ["name": .string("E\($0)"), "salary": .int(1000)] })
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: REPLTerminalTests.binary!)
        process.arguments = ["--store", path, "-c", "UPDATE Employee SET salary = salary + 1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: delay)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        let store = try SQLStore(path: path, model: try ModelReader.read(from: Self.modelPath))
        let old = try store.count(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary == 1000")))
        let new = try store.count(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary == 1001")))
        #expect(old + new == rows)
        #expect(old == rows || new == rows, "killed after \(delay) s: \(old) old and \(new) new salaries")
    }

    @Test(.enabled(if: REPLTerminalTests.binary != nil && PostgresTestEnvironment.shouldRun, "needs the built quarry executable and PostgreSQL"),
          arguments: [0.05, 0.2, 0.5, 1.0])
    func killedBatchUpdateOnPostgresLeavesOldOrNew(delay: Double) throws {
        var url = try PostgresTestEnvironment.requireURL()
        url.schema = PostgresTestEnvironment.freshSchemaName()
        let rows = 300_000
        let model = try ModelReader.read(from: Self.modelPath)
        do {
            let store = try SQLStore(postgres: url.description, model: model, modelFile: Self.modelPath)
            try store.batchInsert("Employee", objects: (0..<rows).map { ["name": .string("E\($0)"), "salary": .int(1000)] })
            store.database.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: REPLTerminalTests.binary!)
        process.arguments = ["--postgres", url.description, "-c", "UPDATE Employee SET salary = salary + 1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: delay)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        // The server notices the dropped client and rolls its transaction back.
        let store = try SQLStore(postgres: url.description, model: model)
        defer { store.database.close() }
        let old = try store.count(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary == 1000")))
        let new = try store.count(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary == 1001")))
        #expect(old + new == rows)
        #expect(old == rows || new == rows, "killed after \(delay) s: \(old) old and \(new) new salaries")
    }
}

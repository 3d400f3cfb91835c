// A statement the database stops (the driver's `interrupt()`, which Ctrl-C
// calls) is reported the same on every engine: R003 `interrupted`, exit
// status 1 — on PostgreSQL as on SQLite, where PostgreSQL's cancel used to
// come out as a generic R001 with the server's words. Here the interrupt
// comes without the shell's own Ctrl-C flag, so what is reported is what
// the shell makes of the database's error (ShellSession+DatabaseErrors.swift),
// not the run loop's "interrupted" after a Ctrl-C.
import Foundation
import QuarryPostgresTestSupport
import Testing
@testable import QuarryShell

@Suite("A database's interruption in the shell", .serialized)
struct DatabaseInterruptShellTests {
    static var engines: [String] { PostgresTestEnvironment.shouldRun ? ["sqlite", "postgres"] : ["sqlite"] }

    final class Done: @unchecked Sendable {
        // @unchecked: a flag guarded by `lock`.
        private let lock = NSLock()
        private var flag = false
        var value: Bool {
            get { lock.lock(); defer { lock.unlock() }; return flag }
            set { lock.lock(); flag = newValue; lock.unlock() }
        }
    }

    /// A company store with 20,000 employees in one department, on `engine`.
    func makeStore(_ engine: String) throws -> (StoreLocation, cleanUp: () -> Void) {
        let modelPath = packageRoot.appendingPathComponent("Examples/Models/Company.yaml").path
        let model = try ModelReader.read(from: modelPath)
        let store: SQLStore
        let location: StoreLocation
        var cleanUp: () -> Void = {}
        if engine == "postgres" {
            var url = try PostgresTestEnvironment.requireURL()
            url.schema = PostgresTestEnvironment.freshSchemaName()
            store = try SQLStore(postgres: url.description, model: model, modelFile: modelPath)
            location = .postgres(url.description)
        } else {
            let path = NSTemporaryDirectory() + "quarry-db-interrupt-\(getpid()).sqlite"
            for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) }
            store = try SQLStore(path: path, model: model, modelFile: modelPath)
            location = .sqlite(path)
            cleanUp = { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        }
        let departments = try store.batchInsert("Department", objects: [["name": .string("One")]], resultType: .objectIDs)
        try store.batchInsert("Employee", objects: (0..<20_000).map { ["name": .string("E\($0)"), "salary": .int(Int64($0))] })
        guard case .objectIDs(let ids) = departments else { throw ShellError.failed("no department") }
        try store.database.run(#"UPDATE "Employee" SET "department" = ?"#, [.int(ids[0].primaryKey)])
        store.database.close()
        return (location, cleanUp)
    }

    @Test(arguments: engines)
    func aStatementTheDatabaseStopsIsReportedAsInterrupted(engine: String) throws {
        let (location, cleanUp) = try makeStore(engine)
        defer { cleanUp() }
        final class Box: @unchecked Sendable { var out = ""; var err = "" }
        let box = Box()
        let session = ShellSession(location: location, mode: .table, output: { box.out += $0 }, errors: { box.err += $0 })
        session.jsonErrors = true
        #expect(session.setUp(modelPath: nil, openStore: true) == 0, "\(box.err)")
        let interrupter = try #require(session.openStore).database.interrupter
        // Interrupted until the statement stops: 20,000 × 20,000 correlated
        // comparisons would take many seconds on either engine.
        // A thread of its own: the global queue's few workers may all be
        // busy on a loaded 2-core machine, and the interrupts would wait.
        let done = Done()
        Thread {
            Thread.sleep(forTimeInterval: 0.3)
            while !done.value { interrupter(); Thread.sleep(forTimeInterval: 0.1) }
        }.start()
        let started = Date()
        let status = session.run("COUNT Employee WHERE SUBQUERY(department.employees, $e, $e.salary > salary).@count > 19999", stopOnError: true)
        done.value = true
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(status == ExitStatus.statementFailed, "\(box.err)")
        #expect(box.out.isEmpty)
        #expect(box.err.contains(#""code":"R003""#) && box.err.contains(#""message":"interrupted""#), "\(engine): \(box.err)")
        // The session goes on: the next statement runs.
        box.err = ""
        #expect(session.run("COUNT Department", stopOnError: true) == 0, "\(box.err)")
        #expect(box.out.contains("     1\n"), "\(box.out)")
        session.openStore?.database.close()
    }
}

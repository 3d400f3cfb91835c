// The shell on a PostgreSQL store: the README's tour, run against the same
// example company written into a PostgreSQL schema, prints what it prints on
// the embedded SQLite store — every table, count, aggregate, batch change and
// error — except the EXPLAIN block, whose SQL and plan are the engine's own.
// Also: `.open` with a URL, and a schema without a store asking for a model.
import Foundation
import QuarryPostgresTestSupport
import Testing
@testable import QuarryShell

@Suite("Shell on PostgreSQL", .postgres, .serialized)
struct PostgresShellTests {
    func freshURL() throws -> String {
        var url = try PostgresTestEnvironment.requireURL()
        url.schema = PostgresTestEnvironment.freshSchemaName()
        return url.description
    }

    /// The text without EXPLAIN's `sql:` ... blank-line block.
    func withoutPlans(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        var skipping = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("sql: ") { skipping = true }
            if skipping { if line.isEmpty { skipping = false } else { continue } }
            lines.append(line)
        }
        return lines
    }

    @Test func theTourPrintsWhatItPrintsOnSQLite() throws {
        let url = try freshURL()
        let companyPath = packageRoot.appendingPathComponent("Examples/Models/Company.yaml").path
        do {
            let store = try SQLStore(postgres: url, model: try DefaultStore.model(), modelFile: companyPath)
            try DefaultStore.fill(store)
            store.database.close()
        }
        let tour = packageRoot.appendingPathComponent("Examples/Queries/tour.qry").path
        let expected = try String(contentsOfFile: packageRoot.appendingPathComponent("Examples/Queries/tour.expected.txt").path, encoding: .utf8)
        let result = transcript([.file(tour)], store: .postgres(url))
        #expect(result.status == 0, "\(result.err)")
        #expect(withoutPlans(result.out) == withoutPlans(expected))
        #expect(result.out.contains("Seq Scan") || result.out.contains("Index"), "PostgreSQL's own plan is shown")
    }

    @Test func openTakesAURLAndAnEmptySchemaAsksForAModel() throws {
        let url = try freshURL()
        let empty = transcript([.command(".open \(url)")])
        #expect(empty.status != 0)
        #expect(empty.err.contains("holds no Quarry store yet"), "\(empty.err)")
        #expect(!empty.err.contains("password"))

        let companyPath = packageRoot.appendingPathComponent("Examples/Models/Company.yaml").path
        // `.open` takes the model given with it (a `.model` before it is left with the store open then).
        let created = transcript([.command(".open \(url) --model \(companyPath)"),
                                  .command("INSERT Department {name: 'Ops'}"), .command("COUNT Department")])
        #expect(created.status == 0, "\(created.err)")
        #expect(created.out.contains("     1\n"), "\(created.out)")
        // Reopened later with the model it saved.
        let reopened = transcript([.command("FETCH Department PROPERTIES name")], store: .postgres(url))
        #expect(reopened.out.contains(" Ops\n"), "\(reopened.out) \(reopened.err)")
    }

    @Test func anUnreachableServerIsACleanError() {
        let result = transcript([.command("COUNT Employee")], store: .postgres("postgres://postgres:secret@127.0.0.1:1/postgres"))
        #expect(result.status == ExitStatus.cannotOpen)
        #expect(result.err.contains("cannot open store"), "\(result.err)")
        #expect(!result.err.contains("secret"))
    }
}

/// Ctrl-C in the REPL cancels the statement running on the PostgreSQL
/// server; the shell stays and the connection still works.
@Suite("REPL on PostgreSQL", .postgres, .serialized)
struct PostgresREPLTests {
    @Test(.enabled(if: REPLTerminalTests.binary != nil, "needs the built quarry executable"))
    func ctrlCCancelsTheServerQuery() throws {
        var url = try PostgresTestEnvironment.requireURL()
        url.schema = PostgresTestEnvironment.freshSchemaName()
        let modelPath = packageRoot.appendingPathComponent("Examples/Models/Company.yaml").path
        do {
            let store = try SQLStore(postgres: url.description, model: try ModelReader.read(from: modelPath), modelFile: modelPath)
            let departments = try store.batchInsert("Department", objects: [["name": .string("One")]], resultType: .objectIDs)
            try store.batchInsert("Employee", objects: (0..<20_000).map { ["name": .string("E\($0)"), "salary": .int(Int64($0))] })
            guard case .objectIDs(let ids) = departments else { return }
            try store.database.run(#"UPDATE "Employee" SET "department" = ?"#, [.int(ids[0].primaryKey)])
            store.database.close()
        }
        let env = ["QUARRY_HISTORY": NSTemporaryDirectory() + "quarry-pg-history-\(getpid())", "TERM": "xterm",
                   "HOME": NSTemporaryDirectory(), "PATH": "/usr/bin:/bin"]
        let repl = try #require(PTYProcess(REPLTerminalTests.binary!, arguments: ["--postgres", url.description], environment: env))
        #expect(repl.wait(for: "quarry> "))
        // 20,000 × 20,000 correlated comparisons: minutes on the server.
        repl.type("COUNT Employee WHERE SUBQUERY(department.employees, $e, $e.salary > salary).@count > 19999;\r")
        Thread.sleep(forTimeInterval: 1.0)
        let sent = Date()
        repl.type("\u{03}")
        #expect(repl.wait(for: "quarry> ", times: 2, seconds: 10), "\(repl.screen.suffix(400).debugDescription)")
        #expect(Date().timeIntervalSince(sent) < 5)
        #expect(repl.screen.contains("interrupted"), "\(repl.screen.suffix(400).debugDescription)")
        repl.type("COUNT Department;\r")
        #expect(repl.wait(for: "     1\r\n"), "\(repl.screen.suffix(400).debugDescription)")
        // Ctrl-D ends the shell only on an empty line at the prompt.
        #expect(repl.waitAfter("     1\r\n", for: "quarry> "))
        repl.type("\u{04}")
        #expect(repl.finish() == 0, "\(repl.screen.suffix(600).debugDescription)")
    }
}

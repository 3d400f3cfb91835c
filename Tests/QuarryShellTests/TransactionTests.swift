// BEGIN / COMMIT / ROLLBACK / savepoints and `--single-transaction`, on
// SQLite and PostgreSQL: what a rolled-back transaction or a failed
// single-transaction run leaves is exactly what was there before — the
// SQLite file byte for byte, the PostgreSQL rows row for row.
import Foundation
import QuarryPostgresTestSupport
import Testing
@testable import QuarryShell

/// (script, single transaction, exit status, whether the store must be unchanged,
///  departments afterwards, a stderr fragment)
let transactionCases: [(String, Bool, Int32, Bool, Int, String)] = [
    ("BEGIN; INSERT Department {name: 'X'}; DELETE Employee WHERE age > 30; ROLLBACK", false, 0, true, 10, ""),
    ("BEGIN TRANSACTION; UPDATE Employee SET salary = 1; ROLLBACK TRANSACTION", false, 0, true, 10, ""),
    ("BEGIN; INSERT Department {name: 'X'}; COMMIT", false, 0, false, 11, ""),
    ("BEGIN; INSERT Department {name: 'X'}; END", false, 0, false, 11, ""),
    ("BEGIN; INSERT Department {name: 'X'}; SAVEPOINT s1; INSERT Department {name: 'Y'}; ROLLBACK TO s1; RELEASE s1; COMMIT",
     false, 0, false, 11, ""),
    ("BEGIN; SAVEPOINT a; INSERT Department {name: 'Y'}; RELEASE SAVEPOINT a; ROLLBACK", false, 0, true, 10, ""),
    // Left open at the end of the run: rolled back, and said so.
    ("BEGIN; DELETE Employee", false, 0, true, 10, "rolled back the open transaction"),
    // A failure inside a transaction stops the run, which rolls it back.
    ("BEGIN; INSERT Department {name: 'X'}; EVAL 1 / 0; COMMIT", false, 1, true, 10, "rolled back the open transaction"),
    // --single-transaction: all or nothing.
    ("INSERT Department {name: 'X'}; DELETE Employee; EVAL 1 / 0; INSERT Department {name: 'Y'}", true, 1, true, 10,
     "rolled back: --single-transaction"),
    ("INSERT Department {name: 'X'}; INSERT Department {name: 'Y'}", true, 0, false, 12, ""),
    ("BEGIN", true, 1, true, 10, "error[R008]: a transaction is already open"),
    // Misuse is an error that names the state.
    ("COMMIT", false, 1, true, 10, "error[R008]: no transaction is open"),
    ("ROLLBACK TO s", false, 1, true, 10, "error[R008]: no transaction is open"),
    ("BEGIN; BEGIN", false, 1, true, 10, "error[R008]: a transaction is already open"),
    ("SAVEPOINT", false, 65, true, 10, "error[S009]: expected a savepoint name"),
    ("BEGIN; .open :memory:", false, 65, true, 10, ".open inside a transaction"),
]

/// Runs `script` on `store` as `quarry [-1] -c SCRIPT` would.
func transactionRun(_ script: String, single: Bool, store: StoreLocation) -> (out: String, err: String, status: Int32) {
    final class Box: @unchecked Sendable { var out = ""; var err = "" }
    let box = Box()
    let session = ShellSession(location: store, output: { box.out += $0 }, errors: { box.err += $0 })
    var status = session.setUp(modelPath: nil, openStore: true)
    if status == 0 { status = ScriptRunner(session: session, keepGoing: false, singleTransaction: single).run([.command(script)]) }
    session.openStore?.database.close()
    return (box.out, box.err, status)
}

@Suite("Transactions on SQLite")
struct SQLiteTransactionTests {
    @Test(arguments: transactionCases)
    func transaction(script: String, single: Bool, status: Int32, unchanged: Bool, departments: Int, err: String) throws {
        let path = try companyFile("tx-\(UInt(bitPattern: script.hashValue))-\(single)")
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        let before = bytes(path)
        let r = transactionRun(script, single: single, store: .sqlite(path))
        #expect(r.status == status, "\(r.err)")
        #expect(err.isEmpty || r.err.contains(err), "\(r.err)")
        if unchanged { #expect(bytes(path) == before, "the file changed") }
        let count = transcript([.command("COUNT Department")], mode: .csv, store: .sqlite(path))
        #expect(count.out == "count\r\n\(departments)\r\n")
    }

    @Test func thePromptShowsAnOpenTransaction() {
        let session = ShellSession(output: { _ in }, errors: { _ in })
        session.run("COUNT Department", stopOnError: true)
        #expect(!session.inTransaction)
        session.run("BEGIN", stopOnError: true)
        #expect(session.inTransaction)
        #expect(session.finish())
        #expect(!session.inTransaction)
    }
}

@Suite("Transactions on PostgreSQL", .postgres, .serialized)
struct PostgresTransactionTests {
    /// Every row of every entity, in key order.
    func rows(_ url: String) -> String {
        transcript([.command("FETCH Department SORT BY name"), .command("FETCH Employee SORT BY name"), .command("FETCH Project SORT BY name")],
                   mode: .csv, store: .postgres(url)).out
    }

    @Test(arguments: transactionCases)
    func transaction(script: String, single: Bool, status: Int32, unchanged: Bool, departments: Int, err: String) throws {
        var url = try PostgresTestEnvironment.requireURL()
        url.schema = PostgresTestEnvironment.freshSchemaName()
        do {
            let store = try SQLStore(postgres: url.description, model: try DefaultStore.model(),
                                     modelFile: packageRoot.appendingPathComponent("Examples/Models/Company.yaml").path)
            try DefaultStore.fill(store)
            store.database.close()
        }
        let before = rows(url.description)
        let r = transactionRun(script, single: single, store: .postgres(url.description))
        #expect(r.status == status, "\(r.err)")
        #expect(err.isEmpty || r.err.contains(err), "\(r.err)")
        if unchanged { #expect(rows(url.description) == before) }
        let count = transcript([.command("COUNT Department")], mode: .csv, store: .postgres(url.description))
        #expect(count.out == "count\r\n\(departments)\r\n", "\(count.err)")
    }
}

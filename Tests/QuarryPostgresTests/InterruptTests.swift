// interrupt() from another thread cancels the running statement quickly and
// leaves the connection usable; statement_timeout ends long statements.
import Foundation
import QuarryPostgres
import QuarryPostgresTestSupport
import Testing

@Suite(.postgres) struct InterruptTests {
    @Test func interruptCancelsARunningStatement() throws {
        try PostgresTestEnvironment.withFreshDatabase { (db: PostgresDatabase) throws in
            let start = Date()
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { db.interrupt() }
            #expect {
                try db.query("SELECT pg_sleep(10)", [], as: [])
            } throws: { error in
                let e = error as? PostgresDatabaseError
                return e?.kind == .canceled && e?.sqlState == "57014" && "\(error)".contains("canceled")
            }
            // Far sooner than the 10 s the statement would take; the margin
            // is for ThreadSanitizer on a loaded machine (1.31 s seen there).
            let elapsed = Date().timeIntervalSince(start)
            #expect(elapsed < 5, "took \(elapsed) s")
            // The connection still works, and a later statement is not hit.
            #expect(try db.query("SELECT 1", [], as: [.int]) == [[.int(1)]])
            #expect(try db.query("SELECT pg_sleep(0.2), 2", [], as: [.automatic, .int]).first?.last == .int(2))
        }
    }

    @Test func interruptInsideATransactionRollsItBack() throws {
        try PostgresTestEnvironment.withFreshDatabase { (db: PostgresDatabase) throws in
            try db.run(#"CREATE TABLE "t" ("x" bigint)"#, [])
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { db.interrupt() }
            #expect(throws: PostgresDatabaseError.self) {
                try db.inTransaction {
                    try db.run(#"INSERT INTO "t" VALUES (1)"#, [])
                    try db.run("SELECT pg_sleep(10)", [])
                }
            }
            #expect(!db.isInTransaction)
            #expect(try db.query(#"SELECT count(*) FROM "t""#, [], as: [.int]) == [[.int(0)]])
        }
    }

    @Test func interruptWhenIdleDoesNothing() throws {
        try PostgresTestEnvironment.withFreshDatabase { (db: PostgresDatabase) throws in
            db.interrupt()
            #expect(try db.query("SELECT pg_sleep(0.3), 1", [], as: [.automatic, .int]).first?.last == .int(1))
        }
    }

    @Test(arguments: ["300ms", "300"])
    func statementTimeoutFromOptions(timeout: String) throws {
        var options = PostgresDatabase.Options()
        options.statementTimeout = timeout
        try PostgresTestEnvironment.withFreshDatabase(options: options) { (db: PostgresDatabase) throws in
            let start = Date()
            #expect {
                try db.run("SELECT pg_sleep(5)", [])
            } throws: { error in
                let e = error as? PostgresDatabaseError
                return e?.kind == .timedOut && "\(error)".contains("timed out")
            }
            #expect(Date().timeIntervalSince(start) < 2)
            #expect(try db.query("SELECT 1", [], as: [.int]) == [[.int(1)]])
        }
    }

    @Test func statementTimeoutFromTheURL() throws {
        var url = try PostgresTestEnvironment.requireURL()
        url.statementTimeout = "250ms"
        url.schema = PostgresTestEnvironment.freshSchemaName()
        let db = try PostgresDatabase(url: url)
        defer { db.close() }
        #expect(try db.query("SHOW statement_timeout", [], as: [.string]) == [[.string("250ms")]])
        #expect {
            try db.run("SELECT pg_sleep(3)", [])
        } throws: { ($0 as? PostgresDatabaseError)?.kind == .timedOut }
        try db.run("DROP SCHEMA \(PostgresIdentifier.quoted(db.schema)) CASCADE", [])
    }
}

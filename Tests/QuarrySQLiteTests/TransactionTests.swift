// Transactions: commit, rollback on a thrown error, nested savepoints, and a
// failing statement inside a transaction leaving the data as it was.
import Foundation
import Testing
@testable import QuarrySQLite

struct Boom: Error, Equatable {}

@Suite struct Transactions {
    func accounts() throws -> SQLiteConnection {
        let db = try SQLiteConnection.inMemory()
        try db.executeScript("""
            CREATE TABLE account(id INTEGER PRIMARY KEY, balance INTEGER CHECK (balance >= 0));
            INSERT INTO account VALUES (1, 100), (2, 0);
            """)
        return db
    }

    func balances(_ db: SQLiteConnection) throws -> [[Value]] {
        try db.query("SELECT balance FROM account ORDER BY id")
    }

    @Test func aTransactionCommitsWhenTheBodyReturns() throws {
        let db = try accounts()
        let moved = try db.transaction { () throws -> Int in
            #expect(db.isInTransaction)
            try db.execute("UPDATE account SET balance = balance - 30 WHERE id = 1")
            try db.execute("UPDATE account SET balance = balance + 30 WHERE id = 2")
            return 30
        }
        #expect(moved == 30)
        #expect(!db.isInTransaction)
        #expect(try balances(db) == [[.int(70)], [.int(30)]])
    }

    @Test func aThrownErrorRollsEverythingBack() throws {
        let db = try accounts()
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.execute("UPDATE account SET balance = 0 WHERE id = 1")
                throw Boom()
            }
        }
        #expect(!db.isInTransaction)
        #expect(try balances(db) == [[.int(100)], [.int(0)]])
    }

    @Test func aFailingStatementLeavesTheDataAsItWas() throws {
        let db = try accounts()
        let error = sqliteError {
            try db.transaction {
                try db.execute("UPDATE account SET balance = balance + 50 WHERE id = 2")
                try db.execute("UPDATE account SET balance = balance - 500 WHERE id = 1") // CHECK fails
            }
        }
        #expect(error?.kind == .constraint)
        #expect(error?.constraintKind == "CHECK")
        #expect(!db.isInTransaction)
        #expect(try balances(db) == [[.int(100)], [.int(0)]])
    }

    @Test func aNestedTransactionIsASavepointThatCanFailAlone() throws {
        let db = try accounts()
        try db.transaction {
            try db.execute("UPDATE account SET balance = 90 WHERE id = 1")
            #expect(throws: Boom.self) {
                try db.transaction {
                    try db.execute("UPDATE account SET balance = 0 WHERE id = 1")
                    try db.execute("INSERT INTO account VALUES (3, 5)")
                    throw Boom()
                }
            }
            // The inner work is gone, the outer work is intact, the transaction goes on.
            #expect(try balances(db) == [[.int(90)], [.int(0)]])
            try db.transaction { try db.execute("UPDATE account SET balance = 10 WHERE id = 2") }
        }
        #expect(try balances(db) == [[.int(90)], [.int(10)]])
    }

    @Test func threeLevelsDeepAndAnOuterFailureUndoesReleasedSavepoints() throws {
        let db = try accounts()
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.transaction {
                    try db.transaction { try db.execute("UPDATE account SET balance = 1 WHERE id = 1") }
                    try db.execute("UPDATE account SET balance = 2 WHERE id = 2")
                }
                #expect(try balances(db) == [[.int(1)], [.int(2)]])
                throw Boom()
            }
        }
        #expect(try balances(db) == [[.int(100)], [.int(0)]])
        #expect(db.savepointDepth == 0)
    }

    @Test func aDeferredTransactionCanRead() throws {
        let db = try accounts()
        let total = try db.transaction(.deferred) { try db.scalar("SELECT sum(balance) FROM account") }
        #expect(total == .int(100))
    }

    @Test func aFileTransactionIsDurableAfterReopening() throws {
        let dir = ScratchDirectory()
        let path = dir.path("t.sqlite")
        do {
            let db = try SQLiteConnection(path: path)
            try db.execute("CREATE TABLE t(x)")
            try db.transaction { for i in 0..<100 { try db.execute("INSERT INTO t VALUES (?)", [.int(Int64(i))]) } }
            #expect(throws: Boom.self) { try db.transaction { try db.execute("DELETE FROM t"); throw Boom() } }
        }
        let db = try SQLiteConnection(path: path)
        #expect(try db.scalar("SELECT count(*) FROM t") == .int(100))
    }
}

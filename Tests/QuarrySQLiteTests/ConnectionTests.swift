// Opening, configuring and closing connections; running statements; the
// statement cache; the error a file that is not SQLite gives.
import Foundation
import Testing
@testable import QuarrySQLite

@Suite struct OpeningConnections {
    @Test func createsAFileWritesAndReadsItBackAfterReopening() throws {
        let dir = ScratchDirectory()
        let path = dir.path("store.sqlite")
        do {
            let db = try SQLiteConnection(path: path)
            try db.execute("CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute("INSERT INTO person(name) VALUES (?)", [.string("José")])
            #expect(db.lastInsertRowID == 1)
            #expect(db.changes == 1)
            db.close()
        }
        #expect(FileManager.default.fileExists(atPath: path))
        let reopened = try SQLiteConnection(path: path, options: .init(create: false))
        #expect(try reopened.query("SELECT id, name FROM person") == [[.int(1), .string("José")]])
    }

    @Test func fileConnectionsUseWALAndForeignKeys() throws {
        let dir = ScratchDirectory()
        let db = try SQLiteConnection(path: dir.path("wal.sqlite"))
        #expect(try db.scalar("PRAGMA journal_mode") == .string("wal"))
        #expect(try db.scalar("PRAGMA foreign_keys") == .int(1))
        #expect(try db.scalar("PRAGMA synchronous") == .int(1)) // NORMAL
        #expect(try db.scalar("PRAGMA busy_timeout") == .int(5000))
    }

    @Test func inMemoryConnectionsAreEmptyAndPrivate() throws {
        let a = try SQLiteConnection.inMemory()
        let b = try SQLiteConnection.inMemory()
        try a.execute("CREATE TABLE t(x)")
        #expect(try a.scalar("SELECT count(*) FROM sqlite_master") == .int(1))
        #expect(try b.scalar("SELECT count(*) FROM sqlite_master") == .int(0))
        #expect(try a.scalar("PRAGMA foreign_keys") == .int(1))
    }

    /// A short text file, and one longer than a SQLite page.
    @Test(arguments: [0, 8192])
    func aFileThatIsNotSQLiteGivesAClearError(_ padding: Int) throws {
        let contents = "hello, this is a text file and certainly not a database\n" + String(repeating: "x", count: padding)
        let dir = ScratchDirectory()
        let path = dir.path("notes.txt")
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        for options in [SQLiteConnection.Options(), .init(readOnly: true)] {
            let error = sqliteError { _ = try SQLiteConnection(path: path, options: options) }
            #expect(error?.kind == .notADatabase)
            #expect(error?.code == 26) // SQLITE_NOTADB
            #expect(error?.message.contains("is not a SQLite database") == true)
            #expect(error?.message.contains(path) == true)
        }
        // The file was not touched.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == contents)
    }

    @Test func aMissingFileIsNotCreatedWhenCreateIsOff() {
        let dir = ScratchDirectory()
        let path = dir.path("missing.sqlite")
        let error = sqliteError { _ = try SQLiteConnection(path: path, options: .init(create: false)) }
        #expect(error?.kind == .cannotOpen)
        #expect(error?.message.contains(path) == true)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func readOnlyConnectionsReadButRefuseWrites() throws {
        let dir = ScratchDirectory()
        let path = dir.path("ro.sqlite")
        let writer = try SQLiteConnection(path: path)
        try writer.execute("CREATE TABLE t(x)")
        try writer.execute("INSERT INTO t VALUES (1)")
        let reader = try SQLiteConnection(path: path, options: .init(readOnly: true))
        #expect(try reader.scalar("SELECT x FROM t") == .int(1))
        let error = sqliteError { try reader.execute("INSERT INTO t VALUES (2)") }
        #expect(error?.kind == .readOnly)
        #expect(error?.sql == "INSERT INTO t VALUES (2)")
    }

    @Test func aClosedConnectionRefusesWork() throws {
        let db = try SQLiteConnection.inMemory()
        db.close()
        db.close() // twice is fine
        #expect(db.isClosed)
        let error = sqliteError { try db.execute("SELECT 1") }
        #expect(error?.code == 21) // SQLITE_MISUSE
        #expect(error?.message.contains("closed") == true)
    }
}

@Suite struct RunningStatements {
    @Test func queryExecuteScalarAndForEachRow() throws {
        let db = try SQLiteConnection.inMemory()
        try db.executeScript("""
            CREATE TABLE n(x INTEGER);  -- a comment between statements
            INSERT INTO n VALUES (1), (2), (3);
            """)
        #expect(try db.query("SELECT x FROM n WHERE x > ? ORDER BY x", [.int(1)]) == [[.int(2)], [.int(3)]])
        #expect(try db.scalar("SELECT sum(x) FROM n") == .int(6))
        #expect(try db.scalar("SELECT x FROM n WHERE x > 10") == .null)
        var seen: [Int64] = []
        try db.forEachRow("SELECT x, x * 2 AS twice FROM n ORDER BY x") { row in
            #expect(row.count == 2)
            #expect(row.name(at: 1) == "twice")
            seen.append(row.int(at: 0) + row.int(at: 1))
        }
        #expect(seen == [3, 6, 9])
        try db.execute("UPDATE n SET x = x + 10 WHERE x >= ?", [.int(2)])
        #expect(db.changes == 2)
        #expect(db.totalChanges == 5)
    }

    @Test func anErrorInsideForEachRowStopsTheQueryAndPropagates() throws {
        struct Stop: Error {}
        let db = try SQLiteConnection.inMemory()
        try db.execute("CREATE TABLE n(x)")
        try db.execute("INSERT INTO n VALUES (1), (2), (3)")
        var count = 0
        #expect(throws: Stop.self) {
            try db.forEachRow("SELECT x FROM n") { _ in count += 1; if count == 2 { throw Stop() } }
        }
        #expect(count == 2)
        // The statement was reset: the same SQL runs again from the start.
        #expect(try db.query("SELECT x FROM n").count == 3)
    }

    @Test func theSameSQLCanRunNestedInsideItsOwnForEachRow() throws {
        let db = try SQLiteConnection.inMemory()
        try db.execute("CREATE TABLE n(x)")
        try db.execute("INSERT INTO n VALUES (1), (2)")
        var pairs: [[Int64]] = []
        let sql = "SELECT x FROM n ORDER BY x"
        try db.forEachRow(sql) { outer in
            let a = outer.int(at: 0)
            try db.forEachRow(sql) { inner in pairs.append([a, inner.int(at: 0)]) }
        }
        #expect(pairs == [[1, 1], [1, 2], [2, 1], [2, 2]])
    }

    @Test(arguments: [
        ("SELECT 1; SELECT 2", "more than one SQL statement"),
        ("", "no SQL statement"),
        ("-- only a comment", "no SQL statement"),
        ("SELEKT 1", "syntax error"),
        ("SELECT * FROM missing", "no such table: missing"),
    ])
    func badSQLIsRefusedWithAMessageAndTheText(_ sql: String, _ expected: String) throws {
        let db = try SQLiteConnection.inMemory()
        let error = sqliteError { try db.execute(sql) }
        #expect(error?.message.contains(expected) == true, "\(String(describing: error))")
        #expect(error?.sql == sql)
    }

    @Test func aTrailingSemicolonOrCommentIsNotASecondStatement() throws {
        let db = try SQLiteConnection.inMemory()
        #expect(try db.scalar("SELECT 1;") == .int(1))
        #expect(try db.scalar("SELECT 2; -- done") == .int(2))
    }

    @Test func argumentCountMustMatchTheParameters() throws {
        let db = try SQLiteConnection.inMemory()
        let error = sqliteError { _ = try db.query("SELECT ?, ?", [.int(1)]) }
        #expect(error?.message.contains("2 parameter(s) but 1 argument(s)") == true)
        // The cached statement is usable afterwards.
        #expect(try db.query("SELECT ?, ?", [.int(1), .int(2)]) == [[.int(1), .int(2)]])
    }

    @Test func valuesNeverBecomeSQL() throws {
        let db = try SQLiteConnection.inMemory()
        try db.execute("CREATE TABLE t(name TEXT)")
        let hostile = "x'); DROP TABLE t; --"
        try db.execute("INSERT INTO t VALUES (?)", [.string(hostile)])
        #expect(try db.query("SELECT name FROM t") == [[.string(hostile)]])
    }

    @Test(arguments: [
        ("CREATE TABLE t(a UNIQUE)", "INSERT INTO t VALUES (1)", "UNIQUE", "t.a"),
        ("CREATE TABLE t(a NOT NULL)", "INSERT INTO t VALUES (NULL)", "NOT NULL", "t.a"),
        ("CREATE TABLE t(a CONSTRAINT positive CHECK (a > 0))", "INSERT INTO t VALUES (-1)", "CHECK", "positive"),
        ("CREATE TABLE t(a INTEGER PRIMARY KEY)", "INSERT INTO t VALUES (1)", "PRIMARY KEY", "t.a"),
    ])
    func constraintViolationsSayWhichConstraint(_ schema: String, _ insert: String, _ kind: String, _ name: String) throws {
        let db = try SQLiteConnection.inMemory()
        try db.execute(schema)
        if kind == "UNIQUE" || kind == "PRIMARY KEY" { try db.execute(insert) }
        let error = sqliteError { try db.execute(insert) }
        #expect(error?.kind == .constraint)
        #expect(error?.code == 19)
        #expect(error?.constraintKind == kind)
        #expect(error?.constraint == name)
    }

    @Test func foreignKeysAreEnforced() throws {
        let db = try SQLiteConnection.inMemory()
        try db.executeScript("""
            CREATE TABLE department(id INTEGER PRIMARY KEY);
            CREATE TABLE employee(id INTEGER PRIMARY KEY, department INTEGER REFERENCES department(id));
            """)
        let error = sqliteError { try db.execute("INSERT INTO employee(department) VALUES (?)", [.int(42)]) }
        #expect(error?.kind == .constraint)
        #expect(error?.constraintKind == "FOREIGN KEY")
    }
}

@Suite struct StatementCaching {
    @Test func repeatedSQLReusesOneStatement() throws {
        let db = try SQLiteConnection.inMemory()
        for i in 0..<10 { #expect(try db.scalar("SELECT ? + 1", [.int(Int64(i))]) == .int(Int64(i + 1))) }
        #expect(db.cache.count == 1)
        let first = db.cache.statement(for: "SELECT ? + 1")
        _ = try db.scalar("SELECT ? + 1", [.int(0)])
        #expect(db.cache.statement(for: "SELECT ? + 1") === first)
    }

    @Test func theLeastRecentlyUsedStatementIsEvicted() throws {
        let db = try SQLiteConnection(path: ":memory:", options: .init(statementCacheCapacity: 3))
        _ = try db.scalar("SELECT 1")
        _ = try db.scalar("SELECT 2")
        _ = try db.scalar("SELECT 3")
        _ = try db.scalar("SELECT 1") // 2 is now the oldest
        _ = try db.scalar("SELECT 4")
        #expect(db.cache.count == 3)
        #expect(db.cache.contains("SELECT 1"))
        #expect(!db.cache.contains("SELECT 2"))
        #expect(db.cache.contains("SELECT 3"))
        #expect(db.cache.contains("SELECT 4"))
    }

    @Test func aStatementEvictedWhileRunningFinishesItsRows() throws {
        let db = try SQLiteConnection(path: ":memory:", options: .init(statementCacheCapacity: 1))
        var rows: [Int64] = []
        try db.forEachRow("SELECT value FROM (SELECT 1 AS value UNION ALL SELECT 2)") { row in
            _ = try db.scalar("SELECT \(row.int(at: 0) + 100)") // evicts the outer statement
            rows.append(row.int(at: 0))
        }
        #expect(rows == [1, 2])
    }

    @Test func aStatementPreparedByHandIsReusable() throws {
        let db = try SQLiteConnection.inMemory()
        try db.execute("CREATE TABLE t(x)")
        let insert = try db.prepare("INSERT INTO t VALUES (?)")
        #expect(insert.parameterCount == 1)
        #expect(!insert.isReadOnly)
        for i in 1...3 {
            try insert.bind([.int(Int64(i))])
            #expect(try insert.step() == false)
            insert.reset()
        }
        #expect(try db.scalar("SELECT sum(x) FROM t") == .int(6))
    }
}

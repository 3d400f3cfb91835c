// Two connections to one file (the busy timeout), and cancelling a running
// statement from another thread (interrupt).
import Dispatch
import Foundation
import Testing
@testable import QuarrySQLite

@Suite struct BusyTimeout {
    @Test func aWriterBlockedByAnotherWriterFailsAfterTheTimeout() throws {
        let dir = ScratchDirectory()
        let path = dir.path("busy.sqlite")
        let holder = try SQLiteConnection(path: path)
        try holder.execute("CREATE TABLE t(x)")
        let waiter = try SQLiteConnection(path: path, options: .init(busyTimeout: 0.3))
        try holder.execute("BEGIN IMMEDIATE")
        try holder.execute("INSERT INTO t VALUES (1)")

        let start = Date()
        let error = sqliteError { try waiter.execute("INSERT INTO t VALUES (2)") }
        let waited = Date().timeIntervalSince(start)
        #expect(error?.kind == .busy)
        #expect(error?.code == 5) // SQLITE_BUSY
        #expect(error?.message.contains("locked") == true)
        #expect(waited >= 0.25, "gave up after \(waited) s, before the timeout")
        #expect(waited < 3, "waited \(waited) s for a 0.3 s timeout")

        // WAL: the waiter can still read (the committed state) meanwhile.
        #expect(try waiter.scalar("SELECT count(*) FROM t") == .int(0))
        try holder.execute("COMMIT")
        try waiter.execute("INSERT INTO t VALUES (2)")
        #expect(try holder.scalar("SELECT count(*) FROM t") == .int(2))
    }

    @Test func aWriterWaitsForALockReleasedWithinTheTimeout() throws {
        let dir = ScratchDirectory()
        let path = dir.path("wait.sqlite")
        let setup = try SQLiteConnection(path: path)
        try setup.execute("CREATE TABLE t(x)")
        let locked = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        // The holder lives entirely on its own thread (connections are confined).
        Thread.detachNewThread {
            defer { done.signal() }
            guard let holder = try? SQLiteConnection(path: path) else { locked.signal(); return }
            try? holder.execute("BEGIN IMMEDIATE")
            try? holder.execute("INSERT INTO t VALUES (1)")
            locked.signal()
            Thread.sleep(forTimeInterval: 0.3)
            try? holder.execute("COMMIT")
        }
        locked.wait()
        let waiter = try SQLiteConnection(path: path, options: .init(busyTimeout: 10))
        let start = Date()
        try waiter.transaction { try waiter.execute("INSERT INTO t VALUES (2)") }
        let waited = Date().timeIntervalSince(start)
        done.wait()
        #expect(waited >= 0.1, "did not wait for the lock (\(waited) s)")
        #expect(try waiter.query("SELECT x FROM t ORDER BY x") == [[.int(1)], [.int(2)]])
    }

    @Test func busyTimeoutCanBeChangedOnAnOpenConnection() throws {
        let db = try SQLiteConnection.inMemory()
        db.busyTimeout = 0.25
        #expect(try db.scalar("PRAGMA busy_timeout") == .int(250))
    }
}

@Suite struct Interrupting {
    static let countToABillion = """
        WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000)
        SELECT count(*) FROM c
        """

    @Test func anotherThreadInterruptsALongQueryQuickly() throws {
        let db = try SQLiteConnection.inMemory()
        let handle = db.interruptHandle
        let finished = SharedFlag()
        let firstInterrupt = SharedFlagTime()
        // Keep interrupting until the query is over: an interrupt that lands
        // before the statement starts running does not carry over to it.
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.1)
            while !finished.isSet {
                firstInterrupt.markOnce()
                handle.interrupt()
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        let error = sqliteError { _ = try db.scalar(Self.countToABillion) }
        let stoppedAt = Date()
        finished.set()
        #expect(error?.kind == .interrupted)
        #expect(error?.code == 9) // SQLITE_INTERRUPT
        #expect(error?.message == "interrupted")
        if let first = firstInterrupt.date {
            #expect(stoppedAt.timeIntervalSince(first) < 2, "took \(stoppedAt.timeIntervalSince(first)) s to stop")
        }
        // The connection is fine afterwards.
        #expect(try db.scalar("SELECT 1 + 1") == .int(2))
    }

    @Test func anInterruptedTransactionIsRolledBack() throws {
        let db = try SQLiteConnection.inMemory()
        try db.execute("CREATE TABLE t(x)")
        let handle = db.interruptHandle
        let finished = SharedFlag()
        Thread.detachNewThread {
            while !finished.isSet { handle.interrupt(); Thread.sleep(forTimeInterval: 0.02) }
        }
        let error = sqliteError {
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (1)")
                try db.execute("INSERT INTO t " + Self.countToABillion.replacingOccurrences(of: "count(*)", with: "x"))
            }
        }
        finished.set()
        #expect(error?.kind == .interrupted)
        #expect(!db.isInTransaction)
        #expect(try db.scalar("SELECT count(*) FROM t") == .int(0))
    }

    @Test func interruptingAClosedConnectionIsHarmless() throws {
        let db = try SQLiteConnection.inMemory()
        let handle = db.interruptHandle
        db.close()
        handle.interrupt()
        #expect(db.isClosed)
    }

    @Test func anInterruptWithNothingRunningDoesNotCancelTheNextStatement() throws {
        let db = try SQLiteConnection.inMemory()
        db.interrupt()
        #expect(try db.scalar("SELECT 40 + 2") == .int(42))
    }
}

/// The time something first happened, shared between threads.
final class SharedFlagTime: @unchecked Sendable {
    private let lock = NSLock()
    private var first: Date?
    var date: Date? { lock.lock(); defer { lock.unlock() }; return first }
    func markOnce() { lock.lock(); if first == nil { first = Date() }; lock.unlock() }
}

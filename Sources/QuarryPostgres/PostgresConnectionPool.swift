// PostgresConnectionPool: a fixed number of `PostgresDatabase` connections
// shared by threads (a concurrent load test, the shell's background work).
//
// Deliberately small: connections are opened lazily up to `maximumCount`; a
// checkout when all are busy waits (on a condition variable, never on Swift
// concurrency — see PostgresDatabase.swift for why) up to a timeout; a
// connection checked in while still inside a transaction, or closed, is
// discarded rather than handed to the next user in an unknown state.
import Foundation

/// A thread-safe pool of connections to one server.
///
/// ```swift
/// let pool = try PostgresConnectionPool(url: PostgresURL(text), maximumCount: 4)
/// let n = try pool.withConnection { db in try db.query("SELECT count(*) FROM t", []) }
/// ```
public final class PostgresConnectionPool: @unchecked Sendable {
    public let url: PostgresURL
    public let maximumCount: Int
    /// Seconds a checkout waits for a free connection before failing.
    public let checkoutTimeout: Double
    private let options: PostgresDatabase.Options

    // All below under `condition`'s lock.
    private let condition = NSCondition()
    private var idle: [PostgresDatabase] = []
    private var openCount = 0
    private var closed = false

    public init(url: PostgresURL, maximumCount: Int, checkoutTimeout: Double = 30,
                options: PostgresDatabase.Options = PostgresDatabase.Options()) {
        precondition(maximumCount > 0, "a pool needs at least one connection")
        self.url = url
        self.maximumCount = maximumCount
        self.checkoutTimeout = checkoutTimeout
        self.options = options
    }

    /// Connections open now (idle or checked out).
    public var connectionCount: Int { condition.withLock { openCount } }

    /// A connection for the caller's exclusive use until `checkin`.
    public func checkout() throws -> PostgresDatabase {
        let deadline = Date().addingTimeInterval(checkoutTimeout)
        condition.lock()
        while true {
            if closed {
                condition.unlock()
                throw PostgresDatabaseError(.connectionClosed, "the connection pool is closed")
            }
            if let db = idle.popLast() {
                condition.unlock()
                return db
            }
            if openCount < maximumCount {
                openCount += 1
                condition.unlock()
                // Connect outside the lock: it takes a round trip or more.
                do {
                    return try PostgresDatabase(url: url, options: options)
                } catch {
                    condition.withLock { openCount -= 1; condition.signal() }
                    throw error
                }
            }
            if !condition.wait(until: deadline) {
                condition.unlock()
                throw PostgresDatabaseError(.timedOut, "no free connection in the pool (\(maximumCount) in use) within \(checkoutTimeout) s")
            }
        }
    }

    /// Returns `db` to the pool (or closes it, if it is unusable or the pool closed).
    public func checkin(_ db: PostgresDatabase) {
        let keep = !db.isClosed && !db.isInTransaction
        let reuse: Bool = condition.withLock {
            if keep && !closed {
                idle.append(db)
            } else {
                openCount -= 1
            }
            condition.signal()
            return keep && !closed
        }
        if !reuse { db.close() }
    }

    /// Runs `body` with a checked-out connection and checks it back in.
    @discardableResult
    public func withConnection<T>(_ body: (PostgresDatabase) throws -> T) throws -> T {
        let db = try checkout()
        defer { checkin(db) }
        return try body(db)
    }

    /// Closes the idle connections now and the busy ones when checked in.
    public func close() {
        let toClose: [PostgresDatabase] = condition.withLock {
            closed = true
            let all = idle
            openCount -= idle.count
            idle = []
            condition.broadcast()
            return all
        }
        for db in toClose { db.close() }
    }

    deinit {
        for db in idle { db.close() }
    }
}

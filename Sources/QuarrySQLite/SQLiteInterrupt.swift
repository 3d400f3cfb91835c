// Cancelling a running statement from another thread.
//
// `sqlite3_interrupt` is the one SQLite call documented as safe from a thread
// other than the one running the statement — but not on a connection that is
// closed or closing. SQLiteInterruptHandle is the Sendable piece of a
// connection that makes it safe in Swift: it holds the `sqlite3*` under a
// lock, and `close()` clears it under the same lock before closing, so an
// interrupt either reaches an open connection or does nothing.
//
// What an interrupt does: the running statement (and any started before the
// running count drops to zero) fails with `SQLiteError.Kind.interrupted`; if
// it was inside `transaction { }`, the transaction is rolled back by the
// error as usual. When nothing is running it has no effect on later
// statements. It cannot stop a `quarry_matches` call already under way (that
// has its own time limit); the statement stops as soon as the call returns.
import CSQLite
import Foundation

/// Cancels whatever statement its connection is running; callable from any
/// thread, at any time, even after the connection has closed.
///
/// ```swift
/// let handle = connection.interruptHandle
/// DispatchQueue.global().asyncAfter(deadline: .now() + 2) { handle.interrupt() }
/// do { try connection.execute(slowQuery) }
/// catch let error as SQLiteError where error.kind == .interrupted { print("cancelled") }
/// ```
public final class SQLiteInterruptHandle: @unchecked Sendable {
    // @unchecked: `db` is only read or written while `lock` is held, and the
    // only call made with it is sqlite3_interrupt, which SQLite allows from
    // any thread on an open connection.
    private let lock = NSLock()
    private var db: OpaquePointer?
    private var requested = false

    init(_ db: OpaquePointer) { self.db = db }

    /// Interrupts the connection's running statement; a no-op once it is
    /// closed. Also remembered until ``clearRequest()`` (see above).
    public func interrupt() {
        lock.lock()
        defer { lock.unlock() }
        requested = true
        if let db { sqlite3_interrupt(db) }
    }

    /// Whether `interrupt()` was called since the last `clearRequest()`.
    public var isRequested: Bool {
        lock.lock()
        defer { lock.unlock() }
        return requested
    }

    /// Forgets earlier interrupts: called when new work starts, so that a
    /// Ctrl-C that stopped an earlier statement does not stop this one.
    public func clearRequest() {
        lock.lock()
        requested = false
        lock.unlock()
    }

    /// Called by `close()` before the connection is closed.
    func invalidate() {
        lock.lock()
        db = nil
        lock.unlock()
    }
}

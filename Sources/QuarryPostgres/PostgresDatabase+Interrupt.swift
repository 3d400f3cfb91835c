// interrupt(): stopping the statement a connection is running, from another
// thread (the shell's Ctrl-C handler, a UI's Cancel button).
//
// PostgreSQL cancels a statement only when asked out of band: a second
// connection (or the protocol's CancelRequest, which postgres-nio does not
// expose) names the busy backend. So `interrupt()` opens a short-lived side
// connection with the same settings and runs `SELECT pg_cancel_backend(pid)`
// with the pid taken at connect. It does not wait: a signal handler must not
// block. The running call then fails with SQLSTATE 57014, reported as
// `.canceled` because we asked (the same code with "statement timeout" and no
// request of ours is `.timedOut`), and the connection stays usable.
//
// The race this guards against: a cancel that arrives after the statement
// finished would hit the *next* statement. So a cancel is only sent while a
// statement runs, and the next statement first waits for the side
// connection's cancel to complete (a backend that is idle when the cancel
// arrives ignores it).
import Foundation
import Logging
import PostgresNIO

extension PostgresDatabase {
    /// What `interrupt()` needs to know, shared across threads.
    struct Activity: Sendable {
        /// A statement is on the server now.
        var running = false
        /// `interrupt()` asked to cancel the running statement.
        var cancelRequested = false
        /// The side connection's work, until done.
        var pendingCancel: EventLoopFuture<Void>?
        /// Fails the running statement's promise when the connection closes
        /// (see `perform`).
        var failRunning: (@Sendable (any Error) -> Void)?
        /// `interrupt()` was called (running or not) since the last
        /// `clearInterruptRequest()`: checked between the statements of long
        /// work, where no statement is on the server to cancel.
        var interruptRequested = false
    }

    /// Forgets interrupts asked for before the work about to start.
    public func clearInterruptRequest() {
        activity.withLock { $0.interruptRequested = false }
    }

    /// Throws `.canceled` when `interrupt()` was called since the last
    /// `clearInterruptRequest()`.
    public func throwIfInterruptRequested() throws {
        if activity.withLock({ $0.interruptRequested }) {
            throw PostgresDatabaseError(.canceled, "canceling statement due to user request")
        }
    }

    /// Cancels the statement this connection is running now, if any; the
    /// statement's call fails with a `.canceled` error. Safe to call from
    /// any thread; returns at once.
    public func interrupt() {
        let configuration = self.configuration
        let pid = backendPID
        let group = self.group
        let logger = self.logger
        activity.withLock { a in
            a.interruptRequested = true
            guard a.running, !a.cancelRequested else { return }
            a.cancelRequested = true
            let loop = group.next()
            a.pendingCancel = PostgresConnection.connect(on: loop, configuration: configuration, id: -Int(pid), logger: logger)
                .flatMap { side in
                    side.query("SELECT pg_cancel_backend($1::int4)", [PostgresData(int: Int(pid))])
                        .map { _ in () }
                        .flatMapError { _ in loop.makeSucceededVoidFuture() }
                        .flatMap { side.close() }
                }
                .flatMapError { _ in loop.makeSucceededVoidFuture() }
        }
    }

    /// Shared between the connection's thread, `interrupt()` callers and
    /// the close callback: a class (a Mutex cannot be captured by escaping
    /// closures) guarding `Activity` with a lock.
    final class ActivityBox: @unchecked Sendable {
        private let lock = NSLock()
        private var activity = Activity()

        func withLock<R>(_ body: (inout Activity) -> R) -> R {
            lock.lock()
            defer { lock.unlock() }
            return body(&activity)
        }
    }

    /// Marks a statement as running, with `failingOnClose` to fail it if
    /// the connection closes; returns a cancel still in flight (which the
    /// caller waits for before sending the statement).
    func beginStatement(failingOnClose: @escaping @Sendable (any Error) -> Void) -> EventLoopFuture<Void>? {
        activity.withLock { a in
            let pending = a.pendingCancel
            a.pendingCancel = nil
            a.running = true
            a.cancelRequested = false
            a.failRunning = failingOnClose
            return pending
        }
    }

    /// Marks the statement as finished; true when `interrupt()` asked to
    /// cancel it. The cancel's future stays, for the next statement to await.
    @discardableResult
    func endStatement() -> Bool {
        activity.withLock { a in
            a.running = false
            a.failRunning = nil
            let requested = a.cancelRequested
            a.cancelRequested = false
            return requested
        }
    }
}

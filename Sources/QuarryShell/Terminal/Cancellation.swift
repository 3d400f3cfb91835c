// The Ctrl-C flag a running statement checks. The SIGINT watch
// (InterruptWatch.swift) sets it from its own thread at the same moment it
// interrupts the store's connection; the shell checks it where no database
// call is running — between rows while building and printing a result,
// between batches of a streamed FETCH, between the statements of a script —
// and the session's output drops everything once it is set, so what was
// already formatted is not printed either. The REPL clears it before each
// input it runs; in `-c` and file mode it stays set and the run ends (130).
//
// A pager quit before the end of a result (Pager.swift) stops the statement
// the same way, but quietly: its output is discarded, no `interrupted` is
// printed, and the run goes on with the next statement (as psql does).
import Foundation

public final class Cancellation: @unchecked Sendable {
    // @unchecked: both flags are only touched under `lock`.
    private let lock = NSLock()
    private var cancelled = false
    private var reported = false
    private var discarding = false

    public init() {}

    /// True after a Ctrl-C (or a pager quit early), until `reset`: the
    /// running statement stops and prints nothing more.
    public var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled || discarding
    }

    /// True after a Ctrl-C only: the run ends (`interrupted`, 130).
    var isInterrupted: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    /// The output's reader went away (a pager quit): stop the statement
    /// without a word.
    func discard() {
        lock.lock()
        discarding = true
        lock.unlock()
    }

    /// After a discarded statement: the next one prints again (a Ctrl-C
    /// that came meanwhile stays).
    func endDiscarding() {
        lock.lock()
        discarding = false
        lock.unlock()
    }

    /// Asks the running work to stop (any thread).
    public func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    /// Before running new input: earlier Ctrl-Cs are spent.
    public func reset() {
        lock.lock()
        cancelled = false
        reported = false
        discarding = false
        lock.unlock()
    }

    /// True the first time it is asked after a cancel: `interrupted` is
    /// printed once, however many nested runs (`.read`) notice it.
    func shouldReport() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard cancelled, !reported else { return false }
        reported = true
        return true
    }

    /// Throws the interrupted error if a Ctrl-C came.
    func check() throws(ShellError) {
        if isCancelled { throw ShellError.failed("interrupted", code: .interrupted) }
    }
}

// Ctrl-C in the REPL. SIGINT is taken by a dispatch signal source, so the
// work happens on an ordinary thread rather than in a signal handler: it
// interrupts the statement running at that moment (through the store's
// thread-safe interrupter: SQLite's interrupt handle, or a cancel request to
// the PostgreSQL server) and writes a byte to a pipe that wakes the line reader.
// It also sets the session's `Cancellation`, which stops the work no
// database call is doing (building rows, formatting, printing). The shell
// itself never dies of Ctrl-C; in `-c` and file mode the run ends with 130
// after its cleanup, and a process that cannot get there (blocked reading
// stdin) leaves with 130 two seconds after the Ctrl-C.
import Dispatch
import Foundation

public final class InterruptWatch: @unchecked Sendable {
    // @unchecked: `handle` and `counter` are guarded by `lock`.
    private let lock = NSLock()
    private var handle: (@Sendable () -> Void)?
    private var counter = 0
    private var source: DispatchSourceSignal?
    let wakeReadFD: Int32
    private let wakeWriteFD: Int32
    private let cancellation: Cancellation?
    private let exitIfStuck: Bool

    /// `exitIfStuck`: for scripts, whose run has no prompt to return to.
    init(cancellation: Cancellation? = nil, exitIfStuck: Bool = false) {
        self.cancellation = cancellation
        self.exitIfStuck = exitIfStuck
        var fds: [Int32] = [0, 0]
        pipe(&fds)
        wakeReadFD = fds[0]
        wakeWriteFD = fds[1]
        _ = fcntl(wakeReadFD, F_SETFL, O_NONBLOCK)
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "quarry.sigint"))
        source.setEventHandler { [weak self] in self?.fire() }
        source.resume()
        self.source = source
    }

    private func fire() {
        InterruptTrace.signal()
        lock.lock()
        counter += 1
        let h = handle
        lock.unlock()
        cancellation?.cancel()
        h?()
        if exitIfStuck {
            // Not under a pager: the shell is waiting for it, not stuck, and
            // leaving would hand the terminal to two readers.
            DispatchQueue.global().asyncAfter(deadline: .now() + 2) { if !Pager.isShowing { _exit(ExitStatus.interrupted) } }
        }
        var byte: UInt8 = 1
        _ = write(wakeWriteFD, &byte, 1)
    }

    /// How many Ctrl-Cs have arrived so far.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return counter
    }

    /// Empties the wake pipe.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeReadFD, &buffer, 64) > 0 {}
    }

    /// The connection a Ctrl-C should interrupt (the session's store).
    func watch(_ h: (@Sendable () -> Void)?) {
        lock.lock()
        handle = h
        lock.unlock()
    }
}

extension InterruptWatch {
    /// The watch for `-c` and file runs: Ctrl-C interrupts the session's
    /// store and cancels its work; the run then ends with 130.
    public convenience init(session: ShellSession) {
        self.init(cancellation: session.cancellation, exitIfStuck: true)
        session.onStoreOpened = { [weak self] store in self?.watch(store.database.interrupter) }
        if let store = session.openStore { watch(store.database.interrupter) }
    }
}

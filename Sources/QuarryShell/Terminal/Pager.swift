// The pager, as psql's: when results go to a terminal, an item's output
// (one statement's result, or a dot-command's text) that is taller than the
// screen is shown through `$PAGER` — `less -FRX` when PAGER is unset and
// less is installed; an empty PAGER means none, as in psql. Output is held
// until it passes the screen's height (counting wrapped lines), so short
// results print as before and the pager starts only for long ones; from
// then on the output streams into the pager's pipe as it is produced.
//
// Quitting the pager before the end must not break the shell: SIGPIPE is
// ignored while a pager runs, and the failed write tells the session to
// discard the rest of that statement's output (`Cancellation.discard`), so
// the statement stops, quietly, and the next one runs. Ctrl-C reaches the
// pager too (it is in the terminal's foreground group); the shell waits for
// the pager to end before it prints `interrupted` or the next prompt.
import CReadline
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The terminal the shell prints to.
public struct TerminalSize: Equatable, Sendable {
    public var rows: Int
    public var columns: Int

    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }

    /// Standard output's size, or nil when it is not a terminal.
    public static func standardOutput() -> TerminalSize? {
        var rows: Int32 = 0, columns: Int32 = 0
        guard quarry_terminal_size(1, &rows, &columns) != 0 else { return nil }
        return TerminalSize(rows: Int(rows), columns: Int(columns))
    }
}

public enum Pager {
    /// The pager command for `environment`: PAGER if set (nil when empty),
    /// else `less -FRX` when less is on the PATH, else none.
    public static func command(environment: [String: String]) -> String? {
        if let pager = environment["PAGER"] {
            return pager.allSatisfy(\.isWhitespace) ? nil : pager
        }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        let found = path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/less") }
        return found ? "less -FRX" : nil
    }

    /// True while a pager runs: the `-c` watch must not end the process
    /// under it (the pager would keep the terminal).
    static var isShowing: Bool { showing.value }
    static let showing = LockedFlag()
}

/// A Bool shared between the main thread and the SIGINT watch.
final class LockedFlag: @unchecked Sendable {
    // @unchecked: `flag` is only touched under `lock`.
    private let lock = NSLock()
    private var flag = false
    var value: Bool {
        get { lock.lock(); defer { lock.unlock() }; return flag }
        set { lock.lock(); flag = newValue; lock.unlock() }
    }
}

/// One item's output on its way to a terminal: held while it fits the
/// screen, then handed to the pager.
final class PagedOutput {
    let command: String
    let size: TerminalSize
    /// Where output that fits the screen goes (standard output).
    let direct: (String) -> Void
    /// Called once when the pager quits before the output ends.
    let readerGone: () -> Void
    private var held: [String] = []
    private var lines = 0
    private var column = 0
    private var pid: pid_t = 0
    private var pipeFD: Int32 = -1
    private var gone = false
    private var cannotStart = false
    private var previousSIGPIPE: sighandler_t?

    init(command: String, size: TerminalSize, direct: @escaping (String) -> Void, readerGone: @escaping () -> Void) {
        self.command = command
        self.size = size
        self.direct = direct
        self.readerGone = readerGone
    }

    func write(_ text: String) {
        if pipeFD >= 0 { send(text); return }
        if cannotStart || gone { if cannotStart { direct(text) }; return }
        held.append(text)
        count(text)
        // One line is left for the prompt that follows.
        if lines >= size.rows - 1 { start() }
    }

    /// The item is over: short output prints as it is; a pager gets the end
    /// of its input and is waited for.
    func finish() {
        if pipeFD < 0 {
            if !held.isEmpty { direct(held.joined()) }
            held = []
            return
        }
        close(pipeFD)
        pipeFD = -1
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if let previousSIGPIPE { signal(SIGPIPE, previousSIGPIPE) }
        Pager.showing.value = false
    }

    /// Lines as the terminal shows them: a line wider than the screen wraps.
    private func count(_ text: String) {
        for ch in text {
            if ch == "\n" || ch == "\r\n" {
                lines += 1
                column = 0
            } else {
                column += DisplayWidth.of(ch)
                if column > size.columns {
                    lines += 1
                    column = DisplayWidth.of(ch)
                }
            }
        }
    }

    private func start() {
        var fds: [Int32] = [0, 0]
        // Close-on-exec: only the pager's stdin (a dup) survives into it.
        guard pipe(&fds) == 0 else { return startFailed() }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        // The shell ignores SIGINT (its watch takes it) and SIGPIPE; the pager gets the defaults.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        let words: [String] = ["/bin/sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, "/bin/sh", &actions, &attributes, argv, environ)
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
        close(fds[0])
        guard rc == 0 else {
            close(fds[1])
            return startFailed()
        }
        pid = child
        pipeFD = fds[1]
        previousSIGPIPE = signal(SIGPIPE, SIG_IGN)
        Pager.showing.value = true
        let text = held.joined()
        held = []
        send(text)
    }

    /// No pager after all: the output prints as it would without one.
    private func startFailed() {
        cannotStart = true
        direct(held.joined())
        held = []
    }

    private func send(_ text: String) {
        guard !gone else { return }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(pipeFD, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                // EPIPE: the pager has quit; the rest is not wanted.
                gone = true
                readerGone()
                return
            }
            bytes = bytes.dropFirst(n)
        }
    }
}

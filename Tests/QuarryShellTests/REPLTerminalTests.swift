// The REPL on a real terminal: the built `quarry` runs under a pseudo-
// terminal (forkpty, so nothing needs installing), and the test types at it
// as a person would — a statement, a multi-line statement with the
// continuation prompt, Tab completion, Ctrl-C on a half-typed line, Ctrl-D —
// and checks the screen text and the history file.
import Foundation
import Testing
@testable import QuarryShell
#if canImport(Glibc)
import Glibc
#endif

/// A process on a pseudo-terminal, with what it printed so far.
final class PTYProcess {
    let master: Int32
    let pid: pid_t
    var screen = ""
    private var finished = false

    init?(_ path: String, arguments: [String] = [], environment: [String: String]) {
        var fd: Int32 = 0
        var size = winsize(ws_row: 40, ws_col: 160, ws_xpixel: 0, ws_ypixel: 0)
        // Everything the child needs is allocated before the fork: the test
        // process has many threads, and after fork only async-signal-safe
        // calls are allowed in the child. Allocating there (Swift arrays,
        // strdup) can block forever on a lock another thread held at the
        // fork; under ThreadSanitizer, in CI, a `quarry` started this way once
        // never showed its prompt.
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0)=\($1)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        let pid = argv.withUnsafeBufferPointer { argvBuffer in
            envp.withUnsafeBufferPointer { envpBuffer in
                let pid = forkpty(&fd, nil, nil, &size)
                if pid == 0 {
                    execve(argvBuffer[0]!, argvBuffer.baseAddress!, envpBuffer.baseAddress!) // not `path`: bridging a String allocates
                    _exit(127)
                }
                return pid
            }
        }
        if pid < 0 { return nil }
        master = fd
        self.pid = pid
    }

    /// A test that stopped early (a failed `#require`) leaves no `quarry` running.
    deinit {
        if !finished {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            close(master)
        }
    }

    func type(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
    }

    /// Reads until `needle` has appeared `times` times in total, or the time runs out.
    @discardableResult
    func wait(for needle: String, times: Int = 1, seconds: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while screen.components(separatedBy: needle).count - 1 < times {
            if Date() > deadline { return false }
            var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 100) > 0 {
                let n = read(master, &buffer, buffer.count)
                if n <= 0 { return false }
                screen += String(decoding: buffer[0..<n], as: UTF8.self)
            }
        }
        return true
    }

    /// Reads until `needle` appears after the last `marker`, or the time runs out.
    func waitAfter(_ marker: String, for needle: String, seconds: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let range = screen.range(of: marker, options: .backwards), screen[range.upperBound...].contains(needle) { return true }
            if Date() > deadline { return false }
            let before = screen.count
            _ = wait(for: needle, times: screen.components(separatedBy: needle).count, seconds: 0.2)
            if screen.count == before { usleep(20_000) }
        }
    }

    /// Waits up to 30 s for the exit status; kills the process after that (-1).
    func finish() -> Int32 {
        finished = true
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(30)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                close(master)
                return -1
            }
            // Keep draining output so the child never blocks on a full pty.
            var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 50) > 0 {
                let n = read(master, &buffer, buffer.count)
                if n > 0 { screen += String(decoding: buffer[0..<n], as: UTF8.self) }
            }
        }
        // What the child wrote just before it exited may still be in the
        // pty: read it all (a loaded machine lost a result's last lines here).
        while true {
            var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 0) > 0 else { break }
            let n = read(master, &buffer, buffer.count)
            guard n > 0 else { break }
            screen += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        close(master)
        return (status >> 8) & 0xFF
    }
}

@Suite("REPL on a terminal", .serialized)
struct REPLTerminalTests {
    static var binary: String? {
        // QUARRY_BINARY: a copy of the executable (a long measurement goes on while the build folder changes).
        if let given = ProcessInfo.processInfo.environment["QUARRY_BINARY"] { return given }
        // The test bundle sits in the build folder beside the executable.
        let candidates = [Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("quarry").path,
                          URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("quarry").path]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(.enabled(if: binary != nil, "needs the built quarry executable"))
    func promptsHistoryCompletionAndInterrupt() throws {
        let history = NSTemporaryDirectory() + "quarry-history-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: history) }
        let env = ["QUARRY_HISTORY": history, "TERM": "xterm", "PAGER": "", "HOME": NSTemporaryDirectory(), "PATH": "/usr/bin:/bin"]
        let repl = try #require(PTYProcess(Self.binary!, environment: env))
        #expect(repl.wait(for: "quarry> "))
        repl.type("COUNT Employee;\r")
        #expect(repl.wait(for: "   200"))
        #expect(repl.wait(for: "quarry> ", times: 2))
        // A statement continues until its ';'.
        repl.type("EVAL 40 +\r")
        #expect(repl.wait(for: "   ...> "))
        repl.type("2\r")
        #expect(repl.wait(for: "   ...> ", times: 2))
        repl.type(";\r")
        #expect(repl.wait(for: "    42"))
        // Tab completes keywords and key paths.
        repl.type("COUN\t")
        #expect(repl.wait(for: "COUNT "))
        repl.type("Employee WHERE departm\t")
        #expect(repl.wait(for: "department"), "\(repl.screen.suffix(300).debugDescription)")
        // Ctrl-C drops the half-typed line; the shell stays.
        repl.type("\u{03}")
        #expect(repl.wait(for: "^C"), "\(repl.screen.suffix(300).debugDescription)")
        repl.type("EVAL 'still here';\r")
        #expect(repl.wait(for: "still here", times: 2))
        // An error does not end the shell.
        repl.type("FETCH Nobody;\r")
        #expect(repl.wait(for: "error[B001]"))
        // Ctrl-D ends the shell only on an empty line at the prompt: wait for
        // the prompt that follows the error before sending it.
        #expect(repl.waitAfter("error[B001]", for: "quarry> "))
        repl.type("\u{04}")
        #expect(repl.finish() == 0, "\(repl.screen.suffix(600).debugDescription)")
        let saved = try String(contentsOfFile: history, encoding: .utf8)
        #expect(saved.contains("COUNT Employee"))
        #expect(saved.contains("EVAL 40 +"))
    }
}

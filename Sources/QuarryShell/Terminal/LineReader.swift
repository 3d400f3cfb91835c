// Reading lines for the REPL. On a terminal: GNU readline through its
// callback interface, so the shell owns the wait for input and a Ctrl-C at
// the prompt can abandon the line at once (readline's blocking call would
// swallow it); history in ~/.quarry_history ($QUARRY_HISTORY overrides);
// Tab completion through `Completion`. Elsewhere: plain `readLine()`, no
// prompt, no terminal control.
import CReadline
import Foundation

/// What reading a line gave.
public enum LineEvent: Equatable {
    case line(String)
    /// Ctrl-C at the prompt: the line (and any pending statement) is dropped.
    case interrupt
    /// Ctrl-D on an empty line, or the end of input.
    case end
}

/// The state readline's C callbacks reach (they cannot capture context).
/// Only the main thread touches it.
nonisolated(unsafe) private var completedLine: String?
nonisolated(unsafe) private var lineDone = false
nonisolated(unsafe) private var completionProvider: ((String, String) -> [String])?
nonisolated(unsafe) private var continuesProvider: ((String, String) -> Bool)?
nonisolated(unsafe) private var pendingMatches: [String] = []

public final class LineReader {
    let historyPath: String
    let wakeFD: Int32
    let interrupts: InterruptWatch

    /// A readline reader; `interrupts` wakes it on Ctrl-C.
    /// `continues(line, match)`: whether a lone match is followed by more of
    /// the same word (a key path goes on after a to-one key), so no space.
    init(interrupts: InterruptWatch, complete: @escaping (String, String) -> [String],
         continues: @escaping (String, String) -> Bool = { _, _ in false }) {
        self.interrupts = interrupts
        self.wakeFD = interrupts.wakeReadFD
        historyPath = ProcessInfo.processInfo.environment["QUARRY_HISTORY"]
            ?? (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + "/.quarry_history"
        completionProvider = complete
        continuesProvider = continues
        // '.' and '$' are part of words: key paths and variables complete whole.
        quarry_rl_configure({ text, _, _ in
            quarry_rl_completion_over() // never fall back to file names
            let word = text.map { String(cString: $0) } ?? ""
            let line = quarry_rl_line_buffer().map { String(cString: $0) } ?? ""
            pendingMatches = completionProvider?(line, word) ?? []
            if pendingMatches.count == 1, pendingMatches[0].hasSuffix(".") || pendingMatches[0].hasSuffix("/")
                || continuesProvider?(line, pendingMatches[0]) == true {
                quarry_rl_no_append()
            }
            return rl_completion_matches(text) { _, state in
                if state == 0 { pendingMatches = pendingMatches.reversed() }
                guard let next = pendingMatches.popLast() else { return nil }
                return strdup(next)
            }
        }, " \t\n\"'(){}[],=<>!&|;+-*/")
        using_history()
        stifle_history(1000)
        read_history(historyPath)
    }

    /// Reads one line, showing `prompt`.
    func read(prompt: String) -> LineEvent {
        completedLine = nil
        lineDone = false
        // A Ctrl-C that stopped the last statement left a byte in the wake
        // pipe: without this, poll would wake at once, again and again.
        interrupts.drain()
        let seenInterrupts = interrupts.count
        rl_callback_handler_install(prompt) { line in
            completedLine = line.map { String(cString: $0) }
            lineDone = true
            free(line)
            rl_callback_handler_remove() // keeps readline from drawing the prompt again
        }
        InterruptTrace.mark("prompt shown")
        while !lineDone {
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
            let n = poll(&fds, 2, -1)
            if interrupts.count != seenInterrupts {
                interrupts.drain()
                // Show ^C where the cursor is, then drop the half-typed line
                // and start afresh, as shells do.
                print("^C", terminator: "")
                fflush(nil)
                rl_free_line_state()
                rl_callback_sigcleanup()
                rl_callback_handler_remove()
                print("")
                fflush(nil)
                return .interrupt
            }
            if n > 0 && fds[0].revents != 0 { rl_callback_read_char() }
        }
        guard let line = completedLine else {
            print("")
            fflush(nil)
            return .end
        }
        return .line(line)
    }

    /// Adds a complete entry (a whole statement) to the history and the file.
    func remember(_ entry: String) {
        guard !entry.allSatisfy(\.isWhitespace) else { return }
        add_history(entry)
        if !FileManager.default.fileExists(atPath: historyPath) {
            _ = FileManager.default.createFile(atPath: historyPath, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        append_history(1, historyPath)
        history_truncate_file(historyPath, 1000)
    }
}

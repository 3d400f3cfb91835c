// Where a session's results go: standard output (the closure the session
// was made with), or a file named by `.output FILE` (until `.output` alone)
// or `.once FILE` (for the next statement only), as in sqlite3. Errors
// always go to the error stream. On a terminal, an item's output taller
// than the screen goes through the pager (Pager.swift) when one is set.
import Foundation

final class OutputRoute {
    private let standard: (String) -> Void
    private var file: FileHandle?
    /// The file's path, for `.show`.
    private(set) var path: String?
    /// True for `.once`: the file closes after the next statement.
    private var once = false

    /// The pager command (the REPL or `-c` on a terminal), and `.pager on|off`.
    var pagerCommand: String?
    var paging = true
    /// The terminal's size (standard output's; tests give their own).
    var terminal: () -> TerminalSize? = TerminalSize.standardOutput
    /// What to do when the pager quits before the output ends.
    var readerGone: () -> Void = {}
    private var page: PagedOutput?

    init(_ standard: @escaping (String) -> Void) { self.standard = standard }

    func write(_ text: String) {
        if let file { file.write(Data(text.utf8)); return }
        if page == nil, paging, let pagerCommand, let size = terminal() {
            page = PagedOutput(command: pagerCommand, size: size, direct: standard, readerGone: readerGone)
        }
        if let page { page.write(text) } else { standard(text) }
    }

    /// The terminal's size when results go to it (not to a file); for `.expanded auto`.
    var screen: TerminalSize? { file == nil ? terminal() : nil }

    /// After each item (statement or dot-command): its paged output ends.
    func itemDone() {
        page?.finish()
        page = nil
    }

    /// Sends results to `path` (created or truncated); throws a message.
    func redirect(to path: String, once: Bool) throws(ShellError) {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw ShellError(.cannotOpen, "cannot write to '\(path)'", exitCode: ExitStatus.cannotOpen)
        }
        close()
        file = handle
        self.path = path
        self.once = once
    }

    /// Back to standard output.
    func close() {
        itemDone()
        try? file?.close()
        file = nil
        path = nil
        once = false
    }

    /// After each statement: a `.once` file has had its statement.
    func statementDone() { if once { close() } }
}

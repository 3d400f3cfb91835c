// Where a session's results go: standard output (the closure the session
// was made with), or a file named by `.output FILE` (until `.output` alone)
// or `.once FILE` (for the next statement only), as in sqlite3. Errors
// always go to the error stream.
import Foundation

final class OutputRoute {
    private let standard: (String) -> Void
    private var file: FileHandle?
    /// The file's path, for `.show`.
    private(set) var path: String?
    /// True for `.once`: the file closes after the next statement.
    private var once = false

    init(_ standard: @escaping (String) -> Void) { self.standard = standard }

    func write(_ text: String) {
        if let file { file.write(Data(text.utf8)) } else { standard(text) }
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
        try? file?.close()
        file = nil
        path = nil
        once = false
    }

    /// After each statement: a `.once` file has had its statement.
    func statementDone() { if once { close() } }
}

// Runs what the command line names — query files and `-c` statements, in the
// order given — on one session. The first error stops the run with its exit
// status (1 a statement failed, 65 a parse or bind error, 66 a file could not
// be opened) unless keep-going is set, in which case everything runs and the
// first error's status is the result. With nothing named, statements come
// from the REPL on a terminal, or from stdin otherwise (where, as in the
// REPL, an error does not stop the statements after it).
import Foundation

/// Something to run: a query file or a `-c` statement.
public enum ScriptSource: Sendable, Equatable {
    case file(String)
    case command(String)
}

public struct ScriptRunner {
    public var session: ShellSession
    public var keepGoing: Bool

    public init(session: ShellSession, keepGoing: Bool) {
        self.session = session
        self.keepGoing = keepGoing
    }

    /// Runs every source; returns the exit status.
    public func run(_ sources: [ScriptSource]) -> Int32 {
        var status: Int32 = 0
        for source in sources {
            let result: Int32
            switch source {
            case .file(let path):
                guard let data = FileManager.default.contents(atPath: path) else {
                    let error = ShellError(.cannotOpen, "cannot open '\(path)': " + Self.reason(path),
                                           exitCode: ExitStatus.cannotOpen, located: false)
                    session.report(error, source: SourceText(""), file: nil)
                    result = ExitStatus.cannotOpen
                    break
                }
                result = session.run(String(decoding: data, as: UTF8.self), file: path, stopOnError: !keepGoing)
            case .command(let text):
                result = session.run(text, file: nil, stopOnError: !keepGoing)
            }
            if status == 0 { status = result }
            if result != 0 && !keepGoing { return result }
            if session.quitRequested { break }
        }
        return status
    }

    /// Reads all of stdin and runs it, not stopping at errors.
    public func runStandardInput() -> Int32 {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        return session.run(String(decoding: data, as: UTF8.self), file: "<stdin>", stopOnError: false)
    }

    static func reason(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            return isDirectory.boolValue ? "it is a directory" : "permission denied"
        }
        return "no such file"
    }
}

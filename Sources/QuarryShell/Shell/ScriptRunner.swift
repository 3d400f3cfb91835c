// Runs what the command line names — query files, `-c` statements and `-`
// (stdin), in the order given — on one session.
//
// The policy, as psql's and sqlite3's users expect it:
// - Preflight first: every statement of every source is parsed and bound
//   (ShellSession+Preflight.swift), so a typo anywhere fails the run with
//   exit 65 before anything is written. `--keep-going` skips it.
// - Bail: the first error stops the run with its exit status (1 a statement
//   failed, 65 a parse or bind error, 66 a file could not be opened) — the
//   default; `--bail` says so explicitly and `.bail off` in a file turns it
//   off from there. With `--keep-going` everything runs and the first
//   error's status is the result.
// - `--single-transaction` (`-1`): the whole run is one transaction,
//   committed at the end if nothing failed, rolled back otherwise.
// - A transaction left open at the end is rolled back, with a note.
// - Ctrl-C interrupts the running statement; the run ends with 130 after
//   the rollback.
//
// With several `-c`s, errors name theirs (`-c #2:1:7: error[...]`).
// With nothing named, statements come from the REPL on a terminal, or from
// stdin otherwise (where an error does not stop the statements after it
// unless `--bail` was given).
import Foundation

/// Something to run: a query file, a `-c` statement, or stdin (`-`).
public enum ScriptSource: Sendable, Equatable {
    case file(String)
    case command(String)
    case standardInput
}

public struct ScriptRunner {
    public var session: ShellSession
    public var keepGoing: Bool
    /// Everything in one transaction (`--single-transaction`, `-1`).
    public var singleTransaction = false

    public init(session: ShellSession, keepGoing: Bool, singleTransaction: Bool = false) {
        self.session = session
        self.keepGoing = keepGoing
        self.singleTransaction = singleTransaction
    }

    /// A source's text and the name its errors carry, or the error of a file
    /// that cannot be read.
    struct Loaded {
        var text: String
        var label: String?
    }

    /// Runs every source; returns the exit status.
    public func run(_ sources: [ScriptSource]) -> Int32 {
        if keepGoing { session.bail = false }
        let commandCount = sources.filter { if case .command = $0 { true } else { false } }.count
        var commandNumber = 0
        var loaded: [Result<Loaded, ShellError>] = []
        for source in sources {
            switch source {
            case .file(let path):
                if let data = FileManager.default.contents(atPath: path) {
                    loaded.append(.success(Loaded(text: String(decoding: data, as: UTF8.self), label: path)))
                } else {
                    loaded.append(.failure(ShellError(.cannotOpen, "cannot open '\(path)': " + Self.reason(path),
                                                      exitCode: ExitStatus.cannotOpen, located: false)))
                }
            case .command(let text):
                commandNumber += 1
                loaded.append(.success(Loaded(text: text, label: commandCount > 1 ? "-c #\(commandNumber)" : nil)))
            case .standardInput:
                let data = FileHandle.standardInput.readDataToEndOfFile()
                loaded.append(.success(Loaded(text: String(decoding: data, as: UTF8.self), label: "<stdin>")))
            }
        }
        if !keepGoing, let status = preflight(loaded) { return status }
        if singleTransaction {
            do throws(ShellError) { _ = try session.runTransaction(.begin) } catch {
                session.report(error, source: SourceText(""), file: nil)
                return error.exitCode
            }
        }
        var status: Int32 = 0
        for item in loaded {
            let result: Int32
            switch item {
            case .failure(let error):
                session.report(error, source: SourceText(""), file: nil)
                result = error.exitCode
            case .success(let source):
                result = session.run(source.text, file: source.label, stopOnError: true)
            }
            if status == 0 || result == ExitStatus.interrupted { status = result }
            if result == ExitStatus.interrupted { break }
            if result != 0 && session.bail { break }
            if session.quitRequested { break }
        }
        if singleTransaction && session.inTransaction {
            if status == 0 {
                do throws(ShellError) { _ = try session.runTransaction(.commit) } catch {
                    session.report(error, source: SourceText(""), file: nil)
                    status = error.exitCode
                }
            } else {
                _ = try? session.runTransaction(.rollback)
                session.reportNote("rolled back: --single-transaction and the run failed")
            }
        }
        session.finish()
        // `.exit N`
        if session.quitRequested && status == 0 { status = session.exitStatus }
        return status
    }

    /// Checks every source before anything runs; the exit status of the
    /// first error, or nil to go ahead.
    func preflight(_ loaded: [Result<Loaded, ShellError>]) -> Int32? {
        var variables = session.variables
        for item in loaded {
            guard case .success(let source) = item else { return nil } // reported in order as it runs
            switch session.preflight(source.text, variables: &variables) {
            case .passed: continue
            case .stopped: return nil
            case .failed(let error):
                session.report(error, source: SourceText(source.text), file: source.label)
                return error.exitCode
            }
        }
        return nil
    }

    /// Reads all of stdin and runs it; an error stops it only with `--bail`.
    public func runStandardInput(bail: Bool = false) -> Int32 {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        session.bail = bail
        let status = session.run(String(decoding: data, as: UTF8.self), file: "<stdin>", stopOnError: bail)
        session.finish()
        return session.quitRequested && status == 0 ? session.exitStatus : status
    }

    static func reason(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            return isDirectory.boolValue ? "it is a directory" : "permission denied"
        }
        return "no such file"
    }
}

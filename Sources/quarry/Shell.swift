// `quarry [--store PATH | --postgres URL] [--model PATH] [--mode MODE]
// [--engine sql|memory] [--keep-going] [--error-format human|json]
// [-c STATEMENT]... [FILE]...`: the shell, the default subcommand. Argument
// parsing only; the work is QuarryShell's `ShellSession`, `ScriptRunner`
// and `REPL`.
import ArgumentParser
import Foundation
import QuarryShell

struct Shell: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shell",
        abstract: "Run query files and statements, or the interactive shell.",
        discussion: """
        FILEs and -c statements run in the order given; the first error stops the run \
        (exit 1; 65 for a parse or bind error, 66 for a file that cannot be opened) \
        unless --keep-going. With neither, the REPL starts on a terminal and statements \
        are read from stdin otherwise. Without --store, the embedded example company store is used.
        """
    )

    @Option(help: "A SQLite store file to open or create (:memory: for an empty in-memory one).") var store: String?
    @Option(help: "A PostgreSQL store: postgres://user[:password]@host[:port]/database[?schema=name].") var postgres: String?
    @Option(help: "The model (YAML, JSON or .xcdatamodeld) of the store.") var model: String?
    @Option(help: "Output mode: table, json, ndjson, csv, markdown, line.") var mode: String?
    @Option(help: "Where predicates run: sql or memory.") var engine: String = "sql"
    @Flag(help: "Run everything even after an error.") var keepGoing = false
    @Option(name: .customLong("error-format"), help: "Errors as 'human' or 'json'.") var errorFormat = "human"
    @Option(name: .customShort("c"), help: "A statement or dot-command to run (repeatable).") var command: [String] = []
    @Argument(help: "Query files to run.") var files: [String] = []

    func validate() throws {
        if let mode, OutputMode(rawValue: mode.lowercased()) == nil {
            throw ValidationError("unknown mode '\(mode)'; use " + OutputMode.allCases.map(\.rawValue).joined(separator: ", "))
        }
        if FetchEngine(rawValue: engine) == nil { throw ValidationError("unknown engine '\(engine)'; use sql or memory") }
        if errorFormat != "human" && errorFormat != "json" { throw ValidationError("--error-format is human or json") }
        if store != nil && postgres != nil { throw ValidationError("give --store or --postgres, not both") }
    }

    func run() throws {
        let interactive = files.isEmpty && command.isEmpty && isatty(0) != 0
        let location: StoreLocation = postgres.map(StoreLocation.postgres) ?? store.map(StoreLocation.sqlite) ?? .defaultStore
        let session = ShellSession(location: location,
                                   mode: mode.flatMap { OutputMode(rawValue: $0.lowercased()) } ?? .table,
                                   output: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
                                   errors: { text in FileHandle.standardError.write(Data(text.utf8)) })
        session.engine = FetchEngine(rawValue: engine)!
        session.jsonErrors = errorFormat == "json"
        var status = session.setUp(modelPath: model, openStore: store != nil || postgres != nil)
        if status == 0 {
            if interactive {
                status = REPL(session: session).run()
            } else {
                let runner = ScriptRunner(session: session, keepGoing: keepGoing)
                status = files.isEmpty && command.isEmpty ? runner.runStandardInput() : runner.run(Self.orderedSources())
            }
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// Files and -c statements in command-line order (ArgumentParser keeps
    /// options and arguments apart, so the order is read from argv).
    static func orderedSources() -> [ScriptSource] {
        var sources: [ScriptSource] = []
        let withValue: Set<String> = ["--store", "--postgres", "--model", "--mode", "--engine", "--error-format"]
        var args = CommandLine.arguments.dropFirst()
        if args.first == "shell" { args = args.dropFirst() }
        var onlyFiles = false
        while let arg = args.popFirst() {
            if onlyFiles { sources.append(.file(arg)); continue }
            if arg == "--" { onlyFiles = true }
            else if arg == "-c" { if let s = args.popFirst() { sources.append(.command(s)) } }
            else if arg.hasPrefix("-c") && !arg.hasPrefix("--") { sources.append(.command(String(arg.dropFirst(2)))) }
            else if withValue.contains(arg) { _ = args.popFirst() }
            else if arg.hasPrefix("-") && arg != "-" { continue }
            else { sources.append(.file(arg)) }
        }
        return sources
    }
}

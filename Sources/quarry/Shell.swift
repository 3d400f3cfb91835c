// `quarry [--store PATH | --postgres URL] [--model PATH] [--mode MODE]
// [--engine sql|memory] [--keep-going] [--error-format human|json]
// [--arg VALUE]... [-c STATEMENT]... [FILE]...`: the shell, the default subcommand. Argument
// parsing only (the common invocations skip ArgumentParser: see
// ShellOptions.swift); the work is QuarryShell's `ShellSession`,
// `ScriptRunner` and `REPL`.
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
    @Flag(help: "Stop at the first error (the default for -c and files).") var bail = false
    @Flag(name: .customLong("single-transaction"), help: "Run everything in one transaction (also -1).") var singleTransaction = false
    @Flag(help: "Print each statement before its result.") var echo = false
    @Flag(name: [.short, .long], help: "No greeting in the REPL.") var quiet = false
    @Flag(name: .customLong("no-pager"), help: "Never show results through $PAGER.") var noPager = false
    @Flag(help: "Migrate a store made with an earlier version of the model when it opens.") var migrate = false
    @Flag(help: "Open a Core Data store for writing (saves and batch requests keep Core Data's invariants).") var writable = false
    @Option(name: .customShort("o"), help: "Write results to this file.") var outputFile: String?
    @Option(name: .customShort("f"), help: "A query file to run (repeatable).") var fileOption: [String] = []
    @Option(name: .customLong("error-format"), help: "Errors as 'human' or 'json'.") var errorFormat = "human"
    @Option(help: "Seed random(), random: and randomn: (fresh values in every run without it).") var seed: UInt64?
    @Option(name: .customLong("arg"), help: "A value for the %@, %d, %K ... of each statement, in order (JSON, or a plain string).")
    var args: [String] = []
    @Option(name: .customShort("c"), help: "A statement or dot-command to run (repeatable).") var command: [String] = []
    @Argument(help: "Query files to run.") var files: [String] = []

    func validate() throws {
        if let problem = ShellOptions.problem(store: store, postgres: postgres, mode: mode, engine: engine, errorFormat: errorFormat) {
            throw ValidationError(problem)
        }
    }

    func run() throws {
        var options = ShellOptions(store: store, postgres: postgres, model: model, mode: mode, engine: engine, keepGoing: keepGoing,
                                   errorFormat: errorFormat, arguments: args, sources: Self.orderedSources())
        options.seed = seed
        options.bail = bail
        options.singleTransaction = singleTransaction
        options.echo = echo
        options.quiet = quiet
        options.noPager = noPager
        options.migrate = migrate
        options.writable = writable
        options.outputFile = outputFile
        let status = options.run()
        if status != 0 { throw ExitCode(status) }
    }

    /// Files and -c statements in command-line order (ArgumentParser keeps
    /// options and arguments apart, so the order is read from argv).
    static func orderedSources() -> [ScriptSource] {
        var sources: [ScriptSource] = []
        let withValue: Set<String> = ["--store", "--postgres", "--model", "--mode", "--engine", "--error-format", "--arg", "-o"]
        var args = CommandLine.arguments.dropFirst()
        if args.first == "shell" { args = args.dropFirst() }
        var onlyFiles = false
        while let arg = args.popFirst() {
            if onlyFiles { sources.append(.file(arg)); continue }
            if arg == "--" { onlyFiles = true }
            else if arg == "-c" { if let s = args.popFirst() { sources.append(.command(s)) } }
            else if arg == "-f" { if let s = args.popFirst() { sources.append(s == "-" ? .standardInput : .file(s)) } }
            else if arg == "-" { sources.append(.standardInput) }
            else if arg.hasPrefix("-c") && !arg.hasPrefix("--") { sources.append(.command(String(arg.dropFirst(2)))) }
            else if withValue.contains(arg) { _ = args.popFirst() }
            else if arg.hasPrefix("-") && arg != "-" { continue }
            else { sources.append(.file(arg)) }
        }
        return sources
    }
}

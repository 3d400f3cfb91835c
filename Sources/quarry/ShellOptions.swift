// What the shell runs with, and the fast way to read it. ArgumentParser
// builds its picture of every command by reflection, which costs more than
// all the rest of a `quarry -c 'COUNT Employee'` start-up; so the plain
// shell invocations — `-c`, FILEs, `--store`, `--postgres`, `--model`,
// `--mode`, `--engine`, `--error-format`, `--arg` (each `--option VALUE`),
// `--keep-going` and `--` — are read here by hand. Anything else (a
// subcommand, `--help`, `--option=value`, a value that looks like an option,
// a repeated single option, a value ArgumentParser would reject) is left to
// ArgumentParser, so help, errors and exit codes read exactly as before.
#if canImport(Glibc)
import Glibc
#endif
import QuarryShell
import Foundation

struct ShellOptions {
    var store: String?
    var postgres: String?
    var model: String?
    var mode: String?
    var engine = "sql"
    var keepGoing = false
    var errorFormat = "human"
    /// `--seed N`: the same `random()` values in every run (fresh ones without it).
    var seed: UInt64?
    /// `--arg` values, as typed.
    var arguments: [String] = []
    /// Files and -c statements in command-line order.
    var sources: [ScriptSource] = []

    /// Why these options cannot run (ArgumentParser's validation message), or nil.
    static func problem(store: String?, postgres: String?, mode: String?, engine: String, errorFormat: String) -> String? {
        if let mode, OutputMode(rawValue: mode.lowercased()) == nil {
            return "unknown mode '\(mode)'; use " + OutputMode.allCases.map(\.rawValue).joined(separator: ", ")
        }
        if FetchEngine(rawValue: engine) == nil { return "unknown engine '\(engine)'; use sql or memory" }
        if errorFormat != "human" && errorFormat != "json" { return "--error-format is human or json" }
        if store != nil && postgres != nil { return "give --store or --postgres, not both" }
        return nil
    }

    /// Reads a plain shell command line (`CommandLine.arguments`), or nil to
    /// leave it to ArgumentParser.
    init?(commandLine: [String]) {
        var args = commandLine.dropFirst()
        if args.first == "shell" { args = args.dropFirst() }
        var seen: Set<String> = []
        while let arg = args.popFirst() {
            if arg == "--" {
                sources += args.map(ScriptSource.file)
                break
            }
            if arg == "--keep-going" { keepGoing = true; continue }
            if arg == "-c" || arg.hasPrefix("--") {
                guard let value = args.popFirst(), !value.hasPrefix("-") else { return nil }
                switch arg {
                case "-c": sources.append(.command(value)); continue
                case "--arg": arguments.append(value); continue
                default: break
                }
                guard seen.insert(arg).inserted else { return nil }
                switch arg {
                case "--store": store = value
                case "--postgres": postgres = value
                case "--model": model = value
                case "--mode": mode = value
                case "--engine": engine = value
                case "--error-format": errorFormat = value
                case "--seed": guard let n = UInt64(value) else { return nil }; seed = n
                default: return nil
                }
                continue
            }
            // A subcommand's name, `-h` or any other option: ArgumentParser's.
            if arg.hasPrefix("-") || (sources.isEmpty && ["parse", "eval", "fixtures", "lint", "help", "shell"].contains(arg)) { return nil }
            sources.append(.file(arg))
        }
        if Self.problem(store: store, postgres: postgres, mode: mode, engine: engine, errorFormat: errorFormat) != nil { return nil }
    }

    init(store: String?, postgres: String?, model: String?, mode: String?, engine: String, keepGoing: Bool,
         errorFormat: String, arguments: [String], sources: [ScriptSource]) {
        self.store = store
        self.postgres = postgres
        self.model = model
        self.mode = mode
        self.engine = engine
        self.keepGoing = keepGoing
        self.errorFormat = errorFormat
        self.arguments = arguments
        self.sources = sources
    }

    /// Runs the files and statements (or the REPL, or stdin); returns the exit status.
    func run() -> Int32 {
        let interactive = sources.isEmpty && isatty(0) != 0
        let location: StoreLocation = postgres.map(StoreLocation.postgres) ?? store.map(StoreLocation.sqlite) ?? .defaultStore
        let session = ShellSession(location: location,
                                   mode: mode.flatMap { OutputMode(rawValue: $0.lowercased()) } ?? .table,
                                   output: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
                                   errors: { text in FileHandle.standardError.write(Data(text.utf8)) })
        session.engine = FetchEngine(rawValue: engine)!
        session.jsonErrors = errorFormat == "json"
        session.arguments = arguments.map(CommandLineValue.parse)
        if let seed { session.randomSeed = seed }
        var status = session.setUp(modelPath: model, openStore: store != nil || postgres != nil)
        if status == 0 {
            if interactive {
                status = REPL(session: session).run()
            } else {
                let runner = ScriptRunner(session: session, keepGoing: keepGoing)
                status = sources.isEmpty ? runner.runStandardInput() : runner.run(sources)
            }
        }
        return status
    }
}

// What the shell runs with, and the fast way to read it. ArgumentParser
// builds its picture of every command by reflection, which costs more than
// all the rest of a `quarry -c 'COUNT Employee'` start-up; so the plain
// shell invocations are read here by hand: `-c`, `-f`, `-o`, FILEs, `-`
// (stdin), `--store`, `--postgres`, `--model`, `--mode` and its aliases
// (`--json`, `--csv`, ...), `--engine`, `--error-format`, `--arg` (each
// `--option VALUE`), the switches `--keep-going`, `--bail`,
// `--single-transaction`/`-1`, `--echo`, `-q`, `--no-pager`, `--migrate`,
// `--writable`, and `--help`, `--version`.
// Anything else (a subcommand, `--option=value`, a value that looks like an
// option, a repeated single option, a value ArgumentParser would reject) is
// left to ArgumentParser, so its errors and exit codes read as before.
#if canImport(Glibc)
import Glibc
#endif
import QuarryShell
import Foundation

struct ShellOptions {
    static let version = "quarry 0.1.0"

    var store: String?
    var postgres: String?
    var model: String?
    var mode: String?
    var engine = "sql"
    var keepGoing = false
    var bail = false
    var singleTransaction = false
    var echo = false
    var quiet = false
    /// `--no-pager`: never page (a pager is used only on a terminal anyway).
    var noPager = false
    /// `--migrate`: a store made with an earlier version of the model is migrated on open.
    var migrate = false
    /// `--writable`: a Core Data store is opened for writing (read-only without it).
    var writable = false
    var outputFile: String?
    var errorFormat = "human"
    /// `--seed N`: the same `random()` values in every run (fresh ones without it).
    var seed: UInt64?
    /// `--arg` values, as typed.
    var arguments: [String] = []
    /// Files, -c statements and stdin in command-line order.
    var sources: [ScriptSource] = []
    /// `--help` or `--version`: print, exit 0.
    var informationOnly: String?

    /// `--json` for `--mode json`, and so on (sqlite3's spelling).
    static let modeFlags = Set(OutputMode.allCases.map { "--" + $0.rawValue })

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
            switch arg {
            case "--":
                sources += args.map(ScriptSource.file)
                args = []
                continue
            case "--keep-going": keepGoing = true; continue
            case "--bail": bail = true; continue
            case "-1", "--single-transaction": singleTransaction = true; continue
            case "--echo": echo = true; continue
            case "-q", "--quiet": quiet = true; continue
            case "--no-pager": noPager = true; continue
            case "--migrate": migrate = true; continue
            case "--writable": writable = true; continue
            case "-": sources.append(.standardInput); continue
            case "-h", "--help": informationOnly = ShellHelp.text; continue
            case "--version": informationOnly = Self.version + "\n"; continue
            case _ where Self.modeFlags.contains(arg):
                mode = String(arg.dropFirst(2))
                continue
            default: break
            }
            if arg == "-c" || arg == "-f" || arg == "-o" || arg.hasPrefix("--") {
                guard let value = args.popFirst(), !value.hasPrefix("-") || value == "-" else { return nil }
                switch arg {
                case "-c": sources.append(.command(value)); continue
                case "-f": sources.append(value == "-" ? .standardInput : .file(value)); continue
                case "--arg": arguments.append(value); continue
                default: break
                }
                guard seen.insert(arg).inserted else { return nil }
                switch arg {
                case "-o": outputFile = value
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
            // A subcommand's name or any other option: ArgumentParser's.
            if arg.hasPrefix("-") || (sources.isEmpty && ["parse", "eval", "fixtures", "export", "migrate", "lint", "help", "shell"].contains(arg)) { return nil }
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

    /// The sqlite3 habit `quarry tasks.sqlite`: a FILE that starts with
    /// SQLite's header is the store, not a query file (when no store is given).
    mutating func takeStoreFromFiles(note: (String) -> Void) {
        guard store == nil, postgres == nil else { return }
        for (i, source) in sources.enumerated() {
            guard case .file(let path) = source, Self.hasSQLiteHeader(path) else { continue }
            store = path
            sources.remove(at: i)
            note("quarry: opening '\(path)' as a SQLite store (it starts with the SQLite header)\n")
            return
        }
    }

    static func hasSQLiteHeader(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        return header == Data("SQLite format 3\0".utf8)
    }

    /// Runs the files and statements (or the REPL, or stdin); returns the exit status.
    func run() -> Int32 {
        if let informationOnly {
            FileHandle.standardOutput.write(Data(informationOnly.utf8))
            return 0
        }
        var options = self
        let errors: (String) -> Void = { text in FileHandle.standardError.write(Data(text.utf8)) }
        options.takeStoreFromFiles(note: errors)
        let sources = options.sources
        let interactive = sources.isEmpty && isatty(0) != 0
        let location: StoreLocation = options.postgres.map(StoreLocation.postgres) ?? options.store.map(StoreLocation.sqlite) ?? .defaultStore
        let session = ShellSession(location: location,
                                   mode: mode.flatMap { OutputMode(rawValue: $0.lowercased()) } ?? .table,
                                   output: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
                                   errors: errors)
        session.engine = FetchEngine(rawValue: engine)!
        session.jsonErrors = errorFormat == "json"
        session.arguments = arguments.map(CommandLineValue.parse)
        if let seed { session.randomSeed = seed }
        session.echo = echo
        session.quiet = quiet
        session.migration = migrate ? .automatic : .none
        session.coreDataWritable = writable
        // psql's pager: results taller than the terminal, only when stdout is one.
        if !noPager && isatty(1) != 0 { session.usePager(Pager.command(environment: ProcessInfo.processInfo.environment)) }
        if let outputFile {
            do throws(ShellError) { try session.redirectOutput(to: outputFile) } catch {
                session.report(error, source: SourceText(""), file: nil)
                return error.exitCode
            }
        }
        var status = session.setUp(modelPath: model, openStore: options.store != nil || options.postgres != nil)
        if status == 0 {
            if interactive {
                // sqlite3's default: the REPL keeps going after errors.
                session.bail = bail
                status = REPL(session: session).run()
            } else {
                // Ctrl-C stops the running statement; the run then ends (130).
                let interrupts = InterruptWatch(session: session)
                defer { withExtendedLifetime(interrupts) {} }
                let runner = ScriptRunner(session: session, keepGoing: keepGoing, singleTransaction: singleTransaction)
                status = sources.isEmpty ? runner.runStandardInput(bail: bail) : runner.run(sources)
            }
        }
        return status
    }
}

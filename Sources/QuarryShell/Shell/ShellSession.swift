// A shell session: the store and its model, `SET` variables, the `--arg`
// values, the output mode, the engine, and the .timer/.explain switches. It
// runs script text — statements and dot-commands — writing results to
// `output` and rendered errors to `errors`, so tests capture both without a
// process. The REPL, the script runner and `-c` all go through
// `run(_:file:stopOnError:)`.
import Foundation

/// Where the session's data lives.
public enum StoreLocation: Sendable, Equatable {
    /// The embedded example company store (in memory, built on first use).
    case defaultStore
    /// A SQLite file, or `:memory:`.
    case sqlite(String)
    /// A schema on a PostgreSQL server, by URL (`postgres://user@host:port/db?schema=app`).
    case postgres(String)

    /// A `.open` argument: a PostgreSQL URL or a SQLite path.
    public init(opening argument: String) {
        let lower = argument.lowercased()
        self = lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") ? .postgres(argument) : .sqlite(argument)
    }

    /// The store's name in messages (a URL without its password).
    var displayName: String {
        switch self {
        case .defaultStore: return ":memory:"
        case .sqlite(let path): return path
        case .postgres(let url): return (try? PostgresURL(url).redacted) ?? "the PostgreSQL URL"
        }
    }
}

public final class ShellSession {
    public var mode: OutputMode
    public var engine: FetchEngine = .sql
    public var timer = false
    public var explain = false
    public var jsonErrors = false
    /// Errors in red (the REPL on a terminal; never when piped).
    public var colour = false
    public var variables: [String: Value] = [:]
    /// The `--arg` values: what `%@`, `%d`, `%K`, `%2$@` ... in statements stand for.
    public var arguments: [Value] = []
    /// Where `random()`, `random:` and `randomn:` start: fresh in every
    /// process unless `--seed N` sets it. Each statement's expression draws
    /// from its own point of the sequence (`evaluationOptions()`).
    public var randomSeed = UInt64.random(in: 0...UInt64.max) { didSet { randomDraws = 0 } }
    var randomDraws: UInt64 = 0
    /// The text of the last statement read, for `.tokens` and `.ast`.
    var lastStatement: String?

    var location: StoreLocation
    var model: Model?
    var modelPath: String?
    var openStore: SQLStore?
    let output: (String) -> Void
    let errors: (String) -> Void
    /// Set by the REPL: the running statement's connection, for Ctrl-C.
    public var onStoreOpened: ((SQLStore) -> Void)?
    /// Set by `.quit`; the REPL and script runner stop when it is.
    public internal(set) var quitRequested = false
    /// Nesting of `.read`, to refuse a file that reads itself forever.
    var readDepth = 0
    /// The SECTIONS statement `.watch` keeps live, if any.
    var watch: Watch?
    /// Set on Ctrl-C (the REPL and scripts watch SIGINT); output stops at once.
    public let cancellation: Cancellation
    /// Stop at the first error (`.bail`, `--bail`); the REPL turns it off.
    public var bail = true
    /// Print each statement before its result (`.echo`, `--echo`).
    public var echo = false
    /// Where results go: stdout, or a `.output`/`.once` file.
    let route: OutputRoute
    /// `.headers`, `.nullvalue`, `.width`.
    var presentation = Presentation()
    /// No greeting in the REPL (`-q`).
    public var quiet = false
    /// `--migrate`: a store made with an earlier version of the model is
    /// migrated when it opens; without it such a store is refused, with the
    /// changes and how to migrate.
    public var migration: MigrationPolicy = .none
    /// `--writable`: a Core Data store opens for writing (CoreDataStoreOpening.swift).
    public var coreDataWritable = false
    /// What `.exit N` asked the process to exit with.
    public internal(set) var exitStatus: Int32 = 0
    /// A statement's big values (fetched objects, rows, a context), kept
    /// until its item is over: freeing half a million objects takes a
    /// while, which must not come between a Ctrl-C and `interrupted`.
    var parked: [Any] = []

    /// `value`, kept alive until the running item ends (see `parked`).
    @discardableResult
    func park<T>(_ value: T) -> T {
        parked.append(value)
        return value
    }

    /// Frees the parked values of the item just over on a background queue:
    /// after a big interrupted SECTIONS that took 0.7 s, all of it between
    /// `interrupted` and the prompt. They are safe to free on another
    /// thread: nothing else references them any more (a statement's context
    /// and its objects are its own; the store they share is only released).
    func releaseParked() {
        guard !parked.isEmpty else { return }
        let values = Released(parked)
        parked = []
        Released.queue.async {
            values.free()
            InterruptTrace.mark("the statement's values freed")
        }
    }

    public init(location: StoreLocation = .defaultStore, model: Model? = nil, mode: OutputMode = .table,
                output: @escaping (String) -> Void, errors: @escaping (String) -> Void) {
        self.location = location
        self.model = model
        self.mode = mode
        // Results go through the route (`.output FILE`) and stop on Ctrl-C.
        let route = OutputRoute(output)
        let cancellation = Cancellation()
        self.cancellation = cancellation
        self.route = route
        self.output = { text in if !cancellation.isCancelled { route.write(text) } }
        self.errors = errors
        // A pager quit early: the rest of the statement is not wanted.
        route.readerGone = { cancellation.discard() }
    }

    /// Pages results taller than the terminal through `command` (set by the
    /// caller when standard output is a terminal; `.pager off` pauses it).
    public func usePager(_ command: String?) {
        route.pagerCommand = command
    }

    /// Options for compiling one statement's expression: the next seed of
    /// the session's sequence (SplitMix64 of the seed and a counter), so two
    /// `EVAL random()` differ and a seeded session repeats itself.
    func evaluationOptions() -> EvaluationOptions {
        randomDraws += 1
        var z = randomSeed &+ randomDraws &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        var options = EvaluationOptions()
        options.randomSeed = z ^ (z >> 31)
        return options
    }

    /// The store, opened on first use (the default store is built then).
    func store() throws(ShellError) -> SQLStore {
        if let openStore { return openStore }
        let store: SQLStore
        do {
            try migrateBeforeOpening()   // `--migrate` with a model file (MigrateCommand)
            switch location {
            case .defaultStore where model == nil:
                store = try DefaultStore.make()
                model = store.model
            case .defaultStore:
                store = try SQLStore(path: ":memory:", model: model!)
            case .sqlite(let path) where Self.isCoreDataStore(path):
                store = try openCoreDataStore(at: path)   // CoreDataStoreOpening.swift
            case .sqlite(let path):
                // The model: --model (or .model), else the one saved in a store
                // Quarry created; a new file needs one. `:memory:` (and a path
                // SQLite cannot open anyway) falls back to the company model.
                if model == nil { model = try SQLStore.storedModel(at: path) }
                if model == nil && path != ":memory:" {
                    let exists = FileManager.default.fileExists(atPath: path)
                    let folder = (path as NSString).deletingLastPathComponent
                    if exists || FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder) {
                        throw ShellError(.cannotOpen, exists
                                            ? "store '\(path)' has no saved model; give one with --model PATH"
                                            : "creating store '\(path)' needs a model; give one with --model PATH",
                                         exitCode: ExitStatus.usage, located: false)
                    }
                }
                if model == nil { model = try DefaultStore.model() }
                store = try SQLStore(path: path, model: model!, modelFile: modelPath, migration: migration)
            case .postgres(let url):
                // As with a file: --model, else the model saved in the schema.
                if model == nil { model = try SQLStore.storedModel(postgres: url) }
                guard let model else {
                    throw ShellError(.cannotOpen, "the schema at \(location.displayName) holds no Quarry store yet; give its model with --model PATH",
                                     exitCode: ExitStatus.usage, located: false)
                }
                store = try SQLStore(postgres: url, model: model, modelFile: modelPath, migration: migration)
            }
        } catch let e as ShellError {
            throw e
        } catch {
            throw ShellError(.cannotOpen, "cannot open store '\(location.displayName)': \(error)", exitCode: ExitStatus.cannotOpen, located: false)
        }
        openStore = store
        onStoreOpened?(store)
        return store
    }

    /// `--migrate` with a model file and an existing store: the migration
    /// `quarry migrate` runs (a bundle's versions in order, each with its
    /// renaming identifiers), before the store opens; a note says what was
    /// done. A refusal stops the open with its reasons.
    func migrateBeforeOpening() throws {
        guard migration == .automatic, let modelPath else { return }
        let command: MigrateCommand
        switch location {
        case .sqlite(let path) where path != ":memory:" && FileManager.default.fileExists(atPath: path):
            guard case .quarry? = try? SQLiteFileInspection.kind(of: path) else { return }
            command = MigrateCommand(store: path, postgres: nil, model: modelPath, dryRun: false)
        case .postgres(let url) where (try? SQLStore.storedModel(postgres: url)) != nil:
            command = MigrateCommand(store: nil, postgres: url, model: modelPath, dryRun: false)
        default:
            return
        }
        let outcome = command.run()
        guard outcome.exitCode == 0 else {
            throw ShellError(.cannotOpen, "cannot migrate store '\(location.displayName)': " + outcome.stderr.replacingOccurrences(of: "error: ", with: "")
                                .trimmingCharacters(in: .whitespacesAndNewlines), exitCode: ExitStatus.cannotOpen, located: false)
        }
        // Each step's header line, "migrate S to M: N changes", counts them.
        let changes = outcome.stdout.split(separator: "\n").filter { $0.hasPrefix("migrate ") }
            .compactMap { line in line.split(separator: " ").dropLast().last.flatMap { Int($0) } }.reduce(0, +)
        if changes > 0 {
            errors("note: migrated the store to \(modelPath) (\(changes) change\(changes == 1 ? "" : "s"); `quarry migrate --dry-run` shows such a plan)\n")
        }
    }

    /// Where the data is, for the REPL's greeting.
    public var storeDescription: String {
        switch location {
        case .defaultStore: return "Store: the example company (in memory; try FETCH Department)"
        case .sqlite(let path): return "Store: \(path)"
        case .postgres: return "Store: \(location.displayName) (PostgreSQL)"
        }
    }

    /// The model statements are checked against.
    func currentModel() throws(ShellError) -> Model {
        if let model { return model }
        return try store().model
    }

    /// `.open PATH [--model MODEL]`: the store at `argument`, with the model
    /// given here or else its own saved one — never the model of the store
    /// open before (a left-over model would read the wrong tables, or
    /// silently create them). On failure the previous store stays open.
    func reopen(_ argument: String, modelPath newModelPath: String?) throws(ShellError) {
        let previous = (location, openStore, model, modelPath)
        var newModel: Model?
        if let newModelPath {
            guard FileManager.default.fileExists(atPath: newModelPath) else {
                throw ShellError(.cannotOpen, "cannot open model '\(newModelPath)': no such file", exitCode: ExitStatus.cannotOpen)
            }
            do { newModel = try ModelReader.read(from: newModelPath) } catch {
                throw ShellError(.noModel, "\(error)", exitCode: ExitStatus.badInput)
            }
        }
        location = StoreLocation(opening: argument)
        openStore = nil
        model = newModel
        modelPath = newModelPath
        do throws(ShellError) { _ = try store() } catch {
            (location, openStore, model, modelPath) = previous
            throw error
        }
    }

    /// Opens the store now (for `--store`), so a bad path fails before any statement runs.
    public func openNow() throws(ShellError) { _ = try store() }

    /// Writes what the model reader converted or ignored (Core Data's
    /// leniency, see ModelWarning) to the error stream, one line each.
    func reportWarnings(of model: Model?) {
        for warning in model?.warnings ?? [] { errors("\(warning)\n") }
    }

    /// Writes a rendered error to the error stream.
    public func report(_ error: ShellError, source: SourceText, file: String?) {
        if error.silent { return }
        let text = jsonErrors ? error.jsonObject(in: source, file: file) : error.rendered(in: source, file: file)
        errors(colour ? "\u{1B}[31m" + text + "\u{1B}[0m\n" : text + "\n")
    }

    func write(_ out: StatementOutput) {
        // Rows print a chunk at a time, so Ctrl-C stops a long result at once.
        if case .rows(let r) = out {
            ChunkedPrinter.print(r, through: presentation.formatter(for: mode), to: output, cancellation: cancellation,
                                 expanded: expandedFormatter)
            return
        }
        // Sections a piece at a time, for the same reason.
        if case .sections(let columns, let sections) = out {
            mode.formatter.writeSections(sections, columns: columns) { text in
                guard !cancellation.isCancelled else { return false }
                if !text.isEmpty { output(text) }
                return true
            }
            return
        }
        ChunkedPrinter.write(mode.formatter.render(out), to: output, cancellation: cancellation)
    }
}

extension ShellSession {
    /// `.expanded auto`: line mode for a table wider than the terminal
    /// results go to (never when they go to a file or a pipe).
    func expandedFormatter(for summary: ColumnSummary) -> (any RowStreamFormatter)? {
        guard presentation.expanded == .auto else { return nil }
        return presentation.expandedFormatter(for: mode, summary: summary, columns: route.screen?.columns)
    }

    /// Reads `--model` and, for `--store`, opens the store at once, so that a
    /// missing model (66), a bad model (65) or an unopenable store (66)
    /// fails before any statement. Returns 0 or the exit status.
    public func setUp(modelPath: String?, openStore: Bool) -> Int32 {
        do throws(ShellError) {
            if let modelPath {
                guard FileManager.default.fileExists(atPath: modelPath) else {
                    throw ShellError(.cannotOpen, "cannot open model '\(modelPath)': no such file", exitCode: ExitStatus.cannotOpen, located: false)
                }
                do { model = try ModelReader.read(from: modelPath) } catch {
                    throw ShellError(.noModel, "\(error)", exitCode: ExitStatus.badInput, located: false)
                }
                reportWarnings(of: model)
                self.modelPath = modelPath
            }
            if openStore { try openNow() }
            return 0
        } catch {
            report(error, source: SourceText(""), file: nil)
            return error.exitCode
        }
    }
}

/// A finished item's parked values on their way to the background queue
/// that frees them (`releaseParked`). The box holds the only reference, so
/// emptying it there frees them there.
private final class Released: @unchecked Sendable {
    // @unchecked: `values` is touched only by `free()`, on `queue`, once the
    // session has let go of them.
    static let queue = DispatchQueue(label: "quarry.release", qos: .utility)
    private var values: [Any]

    init(_ values: [Any]) { self.values = values }

    func free() { values = [] }
}

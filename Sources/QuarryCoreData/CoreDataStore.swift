// Opening an app's Core Data store — read-only, without ever writing the
// store, its `-wal` or its `-shm` — as an ordinary `SQLStore`, so every
// fetch, count, context and controller works on it unchanged.
//
// How the file is read without a write: SQLite's `immutable` open (no lock,
// no journal, no `-shm`) of the store itself when its `-wal` is empty or
// absent; when rows are still in a non-empty `-wal` (which an immutable open
// would not see), a private copy of the store and its `-wal` is made,
// checkpointed and switched out of WAL mode, then opened immutable and
// unlinked at once (the open file stays readable; nothing is left behind).
// On that connection TEMP views present the Z-tables in Quarry's layout
// (CoreDataViews.swift), `PRAGMA query_only` is set, and the store refuses
// every write before running anything (`SQLStore.readOnlyReason`).
//
// Writable, when asked (`writable: true`, `quarry --store App.sqlite
// --writable`): the store itself is opened as SQLite opens any file (its
// `-wal` and `-shm` too, so rows still in the `-wal` are seen and the write
// lands in the real store; its journal mode left as it is), and the views
// get TEMP triggers that write the Z-tables as Core Data would
// (CoreDataViews+Writing.swift, CoreDataDatabase.swift). Still nothing of
// Quarry's is created in the file: TEMP objects only. A committed write
// that drops the last reference to an external data file (a row deleted,
// a value replaced or set to nil) removes the file, as Core Data would
// (CoreDataExternalSweep.swift).
//
// The model: the one given (a `.xcdatamodeld` chooses its version,
// ModelChoice.swift), else the one Core Data cached in the store
// (`Z_MODELCACHE`, CachedModelReader.swift).
import Foundation
import QuarryModel
import QuarrySQLite
import QuarryStore

/// A Core Data store opened for reading, and how.
public struct CoreDataOpening {
    public let store: SQLStore
    /// Where the model came from ("the model cached in the store", a path).
    public let modelSource: String
    /// What the user should know (a model version chosen other than the
    /// current one, an ordering that could not be read).
    public let warnings: [String]
    public let metadata: StoreMetadata
    /// Each entity's name in the store's Z_PRIMARYKEY: its own, or the old
    /// name of an entity renamed in place (its renaming identifier).
    public let storedEntityNames: [String: String]
}

public enum CoreDataStore {
    public static let readOnlyReason = "a Core Data store is opened read-only; Quarry never writes to an app's store"
    /// Why a writable Core Data store refuses what needs Quarry's own tables.
    public static let bookkeepingRefusal = "is a Core Data store opened writable, and Quarry creates nothing of its own in it: persistent history would need Quarry's tables; nothing was changed"

    /// Opens the Core Data store at `path`, read-only unless `writable`.
    /// `model` (already read) or `modelPath` (a model file or bundle) name
    /// the model; with neither, the model cached in the store is used.
    public static func open(path named: String, model: Model? = nil, modelPath: String? = nil, writable: Bool = false) throws -> CoreDataOpening {
        try check(named)
        // Through a link, the `-wal` (rows not yet checkpointed) and the
        // external-data folder are beside the store itself.
        let path = SQLiteFilePath.resolvingLinks(named)
        let (connection, privateCopy) = writable ? (try connectWritable(path), nil) : try connect(path)
        defer { if let privateCopy { try? FileManager.default.removeItem(atPath: privateCopy) } }
        do {
            let schema: CoreDataSchema
            do { schema = try CoreDataSchema(connection: connection) } catch {
                throw CoreDataError(.unreadableStore, "cannot read the Core Data bookkeeping of '\(path)': \(error)",
                                    hint: "the file may be damaged; check it with sqlite3's PRAGMA integrity_check on a copy")
            }
            var choice: ModelChoice
            if let model {
                choice = ModelChoice(model: model, views: try CoreDataViews(model: model, schema: schema), source: "the given model")
            } else if let modelPath {
                choice = try ModelChoice.choose(modelPath: modelPath, schema: schema)
            } else {
                let cached = try cachedModel(connection, path: path, schema: schema)
                choice = ModelChoice(model: cached.model, views: try CoreDataViews(model: cached.model, schema: schema, renames: cached.renames),
                                     source: "the model cached in the store (Z_MODELCACHE)")
            }
            do { try choice.model.validateStorageNames() } catch {
                throw CoreDataError(.unreadableModel, "the model cannot be read by Quarry: \(error)")
            }
            try choice.views.checkSuffixes(connection)
            choice.warnings += choice.views.warnings
            let external = try ExternalData.load(choice.views, connection: connection, storePath: path, warnings: &choice.warnings)
            if writable {
                try checkWritable(choice.views, schema: schema, connection: connection)
                // Files of dropped external values go after the commit (CoreDataExternalSweep.swift).
                let sweep = try CoreDataExternalSweep(views: choice.views, connection: connection, storePath: path)
                // All of it at once: a store is never left half set up.
                try connection.transaction {
                    for statement in choice.views.statements(external: external, writable: true) + choice.views.writingStatements()
                        + (sweep?.statements() ?? []) {
                        try connection.execute(statement)
                    }
                }
                let database = CoreDataDatabase(connection)
                database.externalSweep = sweep
                let store = SQLStore(foreignLayoutDatabase: database, model: choice.model,
                                     bookkeepingRefusal: bookkeepingRefusal, orderColumns: true,
                                     orderSpacing: .coreData)   // Z_FOK_ values as Core Data writes them
                return CoreDataOpening(store: store, modelSource: choice.source, warnings: choice.warnings, metadata: schema.metadata,
                                       storedEntityNames: choice.views.storedEntityNames)
            }
            for statement in choice.views.statements(external: external) { try connection.execute(statement) }
            try connection.execute("PRAGMA query_only = ON")
            // The views carry every ordered to-many's order column
            // (CoreDataViews+Order.swift), NULL where the store has none.
            let store = SQLStore(readOnlyDatabase: connection, model: choice.model, reason: readOnlyReason, orderColumns: true)
            return CoreDataOpening(store: store, modelSource: choice.source, warnings: choice.warnings, metadata: schema.metadata,
                                     storedEntityNames: choice.views.storedEntityNames)
        } catch {
            connection.close()
            throw error
        }
    }

    /// The file must be a Core Data store: anything else gets a message
    /// saying what it is.
    static func check(_ path: String) throws {
        if path.hasPrefix("file:") {
            // Core Data's files are opened in modes of their own (immutable,
            // a private copy); a URI's parameters would be lost or fight them.
            throw CoreDataError(.unreadableStore, "'\(path)' is a URI; a Core Data store is opened by its path",
                                hint: SQLiteFilePath.file(of: path).map { "use --store \($0)" })
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw CoreDataError(.unreadableStore, "no file at '\(path)'")
        }
        let kind: SQLiteFileKind
        do { kind = try SQLiteFileInspection.kind(of: path) } catch {
            throw CoreDataError(.unreadableStore, "'\(path)' cannot be read as SQLite: \(error)",
                                hint: "the file may be damaged, or encrypted (SQLCipher, encrypted-core-data); nothing was written")
        }
        switch kind {
        case .coreData: return
        case .notSQLite, .special:
            throw CoreDataError(.unreadableStore, "'\(path)' is not a SQLite database",
                                hint: "it may be encrypted (SQLCipher, encrypted-core-data) or damaged; nothing was written")
        case .quarry:
            throw CoreDataError(.notCoreData, "'\(path)' is a Quarry store, not a Core Data store", hint: "open it with SQLStore(path:model:)")
        case .empty, .other:
            throw CoreDataError(.notCoreData, "'\(path)' is not a Core Data store (no Z_PRIMARYKEY and Z_METADATA tables)")
        }
    }

    /// A read-only connection on the store (or on a private checkpointed
    /// copy, whose path is returned to be removed).
    static func connect(_ path: String) throws -> (SQLiteConnection, String?) {
        let wal = path + "-wal"
        let walSize = ((try? FileManager.default.attributesOfItem(atPath: wal))?[.size] as? NSNumber)?.intValue ?? 0
        let readOnly = SQLiteConnection.Options(readOnly: true, create: false)
        if walSize == 0 {
            return (try SQLiteConnection(path: "file:\(SQLiteFilePath.uriPath(path))?immutable=1", options: readOnly), nil)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-coredata-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        do {
            let copy = folder + "/store.sqlite"
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            try FileManager.default.copyItem(atPath: wal, toPath: copy + "-wal")
            for file in [copy, copy + "-wal"] { try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file) }
            let writer = try SQLiteConnection(path: copy, options: .init(create: false))
            try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            try writer.execute("PRAGMA journal_mode = DELETE")
            writer.close()
            return (try SQLiteConnection(path: "file:\(SQLiteFilePath.uriPath(copy))?immutable=1", options: readOnly), folder)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw CoreDataError(.unreadableStore, "cannot read the rows still in '\(wal)' through a private copy: \(error)",
                                hint: "the store or its -wal may be damaged; nothing was written")
        }
    }

    /// The store itself, opened for writing as SQLite opens any file (not
    /// created, its journal mode kept), its `-wal` kept (emptied) on close
    /// as Core Data keeps it.
    static func connectWritable(_ path: String) throws -> SQLiteConnection {
        var options = SQLiteConnection.Options(create: false)
        options.switchesToWAL = false
        options.persistsWAL = true
        do { return try SQLiteConnection(path: path, options: options) } catch {
            throw CoreDataError(.unreadableStore, "cannot open '\(path)' for writing: \(error)",
                                hint: "check that the file and its folder are writable and that no app holds it open; nothing was written")
        }
    }

    /// What writing needs of the store, checked before anything is set up:
    /// a `Z_OPT` column in every entity table, and no view whose name the
    /// triggers' unqualified table names could mean instead (SQLite allows
    /// no `main.` inside a trigger).
    private static func checkWritable(_ views: CoreDataViews, schema: CoreDataSchema, connection: SQLiteConnection) throws {
        var problems: [String] = []
        for h in views.hierarchies where schema.table(h.cdTable)?.columns["Z_OPT"] == nil {
            problems.append("\(h.cdTable) has no Z_OPT column")
        }
        let viewNames = views.hierarchies.map(\.name) + views.joins.map(\.name) + [CoreDataViews.writesTable]
        for name in viewNames where schema.table(name) != nil {
            problems.append("the store has a table \(name), the name Quarry's view of it takes")
        }
        if case .string(let encoding)? = try connection.query("PRAGMA encoding").first?.first, encoding != "UTF-8" {
            problems.append("the store's text encoding is \(encoding), not UTF-8")
        }
        guard problems.isEmpty else {
            throw CoreDataError(.notWritable, "'\(connection.path)' cannot be opened writable: " + problems.joined(separator: "; "),
                                hint: "open it read-only (without --writable); nothing was written")
        }
    }

    static func cachedModel(_ connection: SQLiteConnection, path: String,
                                    schema: CoreDataSchema) throws -> (model: Model, renames: RenamingIdentifiers) {
        let noModel = CoreDataError(.noModel, "'\(path)' carries no cached model (Core Data before framework version 637 did not keep one)",
                                    hint: "give the app's model with --model App.xcdatamodeld (or SQLStore(coreDataStore:model:))")
        guard schema.table("Z_MODELCACHE") != nil else { throw noModel }
        guard let row = try connection.query("SELECT Z_CONTENT FROM main.Z_MODELCACHE LIMIT 1").first,
              case .data(let blob) = row[0] else { throw noModel }
        return try CachedModelReader.readWithRenames(blob)
    }
}

extension SQLStore {
    /// Opens an app's Core Data store read-only (CoreDataStore.open): with
    /// `model`, or with the model cached in the store.
    public convenience init(coreDataStore path: String, model: Model? = nil) throws {
        let opened = try CoreDataStore.open(path: path, model: model)
        self.init(readOnlyDatabase: opened.store.database, model: opened.store.model, reason: CoreDataStore.readOnlyReason, orderColumns: true)
    }

    /// Opens an app's Core Data store, writable when `writable`: saves and
    /// batch requests then write its Z-tables as Core Data would
    /// (CoreDataViews+Writing.swift).
    ///
    /// ```swift
    /// let store = try SQLStore(coreDataStore: "App.sqlite", model: nil, writable: true)
    /// try store.batchUpdate(entity: "Item", predicate: nil, set: [("done", try Parser.parseExpression("YES"))])
    /// ```
    public convenience init(coreDataStore path: String, model: Model?, writable: Bool) throws {
        guard writable else { try self.init(coreDataStore: path, model: model); return }
        let opened = try CoreDataStore.open(path: path, model: model, writable: true)
        self.init(foreignLayoutDatabase: opened.store.database, model: opened.store.model,
                  bookkeepingRefusal: CoreDataStore.bookkeepingRefusal, orderColumns: true, orderSpacing: .coreData)
    }
}

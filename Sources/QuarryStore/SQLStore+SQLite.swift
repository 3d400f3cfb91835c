// The store's SQLite side: opening a Quarry SQLite file by its path, reading
// the model saved in one, and the store's SQLite connection for the few
// callers that need SQLite itself (the default store's image, the fixture
// writer, tests). Everything else reaches the database only as an
// `SQLDatabase` (DriverVocabularyGuardTests lists the files allowed to name
// SQLite's types).
import Foundation
import QuarryModel
import QuarrySQLite

extension SQLStore {
    /// The SQLite connection of a SQLite store (tests, the fixture writer and
    /// the shell's SQLite-only commands use it); nil on other databases.
    public var sqlite: SQLiteConnection? { database as? SQLiteConnection }

    /// The SQLite connection; only for stores known to be SQLite (tests, the
    /// fixture writer, the shell's default store). Not public: a caller
    /// outside the package asks `sqlite`, which says when there is none.
    package var connection: SQLiteConnection {
        guard let sqlite else { preconditionFailure("\(database.location) is not a SQLite store") }
        return sqlite
    }

    /// Opens (or creates) the store at `path` (`:memory:` for a private
    /// in-memory database), creating the schema when the file is new. The
    /// model is kept in the store, so `SQLStore.storedModel(at:)` reopens it
    /// without the model file: when `modelFile` names the single file the
    /// model was read from (YAML, JSON or a Core Data `contents` XML), its
    /// text; otherwise the model written out as JSON.
    ///
    /// A file that holds tables but is not a Quarry store (a Core Data
    /// store, any other SQLite database) is refused with
    /// `StoreError.foreignDatabase` before anything is written to it
    /// (SQLiteFileInspection.swift).
    ///
    /// A store made with an earlier version of the model is migrated in
    /// place when `migration` is `.automatic` (Migration.swift); with
    /// `.none` (the default: nothing is changed behind the caller's back) it
    /// is refused with `StoreError.migrationNeeded`, which lists the changes.
    ///
    /// `layout`: the names a new store is created with (an export copies
    /// its source's, StoreExport.swift); an existing store keeps its own.
    /// `busyTimeout`: seconds a write waits for another connection's lock
    /// (default: the connection's, 5).
    public convenience init(path: String, model: Model, modelFile: String? = nil, migration: MigrationPolicy = .none,
                            layout: StoreLayoutRecord? = nil, busyTimeout: Double? = nil) throws {
        // Before SQLite touches the path: a FIFO would block the open, and a
        // name the databases refuse would leave a stub file behind.
        try StorePathCheck.check(path)
        try model.validateStorageNames()
        if let refusal = try SQLiteFileInspection.kind(of: path).refusal(path: path) { throw refusal }
        let connection = path == ":memory:" ? try SQLiteConnection.inMemory() : try SQLiteConnection(path: path)
        if let busyTimeout { connection.busyTimeout = busyTimeout }
        try self.init(database: connection, model: model, modelFile: modelFile, migration: migration, layout: layout)
        stampApplicationID()
    }

    /// Marks the file as Quarry's in its header (SQLiteFileInspection.swift),
    /// once: a store created before the stamp gets it at its next writable
    /// open; a read-only file stays as it is.
    private func stampApplicationID() {
        guard let sqlite, !sqlite.options.readOnly, sqlite.path != ":memory:",
              let rows = try? database.rows("PRAGMA application_id"),
              rows.first?.first != Value.int(Int64(SQLiteFileInspection.applicationID)) else { return }
        _ = try? sqlite.run("PRAGMA application_id = \(SQLiteFileInspection.applicationID)", [])
    }

    /// The model saved in a SQLite store Quarry created, or nil when the file
    /// holds none (or is not a Quarry store). Errors: the file is not
    /// SQLite, or the saved model no longer reads.
    public static func storedModel(at path: String) throws -> Model? {
        guard let file = SQLiteFilePath.file(of: path), FileManager.default.fileExists(atPath: file) else { return nil }
        try StorePathCheck.check(path)
        // Not even a read-only open (which may write a `-shm`) of a file that is not Quarry's.
        let kind = try SQLiteFileInspection.kind(of: path)
        if let refusal = kind.refusal(path: path) { throw refusal }
        if kind == .empty { return nil }
        let connection = try SQLiteConnection(path: path, options: .init(readOnly: true, create: false))
        defer { connection.close() }
        return try storedModel(in: connection)
    }

    /// The database of the SQLite file at `path`, opened as a store opens
    /// it, for work on the database before a store is made on it (`quarry
    /// migrate`).
    public static func sqliteDatabase(at path: String) throws -> any SQLDatabase {
        try SQLiteConnection(path: path)
    }
}

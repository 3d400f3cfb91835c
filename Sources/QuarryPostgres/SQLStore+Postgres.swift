// Opening a store in a PostgreSQL schema: the same `SQLStore` as on SQLite,
// over a `PostgresDatabase`. A new schema gets Quarry's SQL functions (the
// string operators, folding exactly as the evaluator folds) and the model's
// tables in one transaction; an existing one is checked against the model
// (a different model is an error, nothing changed) and its functions are
// brought up to date. Also here: what the store protocol asks of a
// PostgreSQL connection beyond the driver itself.
import QuarryStore

extension SQLStore {
    /// Opens (creating when new) the store in the database and schema `url`
    /// names (`postgres://user@host:port/db?schema=app`).
    ///
    /// ```swift
    /// let store = try SQLStore(postgres: "postgres://postgres@127.0.0.1:5432/postgres?schema=company", model: model)
    /// ```
    ///
    /// `layout`: the names a new store is created with (an export copies
    /// its source's); an existing store keeps its own (SQLStore+Layout.swift).
    public convenience init(postgres url: String, model: Model, modelFile: String? = nil,
                            options: PostgresDatabase.Options = PostgresDatabase.Options(), migration: MigrationPolicy = .none,
                            layout: StoreLayoutRecord? = nil) throws {
        try self.init(postgres: try PostgresDatabase(url: url, options: options), model: model, modelFile: modelFile, migration: migration, layout: layout)
    }

    /// Opens the store on a connection already made.
    public convenience init(postgres database: PostgresDatabase, model: Model, modelFile: String? = nil, migration: MigrationPolicy = .none,
                            layout: StoreLayoutRecord? = nil) throws {
        // One opener at a time per database: PostgreSQL refuses concurrent
        // CREATE OR REPLACE of one function ("tuple concurrently updated"),
        // and two clients creating the same new schema would collide.
        try database.run("SELECT pg_advisory_lock(?)", [.int(Self.openLock)])
        defer { _ = try? database.run("SELECT pg_advisory_unlock(?)", [.int(Self.openLock)]) }
        let version = PostgresFunctions.version
        let exists = try database.tableNames().contains(StoreMapping.metadataTable)
        let installed = exists ? try Self.metadata("functions", in: database) : nil
        if exists && installed != version {
            // An older store gets this build's functions (folding tables).
            try database.inTransaction {
                for statement in PostgresFunctions.installStatements { try database.run(statement, []) }
            }
        }
        try self.init(database: database, model: model, modelFile: modelFile, setUp: PostgresFunctions.installStatements, migration: migration,
                      layout: layout)
        if installed != version {
            try database.run("INSERT INTO \(StoreMapping.quotedMetadataTable) VALUES ('functions', ?) ON CONFLICT (\"key\") DO UPDATE SET \"value\" = EXCLUDED.\"value\"",
                             [.string(version)])
        }
    }

    /// The advisory lock key store openers take ("quarry" in ASCII).
    static var openLock: Int64 { 0x71_7561_7272_79 }

    static func metadata(_ key: String, in database: any SQLDatabase) throws -> String? {
        let rows = try database.rows(StoreMapping.metadataValueQuery, [.string(key)], as: [.string])
        if case .string(let s)? = rows.first?.first { return s }
        return nil
    }

    /// The model saved in the PostgreSQL store `url` names, or nil when the
    /// schema holds no Quarry store (or no saved model).
    public static func storedModel(postgres url: String) throws -> Model? {
        var options = PostgresDatabase.Options()
        options.createSchema = false
        let database = try PostgresDatabase(url: url, options: options)
        defer { database.close() }
        return try storedModel(in: database)
    }
}

extension PostgresDatabase {
    public var interrupter: @Sendable () -> Void { { [self] in self.interrupt() } }

    /// Moves the identity sequence of `table` past its largest key (the
    /// table name reaches the server as a bound value, quoted for
    /// `pg_get_serial_sequence`, never as SQL text).
    public func restartKeys(after table: String) throws {
        let quoted = SQLIdentifier.quoted(table)
        _ = try query("SELECT setval(pg_get_serial_sequence(?, ?), (SELECT COALESCE(MAX(\(StoreMapping.quotedPrimaryKey)), 0) + 1 FROM \(quoted)), false)",
                      [.string(quoted), .string(StoreMapping.primaryKey)], as: [.automatic])
    }
}

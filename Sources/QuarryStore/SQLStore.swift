// A store of objects for one model in a SQL database — a SQLite file (the
// embedded default) or a PostgreSQL schema (QuarryPostgres opens those): the
// schema created from the model on first open, objects inserted with their
// relationships, fetches and counts planned by QuarrySQL for the database's
// dialect. Every write runs in a transaction, so a failed insert changes
// nothing. A fetch may run on either engine: `.sql` lowers the predicate to
// SQL (with a residual in memory for what SQL cannot say); `.memory` loads
// every object of the entity and evaluates the predicate in memory. Both must
// give the same objects — the differential tests check exactly that, on
// every database.
import Foundation

/// Where a fetch's predicate runs.
public enum FetchEngine: String, Sendable, CaseIterable {
    case sql, memory
}

/// A store for one model over a SQL database.
///
/// ```swift
/// let store = try SQLStore(path: ":memory:", model: model)
/// let sales = try store.insert("Department", ["name": .string("Sales")])
/// try store.insert("Employee", ["name": .string("Zoë"), "salary": .int(60_000)], toOne: ["department": sales])
/// let rich = try store.fetch(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary > 50000")))
/// ```
public final class SQLStore {
    public let model: Model
    public let mapping: StoreMapping
    /// The connection every statement of this store runs on.
    public let database: any SQLDatabase
    /// The clock `now()` reads in lowered predicates (seconds since 2001).
    public var now: @Sendable () -> Double = { Date().timeIntervalSinceReferenceDate }
    /// Whether fetches that load every row they select may sort the rows
    /// in memory, in SQLite's exact order, when the sort keys allow it
    /// (MemorySorter.swift); off, SQLite always sorts. Faster on, the same
    /// result either way: tests turn it off to compare.
    public var sortsInMemory = true
    /// Uniquing: one object per row while the store is open.
    var registeredObjects = ObjectRegistry<StoredObject>()
    /// Why this store refuses every write (a Core Data store opened
    /// read-only, QuarryCoreData), or nil for a writable store. Every write
    /// entry point checks it before touching the database (`checkWritable`).
    public let readOnlyReason: String?
    /// Why this store keeps no bookkeeping of Quarry's in its database (a
    /// Core Data store opened writable: its file holds Core Data's tables
    /// only), or nil. Features that would need such tables (persistent
    /// history) are refused with it (SQLStore+ForeignLayout.swift).
    public let bookkeepingRefusal: String?
    /// The files of long values of binary attributes that allow external
    /// storage; nil when they stay inline (ExternalBinaryStorage.swift).
    let externalStorage: ExternalBinaryStorage?
    /// Whether writes record persistent history, and who is writing (SQLStore+History.swift).
    let historyState = HistoryState()

    /// Opens a store on an open database: creates the schema (and, on
    /// PostgreSQL, Quarry's SQL functions) in one transaction when the
    /// database has none, or checks that the existing tables are this
    /// model's (`StoreError.schemaMismatch` otherwise, nothing changed).
    ///
    /// The names of tables and columns come from the layout saved in the
    /// store (SQLStore+Layout.swift); a new store derives them from the
    /// model, or takes `layout` (an export copies its source's) for what it holds.
    public init(database: any SQLDatabase, model: Model, modelFile: String? = nil,
                setUp: [String] = [], migration: MigrationPolicy = .none, layout: StoreLayoutRecord? = nil) throws {
        self.model = model
        self.database = database
        self.readOnlyReason = nil
        self.bookkeepingRefusal = nil
        if let error = model.derivationError() { throw error }
        let tables = try database.tableNames()
        let isNew = !tables.contains(StoreMapping.metadataTable)
        // Never Quarry's tables beside another program's in a SQLite file
        // (SQLiteFileInspection.swift looks before the open; a file stamped
        // as Quarry's is taken at its word there, and checked here).
        if isNew, database.dialect == .sqlite, let refusal = SQLiteFileInspection.classify(tables).refusal(path: database.location) {
            throw refusal
        }
        var stored: StoreLayoutRecord?
        var migrated: Migration?
        // Every metadata row, read once for the whole open (StoreMetadataRows.swift).
        var metadata = StoreMetadataRows()
        if !isNew {
            metadata = try StoreMetadataRows.readExisting(in: database)
            // A store made with an earlier version of this model: migrated
            // or refused before anything reads it (SQLStore+Migration.swift);
            // a migration saves the layout it migrated to, and has its mapping.
            migrated = try SQLStore.migrateIfNeeded(database, to: model, modelFile: modelFile, policy: migration, metadata: &metadata)
            stored = try migrated?.newLayout ?? SQLStore.storedLayout(from: metadata, location: database.location)
        }
        self.mapping = migrated?.newMapping ?? StoreMapping(model: model, dialect: database.dialect, layout: isNew ? layout : stored)
        self.externalStorage = ExternalBinaryStorage.make(for: database, mapping: mapping)
        try checkDerivations()   // SQLStore+Derived.swift
        // Transformers the model names that nobody registered keep the
        // stored bytes; writing other values names them (StoreValues+Transformable.swift).
        ValueTransformerRegistry.shared.registerOpaqueTransformers(missingFrom: model)
        if isNew {
            try database.inTransaction {
                for statement in setUp { try database.run(statement, []) }
                for statement in SchemaBuilder.createStatements(for: mapping) { try database.run(statement, []) }
                try database.run("CREATE TABLE \(StoreMapping.quotedMetadataTable) (\"key\" TEXT PRIMARY KEY, \"value\" TEXT)", [])
                try StoreMetadataRows.write([("format", "quarry-1"), ("entities", model.entityNames.joined(separator: ","))]
                                            + modelRows(modelFile: modelFile)
                                            + [(StoreLayoutRecord.metadataKey, mapping.layoutRecord.json)], in: database)   // SQLStore+Layout.swift
            }
        } else {
            // The tables read above, unless a migration has changed them since.
            try checkSchema(existing: Set(migrated == nil ? tables : try database.tableNames()), savedEntities: metadata["entities"],
                            keepsLayout: stored != nil)
            // One read of every table's columns for the three checks.
            let columns = try SQLStore.columnsByTable(in: database)   // SQLStore+Layout.swift
            try checkLayout(columns)
            try addMissingOrderColumns(columns)   // SQLStore+Ordered.swift
            try addMissingVersionColumns(columns)   // SQLStore+Versions.swift
            try openHistory(saved: metadata["history"])   // SQLStore+History.swift
            // A store made before stores carried their model (or by an older
            // Quarry) gets this one, now that its tables are known to match.
            // A read-only file still opens: it just stays without one.
            if metadata["model"] == nil { try? database.inTransaction { try StoreMetadataRows.write(modelRows(modelFile: modelFile), in: database) } }
            // Likewise its layout, derived once the way it always was (SQLStore+Layout.swift).
            if stored == nil { try? database.inTransaction { try SQLStore.saveLayout(mapping.layoutRecord, in: database) } }
        }
        // A flag removed while rows name files is refused; the files a crashed
        // writer left that no row names go (ExternalBinaryStorage.swift).
        try ExternalBinaryStorage.checkFileNamesOutsideFlagged(database, mapping: mapping)
        externalStorage?.noteDroppedNames(on: database)   // ExternalBinaryStorage+Sweep.swift
        _ = try? externalStorage?.sweep(database)
    }

    /// A read-only store over a database that already presents this model's
    /// tables in Quarry's layout (views over another layout, such as a Core
    /// Data store's Z-tables): no schema is created, checked or saved, and
    /// every write is refused with `StoreError.readOnly(reason)`.
    /// `orderColumns`: whether the views present the order columns of
    /// ordered to-manys stored through a to-one inverse (Core Data's
    /// `Z_FOK_` columns do); without them those read in key order.
    public init(readOnlyDatabase database: any SQLDatabase, model: Model, reason: String, orderColumns: Bool = false) {
        self.model = model
        // An app's own transformers read as bytes (StoreValues+Transformable.swift).
        ValueTransformerRegistry.shared.registerOpaqueTransformers(missingFrom: model)
        // Views over another layout have no version column (StoreMapping+Versions.swift).
        var mapping = StoreMapping(model: model, dialect: database.dialect, storesVersions: false)
        mapping.storesOrderColumns = orderColumns   // StoreMapping+Ordered.swift
        self.mapping = mapping
        self.database = database
        self.readOnlyReason = reason
        self.bookkeepingRefusal = nil
        self.externalStorage = nil
    }

    /// A writable store over a database that presents this model's tables
    /// in Quarry's layout through views that write another layout (a Core
    /// Data store's Z-tables, through INSTEAD OF triggers): no schema is
    /// created, checked or saved, the views carry the row version, values
    /// stay inline (no external files), and what would need Quarry's own
    /// tables in the database is refused with `bookkeepingRefusal`.
    /// `orderSpacing`: the values the other layout gives the members of an
    /// ordered to-many (`.coreData`: 2048, 3072, …), which every write of
    /// an order then uses (StoreMapping+Ordered.swift).
    public init(foreignLayoutDatabase database: any SQLDatabase, model: Model, bookkeepingRefusal: String, orderColumns: Bool = false,
                orderSpacing: StoreMapping.OrderSpacing = .quarry) {
        self.model = model
        ValueTransformerRegistry.shared.registerOpaqueTransformers(missingFrom: model)
        var mapping = StoreMapping(model: model, dialect: database.dialect, storesVersions: true)
        mapping.storesOrderColumns = orderColumns
        mapping.orderSpacing = orderSpacing
        self.mapping = mapping
        self.database = database
        self.readOnlyReason = nil
        self.bookkeepingRefusal = bookkeepingRefusal
        self.externalStorage = nil
    }

    /// Throws `StoreError.readOnly` on a read-only store: called by every
    /// write entry point before it runs anything.
    public func checkWritable() throws {
        if let readOnlyReason { throw StoreError.readOnly(location: database.location, reason: readOnlyReason) }
    }

    /// The metadata rows that keep the model in the store, so that it
    /// reopens with its path alone: the model file's own text when it is a
    /// single file (comments and all), else the model written out as
    /// Quarry's JSON format (ModelArchive.swift) — a Core Data bundle, or a
    /// model made in code.
    private func modelRows(modelFile: String?) -> [(key: String, value: String)] {
        SQLStore.modelRows(modelFile.flatMap(SQLStore.modelSource) ?? (ModelArchive.json(model), "json"))
    }

    /// The `model` and `model_format` rows for a model's saved text.
    static func modelRows(_ source: (text: String, format: String)) -> [(key: String, value: String)] {
        [("model", source.text), ("model_format", source.format)]
    }

    /// An existing store must hold this model's tables: a different model
    /// would read and write the wrong columns. The entities must be the
    /// saved ones in the saved order when the names are derived from the
    /// model (the order decides some of them); a store that keeps its
    /// layout (`keepsLayout`) has the same names in any order.
    /// `saved`: the store's `entities` row.
    private func checkSchema(existing: Set<String>, savedEntities saved: String?, keepsLayout: Bool) throws {
        let missing = mapping.tableNames.filter { !existing.contains($0) }
        let expected = model.entityNames.joined(separator: ",")
        let differs = keepsLayout ? saved.map { Set($0.split(separator: ",").map(String.init)) != Set(model.entityNames) } ?? false
                                  : saved != nil && saved != expected
        if !missing.isEmpty || differs {
            throw StoreError.schemaMismatch(location: database.location, missingTables: missing,
                                            storedEntities: saved.map { $0.split(separator: ",").map(String.init) } ?? [],
                                            modelEntities: model.entityNames)
        }
    }

    /// The text and format of a single-file model (nil for a bundle directory).
    static func modelSource(_ path: String) -> (text: String, format: String)? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let lower = path.lowercased()
        let format = lower.hasSuffix(".json") ? "json" : (lower.hasSuffix(".yaml") || lower.hasSuffix(".yml")) ? "yaml" : "xml"
        return (text, format)
    }

    /// The model saved in the store on `database`, or nil.
    public static func storedModel(in database: any SQLDatabase) throws -> Model? {
        try storedModel(from: StoreMetadataRows.read(in: database), location: database.location)
    }

    /// The model saved in metadata rows read from the store at `location`.
    static func storedModel(from fields: StoreMetadataRows, location: String) throws -> Model? {
        guard let text = fields["model"] else { return nil }
        let file = location + " (saved model)"
        switch fields["model_format"] {
        case "json": return try ModelReader.read(savedJSON: text, file: file)
        case "yaml": return try ModelReader.read(yaml: text, file: file)
        default: return try ModelReader.read(xml: text, file: file)
        }
    }

    deinit {
        // Not left to the registry's own destruction: emptying it tells each
        // object, which breaks the cycles between related objects
        // (ObjectRegistry.swift). Objects a caller still holds outlive the
        // store; reading a relationship they have not loaded is then an error
        // (their store reference is unowned), as for a managed object whose
        // context is gone.
        registeredObjects.removeAll()
    }

    /// Forgets every object handed out so far; later fetches read rows anew.
    public func forgetObjects() { registeredObjects.removeAll() }

    // MARK: - Inserting

    /// Inserts an object with attribute values and to-one relationships;
    /// returns its permanent ID. Unknown keys and values of the wrong type are
    /// errors; nothing is written when one is raised.
    @discardableResult
    public func insert(_ entityName: String, _ values: [String: Value], toOne: [String: ObjectID] = [:]) throws -> ObjectID {
        try checkWritable()
        // Files are written under the write lock, and swept after it (ExternalBinaryStorage.swift).
        if externalStorage != nil && !database.isInTransaction {
            defer { finishExternalWrites() }
            return try database.inTransaction { try insert(entityName, values, toOne: toOne) }
        }
        let (entity, table) = try insertableEntity(entityName)
        try refuseDerived(values.keys, entity: entityName)   // SQLStore+Derived.swift
        var columns = [SQLIdentifier.quoted(StoreMapping.entityColumn)]
        var arguments: [Value] = [.string(entityName)]
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            if entity.attribute(named: key, in: model)?.isTransient == true { throw StoreError.transientAttribute(key: key, entity: entityName) }
            guard let attribute = entity.attribute(named: key, in: model), let column = mapping.column(for: key, of: entityName) else {
                throw StoreError.unknownKey(key, entity: entityName,
                                            suggestion: Suggestions.closest(to: key, among: entity.allProperties(in: model).map(\.name)))
            }
            columns.append(SQLIdentifier.quoted(column))
            arguments.append(try storable(value, for: attribute, entity: entityName))
        }
        for attribute in entity.allAttributes(in: model) where values[attribute.name] == nil && !attribute.isTransient {
            if let d = attribute.defaultValue, let column = mapping.column(for: attribute.name, of: entityName) {
                columns.append(SQLIdentifier.quoted(column))
                arguments.append(try storable(d, for: attribute, entity: entityName))
            }
        }
        var pending: [(Relationship, ObjectID)] = []
        for (key, target) in toOne.sorted(by: { $0.key < $1.key }) {
            guard let r = entity.relationship(named: key, in: model), !r.isToMany else {
                throw StoreError.unknownKey(key, entity: entityName, suggestion: nil)
            }
            if case .foreignKey(let column)? = mapping.storage(of: key, of: entityName) {
                columns.append(SQLIdentifier.quoted(column))
                arguments.append(.int(target.primaryKey))
            } else {
                pending.append((r, target))
            }
        }
        let sql = "INSERT INTO \(SQLIdentifier.quoted(table)) (\(columns.joined(separator: ", "))) VALUES (\(arguments.map { _ in "?" }.joined(separator: ", ")))"
        return try database.inTransaction {
            let id = ObjectID(entity: entityName, primaryKey: try database.insertReturningKey(sql, arguments))
            for (r, target) in pending { try link(id, r, target) }
            for (key, target) in toOne { if let r = entity.relationship(named: key, in: model) { try placeLast(id, r, target) } }   // SQLStore+Ordered.swift
            try recomputeDerivedAfterBatch(entities: Set([entityName] + toOne.values.map(\.entity)), deleted: false, ownRows: [id.primaryKey])
            try noteStoreWrite(inserted: id, links: toOne)   // SQLStore+History.swift
            return id
        }
    }

    /// Adds `target` to a relationship of `source` (to-many, or a to-one kept
    /// on the other side).
    public func link(_ source: ObjectID, _ relationship: String, _ target: ObjectID) throws {
        guard let r = model.entity(named: source.entity)?.relationship(named: relationship, in: model) else {
            throw StoreError.unknownKey(relationship, entity: source.entity, suggestion: nil)
        }
        try checkWritable()
        try database.inTransaction {
            try link(source, r, target)
            try recomputeDerivedAfterBatch(entities: [source.entity, target.entity], deleted: false)
            try noteStoreWrite(link: source, r, target)   // SQLStore+History.swift
        }
    }

    private func link(_ source: ObjectID, _ r: Relationship, _ target: ObjectID) throws {
        switch mapping.storage(of: r.name, of: source.entity) {
        case .foreignKey(let column)?:
            try database.run(StoreMapping.updateRow(table: mapping.table(for: source.entity)!, set: "\(SQLIdentifier.quoted(column)) = ?" + mapping.versionIncrementSuffix()),
                                   [.int(target.primaryKey), .int(source.primaryKey)])
        case .inverseForeignKey(let column)?:
            try database.run(StoreMapping.updateRow(table: mapping.table(for: r.destination)!, set: "\(SQLIdentifier.quoted(column)) = ?" + mapping.versionIncrementSuffix()),
                                   [.int(source.primaryKey), .int(target.primaryKey)])
        case .joinTable(let table, let sourceColumn, let targetColumn)?:
            // INSERT OR IGNORE on SQLite: an upsert clause is refused on a
            // view (a Core Data store's join tables, CoreDataViews+Writing.swift).
            try database.run(database.insertIgnoring(into: SQLIdentifier.quoted(table), "(\(SQLIdentifier.quoted(sourceColumn)), \(SQLIdentifier.quoted(targetColumn))) VALUES (?, ?)"),
                                   [.int(source.primaryKey), .int(target.primaryKey)])
        case nil:
            throw StoreError.unknownKey(r.name, entity: source.entity, suggestion: nil)
        }
        try placeLast(source, r, target)   // SQLStore+Ordered.swift
    }
}

/// Errors of the store itself (the database's are its driver's, classified
/// through `SQLDatabase`; the language's are `Diagnostic`s).
public enum StoreError: Error, Equatable, CustomStringConvertible {
    case unknownEntity(String, suggestion: String?)
    /// An insert of an abstract entity; `concrete` are the sub-entities
    /// that can be inserted (Entity+Hierarchy.swift).
    case abstractEntity(String, concrete: [String])
    /// A value for a transient attribute given to a store write: it has no
    /// column (it lives in a context's objects only).
    case transientAttribute(key: String, entity: String)
    case unknownKey(String, entity: String, suggestion: String?)
    case typeMismatch(key: String, entity: String, expected: String, got: String)
    case deleteDenied(entity: String, relationship: String, related: Int)
    case missingValue(key: String, entity: String)
    case schemaMismatch(location: String, missingTables: [String], storedEntities: [String], modelEntities: [String])
    /// A store whose tables and columns are not those its saved layout
    /// names (changed outside Quarry), or whose saved layout does not read:
    /// refused before anything reads, nothing changed (SQLStore+Layout.swift).
    case layoutMismatch(location: String, problem: String)
    /// A SQLite file with tables of its own that Quarry did not create:
    /// never written to.
    case foreignDatabase(path: String, coreData: Bool, tables: [String])
    /// An integer outside its attribute type's range (`integer16`: −32768…32767).
    case outOfRange(key: String, entity: String, value: Value, type: String, range: String)
    /// A write to a store opened read-only (a Core Data store): refused
    /// before anything ran.
    case readOnly(location: String, reason: String)
    /// A store made with an earlier version of the model, opened without
    /// migration: nothing was changed.
    case migrationNeeded(location: String, changes: [String])
    /// A batch insert asked to merge collisions on a uniqueness constraint
    /// where its one statement could not do it exactly
    /// (SQLStore+BatchUpsert.swift): refused before anything ran.
    case upsertRefused(entity: String, reason: String)

    public var description: String {
        switch self {
        case .unknownEntity(let e, let s): return "unknown entity '\(e)'" + (s.map { "; did you mean '\($0)'?" } ?? "")
        case .abstractEntity(let e, let concrete): return Entity.abstractRefusal(e, concrete: concrete)
        case .transientAttribute(let k, let e):
            return "\(e).\(k) is transient: it is kept only in a context's objects and the store has nowhere to write it; nothing was written"
        case .unknownKey(let k, let e, let s): return "\(e) has no attribute or relationship '\(k)'" + (s.map { "; did you mean '\($0)'?" } ?? "")
        case .typeMismatch(let k, let e, let expected, let got): return "\(e).\(k) holds \(expected), not \(got)"
        case .missingValue(let k, let e): return "\(e).\(k) is required and has no default"
        case .outOfRange(let k, let e, let v, let type, let range):
            return "\(e).\(k) is an \(type) (\(range)); \(Printer.format(v)) does not fit, nothing was written"
        case .schemaMismatch(let location, let missing, let stored, let entities):
            var text = "the store at \(location) was not made for this model"
            if !missing.isEmpty { text += "; it has no table for \(missing.joined(separator: ", "))" }
            if !stored.isEmpty && stored != entities {
                text += "; it holds \(stored.joined(separator: ", ")) where the model has \(entities.joined(separator: ", "))"
            }
            return text + "; open it with its own model, or use a new store"
        case .layoutMismatch(let location, let problem):
            return "the store at \(location) does not match its saved layout: \(problem); was it changed outside Quarry? Nothing was changed"
        case .foreignDatabase(let path, let coreData, let tables):
            let shown = tables.prefix(6).joined(separator: ", ") + (tables.count > 6 ? ", …" : "")
            if coreData {
                return "'\(path)' is a Core Data store (tables \(shown)), not a Quarry store; open it read-only with QuarryCoreData (`quarry --store` does): Quarry never writes to a file it did not create, and nothing was changed"
            }
            return "'\(path)' is a SQLite database Quarry did not create (tables \(shown)); Quarry never writes to such a file: nothing was changed. Use a new path for a Quarry store"
        case .migrationNeeded(let location, let changes):
            return "the store at \(location) was not made for this model but for an earlier version of it; it needs a migration:\n"
                + changes.map { "  " + $0 + "\n" }.joined()
                + "nothing was changed; migrate it with `quarry migrate --store PATH --model MODEL` (or open it with `--migrate`, or `SQLStore(…, migration: .automatic)`)"
        case .readOnly(let location, let reason):
            return "the store at \(location) was opened read-only (\(reason)); nothing was written"
        case .upsertRefused(let e, let reason):
            return "a batch insert of \(e) cannot merge rows that collide on a uniqueness constraint: \(reason); nothing was written. Insert through a context with the same merge policy instead"
        case .deleteDenied(let e, let r, let n):
            return "cannot delete: \(e).\(r) has the Deny rule and \(n) related object\(n == 1 ? "" : "s") would be left behind; nothing was deleted"
        }
    }
}

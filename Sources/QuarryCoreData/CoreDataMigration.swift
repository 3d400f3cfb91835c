// Migrating a Core Data store to a newer version of its model — Core Data's
// lightweight migration, done by Quarry on Linux: `quarry migrate --store
// App.sqlite --model App.xcdatamodeld [--dry-run]`.
//
// What the store becomes: exactly the store Core Data would create for the
// new model (CoreDataStoreLayout: entity numbers by name, tables, columns,
// join tables, indexes), holding the old rows — every object keeps its
// `Z_PK` and `Z_OPT`, so object IDs stay valid; `Z_ENT` values, the `Z<n>_`
// entity-number columns and join tables follow the new numbering (adding an
// entity renumbers those after it, COREDATA-STORES.md §4); `Z_PRIMARYKEY`
// lists the new entities with each hierarchy's `Z_MAX` kept; the metadata
// keeps every key but the model's version hashes (and their digest and
// checksum) and version identifiers, which become the new model's, so Core
// Data opens the store with the new model without migrating again. The
// cached model (`Z_MODELCACHE`) is emptied: it would describe the old model.
//
// How: planned on the read path's connection (immutable, or a private copy),
// so a refusal or a dry run leaves the store, its -wal and -shm
// byte-identical; then run in ONE SQLite transaction on the store itself
// (`BEGIN IMMEDIATE`, the plan made again under the lock, so no writer slips
// in between plan and run): in place where the change allows it (columns
// added, renamed, dropped; CoreDataMigration+InPlace.swift), else the old
// tables renamed aside, the new ones created, the rows copied with
// `INSERT … SELECT` (CoreDataMigration+Copy.swift), the old tables dropped,
// the indexes made. Any failure (a uniqueness constraint the rows break, a
// database error, a kill) rolls back: the store stays what it was, as
// SQLite's journal guarantees.
//
// Which changes: those ModelDifference finds inferable, as for Quarry's own
// stores, minus what this copy does not do yet — refused with the reason:
// a relationship changing kind (to-one ↔ to-many, or between a foreign key
// and a join table), destination or order; an attribute changing storage
// other than integer → floating point. Refused too, before anything runs:
// a store with triggers or views (derived attributes' triggers would be
// lost), with persistent-history or CloudKit rows (they name entities by
// number and columns by position), a new model whose version hashes Quarry
// cannot compute (Core Data would not recognise the store).
// Old and new model: from a `.xcdatamodeld`, the version the store was
// written with (ModelChoice) to the current one, directly, as Core Data's
// lightweight migration infers from the source model to the destination.
import Foundation
import QuarryModel
import QuarrySQLite
import QuarryStore

/// A planned (and, unless a dry run, run) migration of a Core Data store.
public struct CoreDataMigration: Sendable {
    public let path: String
    public let difference: ModelDifference
    /// Where the store's model came from, and the new model.
    public let oldModelSource: String
    public let newModelSource: String
    /// The statements, in order, with their bound values.
    public internal(set) var steps: [MigrationStep] = []
    public internal(set) var warnings: [String] = []
    /// Nothing to do: the store already has the new model's hashes.
    public var isCurrent: Bool { steps.isEmpty }
    /// Whether the tables were altered in place (CoreDataMigration+InPlace.swift)
    /// rather than rebuilt with every row copied.
    public internal(set) var inPlace = false
}

extension CoreDataStore {
    /// Migrates the Core Data store at `path` to the current version of
    /// `modelPath` (a `.xcdatamodeld`, whose version matching the store is
    /// the old model) — or to the model file at `modelPath` from the model
    /// cached in the store, or from `fromModelPath`. With `dryRun`, plans
    /// only: nothing is written. Throws `MigrationError` (refusals, a failed
    /// step) or `CoreDataError` (the store or a model cannot be read).
    ///
    /// ```swift
    /// let plan = try CoreDataStore.migrate(path: "App.sqlite", modelPath: "App.xcdatamodeld")
    /// for step in plan.steps { print(step) }
    /// ```
    @discardableResult
    public static func migrate(path: String, modelPath: String, fromModelPath: String? = nil,
                               dryRun: Bool = false) throws -> CoreDataMigration {
        try migrate(path: path, modelPath: modelPath, fromModelPath: fromModelPath, dryRun: dryRun, forceCopy: false)
    }

    /// `forceCopy`: rebuild every table even where the change could be made
    /// in place (the tests compare the two).
    static func migrate(path named: String, modelPath: String, fromModelPath: String?, dryRun: Bool, forceCopy: Bool) throws -> CoreDataMigration {
        try check(named)
        // The store itself, beside which its `-wal` is (not beside a link to it).
        let path = SQLiteFilePath.resolvingLinks(named)
        // Planned first on the read path's connection (an immutable open, or
        // a private copy of a store with rows in its -wal), so that a refusal
        // or a dry run leaves the store, its -wal and its -shm byte-identical
        // — a writable open alone would checkpoint the -wal on close.
        let (reader, privateCopy) = try connect(path)
        defer { if let privateCopy { try? FileManager.default.removeItem(atPath: privateCopy) } }
        let planned: CoreDataMigration
        do {
            planned = try plan(reader, path: path, modelPath: modelPath, fromModelPath: fromModelPath, forceCopy: forceCopy)
            reader.close()
        } catch {
            reader.close()
            throw error
        }
        if dryRun || planned.isCurrent { return planned }

        // Run: planned again inside the write lock (`BEGIN IMMEDIATE` before
        // the schema is read), so no writer slips in between plan and run.
        let connection = try connectWritable(path)
        defer { connection.close() }
        do { try connection.execute("BEGIN IMMEDIATE") } catch {
            throw CoreDataError(.unreadableStore, "cannot lock '\(path)' to migrate it: \(error)",
                                hint: "close the app or tool that holds it open; nothing was changed")
        }
        do {
            let migration = try plan(connection, path: path, modelPath: modelPath, fromModelPath: fromModelPath, forceCopy: forceCopy)
            for step in migration.steps {
                do { try connection.execute(step.sql, step.arguments) } catch {
                    throw MigrationError.failed(location: path, statement: step.sql, reason: "\(error)")
                }
            }
            try connection.execute("COMMIT")
            return migration
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The plan, read inside the migration's transaction.
    private static func plan(_ connection: SQLiteConnection, path: String, modelPath: String,
                             fromModelPath: String?, forceCopy: Bool) throws -> CoreDataMigration {
        let schema: CoreDataSchema
        do { schema = try CoreDataSchema(connection: connection) } catch {
            throw CoreDataError(.unreadableStore, "cannot read the Core Data bookkeeping of '\(path)': \(error)")
        }
        let target = try MigrationTarget(modelPath: modelPath)
        let hashes = CoreDataVersionHash.coveredHashes(target.model)
        // Already migrated (or written by this version): the hashes, as Core
        // Data checks, and every table and column the model needs.
        if hashes != nil && hashes == schema.metadata.versionHashes,
           (try? CoreDataViews(model: target.model, schema: schema, renames: target.renames)) != nil {
            return CoreDataMigration(path: path, difference: ModelDifference(from: target.model, to: target.model),
                                     oldModelSource: target.source, newModelSource: target.source)
        }
        let old: ModelChoice
        if let fromModelPath {
            old = try ModelChoice.choose(modelPath: fromModelPath, schema: schema)
        } else if modelPath.hasSuffix(".xcdatamodeld") {
            old = try ModelChoice.choose(modelPath: modelPath, schema: schema)
        } else {
            let cached = try cachedModel(connection, path: path, schema: schema)
            old = ModelChoice(model: cached.model, views: try CoreDataViews(model: cached.model, schema: schema, renames: cached.renames),
                              source: "the model cached in the store (Z_MODELCACHE)")
        }
        let difference = ModelDifference(from: old.model, to: target.model, renames: target.renames.names)
        var migration = CoreDataMigration(path: path, difference: difference, oldModelSource: old.source, newModelSource: target.source)
        // Core Data's test is the hashes alone; the columns are checked too
        // (a difference that alters storage under equal hashes is migrated).
        if old.model == target.model || (hashes != nil && hashes == schema.metadata.versionHashes && !difference.altersStorage) {
            return migration
        }
        if difference.sharesNoEntity { throw MigrationError.unrelatedModel(location: path) }
        var refusals = difference.refusals.map { "\($0.entity)\($0.property.map { "." + $0 } ?? ""): \($0.refusal!)" }
        refusals += try storeRefusals(connection, schema: schema, target: target.model)
        let frameworkVersion = schema.metadata.frameworkVersion ?? CoreDataStoreCreation.Options().frameworkVersion
        var layout: CoreDataStoreLayout?
        if !CoreDataStoreCreation.frameworkVersions.contains(frameworkVersion) {
            refusals.append("the store's framework version \(frameworkVersion) is outside \(CoreDataStoreCreation.frameworkVersions), the versions whose layout is known")
        } else {
            let namedAfter = selfJoinSides(old.views, difference: difference)
            do { layout = try CoreDataStoreLayout(model: target.model, frameworkVersion: frameworkVersion, namedAfter: namedAfter) } catch {
                refusals.append(error.message)
            }
        }
        var copy = CoreDataMigrationCopy(difference: difference, oldViews: old.views, schema: schema)
        if let layout { copy.plan(into: layout) }
        refusals += copy.refusals
        guard refusals.isEmpty, let layout, let hashes else { throw MigrationError.notInferable(location: path, refusals: refusals) }

        migration.warnings = old.warnings + layout.warnings + copy.warnings
        let metadata = try metadataSteps(connection, schema: schema, hashes: hashes, frameworkVersion: frameworkVersion,
                                         versionIdentifiers: target.versionIdentifiers)
        if !forceCopy, let inPlace = try copy.inPlaceSteps(connection, layout: layout) {
            migration.inPlace = true
            migration.steps = inPlace + metadata
        } else {
            migration.steps = try copy.steps(connection, layout: layout) + metadata + copy.dropSteps
                + layout.indexStatements.map { MigrationStep($0) }
        }
        return migration
    }

    /// The side each self-referential many-to-many's join table is named
    /// after in the store, in the new model's names: Core Data's choice is
    /// not predictable from the names (CoreDataStoreLayout), so the store's
    /// own is kept.
    private static func selfJoinSides(_ views: CoreDataViews, difference: ModelDifference) -> Set<String> {
        var sides: Set<String> = []
        for join in views.joins {
            let parts = join.owner.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, let entity = difference.old.entity(named: parts[0]),
                  let r = entity.relationship(named: parts[1], in: difference.old), let inverse = r.inverse,
                  let destination = difference.old.entity(named: r.destination),
                  let inverseOwner = ([destination] + destination.ancestors(in: difference.old)).first(where: { $0.relationships.contains { $0.name == inverse } }),
                  inverseOwner.name == entity.name else { continue }
            let named = String(join.cdTable.dropFirst(2).drop { $0.isNumber })
            let side = named == r.name.uppercased() ? (entity.name, r.name) : named == inverse.uppercased() ? (entity.name, inverse) : nil
            guard let side, let newEntity = difference.entityMatch.first(where: { $0.value == side.0 })?.key,
                  let newName = difference.propertyMatch[newEntity]?.first(where: { $0.value == side.1 })?.key else { continue }
            sides.insert(newEntity + "." + newName)
        }
        return sides
    }

    /// What the copy cannot carry: triggers and views, persistent history,
    /// CloudKit mirroring, a model whose hashes are unknown.
    private static func storeRefusals(_ connection: SQLiteConnection, schema: CoreDataSchema, target: Model) throws -> [String] {
        var refusals: [String] = []
        let extras = try connection.query("SELECT type, name FROM main.sqlite_master WHERE type IN ('trigger', 'view') ORDER BY name")
        if !extras.isEmpty {
            let names = extras.compactMap { row -> String? in
                guard case .string(let t) = row[0], case .string(let n) = row[1] else { return nil }
                return "\(t) \(n)"
            }
            refusals.append("the store has \(names.joined(separator: ", ")), which rebuilding its tables would lose (derived attributes' triggers, for one)")
        }
        for table in schema.tables.values.map(\.name).sorted() where table.uppercased() == "ACHANGE" || table.uppercased().hasPrefix("ANSCK") {
            if case .int(let n)? = try connection.query("SELECT count(*) FROM main.\(SQLIdentifier.quoted(table))").first?.first, n > 0 {
                refusals.append("the store's \(table) holds \(n) rows of persistent history or CloudKit mirroring, which name entities by number and columns by position; Quarry's migration does not rewrite them")
            }
        }
        let notCovered = CoreDataVersionHash.entityHashes(target).compactMap { name, outcome -> String? in
            if case .notCovered(let why) = outcome { return "\(name) (\(why))" }
            return nil
        }
        if !notCovered.isEmpty {
            refusals.append("Quarry cannot compute Core Data's version hash of " + notCovered.sorted().joined(separator: ", ")
                            + ", so Core Data would not recognise the migrated store")
        }
        return refusals
    }

    /// The metadata: every key kept but the model's hashes and identifiers.
    private static func metadataSteps(_ connection: SQLiteConnection, schema: CoreDataSchema, hashes: [String: [UInt8]],
                                      frameworkVersion: Int, versionIdentifiers: [String]) throws -> [MigrationStep] {
        var dictionary: [String: PropertyListValue] = [:]
        if let row = try connection.query("SELECT Z_PLIST FROM main.Z_METADATA LIMIT 1").first, case .data(let bytes) = row[0],
           case .dictionary(let d)? = try? BinaryPropertyList.read(bytes) {
            dictionary = d
        }
        guard case .dictionary(let fresh) = CoreDataStoreMetadata.plist(hashes: hashes, frameworkVersion: frameworkVersion,
                                                                         versionIdentifiers: versionIdentifiers) else { return [] }
        for key in ["NSStoreModelVersionHashes", "NSStoreModelVersionIdentifiers", "NSStoreModelVersionHashesDigest", "NSStoreModelVersionChecksumKey"] {
            if let value = fresh[key] { dictionary[key] = value }
        }
        var steps = [MigrationStep("UPDATE Z_METADATA SET Z_PLIST = ?", [.data(BinaryPropertyListWriter.write(.dictionary(dictionary)))])]
        if schema.table("Z_MODELCACHE") != nil { steps.append(MigrationStep("DELETE FROM Z_MODELCACHE")) }
        return steps
    }
}

/// The model a store migrates to, with what the metadata needs of it.
struct MigrationTarget {
    let model: Model
    let renames: RenamingIdentifiers
    let versionIdentifiers: [String]
    let source: String

    init(modelPath: String) throws {
        do {
            model = try ModelReader.read(from: modelPath)
            try model.validateStorageNames()
        } catch {
            throw CoreDataError(.unreadableModel, "cannot read the model '\(modelPath)': \(error)")
        }
        var contentsPath = modelPath
        var name = modelPath
        if modelPath.hasSuffix(".xcdatamodeld") {
            // The current version's own folder: its renaming identifiers and version identifier.
            let versions = ((try? FileManager.default.contentsOfDirectory(atPath: modelPath)) ?? []).filter { $0.hasSuffix(".xcdatamodel") }
            let model = model
            if let current = versions.first(where: { (try? ModelReader.read(from: modelPath + "/" + $0)) == model }) {
                contentsPath = modelPath + "/" + current
                name = "version \(current.dropLast(".xcdatamodel".count)) of \(modelPath) (current)"
            }
        }
        var isDirectory: ObjCBool = false
        FileManager.default.fileExists(atPath: contentsPath, isDirectory: &isDirectory)
        let contents = (try? String(contentsOfFile: isDirectory.boolValue ? contentsPath + "/contents" : contentsPath, encoding: .utf8)) ?? ""
        renames = RenamingIdentifiers.beside(modelFile: contentsPath)
        versionIdentifiers = ModelChoice.identifier(in: contents).map { [$0] } ?? []
        source = name
    }
}

// A lightweight migration: the SQL that turns a store made with one model
// into a store of the next (ModelDifference.swift says what changed and
// whether it can be inferred), run in ONE transaction that also saves the
// new model in `_quarry_metadata`, where ModelArchive's text lives. Any
// failure — a refused change, a uniqueness constraint the data violates, a
// database error — rolls everything back: a SQLite file stays byte for byte
// what it was, a PostgreSQL schema row for row.
//
// The plan is static (the same two models give the same SQL, which
// `quarry migrate --dry-run` prints), in this order, because each step
// reads what the earlier ones left:
//   A. drop the indexes the new schema does not have as they are;
//   B. delete the rows of removed sub-entities, rename tables and `_entity` values;
//   C. create the tables of new hierarchies;
//   D. join tables: keep (renamed), or create and copy the links into them
//      from wherever the old model kept them (a foreign key, a join table);
//   E. per kept table: ADD COLUMN / RENAME COLUMN (both dialects), fill
//      defaults and foreign keys (values bound), then drop columns and change
//      types — PostgreSQL's ALTER TABLE forms, SQLite's table rebuild
//      (create, copy keeping `_pk`, drop, rename) as SQLite itself documents;
//   F. drop the join tables and tables no longer used;
//   G. check new uniqueness constraints (naming duplicates), create indexes
//      (and PostgreSQL's foreign keys);
//   H. save the new model and its layout.
// Names come from the store's layout record (QuarrySQL/StoreLayoutRecord.swift):
// the old store's names are those it saved (or, for a store from before
// layouts were saved, those its model derives); the new model keeps every
// name of an entity, attribute and relationship it keeps unchanged
// (ModelDifference+Layout.swift), so adding an entity or a relationship
// never renames a column; renamed and changed ones get their new model's
// names, as before.
// SQLite runs the transaction with foreign_keys off (a rebuild's DROP TABLE
// would otherwise cascade into the join tables) and checks every key with
// `PRAGMA foreign_key_check` before committing — unless every step is one
// that cannot break a key (a column renamed, a plain column added with its
// default, an index changed): the check reads every table with a key,
// which on a big store is the whole cost of a rename.
import Foundation
import QuarryModel

/// Whether opening a store with a newer model migrates it.
public enum MigrationPolicy: String, Sendable {
    /// Migrate in place when every change is inferable.
    case automatic
    /// Refuse a store whose saved model differs in what is stored (the default).
    case none
}

/// One statement of a migration plan.
public struct MigrationStep: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case run
        /// A query that must return no rows: duplicates of a new uniqueness constraint.
        case uniqueCheck(entity: String, properties: [String])
    }
    public var kind: Kind
    public var sql: String
    public var arguments: [Value]

    public init(_ sql: String, _ arguments: [Value] = [], kind: Kind = .run) {
        self.sql = sql
        self.arguments = arguments
        self.kind = kind
    }

    public var description: String {
        sql + (arguments.isEmpty ? "" : "  -- " + arguments.map(Printer.format).joined(separator: ", "))
    }
}

/// Why a migration did not happen. Nothing was changed in every case.
public enum MigrationError: Error, Equatable, CustomStringConvertible {
    /// Changes that cannot be inferred.
    case notInferable(location: String, refusals: [String])
    /// A new uniqueness constraint the stored objects violate.
    case duplicates(location: String, entity: String, properties: [String], examples: [String])
    /// The store and the model share no entity: not a version of this model.
    case unrelatedModel(location: String)
    /// The database refused a step.
    case failed(location: String, statement: String, reason: String)

    public var description: String {
        switch self {
        case .notInferable(let location, let refusals):
            return "the store at \(location) cannot be migrated to this model: " + refusals.joined(separator: "; ") + "; nothing was changed"
        case .duplicates(let location, let entity, let properties, let examples):
            return "the store at \(location) cannot be migrated: the new uniqueness constraint on \(entity) (\(properties.joined(separator: ", "))) is violated by "
                + examples.joined(separator: ", ") + "; nothing was changed"
        case .unrelatedModel(let location):
            return "the store at \(location) was not made for this model: they share no entity, so this is not a newer version of its model; nothing was changed"
        case .failed(let location, let statement, let reason):
            return "migrating the store at \(location) failed at `\(statement)`: \(reason); nothing was changed"
        }
    }
}

/// The SQL plan between two models on one dialect, and its execution.
///
/// ```swift
/// let migration = try Migration(ModelDifference(from: saved, to: model), dialect: .sqlite)
/// for step in migration.steps { print(step) }
/// try migration.run(on: store.database, location: path, savedModel: ModelArchive.json(model), format: "json")
/// ```
public struct Migration: Sendable {
    public let difference: ModelDifference
    public let dialect: SQLDialect
    public internal(set) var steps: [MigrationStep] = []
    /// Whether a step may leave a link pointing at no object, so that SQLite
    /// checks every foreign key before COMMIT (MigrationPlanner.mayBreakKeys);
    /// a plan of renames, plain added columns and index changes need not.
    public internal(set) var checksKeys = true
    /// The names of the store before and after (saved by `run`).
    public let oldLayout: StoreLayoutRecord
    public let newLayout: StoreLayoutRecord
    /// The old model's mapping over `oldLayout`, kept for `run` (a store
    /// from before row versions gets them first).
    let oldMapping: StoreMapping
    /// The new model's mapping over `newLayout`: the store opened after the
    /// migration takes it rather than build the same one again.
    let newMapping: StoreMapping

    /// Plans the migration; throws `.notInferable` with every refusal.
    /// `layout`: the store's saved layout (nil: the old model's derived names,
    /// for a store that saved none).
    public init(_ difference: ModelDifference, dialect: SQLDialect, location: String = "the store", layout: StoreLayoutRecord? = nil) throws {
        self.difference = difference
        self.dialect = dialect
        // The old model's mapping names what moves; nothing is fetched through it.
        let oldMap = StoreMapping(model: difference.old, dialect: dialect, layout: layout, namesOnly: true)
        oldLayout = oldMap.layoutRecord
        let newMap = StoreMapping(model: difference.new, dialect: dialect, layout: difference.carriedLayout(oldLayout))
        newLayout = newMap.layoutRecord
        oldMapping = oldMap
        newMapping = newMap
        guard difference.isInferable else {
            throw MigrationError.notInferable(location: location, refusals: difference.refusals.map { c in
                "\(c.property.map { "\(c.entity).\($0)" } ?? c.entity): \(c.refusal!)"
            })
        }
        if difference.sharesNoEntity && !difference.new.entities.isEmpty { throw MigrationError.unrelatedModel(location: location) }
        var planner = MigrationPlanner(difference: difference, dialect: dialect, oldMap: oldMap, newMap: newMap)
        steps = planner.plan()
        let derived = try Migration.derivedSteps(difference, mapping: newMap, location: location)   // Migration+Derived.swift
        steps += derived
        checksKeys = planner.mayBreakKeys || !derived.isEmpty
    }

    /// Runs the plan and saves `savedModel` (text and format, as
    /// `_quarry_metadata` keeps it) and the new layout, all in one transaction.
    public func run(on database: any SQLDatabase, location: String, savedModel: String, format: String) throws {
        let sqlite = dialect == .sqlite
        // A plan of steps that keep every key (column renames, plain added
        // columns, index changes: `checksKeys` false) drops and copies no
        // table: nothing can cascade with foreign keys on, and no rebuilt
        // table copies a row version — the open adds any missing version
        // column after the migration, as for any older store.
        let inPlace = !checksKeys
        if sqlite && !inPlace { try database.run("PRAGMA foreign_keys = OFF", []) }
        defer { if sqlite && !inPlace { _ = try? database.run("PRAGMA foreign_keys = ON", []) } }
        try database.inTransaction {
            // A store from before row versions gets them first: a rebuilt table copies them (SQLStore+Versions.swift).
            if !inPlace {
                let columns = try SQLStore.columnsByTable(in: database)
                try SQLStore.addVersionColumns(to: SQLStore.tablesWithoutVersions(oldMapping, columns: columns), in: database)
            }
            for step in steps {
                do {
                    switch step.kind {
                    case .run:
                        try database.run(step.sql, step.arguments)
                    case .uniqueCheck(let entity, let properties):
                        let rows = try database.rows(step.sql, step.arguments)
                        if !rows.isEmpty {
                            throw MigrationError.duplicates(location: location, entity: entity, properties: properties, examples: rows.map { row in
                                "(" + row.dropLast().map(Printer.format).joined(separator: ", ") + ") × \(Printer.format(row.last!))"
                            })
                        }
                    }
                } catch let error as MigrationError {
                    throw error
                } catch {
                    throw MigrationError.failed(location: location, statement: step.sql, reason: "\(error)")
                }
            }
            if sqlite && checksKeys {
                let broken = try database.rows("PRAGMA foreign_key_check")
                if !broken.isEmpty {
                    throw MigrationError.failed(location: location, statement: "PRAGMA foreign_key_check",
                                                reason: "\(broken.count) link\(broken.count == 1 ? "" : "s") would point at no object")
                }
            }
            try StoreMetadataRows.write(metadataRows(savedModel: savedModel, format: format), in: database)
        }
    }

    /// The metadata rows `run` saves: the new model's entities, its text and
    /// format, and the new layout (SQLStore+Layout.swift).
    func metadataRows(savedModel: String, format: String) -> [(key: String, value: String)] {
        [("entities", difference.new.entityNames.joined(separator: ","))]
            + SQLStore.modelRows((savedModel, format))
            + [(StoreLayoutRecord.metadataKey, newLayout.json)]
    }
}

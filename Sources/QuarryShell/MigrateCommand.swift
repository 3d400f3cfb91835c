// The logic of `quarry migrate`, kept out of the executable so tests can run
// it without a process:
//
//     quarry migrate (--store S | --postgres URL) --model M [--from OLD] [--dry-run]
//
// A Core Data store (recognised by its bookkeeping) is migrated by
// QuarryCoreData's CoreDataMigration, from the model version it was written
// with (`--from`, else the version of a `.xcdatamodeld` M its hashes match,
// else the model it caches) straight to M's current version, as Core Data's
// lightweight migration does; the rest of this file is Quarry's own stores.
//
// Compares the model saved in a Quarry store with M (ModelDifference), prints
// the plan — one line per change, then the SQL with its bound values — and,
// unless --dry-run, runs it in one transaction that also saves M
// (Migration.swift). A `.xcdatamodeld` with several versions is applied
// version by version from the one the store was made with (found by
// comparing the saved model with each version) up to the current one, each
// step with its own renaming identifiers (`elementID`s). A refused
// migration prints every reason and changes nothing. Exit codes: 0 done (or
// nothing to do), 1 refused or failed (nothing changed), 64 bad usage, 65 the
// model cannot be read, 66 the store cannot be opened.
import Foundation
import QuarryCoreData
import QuarryPostgres
import QuarryStore

public struct MigrateCommand {
    public var store: String?
    public var postgres: String?
    public var model: String
    /// A Core Data store's own model version (else the one it caches, or the
    /// version of a `.xcdatamodeld` its hashes match).
    public var from: String?
    public var dryRun: Bool

    public init(store: String?, postgres: String?, model: String, from: String? = nil, dryRun: Bool) {
        self.store = store
        self.postgres = postgres
        self.model = model
        self.from = from
        self.dryRun = dryRun
    }

    /// One model to migrate to: its file (for the saved text), the model and
    /// its renaming identifiers, and a name for the plan.
    struct Target {
        var name: String
        var path: String
        var model: Model
        var renames: [String: String]
    }

    public func run() -> CommandOutcome {
        func fail(_ code: Int32, _ message: String, _ out: String = "") -> CommandOutcome {
            CommandOutcome(stdout: out, stderr: "error: \(message)\n", exitCode: code)
        }
        if (store == nil) == (postgres == nil) { return fail(ExitStatus.usage, "give --store PATH or --postgres URL (one of them)") }
        let database: any SQLDatabase
        let location: String
        do {
            if let store {
                guard FileManager.default.fileExists(atPath: store) else { return fail(ExitStatus.cannotOpen, "no store at '\(store)'") }
                let kind = try? SQLiteFileInspection.kind(of: store)
                if case .coreData? = kind { return runOnCoreDataStore(store) }
                guard case .quarry? = kind else {
                    return fail(ExitStatus.cannotOpen, "'\(store)' is neither a Quarry store nor a Core Data store; only those can be migrated")
                }
                database = try SQLStore.sqliteDatabase(at: store)
                location = store
            } else {
                var options = PostgresDatabase.Options()
                options.createSchema = false
                database = try PostgresDatabase(url: postgres!, options: options)
                location = (try? PostgresURL(postgres!).redacted) ?? "the PostgreSQL store"
            }
        } catch {
            return fail(ExitStatus.cannotOpen, "cannot open \(store ?? "the PostgreSQL store"): \(error)")
        }
        defer { database.close() }
        var current: Model
        let targets: [Target]
        do {
            guard let saved = try SQLStore.storedModel(in: database) else {
                return fail(ExitStatus.cannotOpen, "\(location) holds no Quarry store with a saved model")
            }
            current = saved
            targets = try Self.targets(modelPath: model, from: saved)
        } catch {
            return fail(ExitStatus.badInput, "\(error)")
        }
        // The names the store keeps (SQLStore+Layout.swift); each version's plan builds on the last's.
        var layout: StoreLayoutRecord?
        do { layout = try SQLStore.storedLayout(in: database) } catch { return fail(ExitStatus.cannotOpen, "\(error)") }
        var out = ""
        if targets.allSatisfy({ ModelDifference(from: current, to: $0.model, renames: $0.renames).isEmpty }) {
            return CommandOutcome(stdout: "\(location) already holds \(model)'s model: nothing to migrate\n", stderr: "", exitCode: ExitStatus.success)
        }
        for target in targets {
            let difference = ModelDifference(from: current, to: target.model, renames: target.renames)
            if difference.isEmpty { continue }
            out += "migrate \(location) to \(target.name): \(difference.changes.count) change\(difference.changes.count == 1 ? "" : "s")\n"
            out += difference.changes.map { $0.description + "\n" }.joined()
            do {
                let migration = try Migration(difference, dialect: database.dialect, location: location, layout: layout)
                layout = migration.newLayout
                out += "sql:\n" + migration.steps.map { "  " + $0.description + "\n" }.joined()
                if !dryRun { try SQLStore.migrate(database, difference, modelFile: target.path) }
            } catch {
                return fail(ExitStatus.statementFailed, "\(error)", out)
            }
            current = target.model
        }
        out += dryRun ? "dry run: nothing was changed\n" : "migrated \(location)\n"
        return CommandOutcome(stdout: out, stderr: "", exitCode: ExitStatus.success)
    }

    /// A Core Data store: migrated in place from the model version it was
    /// written with to `model`'s current one (CoreDataMigration.swift).
    func runOnCoreDataStore(_ store: String) -> CommandOutcome {
        do {
            let migration = try CoreDataStore.migrate(path: store, modelPath: model, fromModelPath: from, dryRun: dryRun)
            if migration.isCurrent {
                return CommandOutcome(stdout: "\(store) already holds \(migration.newModelSource)'s model: nothing to migrate\n", stderr: "", exitCode: ExitStatus.success)
            }
            let changes = migration.difference.changes
            var out = "migrate the Core Data store \(store) from \(migration.oldModelSource) to \(migration.newModelSource): \(changes.count) change\(changes.count == 1 ? "" : "s")\n"
            out += changes.map { $0.description + "\n" }.joined()
            out += migration.warnings.map { "warning: \($0)\n" }.joined()
            out += "sql:\n" + migration.steps.map { "  " + $0.description + "\n" }.joined()
            out += dryRun ? "dry run: nothing was changed\n" : "migrated \(store)\n"
            return CommandOutcome(stdout: out, stderr: "", exitCode: ExitStatus.success)
        } catch let error as MigrationError {
            return CommandOutcome(stdout: "", stderr: "error: \(error)\n", exitCode: ExitStatus.statementFailed)
        } catch let error as CoreDataError {
            let code = error.kind == .unreadableModel ? ExitStatus.badInput : ExitStatus.cannotOpen
            return CommandOutcome(stdout: "", stderr: "error: \(error)\n", exitCode: code)
        } catch {
            return CommandOutcome(stdout: "", stderr: "error: \(error)\n", exitCode: ExitStatus.statementFailed)
        }
    }

    /// The models to apply in order: for a `.xcdatamodeld` with several
    /// versions, those after the one equal to the store's saved model up to
    /// the current one; otherwise the model file alone.
    static func targets(modelPath: String, from saved: Model) throws -> [Target] {
        let current = try ModelReader.read(from: modelPath)
        let single = Target(name: modelPath, path: modelPath, model: current, renames: RenamingIdentifiers.beside(modelFile: modelPath).names)
        guard modelPath.hasSuffix(".xcdatamodeld") else { return [single] }
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: modelPath)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") }
            .sorted { $0.dropLast(12).compare($1.dropLast(12), options: .numeric) == .orderedAscending }
        var versions: [Target] = []
        for folder in folders {
            let path = modelPath + "/" + folder
            versions.append(Target(name: "version \(folder.dropLast(12)) of \(modelPath)", path: path, model: try ModelReader.read(from: path),
                                   renames: RenamingIdentifiers.beside(modelFile: path).names))
        }
        guard let start = versions.lastIndex(where: { $0.model == saved }),
              let end = versions.lastIndex(where: { $0.model == current }), start < end else {
            // The store's version is not in the bundle (or is the current one): straight to the current version.
            let named = versions.last { $0.model == current }
            return [named ?? single]
        }
        return Array(versions[(start + 1)...end])
    }
}

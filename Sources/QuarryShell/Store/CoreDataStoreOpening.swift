// `quarry --store App.sqlite` on an app's Core Data store: recognised by its
// bookkeeping tables and opened read-only through QuarryCoreData (TEMP views
// in Quarry's layout over the Z-tables; the store, its -wal and -shm never
// written), with the model from --model (a .xcdatamodeld picks the version
// the store names) or, without one, the model cached in the store. The user
// is told on stderr what was opened and where the model came from. With
// `--writable` the store itself is opened for writing, through the same
// views (QuarryCoreData's CoreDataViews+Writing.swift). `--writable
// --migrate --model App.xcdatamodeld` first migrates the store to the
// model's current version (CoreDataMigration.swift), as `quarry migrate`.
import Foundation
import QuarryCoreData
import QuarryStore

extension ShellSession {
    /// Whether `path` is a Core Data store (looked at without a write).
    static func isCoreDataStore(_ path: String) -> Bool {
        guard path != ":memory:", case .coreData? = try? SQLiteFileInspection.kind(of: path) else { return false }
        return true
    }

    func openCoreDataStore(at path: String) throws -> SQLStore {
        if migration == .automatic, let modelPath { try migrateCoreDataStore(at: path, to: modelPath) }
        let opened = try CoreDataStore.open(path: path, model: modelPath == nil ? model : nil, modelPath: modelPath, writable: coreDataWritable)
        model = opened.store.model
        if coreDataWritable {
            errors("note: '\(path)' is a Core Data store, opened writable (--writable: writes go to the store itself, as Core Data would make them); model: \(opened.modelSource)\n")
        } else {
            errors("note: '\(path)' is a Core Data store, opened read-only (nothing is ever written to it); model: \(opened.modelSource)\n")
        }
        for warning in opened.warnings { errors("warning: \(warning)\n") }
        return opened.store
    }

    /// `--migrate`: the store migrated before it opens — only with
    /// `--writable`, the user's consent to writing an app's store.
    private func migrateCoreDataStore(at path: String, to modelPath: String) throws {
        guard coreDataWritable else {
            throw CoreDataError(.notWritable, "'\(path)' is a Core Data store: migrating it writes it, and Quarry writes an app's store only when asked",
                                hint: "add --writable to migrate it (or run quarry migrate --store \(path) --model \(modelPath))")
        }
        let migration = try CoreDataStore.migrate(path: path, modelPath: modelPath)
        if migration.isCurrent { return }
        errors("note: migrated the Core Data store '\(path)' from \(migration.oldModelSource) to \(migration.newModelSource): \(migration.difference.changes.count) changes\n")
        for warning in migration.warnings { errors("warning: \(warning)\n") }
    }
}

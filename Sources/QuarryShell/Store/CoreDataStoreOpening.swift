// `quarry --store App.sqlite` on an app's Core Data store: recognised by its
// bookkeeping tables and opened read-only through QuarryCoreData (TEMP views
// in Quarry's layout over the Z-tables; the store, its -wal and -shm never
// written), with the model from --model (a .xcdatamodeld picks the version
// the store names) or, without one, the model cached in the store. The user
// is told on stderr what was opened and where the model came from. With
// `--writable` the store itself is opened for writing, through the same
// views (QuarryCoreData's CoreDataViews+Writing.swift).
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
}

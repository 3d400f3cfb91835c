// `quarry --store App.sqlite` on an app's Core Data store: recognised by its
// bookkeeping tables and opened read-only through QuarryCoreData (TEMP views
// in Quarry's layout over the Z-tables; the store, its -wal and -shm never
// written), with the model from --model (a .xcdatamodeld picks the version
// the store names) or, without one, the model cached in the store. The user
// is told on stderr what was opened and where the model came from.
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
        let opened = try CoreDataStore.open(path: path, model: modelPath == nil ? model : nil, modelPath: modelPath)
        model = opened.store.model
        errors("note: '\(path)' is a Core Data store, opened read-only (nothing is ever written to it); model: \(opened.modelSource)\n")
        for warning in opened.warnings { errors("warning: \(warning)\n") }
        return opened.store
    }
}

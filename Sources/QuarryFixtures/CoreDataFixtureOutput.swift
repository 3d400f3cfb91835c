// `quarry fixtures --format coredata`: test data as a new Core Data store of
// the model, for an app's own unit tests. The store is created empty by
// QuarryCoreData (CoreDataStoreCreation.swift: Core Data's tables, columns,
// indexes and metadata with the model's entity version hashes), opened
// writable (CoreDataViews+Writing.swift: the TEMP views and triggers that
// allocate Z_PK from Z_MAX and keep Z_ENT and Z_OPT), and filled through the
// path every database store takes (DatabaseFixtureWriter, one transaction),
// under the temporary name FixtureOutput.swift renames on success.
//
// What cannot be written faithfully is refused and leaves nothing behind: a
// model whose version hashes Quarry cannot compute (derived attributes), a
// value the writable store refuses (a transformable). Names Core Data
// chooses unpredictably (a many-to-many of an entity with itself) are
// written as best guessed and reported as warnings.
import Foundation
import QuarryCoreData

extension FixtureGenerator {
    /// Creates the Core Data store at `temporary` and writes every record
    /// into it; the caller renames it into place.
    func writeCoreData(temporary: String) throws -> FixtureSummary {
        let created: CoreDataStoreCreation.Result
        do { created = try CoreDataStore.create(model: model, at: temporary) } catch {
            throw FixtureError(.output, "\(error)", at: FixtureLocation(file: temporary))
        }
        let store = try SQLStore(coreDataStore: temporary, model: model, writable: true)
        defer {
            store.database.close()
            // The writable store keeps its -wal on close, emptied, as Core
            // Data does; a file being renamed into place needs none.
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: temporary + suffix) }
        }
        var summary = try write(into: store)
        summary.warnings = created.warnings
        return summary
    }
}

// `quarry fixtures --format coredata`: test data as a new Core Data store of
// the model, for an app's own unit tests. The store is created empty by
// QuarryCoreData (CoreDataStoreCreation.swift: Core Data's tables, columns,
// indexes and metadata with the model's entity version hashes), opened
// writable (CoreDataViews+Writing.swift: the TEMP views and triggers that
// allocate Z_PK from Z_MAX and keep Z_ENT and Z_OPT), and filled through the
// path every database store takes (DatabaseFixtureWriter, one transaction),
// under the temporary name FixtureOutput.swift renames on success. Ordered
// to-manys get Core Data's spaced values (2048, 3072, …): join-table
// positions with their links, one-to-manys' Z_FOK_ columns numbered after
// (CoreDataFixtureOrder.swift).
//
// What cannot be written faithfully is refused and leaves nothing behind: a
// model whose version hashes Quarry cannot compute (derived attributes), a
// value the writable store refuses (one for an app's own transformer). Names Core Data
// chooses unpredictably (a many-to-many of an entity with itself) are
// written as best guessed and reported as warnings. The store's UUID comes
// from the seed, so one seed gives one file, byte for byte.
import Foundation
import QuarryCoreData

extension FixtureGenerator {
    /// Creates the Core Data store at `temporary` and writes every record
    /// into it; the caller renames it into place.
    func writeCoreData(temporary: String) throws -> FixtureSummary {
        let created: CoreDataStoreCreation.Result
        // The same seed gives the same bytes, as in every format: the
        // store's UUID (Z_UUID) comes from the seed, not from chance.
        let options = CoreDataStoreCreation.Options(storeUUID: Self.storeUUID(seed: seed))
        do { created = try CoreDataStore.create(model: model, at: temporary, options: options) } catch {
            throw FixtureError(.output, "\(error)", at: FixtureLocation(file: temporary))
        }
        let store = try SQLStore(coreDataStore: temporary, model: model, writable: true)
        defer {
            store.database.close()
            // The writable store keeps its -wal on close, emptied, as Core
            // Data does; a file being renamed into place needs none.
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: temporary + suffix) }
        }
        // The rows and then the ordered one-to-manys' Z_FOK_ values, as Core
        // Data writes them (CoreDataFixtureOrder.swift), in one transaction:
        // the numbering writes rows inserted in the same transaction, which
        // keep Z_OPT 1 (a row changed in a later one would be raised to 2:
        // CoreDataViews+Touched.swift), and a failure leaves nothing.
        var summary = FixtureSummary()
        do {
            try store.database.inTransaction {
                summary = try write(into: store)
                try numberOrderedMembers(in: store)
            }
        } catch let error as FixtureError {
            throw error
        } catch {
            throw FixtureError(.output, "writing failed: \(error); nothing was written", at: FixtureLocation(file: temporary))
        }
        summary.warnings = created.warnings
        return summary
    }

    /// A version-4-shaped UUID drawn from `seed` (SeededGenerator.swift's SplitMix64): fixtures made
    /// with one seed are one store, byte for byte, on every machine.
    static func storeUUID(seed: UInt64) -> UUID {
        // Apart from the data's own streams ("CoreData" in the seed).
        var mix = SplitMix64(seed: seed ^ 0x436F_7265_4461_7461)
        var bytes = [UInt8]()
        for word in [mix.next(), mix.next()] { for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: word >> (8 * i))) } }
        bytes[6] = (bytes[6] & 0x0F) | 0x40   // version 4
        bytes[8] = (bytes[8] & 0x3F) | 0x80   // RFC 4122 variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

// One writer of the merge-policy stress (Tests/QuarryStoreTests:
// MergePolicyStressTests, QueueContextTests, MultiProcessStressTests):
// `saves` saves through one context, each adding one to the same counter
// that every other writer increments too — on its own thread, its own
// queue, or in a process of its own (`quarry-stress-writer`). It lives in a
// module of its own so that the tests and that program run the same loop.
//
// Under `.error` a save that finds the row changed since it was read throws
// `MergeConflictError`; the writer reads the store's value and tries
// again, so every increment lands once. Under `.rollback` and
// `.mergeByPropertyStoreTrump` a conflicting save keeps the store's value,
// and the writer rereads before the next increment; under the other two
// every save writes its own stale read + 1. What the final counter must be
// under each follows (MergePolicyStressTests says it).
import Foundation
import QuarryPostgres
import QuarrySQLite
import QuarryStore

public enum CounterWriter {
    /// The model every stress writer writes: a `Counter` with a name and a
    /// value (and an `Owner`, which the stress leaves alone).
    public static let yaml = """
    entities:
      Counter:
        attributes:
          name: { type: string, optional: false }
          value: { type: integer64, default: 0 }
          note: { type: string, optional: true }
          label: { type: string, optional: true }
        relationships:
          owner: { to: Owner, inverse: counters }
      Owner:
        attributes:
          name: { type: string }
        relationships:
          counters: { to: Counter, many: true, inverse: owner }
    """

    public static let model = try! ModelReader.read(yaml: yaml, file: "counters.yaml")

    /// `saves` increments of counter `id` through `context` under `policy`;
    /// returns the conflicts met (retried under `.error`).
    public static func increment(_ context: Context, _ id: ObjectID, policy: MergePolicy, saves: Int) throws -> Int {
        context.mergePolicy = policy
        var conflicts = 0
        let counter = context.object(with: id)
        for _ in 0..<saves {
            while true {
                guard case .int(let v)? = counter["value"] else { throw ContextError.fetchError("no counter \(id)") }
                try counter.setValue(.int(v + 1), forKey: "value")
                do {
                    try context.save()
                } catch is MergeConflictError {
                    // Only `.error` throws: read the store's value and try again.
                    conflicts += 1
                    context.refresh(counter, mergeChanges: false)
                    continue
                }
                if policy == .rollback || policy == .mergeByPropertyStoreTrump { context.refresh(counter, mergeChanges: false) }
                break
            }
        }
        return conflicts
    }

    /// A new connection to the stress's database: the SQLite file at
    /// `sqlitePath` (waiting up to a minute for another writer's lock), or
    /// else `postgresSchema` on the server at `postgresURL`.
    public static func open(sqlitePath: String?, postgresURL: PostgresURL?, postgresSchema: String?) throws -> SQLStore {
        if let sqlitePath {
            return try SQLStore(database: try SQLiteConnection(path: sqlitePath, options: .init(busyTimeout: 60)), model: model)
        }
        guard let postgresURL, let postgresSchema else { throw ContextError.fetchError("no database named: give a SQLite path or a PostgreSQL URL and schema") }
        var options = PostgresDatabase.Options()
        options.schema = postgresSchema
        return try SQLStore(postgres: try PostgresDatabase(url: postgresURL, options: options), model: model)
    }
}

// Many writers, one counter: N writers — each a context on a thread of its
// own with its own connection to one SQLite file or PostgreSQL schema — each
// make M saves that increment the same counter, under each merge policy.
// What the final row must be follows from the policy:
//
// - `.error`, retrying on conflict (refresh, increment again): every
//   increment lands once — the counter is exactly N × M, and so many saves
//   wrote it (version N × M + 1).
// - `.rollback`, `.mergeByPropertyStoreTrump`: a save that conflicts keeps
//   the store's value (the counter is the only key), so no increment is
//   lost or doubled: the counter equals the number of saves that wrote
//   (version - 1), at most N × M.
// - `.overwrite`, `.mergeByPropertyObjectTrump`: every save writes (version
//   N × M + 1) its stale read + 1, so increments are lost — the counter is
//   at most N × M — as the policy says.
//
// Small by default (seconds); QUARRY_MERGE_STRESS=8x5000 runs the issue's
// 8 writers × 5,000 saves. `versionCheckCost` prints what the check costs
// a one-row save (the same saves with and without it, in the same run).
import Foundation
import QuarryPostgres
import QuarryPostgresTestSupport
import QuarrySQLite
import Testing
@testable import QuarryStore

@Suite("Merge policies under concurrent writers", .serialized)
struct MergePolicyStressTests {
    static let size: (writers: Int, saves: Int) = {
        let parts = (ProcessInfo.processInfo.environment["QUARRY_MERGE_STRESS"] ?? "").split(separator: "x").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : (4, 40)
    }()

    /// One database, opened anew for each writer.
    final class Shared: @unchecked Sendable {
        // @unchecked: `open` makes a new connection per call; nothing else is shared.
        let open: () throws -> SQLStore
        let first: SQLStore
        private let cleanup: () -> Void

        init(_ engine: TestEngine) throws {
            let model = MergePolicyTests.model
            switch engine {
            case .sqlite:
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-merge-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let path = folder.appendingPathComponent("counters.sqlite").path
                first = try SQLStore(path: path, model: model)
                open = { try SQLStore(database: try SQLiteConnection(path: path, options: .init(busyTimeout: 60)), model: model) }
                cleanup = { try? FileManager.default.removeItem(at: folder) }
            case .postgres:
                let a = try PostgresTestEnvironment.freshDatabase()
                first = try SQLStore(postgres: a, model: model)
                let schema = a.schema
                open = {
                    var options = PostgresDatabase.Options()
                    options.schema = schema
                    return try SQLStore(postgres: try PostgresDatabase(url: try PostgresTestEnvironment.requireURL(), options: options), model: model)
                }
                cleanup = { _ = try? a.run("DROP SCHEMA IF EXISTS \(PostgresIdentifier.quoted(schema)) CASCADE", []) }
            }
        }

        deinit {
            cleanup()
            first.database.close()
        }
    }

    /// What one writer did: saves that wrote the counter, conflicts met.
    struct Tally: Sendable { var wrote = 0, conflicts = 0 }

    /// `saves` increments by one writer under `policy` (retrying on conflict under `.error`).
    static func write(_ store: SQLStore, _ id: ObjectID, policy: MergePolicy, saves: Int) throws -> Tally {
        try write(Context(store: store), id, policy: policy, saves: saves)
    }

    /// The same through a context of the caller's (a queue context's, QueueContextTests).
    static func write(_ context: Context, _ id: ObjectID, policy: MergePolicy, saves: Int) throws -> Tally {
        context.mergePolicy = policy
        var tally = Tally()
        let counter = context.object(with: id)
        for _ in 0..<saves {
            while true {
                guard case .int(let v)? = counter["value"] else { throw ContextError.fetchError("no counter") }
                try counter.setValue(.int(v + 1), forKey: "value")
                do {
                    try context.save()
                } catch is MergeConflictError {
                    // Only `.error` throws: read the store's value and try again.
                    tally.conflicts += 1
                    context.refresh(counter, mergeChanges: false)
                    continue
                }
                // Whether this save wrote: the object's version is the one it claimed.
                if case .attribute(.int(let version))? = counter.committed[StoreMapping.versionColumn], version > 0 { tally.wrote += 1 }
                if policy == .rollback || policy == .mergeByPropertyStoreTrump { context.refresh(counter, mergeChanges: false) }
                break
            }
        }
        return tally
    }

    static var arguments: [(TestEngine, MergePolicy)] {
        TestEngine.available.flatMap { e in MergePolicy.allCases.map { (e, $0) } }
    }

    @Test(.timeLimit(.minutes(30)), arguments: arguments)
    func writersIncrementingOneCounter(engine: TestEngine, policy: MergePolicy) throws {
        let shared = try Shared(engine)
        let id = try shared.first.insert("Counter", ["name": "c", "value": 0])
        let (writers, saves) = Self.size
        let stores = try (0..<writers).map { _ in try shared.open() }
        let group = DispatchGroup()
        let results = Results(writers)
        for (i, store) in stores.enumerated() {
            nonisolated(unsafe) let store = store
            group.enter()
            Thread {
                results.set(i, Result { try Self.write(store, id, policy: policy, saves: saves) })
                group.leave()
            }.start()
        }
        group.wait()
        let tallies = try results.all.map { try $0!.get() }
        for store in stores { store.database.close() }
        let rows = try shared.first.database.rows(#"SELECT "value", "_version" FROM "Counter" WHERE "_pk" = ?"#, [.int(id.primaryKey)], as: [.int, .int])
        guard case .int(let value)? = rows.first?[0], case .int(let version)? = rows.first?[1] else { Issue.record("no counter row"); return }
        let total = writers * saves
        let conflicts = tallies.map(\.conflicts).reduce(0, +)
        print("merge stress \(engine) \(policy): \(writers) writers × \(saves) saves: counter \(value), version \(version), \(conflicts) conflicts retried")
        switch policy {
        case .error:
            #expect(value == Int64(total), "lost or doubled increments")
            #expect(version == Int64(total) + 1)
        case .rollback, .mergeByPropertyStoreTrump:
            // Every write added one to the value it replaced: none lost.
            #expect(value == version - 1)
            #expect(value <= Int64(total))
        case .overwrite, .mergeByPropertyObjectTrump:
            // Every save wrote, from its own read.
            #expect(version == Int64(total) + 1)
            #expect(value >= 1 && value <= Int64(total))
        }
        let integrity = engine == .sqlite ? try shared.first.database.rows("PRAGMA integrity_check") : [[.string("ok")]]
        #expect(integrity == [[.string("ok")]])
    }

    /// Results of threads, each slot written by one thread before the group is left.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [Result<Tally, any Error>?]
        init(_ n: Int) { slots = Array(repeating: nil, count: n) }
        func set(_ i: Int, _ r: Result<Tally, any Error>) { lock.lock(); slots[i] = r; lock.unlock() }
        var all: [Result<Tally, any Error>?] { lock.lock(); defer { lock.unlock() }; return slots }
    }

    /// The same one-row saves with and without the version check, alternated
    /// in rounds so that both see the same machine; prints the cost.
    @Test(arguments: TestEngine.available)
    func versionCheckCost(engine: TestEngine) throws {
        let shared = try Shared(engine)
        let store = shared.first
        let id = try store.insert("Counter", ["name": "c", "value": 0])
        let saves = engine == .sqlite ? 2_000 : 300
        var with = Duration.zero, without = Duration.zero
        let clock = ContinuousClock()
        for round in 0..<4 {
            for checked in [round % 2 == 0, round % 2 != 0] {
                let context = Context(store: store)
                context.claimsRows = checked
                let counter = context.object(with: id)
                let elapsed = try clock.measure {
                    for i in 0..<saves {
                        try counter.setValue(.int(Int64(i)), forKey: "value")
                        try context.save()
                    }
                }
                if checked { with += elapsed } else { without += elapsed }
            }
        }
        let perSave = { (d: Duration) in Double(d.components.seconds) * 1e6 / Double(2 * saves) + Double(d.components.attoseconds) / 1e12 / Double(2 * saves) }
        print("version check cost \(engine): \(2 * saves) one-row saves each way: with \(String(format: "%.1f", perSave(with))) µs/save, without \(String(format: "%.1f", perSave(without))) µs/save")
        // Both wrote: the last value is there.
        #expect(try store.database.rows(#"SELECT "value" FROM "Counter""#, as: [.int]) == [[.int(Int64(saves - 1))]])

        // One save of many rows, one attribute each (a bulk edit).
        let rows = engine == .sqlite ? 20_000 : 2_000
        var i = 0
        try store.batchInsert("Counter") {
            guard i < rows else { return nil }
            defer { i += 1 }
            return ["name": .string("b\(i)"), "value": 0]
        }
        var bulk: [Bool: Duration] = [true: .zero, false: .zero]
        for round in 0..<4 {
            let checked = round % 2 == 0
            let context = Context(store: store)
            context.claimsRows = checked
            let objects = try context.fetch(FetchRequest(entity: "Counter", predicate: try Parser.parsePredicate("name BEGINSWITH 'b'")))
            #expect(objects.count == rows)
            for o in objects { try o.setValue(.int(Int64(round + 1)), forKey: "value") }
            bulk[checked]! += try clock.measure { try context.save() }
        }
        print("version check cost \(engine): a save of \(rows) one-attribute updates: with \(bulk[true]! / 2), without \(bulk[false]! / 2)")
    }
}

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
// 8 writers × 5,000 saves. Each writer runs QuarryStressWriting's
// CounterWriter, as the queue-context and separate-process stresses do
// (QueueContextTests, MultiProcessStressTests). `versionCheckCost` prints what the check costs
// a one-row save (the same saves with and without it, in the same run).
import Foundation
import QuarryPostgres
import QuarryPostgresTestSupport
import QuarrySQLite
import QuarryStressWriting
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
        /// Where it is, for writers in other processes: the file, or the schema.
        let sqlitePath: String?, postgresSchema: String?
        private let cleanup: () -> Void

        init(_ engine: TestEngine) throws {
            let model = MergePolicyTests.model
            switch engine {
            case .sqlite:
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-merge-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let path = folder.appendingPathComponent("counters.sqlite").path
                first = try SQLStore(path: path, model: model)
                (sqlitePath, postgresSchema) = (path, nil)
                open = { try CounterWriter.open(sqlitePath: path, postgresURL: nil, postgresSchema: nil) }
                cleanup = { try? FileManager.default.removeItem(at: folder) }
            case .postgres:
                let a = try PostgresTestEnvironment.freshDatabase()
                first = try SQLStore(postgres: a, model: model)
                let schema = a.schema
                (sqlitePath, postgresSchema) = (nil, schema)
                open = { try CounterWriter.open(sqlitePath: nil, postgresURL: try PostgresTestEnvironment.requireURL(), postgresSchema: schema) }
                cleanup = { _ = try? a.run("DROP SCHEMA IF EXISTS \(PostgresIdentifier.quoted(schema)) CASCADE", []) }
            }
        }

        deinit {
            cleanup()
            first.database.close()
        }
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
                results.set(i, Result { try CounterWriter.increment(Context(store: store), id, policy: policy, saves: saves) })
                group.leave()
            }.start()
        }
        group.wait()
        let conflicts = try results.all.map { try $0!.get() }.reduce(0, +)
        for store in stores { store.database.close() }
        let rows = try shared.first.database.rows(#"SELECT "value", "_version" FROM "Counter" WHERE "_pk" = ?"#, [.int(id.primaryKey)], as: [.int, .int])
        guard case .int(let value)? = rows.first?[0], case .int(let version)? = rows.first?[1] else { Issue.record("no counter row"); return }
        let total = writers * saves
        print("merge stress \(engine) \(policy): \(writers) writers × \(saves) saves: counter \(value), version \(version), \(conflicts) conflicts retried")
        Self.expectFinal(value: value, version: version, writes: total, policy: policy)
        let integrity = engine == .sqlite ? try shared.first.database.rows("PRAGMA integrity_check") : [[.string("ok")]]
        #expect(integrity == [[.string("ok")]])
    }

    /// What the counter must be after `writes` saves under `policy`.
    static func expectFinal(value: Int64, version: Int64, writes total: Int, policy: MergePolicy) {
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
    }

    /// Results of threads, each slot written by one thread before the group is left.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [Result<Int, any Error>?]
        init(_ n: Int) { slots = Array(repeating: nil, count: n) }
        func set(_ i: Int, _ r: Result<Int, any Error>) { lock.lock(); slots[i] = r; lock.unlock() }
        var all: [Result<Int, any Error>?] { lock.lock(); defer { lock.unlock() }; return slots }
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

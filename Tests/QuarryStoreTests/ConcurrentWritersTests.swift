// Two writers on one database, each through its own connection, at the same
// time: no committed change may be lost. The final state must be one that
// running the two writers one after the other (in either order) produces.
//
// The case that lost data before: a batch update whose SET runs object by
// object (`name = uppercase:(name)`, which SQL does not say) read its rows
// *before* opening its transaction, so a plain UPDATE committed in between
// was overwritten with a value computed from the stale read. Here the
// second writer starts at a random moment inside the first one's run (its
// duration is measured first), 20 trials per database. A context save
// racing an object-by-object update is checked the same way: each writes
// its own column, and both columns must end up changed.
//
// An interrupt (Ctrl-C) at any moment of the object-by-object update rolls
// all of it back.
import Foundation
import QuarryPostgres
import QuarryPostgresTestSupport
import QuarrySQLite
import Testing
@testable import QuarryStore

@Suite("Concurrent writers: no lost update", .serialized)
struct ConcurrentWritersTests {
    static let model = try! ModelReader.read(from: Fixture.modelPath)
    /// Rows per store: fewer on PostgreSQL, where each object-by-object
    /// UPDATE is a round trip to the server.
    static func employees(_ engine: TestEngine) -> Int { engine == .sqlite ? 2_000 : 400 }
    /// QUARRY_WRITER_TRIALS lowers it where each trial is slow (the
    /// ThreadSanitizer run, Scripts/sanitizers.sh thread, takes 5).
    static let trials = Int(ProcessInfo.processInfo.environment["QUARRY_WRITER_TRIALS"] ?? "") ?? 20

    /// Two stores over two connections to one fresh database.
    final class Pair: @unchecked Sendable {
        // @unchecked: each store is used by one thread at a time (the test
        // hands `first` to a worker thread and waits for it before reusing it).
        let first: SQLStore
        let second: SQLStore
        let employees: Int
        /// Run after `second` closed and before `first` does (`first`'s
        /// connection drops the PostgreSQL schema).
        private let cleanup: () -> Void
        private var folder: URL?

        init(_ engine: TestEngine) throws {
            employees = ConcurrentWritersTests.employees(engine)
            switch engine {
            case .sqlite:
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-writers-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let path = folder.appendingPathComponent("company.sqlite").path
                first = try SQLStore(path: path, model: ConcurrentWritersTests.model)
                second = try SQLStore(database: try SQLiteConnection(path: path, options: .init(busyTimeout: 30)),
                                      model: ConcurrentWritersTests.model)
                self.folder = folder
                cleanup = {}
            case .postgres:
                let a = try PostgresTestEnvironment.freshDatabase()
                first = try SQLStore(postgres: a, model: ConcurrentWritersTests.model)
                var options = PostgresDatabase.Options()
                options.schema = a.schema
                let b = try PostgresDatabase(url: try PostgresTestEnvironment.requireURL(), options: options)
                second = try SQLStore(postgres: b, model: ConcurrentWritersTests.model)
                cleanup = { _ = try? a.run("DROP SCHEMA IF EXISTS \(PostgresIdentifier.quoted(a.schema)) CASCADE", []) }
            }
        }

        deinit {
            second.database.close()
            cleanup()
            first.database.close()
            if let folder { try? FileManager.default.removeItem(at: folder) }
        }
    }

    /// Empties the store and writes `employees` employees: `e<i>`, aged 20–59
    /// in turn, salary 1000 + i.
    func reseed(_ store: SQLStore, _ employees: Int) throws {
        try store.database.inTransaction {
            try store.database.run(#"DELETE FROM "Employee""#)
        }
        var i = 0
        try store.batchInsert("Employee") {
            guard i < employees else { return nil }
            defer { i += 1 }
            return ["name": .string("e\(i)"), "age": .int(Int64(20 + i % 40)), "salary": .int(Int64(1000 + i))]
        }
    }

    /// name, age and salary of every employee, by the original index.
    func state(_ store: SQLStore) throws -> [(name: String, age: Int64, salary: Int64)] {
        try store.database.rows(#"SELECT "name", "age", "salary" FROM "Employee" ORDER BY "salary""#, as: [.string, .int, .int]).map { row in
            guard case .string(let n) = row[0], case .int(let a) = row[1], case .int(let s) = row[2] else { return ("?", -1, -1) }
            return (n, a, s)
        }
    }

    /// Runs `body` on a thread of its own; the returned closure waits for it.
    func start<T: Sendable>(_ body: @escaping @Sendable () throws -> T) -> () -> Result<T, any Error> {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<T, any Error>?
        Thread { result = Result { try body() }; done.signal() }.start()
        return { done.wait(); return result! }
    }

    static let uppercase = try! Parser.parseExpression("uppercase:(name)")

    @Test(HangGuard.timeLimit(minutes: 5), arguments: TestEngine.available)
    func objectByObjectUpdateKeepsAPlainUpdateCommittedMeanwhile(engine: TestEngine) throws {
        let pair = try Pair(engine)
        // The first writer really is the object-by-object kind.
        #expect(try SQLPlanner.planUpdate(entity: "Employee", predicate: nil, set: [("name", Self.uppercase)],
                                          mapping: pair.first.mapping, now: 0) == nil)
        let aged30 = try Parser.parsePredicate("age == 30")
        let changed = try Parser.parseExpression("'changed'")

        // How long the slow writer takes alone: the window to aim into.
        try reseed(pair.first, pair.employees)
        let clock = ContinuousClock()
        let alone = try clock.measure { try pair.first.batchUpdate(entity: "Employee", predicate: nil, set: [("name", Self.uppercase)]) }
        let window = max(alone / .milliseconds(1), 5)

        var orders: [String: Int] = [:]
        for trial in 0..<Self.trials {
            try reseed(pair.first, pair.employees)
            let slow = start { try pair.first.batchUpdate(entity: "Employee", predicate: nil, set: [("name", Self.uppercase)]) }
            // Somewhere inside the slow writer's run (trial 0 at once).
            Thread.sleep(forTimeInterval: Double(trial) / Double(Self.trials) * window / 1000)
            let plain = try pair.second.batchUpdate(entity: "Employee", predicate: aged30, set: [("name", changed)])
            let uppercased = try slow().get()
            #expect(uppercased == pair.employees)
            #expect(plain == pair.employees / 40)

            // Each row is the slow writer's uppercase of its name — and the
            // age-30 rows also carry the plain update, before ('CHANGED') or
            // after ('changed') it, the same way for all of them.
            var seen: Set<String> = []
            var lost: [String] = [], wrong: [String] = []
            for (i, row) in try state(pair.second).enumerated() {
                if row.age == 30 {
                    seen.insert(row.name)
                    if row.name != "changed" && row.name != "CHANGED" { lost.append(row.name) }
                } else if row.name != "E\(i)" {
                    wrong.append(row.name)
                }
            }
            #expect(lost.isEmpty, "trial \(trial): \(lost.count) rows lost the plain update, e.g. \(lost.prefix(3))")
            #expect(wrong.isEmpty, "trial \(trial): \(wrong.count) rows lost the slow update, e.g. \(wrong.prefix(3))")
            #expect(seen.count == 1, "trial \(trial): the two writers interleaved: \(seen)")
            if let order = seen.first { orders[order == "changed" ? "plain last" : "plain first", default: 0] += 1 }
        }
        // Not a correctness condition, but the test is only worth something
        // if the plain update did land while the slow writer was running.
        print("concurrent writers on \(engine): slow writer alone \(alone), orders \(orders)")
    }

    @Test(HangGuard.timeLimit(minutes: 5), arguments: TestEngine.available)
    func contextSaveAndObjectByObjectUpdateBothLand(engine: TestEngine) throws {
        let pair = try Pair(engine)
        try reseed(pair.first, pair.employees)
        let clock = ContinuousClock()
        let alone = try clock.measure { try pair.first.batchUpdate(entity: "Employee", predicate: nil, set: [("name", Self.uppercase)]) }
        let window = max(alone / .milliseconds(1), 5)

        for trial in 0..<Self.trials {
            try reseed(pair.first, pair.employees)
            // The context reads first, edits salaries, and saves while the
            // batch update (names) runs.
            let context = Context(store: pair.second)
            // The batch update changes the rows the context read: under the
            // default `.error` policy that save would be refused as a
            // conflict (MergePolicyTests); key by key, both changes land.
            context.mergePolicy = .mergeByPropertyObjectTrump
            let objects = try context.fetch(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("age == 30")))
            for object in objects {
                guard case .int(let s)? = object["salary"] else { Issue.record("salary"); continue }
                try object.setValue(.int(s + 1_000_000), forKey: "salary")
            }
            let slow = start { try pair.first.batchUpdate(entity: "Employee", predicate: nil, set: [("name", Self.uppercase)]) }
            Thread.sleep(forTimeInterval: Double(trial) / Double(Self.trials) * window / 1000)
            try context.save()
            #expect(try slow().get() == pair.employees)

            let rows = try pair.second.database.rows(#"SELECT "name", "age", "salary" FROM "Employee""#, as: [.string, .int, .int])
            #expect(rows.count == pair.employees)
            var lostNames = 0, lostSalaries = 0
            for row in rows {
                guard case .string(let name) = row[0], case .int(let age) = row[1], case .int(let salary) = row[2] else { Issue.record("row"); continue }
                let index = salary % 1_000_000 - 1000
                if name != "E\(index)" { lostNames += 1 }
                if (salary >= 1_000_000) != (age == 30) { lostSalaries += 1 }
            }
            #expect(lostNames == 0, "trial \(trial): \(lostNames) names lost the batch update")
            #expect(lostSalaries == 0, "trial \(trial): \(lostSalaries) salaries lost the context's save")
        }
    }

    @Test(HangGuard.timeLimit(minutes: 5), arguments: TestEngine.available)
    func anInterruptAtAnyMomentRollsTheWholeUpdateBack(engine: TestEngine) throws {
        let pair = try Pair(engine)
        try reseed(pair.first, pair.employees)
        let before = try state(pair.second).map(\.name)
        let clock = ContinuousClock()
        let alone = try clock.measure { try pair.first.batchUpdate(entity: "Employee", predicate: nil, set: [("name", Self.uppercase)]) }
        let window = max(alone / .milliseconds(1), 5)
        try reseed(pair.first, pair.employees)
        #expect(try state(pair.second).map(\.name) == before)

        let interrupter = pair.first.database.interrupter
        var interrupted = 0
        for trial in 0..<10 {
            let slow = start { try pair.first.batchUpdate(entity: "Employee", predicate: nil, set: [("name", Self.uppercase)]) }
            // From early in the read to late in the writes.
            Thread.sleep(forTimeInterval: (0.05 + 0.9 * Double(trial) / 10) * window / 1000)
            interrupter()
            switch slow() {
            case .success(let n):
                // Only acceptable if the interrupt came after COMMIT: then
                // every row is changed (all or nothing, never part).
                #expect(n == pair.employees)
                #expect(try state(pair.second).map(\.name) == before.map { $0.uppercased() }, "trial \(trial): a partial update committed")
                try reseed(pair.first, pair.employees)
            case .failure(let error):
                interrupted += 1
                #expect(Self.isInterruption(error), "trial \(trial): \(error)")
                #expect(try state(pair.second).map(\.name) == before, "trial \(trial): an interrupted update left changes behind")
            }
        }
        // The earliest interrupts land well inside the run.
        #expect(interrupted >= 3, "only \(interrupted) of 10 interrupts landed inside the update")
        // An interrupt that stopped earlier work does not stop the next.
        #expect(try pair.first.batchUpdate(entity: "Employee", predicate: nil, set: [("name", Self.uppercase)]) == pair.employees)
    }

    static func isInterruption(_ error: any Error) -> Bool {
        if let e = error as? SQLiteError { return e.kind == .interrupted }
        if let e = error as? PostgresDatabaseError { return e.kind == .canceled }
        return false
    }
}

/// Filtering in memory runs no SQL statement for SQLite to interrupt: the
/// store checks for an interrupt as it goes, so Ctrl-C stops `--engine
/// memory` and residual filtering too — and an interrupt from before a
/// fetch does not stop it.
@Suite("Interrupting work in memory")
struct MemoryInterruptTests {
    @Test(arguments: TestEngine.available)
    func anInterruptStopsFilteringInMemory(engine: TestEngine) throws {
        let store = try engine.emptyStore(model: ConcurrentWritersTests.model)
        var i = 0
        try store.batchInsert("Employee") {
            guard i < 10_000 else { return nil }
            defer { i += 1 }
            return ["name": .string("e\(i)"), "age": .int(Int64(20 + i % 40))]
        }
        let all = try store.fetch(FetchRequest(entity: "Employee"))
        // The 5,000th object's test asks to stop: filtering ends at the next check.
        var tested = 0
        do {
            _ = try store.filterInterruptibly(all) { _ in
                tested += 1
                if tested == 5_000 { store.database.interrupt() }
                return true
            }
            Issue.record("filtering ran to the end despite the interrupt")
        } catch {
            #expect(ConcurrentWritersTests.isInterruption(error), "\(error)")
        }
        #expect(tested > 5_000 && tested <= 5_000 + 1_024)

        // A new fetch forgets the interrupt that stopped the one before.
        let memory = try store.fetch(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("age == 30")), engine: .memory)
        #expect(memory.count == 250)
    }
}

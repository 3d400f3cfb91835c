// Queue contexts and their container (QueueContext.swift,
// StoreContainer.swift), on SQLite and PostgreSQL: `perform` runs on the
// context's own queue and hands back the closure's value or error;
// `performAndWait` nests; eight background contexts saving to one counter
// at once lose no increment under the `.error` policy with retries; a save
// reaches the contexts that merge changes and not the others; the view
// context runs on the main queue; contexts go when their users drop them.
// ThreadSanitizer runs this suite in CI (Scripts/sanitizers.sh thread).
import Foundation
import QuarryPostgres
import QuarryPostgresTestSupport
import QuarrySQLite
import QuarryStressWriting
import Testing
@testable import QuarryStore

@Suite("Queue contexts and their container", .serialized)
struct QueueContextTests {
    static let model = MergePolicyTests.model
    /// The hang guard of these async tests. Generous: a test's clock runs
    /// from its start, and its `perform`s resume only when the cooperative
    /// pool (two threads on CI's machine) has a thread free — in one CI run
    /// the whole suite's blocking tests held both for minutes and two of
    /// these exceeded a one-minute guard without hanging. A real hang still fails.
    static let hangMinutes = 10

    /// A container on a fresh database, with its view context on a serial
    /// queue of the test's (the main queue is tested on its own), and what
    /// removes the database afterwards.
    final class Setup: @unchecked Sendable {
        // @unchecked: set once in init.
        let container: StoreContainer
        /// Another container over the same database (as another process would open it).
        let sibling: () throws -> StoreContainer
        /// The PostgreSQL URL and schema (nil on SQLite).
        let postgres: (url: PostgresURL, schema: String)?
        private let cleanup: () -> Void

        /// `history`: the store records persistent history (turned on before any context opens it).
        init(_ engine: TestEngine, viewQueue: DispatchQueue = DispatchQueue(label: "test.view"), history: Bool = false) throws {
            let model = QueueContextTests.model
            switch engine {
            case .sqlite:
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-queue-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let path = folder.appendingPathComponent("counters.sqlite").path
                if history {
                    let first = try SQLStore(path: path, model: model)
                    try first.setHistoryTracking(true)
                    first.database.close()
                }
                container = try StoreContainer(path: path, model: model, viewQueue: viewQueue)
                sibling = { try StoreContainer(path: path, model: model, viewQueue: DispatchQueue(label: "test.sibling")) }
                postgres = nil
                cleanup = { try? FileManager.default.removeItem(at: folder) }
            case .postgres:
                let first = try PostgresTestEnvironment.freshDatabase()
                let schema = first.schema
                let url = try PostgresTestEnvironment.requireURL()
                // The first connection makes the tables, before any context opens one.
                let store = try SQLStore(postgres: first, model: model)
                if history { try store.setHistoryTracking(true) }
                let open: @Sendable () throws -> SQLStore = {
                    var options = PostgresDatabase.Options()
                    options.schema = schema
                    return try SQLStore(postgres: try PostgresDatabase(url: url, options: options), model: model)
                }
                container = try StoreContainer(model: model, viewQueue: viewQueue, opening: open)
                sibling = { try StoreContainer(model: model, viewQueue: DispatchQueue(label: "test.sibling"), opening: open) }
                postgres = (url, schema)
                cleanup = {
                    _ = try? first.run("DROP SCHEMA IF EXISTS \(PostgresIdentifier.quoted(schema)) CASCADE", [])
                    first.close()
                }
            }
        }

        deinit { cleanup() }
    }

    /// Inserts a counter named `name` with `value` and returns its ID.
    static func insertCounter(_ context: QueueContext, _ name: String, _ value: Int64) async throws -> ObjectID {
        try await context.perform { context in
            let counter = try context.insert("Counter")
            try counter.setValue(.string(name), forKey: "name")
            try counter.setValue(.int(value), forKey: "value")
            try context.save()
            return counter.objectID
        }
    }

    @Test(HangGuard.timeLimit(minutes: Self.hangMinutes), arguments: TestEngine.available)
    func performRunsOnTheContextsQueueAndReturnsTheValue(engine: TestEngine) async throws {
        let fixture = try Setup(engine)
        let background = try fixture.container.newBackgroundContext(name: "import")
        // A mark of the test's own on the queue, read back inside the closure.
        let mark = DispatchSpecificKey<String>()
        background.queue.setSpecific(key: mark, value: "import queue")
        let id = try await Self.insertCounter(background, "c", 41)
        let seen = try await background.perform { context in
            let counter = context.object(with: id)
            return (DispatchQueue.getSpecific(key: mark), counter["value"], context.name)
        }
        #expect(seen.0 == "import queue")
        #expect(seen.1 == .int(41))
        #expect(seen.2 == "import")
        #expect(!background.isOnQueue)
        #expect(id.isTemporary == false)
    }

    @Test(HangGuard.timeLimit(minutes: Self.hangMinutes), arguments: TestEngine.available)
    func performThrowsTheClosuresErrorAndTheContextCarriesOn(engine: TestEngine) async throws {
        let fixture = try Setup(engine)
        let background = try fixture.container.newBackgroundContext()
        // Typed: the error comes back as the closure's own type.
        do {
            _ = try await background.perform { (context) throws(ContextError) -> Int in
                do { _ = try context.insert("NoSuchEntity") } catch let error as ContextError { throw error } catch { return 0 }
                return 1
            }
            Issue.record("inserting an unknown entity did not throw")
        } catch {
            guard case .unknownEntity(let name, _) = error else { Issue.record("wrong error \(error)"); return }
            #expect(name == "NoSuchEntity")
        }
        // A closure that cannot throw needs no `try`, and the context still works.
        let count = await background.perform { context in (try? context.count(FetchRequest(entity: "Counter"))) ?? -1 }
        #expect(count == 0)
    }

    @Test(HangGuard.timeLimit(minutes: Self.hangMinutes), arguments: TestEngine.available)
    func performAndWaitNestsOnItsOwnQueue(engine: TestEngine) async throws {
        let fixture = try Setup(engine)
        let background = try fixture.container.newBackgroundContext()
        let id = try await Self.insertCounter(background, "c", 7)
        // Inside `perform`, a `performAndWait` on the same context runs inline.
        let nested = await background.perform { outer in
            background.performAndWait { inner in (outer === inner, background.isOnQueue, inner.object(with: id)["value"]) }
        }
        #expect(nested.0 && nested.1)
        #expect(nested.2 == .int(7))
        // From a thread of the test's: waits for the queue.
        let value = background.performAndWait { $0.object(with: id)["value"] }
        #expect(value == .int(7))
    }

    /// Writers × saves for the counter race: small here, as each save is a
    /// transaction (a round trip on PostgreSQL); QUARRY_QUEUE_STRESS=8x5000
    /// runs the issue's 8 writers × 5,000 saves on each database.
    static let stress: (writers: Int, saves: Int)? = {
        let parts = (ProcessInfo.processInfo.environment["QUARRY_QUEUE_STRESS"] ?? "").split(separator: "x").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }()
    static let writers = stress?.writers ?? 8
    static func saves(_ engine: TestEngine) -> Int { stress?.saves ?? (engine == .sqlite ? 40 : 15) }

    @Test(HangGuard.timeLimit(minutes: stress == nil ? hangMinutes : 60), arguments: TestEngine.available)
    func eightBackgroundContextsIncrementingOneCounterLoseNothing(engine: TestEngine) async throws {
        let fixture = try Setup(engine)
        let id = try await Self.insertCounter(fixture.container.viewContext, "shared", 0)
        let saves = Self.saves(engine)
        let started = ContinuousClock.now
        let conflicts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<Self.writers {
                let writer = try fixture.container.newBackgroundContext()
                group.addTask {
                    try await writer.perform { context in
                        // `.error`: a save that finds the row changed since
                        // it was read throws; the writer reads again and retries.
                        try CounterWriter.increment(context, id, policy: .error, saves: saves)
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        let elapsed = ContinuousClock.now - started
        let total = Int64(Self.writers * saves)
        let final = try await fixture.container.viewContext.perform { context in
            // The view context inserted the counter and merges nothing: it
            // reads the saves only once it lets go of what it holds.
            let counter = context.object(with: id)
            context.refresh(counter, mergeChanges: false)
            return (counter["value"], try context.store.database.rows(#"SELECT "_version" FROM "Counter""#, as: [.int]))
        }
        print("queue contexts \(engine): \(Self.writers) writers × \(saves) saves, \(conflicts) conflicts retried, \(elapsed)")
        #expect(final.0 == .int(total), "an increment was lost or doubled")
        // Inserted at version 1, raised once by each save.
        #expect(final.1 == [[.int(total + 1)]])
        if engine == .sqlite {
            let integrity = try await fixture.container.viewContext.perform { try $0.store.database.rows("PRAGMA integrity_check") }
            #expect(integrity == [[.string("ok")]])
        }
    }

    @Test(HangGuard.timeLimit(minutes: Self.hangMinutes), arguments: TestEngine.available)
    func aSaveReachesTheContextsThatMergeAndOnlyThem(engine: TestEngine) async throws {
        let fixture = try Setup(engine)
        let view = fixture.container.viewContext
        view.automaticallyMergesChanges = true
        let bystander = try fixture.container.newBackgroundContext(name: "bystander")
        let writer = try fixture.container.newBackgroundContext(name: "writer")
        let kept = try await Self.insertCounter(writer, "kept", 1)
        let doomed = try await Self.insertCounter(writer, "doomed", 2)
        // Both readers load the two rows before the write.
        for reader in [view, bystander] {
            let values = await reader.perform { context in [context.object(with: kept)["value"], context.object(with: doomed)["value"]] }
            #expect(values == [.int(1), .int(2)])
        }
        try await writer.perform { context in
            try context.object(with: kept).setValue(.int(100), forKey: "value")
            try context.delete(context.object(with: doomed))
            try context.save()
        }
        // The merge was queued on the view context when the save committed,
        // so it runs before this.
        let merged = await view.perform { context in
            (context.object(with: kept)["value"], context.registeredObject(for: doomed) == nil)
        }
        #expect(merged.0 == .int(100))
        #expect(merged.1, "the deleted object stayed in the merging context")
        // The bystander merges nothing: it keeps what it read until it refreshes.
        let stale = await bystander.perform { context in
            let counter = context.object(with: kept)
            let before = counter["value"]
            context.refresh(counter, mergeChanges: false)
            return (before, counter["value"])
        }
        #expect(stale.0 == .int(1))
        #expect(stale.1 == .int(100))
    }

    @Test(HangGuard.timeLimit(minutes: Self.hangMinutes), arguments: [TestEngine.sqlite])
    func theViewContextRunsOnTheMainQueue(engine: TestEngine) async throws {
        let fixture = try Setup(engine, viewQueue: .main)
        let view = fixture.container.viewContext
        // The main queue, not the main thread: once the runner calls
        // dispatchMain(), Linux drains the main queue on another thread.
        let mark = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: mark, value: "main queue")
        defer { DispatchQueue.main.setSpecific(key: mark, value: nil) }
        let seen = await view.perform { _ in
            // The main actor's executor is the main queue: the closure is on it,
            // and a performAndWait inside nests instead of waiting for itself.
            (DispatchQueue.getSpecific(key: mark), MainActor.assumeIsolated { true }, view.performAndWait { _ in view.isOnQueue })
        }
        #expect(seen.0 == "main queue")
        #expect(seen.1 && seen.2)
        let background = try fixture.container.newBackgroundContext()
        let elsewhere = await background.perform { _ in DispatchQueue.getSpecific(key: mark) }
        #expect(elsewhere == nil)
    }

    @Test(arguments: TestEngine.available)
    func contextsGoWhenTheirUsersDropThem(engine: TestEngine) async throws {
        let fixture = try Setup(engine)
        weak var gone: QueueContext?
        do {
            let background = try fixture.container.newBackgroundContext()
            _ = try await Self.insertCounter(background, "c", 1)
            gone = background
            #expect(fixture.container.liveContexts.count == 2)
        }
        // The queued block that held it is freed just after it resumed this
        // task: give it a moment, then nothing may hold the context.
        for _ in 0..<200 where gone != nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(gone == nil)
        #expect(fixture.container.liveContexts.map(\.name) == ["view"])
    }

    /// The container prunes a dropped context while it delivers a save
    /// (StoreContainer.deliver): the save still reaches the context that merges.
    @Test(arguments: TestEngine.available)
    func aSaveAfterAContextWasDroppedStillReachesTheOnesThatMerge(engine: TestEngine) async throws {
        let fixture = try Setup(engine)
        let view = fixture.container.viewContext
        view.automaticallyMergesChanges = true
        let writer = try fixture.container.newBackgroundContext(name: "writer")
        let id = try await Self.insertCounter(writer, "c", 1)
        #expect(await view.perform { $0.object(with: id)["value"] } == .int(1))
        weak var gone: QueueContext?
        do {
            let dropped = try fixture.container.newBackgroundContext(name: "dropped")
            dropped.automaticallyMergesChanges = true
            _ = await dropped.perform { _ in 0 }
            gone = dropped
        }
        for _ in 0..<200 where gone != nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(gone == nil)
        try await writer.perform { context in
            try context.object(with: id).setValue(.int(5), forKey: "value")
            try context.save()
        }
        #expect(await view.perform { $0.object(with: id)["value"] } == .int(5))
        #expect(fixture.container.liveContexts.map(\.name) == ["view", "writer"])
    }

    /// Reads `id`'s value in `context` until it is `expected` (or 10 s pass).
    static func waitForValue(_ context: QueueContext, _ id: ObjectID, _ expected: Value) async throws -> Value? {
        var seen: Value?
        for _ in 0..<1_000 {
            seen = await context.perform { $0.object(with: id)["value"] }
            if seen == expected { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        return seen
    }

    @Test(HangGuard.timeLimit(minutes: Self.hangMinutes), arguments: TestEngine.available.filter { $0 == .postgres })
    func anotherSessionsCommitReachesAListeningContainer(engine: TestEngine) async throws {
        let setup = try Setup(engine, history: true)
        guard let postgres = setup.postgres else { return }
        let here = setup.container, there = try setup.sibling(), deaf = try setup.sibling()
        let id = try await Self.insertCounter(there.viewContext, "c", 1)
        for container in [here, deaf] {
            container.viewContext.automaticallyMergesChanges = true
            #expect(await container.viewContext.perform { $0.object(with: id)["value"] } == .int(1))
        }
        var options = PostgresDatabase.Options()
        options.schema = postgres.schema
        let listener = try here.listenForHistory(url: postgres.url, options: options)
        defer { listener.stop() }
        #expect(listener.schema == postgres.schema)
        // Another container — another session, as another process's would be — saves.
        try await there.performBackgroundTask { context in
            try context.object(with: id).setValue(.int(5), forKey: "value")
            try context.save()
        }
        #expect(try await Self.waitForValue(here.viewContext, id, .int(5)) == .int(5), "the listening container never merged the commit")
        // A container that does not listen merges its own contexts' saves only.
        #expect(await deaf.viewContext.perform { $0.object(with: id)["value"] } == .int(1))
    }

    @Test(HangGuard.timeLimit(minutes: Self.hangMinutes), arguments: TestEngine.available.filter { $0 == .postgres })
    func aListenerHearsItsSchemaOnlyAndNoRollback(engine: TestEngine) async throws {
        let mine = try Setup(engine, history: true), theirs = try Setup(engine, history: true)
        guard let postgres = mine.postgres else { return }
        let heard = Heard()
        var options = PostgresDatabase.Options()
        options.schema = postgres.schema
        let listener = try PostgresHistoryListener(url: postgres.url, options: options) { heard.add($0) }
        defer { listener.stop() }
        // Another schema's commit, then a rolled-back save here, then a commit
        // here: notifications come in commit order, so once the last is heard
        // the others would have been.
        _ = try await Self.insertCounter(theirs.container.viewContext, "theirs", 1)
        let failing = try mine.container.newBackgroundContext()
        let rolledBack = await failing.perform { context in
            do {
                try context.store.database.inTransaction {
                    _ = try context.store.insert("Counter", ["name": "rolled back", "value": 0])
                    throw Abandon()
                }
                return false
            } catch { return error is Abandon }
        }
        #expect(rolledBack)
        let id = try await Self.insertCounter(mine.container.viewContext, "mine", 1)
        for _ in 0..<1_000 where heard.tokens.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(heard.tokens.count == 1, "heard \(heard.tokens)")
        let last = try await mine.container.viewContext.perform { try $0.store.lastHistoryToken() }
        #expect(heard.tokens == [last].compactMap { $0 })
        #expect(try await mine.container.viewContext.perform { try $0.count(FetchRequest(entity: "Counter")) } == 1)
        _ = id
    }

    struct Abandon: Error {}

    /// Tokens a listener heard, from its event-loop thread.
    final class Heard: @unchecked Sendable {
        // @unchecked: guarded by `lock`.
        private let lock = NSLock()
        private var list: [HistoryToken] = []
        func add(_ token: HistoryToken) { lock.withLock { list.append(token) } }
        var tokens: [HistoryToken] { lock.withLock { list } }
    }

    @Test(HangGuard.timeLimit(minutes: Self.hangMinutes), arguments: TestEngine.available)
    func aContextCanCatchUpWithTheHistoryBeforeEachPerform(engine: TestEngine) async throws {
        let setup = try Setup(engine, history: true)
        let here = setup.container, there = try setup.sibling()
        let id = try await Self.insertCounter(there.viewContext, "c", 1)
        let catching = try here.newBackgroundContext(name: "catching")
        catching.mergesHistoryBeforeEachPerform = true
        let plain = here.viewContext
        for context in [catching, plain] {
            #expect(await context.perform { $0.object(with: id)["value"] } == .int(1))
        }
        try await there.performBackgroundTask { context in
            try context.object(with: id).setValue(.int(9), forKey: "value")
            try context.save()
        }
        // The next perform reads the transaction first; a context not asking keeps what it read.
        #expect(await catching.perform { $0.object(with: id)["value"] } == .int(9))
        #expect(catching.performAndWait { $0.object(with: id)["value"] } == .int(9))
        #expect(await plain.perform { $0.object(with: id)["value"] } == .int(1))
    }

    @Test
    func aPrivateDatabaseIsRefused() throws {
        #expect(throws: ContainerError.privateDatabase(path: ":memory:")) {
            try StoreContainer(path: ":memory:", model: Self.model)
        }
        #expect(ContainerError.privateDatabase(path: ":memory:").report.code == "R002")
    }
}

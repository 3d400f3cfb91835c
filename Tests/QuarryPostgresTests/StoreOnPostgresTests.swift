// The store on PostgreSQL, beyond what the engine-parametrized store tests
// cover: a schema created once and reopened; a model that does not match the
// tables; servers that cannot be reached or refuse the user; and a bounded
// load test — 8 clients fetching and batch-updating at once, with no errors
// and no lost updates.
import Foundation
import QuarryPostgres
import QuarryPostgresTestSupport
import Testing

@Suite("Store on PostgreSQL", .postgres)
struct StoreOnPostgresTests {
    static let companyPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/Models/Company.yaml").path

    static let countersModel = """
    entities:
      Counter:
        attributes:
          name: { type: string, optional: false }
          value: { type: integer64, default: 0 }
    """

    /// The URL of a new schema on the test server.
    func freshURL() throws -> String {
        var url = try PostgresTestEnvironment.requireURL()
        url.schema = PostgresTestEnvironment.freshSchemaName()
        return url.description
    }

    @Test func aStoreIsCreatedOnceAndReopenedWithItsSavedModel() throws {
        let url = try freshURL()
        let model = try ModelReader.read(from: Self.companyPath)
        do {
            let store = try SQLStore(postgres: url, model: model, modelFile: Self.companyPath)
            try store.insert("Department", ["name": .string("Sales")])
            store.database.close()
        }
        let saved = try #require(try SQLStore.storedModel(postgres: url))
        #expect(saved.entityNames == model.entityNames)
        let reopened = try SQLStore(postgres: url, model: saved)
        #expect(try reopened.count(FetchRequest(entity: "Department")) == 1)
        // Quarry's functions are there: a [cd] comparison runs in SQL.
        let plan = try reopened.explain(FetchRequest(entity: "Department", predicate: try Parser.parsePredicate("name ==[cd] 'SALES'")))
        #expect(plan.residual == nil)
        #expect(try reopened.fetch(FetchRequest(entity: "Department", predicate: try Parser.parsePredicate("name ==[cd] 'SALES'"))).count == 1)
    }

    @Test func aSchemaWithoutAStoreHasNoSavedModel() throws {
        #expect(try SQLStore.storedModel(postgres: try freshURL()) == nil)
    }

    @Test func aDifferentModelIsRefusedAndNothingChanges() throws {
        let url = try freshURL()
        let store = try SQLStore(postgres: url, model: try ModelReader.read(from: Self.companyPath))
        let tables = try store.database.tableNames().sorted()
        let other = try ModelReader.read(yaml: Self.countersModel, file: "counters.yaml")
        do {
            _ = try SQLStore(postgres: url, model: other)
            Issue.record("a store for another model opened")
        } catch let error as StoreError {
            guard case .schemaMismatch(_, let missing, _, _) = error else { Issue.record("\(error)"); return }
            #expect(missing == ["Counter"])
            #expect(error.description.contains("was not made for this model"))
        }
        #expect(try store.database.tableNames().sorted() == tables)
    }

    static let unreachable: [(String, String)] = [
        ("postgres://postgres@127.0.0.1:1/postgres", "127.0.0.1:1"),
        ("postgres://postgres@127.0.0.1:1/postgres?connect_timeout=2", "refused"),
    ]

    @Test(arguments: unreachable)
    func anUnreachableServerIsAClearError(url: String, fragment: String) throws {
        let model = try ModelReader.read(from: Self.companyPath)
        let error = #expect(throws: PostgresDatabaseError.self) { try SQLStore(postgres: url, model: model) }
        #expect(error.map { "\($0)".contains(fragment) } == true, "\(String(describing: error))")
    }

    @Test func anUnknownRoleOrDatabaseIsAClearError() throws {
        var url = try PostgresTestEnvironment.requireURL()
        let model = try ModelReader.read(from: Self.companyPath)
        var wrongUser = url
        wrongUser.user = "nobody_\(UInt32.random(in: 0 ... .max))"
        let userError = #expect(throws: PostgresDatabaseError.self) { try SQLStore(postgres: wrongUser.description, model: model) }
        #expect(userError.map { "\($0)".contains(wrongUser.user) } == true, "\(String(describing: userError))")
        url.database = "missing_\(UInt32.random(in: 0 ... .max))"
        let dbError = #expect(throws: PostgresDatabaseError.self) { try SQLStore(postgres: url.description, model: model) }
        #expect(dbError.map { "\($0)".contains(url.database) } == true, "\(String(describing: dbError))")
    }

    /// 8 clients for a bounded time (60 s in CI, 10 s otherwise; override
    /// with QUARRY_LOAD_SECONDS): each increments its own counter and a
    /// shared one with batch updates and fetches between; at the end every
    /// counter equals the increments its clients saw succeed.
    @Test func eightClientsLoseNoUpdates() throws {
        let url = try freshURL()
        let model = try ModelReader.read(yaml: Self.countersModel, file: "counters.yaml")
        let setup = try SQLStore(postgres: url, model: model)
        let clients = 8
        for i in 0..<clients { try setup.insert("Counter", ["name": .string("c\(i)")]) }
        try setup.insert("Counter", ["name": .string("shared")])
        let environment = ProcessInfo.processInfo.environment
        let seconds = environment["QUARRY_LOAD_SECONDS"].flatMap(Double.init) ?? (PostgresTestEnvironment.isRequired ? 60 : 10)
        let deadline = Date().addingTimeInterval(seconds)

        let results = ClientResults(count: clients)
        // A thread per client (concurrentPerform would run only as many at
        // once as there are cores).
        let finished = DispatchGroup()
        for i in 0..<clients {
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                Self.client(i, url: url, model: model, deadline: deadline, results: results)
            }
        }
        finished.wait()
        #expect(results.errors.isEmpty, "\(results.errors)")
        setup.forgetObjects()
        var total = 0
        for i in 0..<clients {
            let counter = try setup.fetch(FetchRequest(entity: "Counter", predicate: try Parser.parsePredicate("name == %@", arguments: [.string("c\(i)")])))
            #expect(counter.first?.value(forKey: "value") == .int(Int64(results.done[i])))
            #expect(results.done[i] > 0)
            total += results.done[i]
        }
        let shared = try setup.fetch(FetchRequest(entity: "Counter", predicate: try Parser.parsePredicate("name == 'shared'")))
        #expect(shared.first?.value(forKey: "value") == .int(Int64(total)))
    }

    /// One load-test client: its own connection, until the deadline.
    static func client(_ i: Int, url: String, model: Model, deadline: Date, results: ClientResults) {
        do {
            let store = try SQLStore(postgres: url, model: model)
            defer { store.database.close() }
            let own = try Parser.parsePredicate("name == %@", arguments: [.string("c\(i)")])
            let shared = try Parser.parsePredicate("name == 'shared'")
            let increment = [("value", try Parser.parseExpression("value + 1"))]
            var done = 0, reads = 0
            while Date() < deadline {
                // (Issues are collected and checked on the test's thread.)
                let a = try store.batchUpdate(entity: "Counter", predicate: own, set: increment)
                let b = try store.batchUpdate(entity: "Counter", predicate: shared, set: increment)
                if a != 1 || b != 1 { results.fail(i, "updated \(a) and \(b) rows, not 1 and 1"); return }
                done += 1
                var request = FetchRequest(entity: "Counter", predicate: try Parser.parsePredicate("value >= 0"),
                                           sortDescriptors: [QuerySortDescriptor("value", ascending: false)])
                request.fetchLimit = 3
                reads += try store.fetch(request).count
                store.forgetObjects()
            }
            results.set(i, done: done, reads: reads)
        } catch {
            results.fail(i, error)
        }
    }
}

/// What the load test's clients report, from their threads.
final class ClientResults: @unchecked Sendable {
    // @unchecked: every field is guarded by `lock`.
    private let lock = NSLock()
    private var _done: [Int]
    private var _errors: [String] = []

    init(count: Int) { _done = Array(repeating: 0, count: count) }

    func set(_ i: Int, done: Int, reads: Int) { lock.withLock { _done[i] = done } }
    func fail(_ i: Int, _ error: Any) { lock.withLock { _errors.append("client \(i): \(error)") } }
    var done: [Int] { lock.withLock { _done } }
    var errors: [String] { lock.withLock { _errors } }
}

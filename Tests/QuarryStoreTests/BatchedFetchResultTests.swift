// Batched fetch results (`Context.fetchBatched`): the same objects in the
// same order as a plain fetch, one query per batch on first read, at most
// `maximumLoadedBatches` batches alive, dropped batches evicted from the
// context unless someone still holds their objects or they have unsaved
// changes — and uniquing kept throughout: a row read twice while its object
// is referenced is the same object.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Context: batched fetch results", .serialized)
struct BatchedFetchResultTests {
    static let stores = EngineStores { try Fixture.store(engine: $0) }

    func request(_ format: String = "TRUEPREDICATE", batch: Int) throws -> FetchRequest {
        var r = FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate(format),
                             sortDescriptors: [QuerySortDescriptor("salary"), QuerySortDescriptor("name")])
        r.fetchBatchSize = batch
        return r
    }

    /// Registered employees (departments and projects read on the way aside).
    func employeesRegistered(_ context: Context) -> Int {
        context.registeredObjects.filter { $0.entity.name == "Employee" }.count
    }

    @Test(arguments: TestEngine.available, [1, 7, 20, 160, 500])
    func sameObjectsInTheSameOrderAsAPlainFetch(engine: TestEngine, batch: Int) throws {
        let store = try Self.stores.store(engine)
        let reference = Context(store: store)
        let plain = try reference.fetch(try request(batch: 0))
        let context = Context(store: store)
        let batched = try context.fetchBatched(try request(batch: batch))
        #expect(batched.count == 160 && batched.batchCount == (160 + batch - 1) / batch)
        #expect(batched.map(\.objectID) == plain.map(\.objectID))
        #expect(batched.map { $0["name"] } == plain.map { $0["name"] })
        #expect(batched.map { $0["salary"] } == plain.map { $0["salary"] })
        // The department of each row is the same row as the plain fetch's.
        #expect(batched.map { $0.object(forKey: "department")?.objectID } == plain.map { $0.object(forKey: "department")?.objectID })
    }

    @Test(arguments: TestEngine.available)
    func oneQueryPerBatchOnFirstRead(engine: TestEngine) throws {
        let (store, db) = try Self.stores.store(engine).counted()
        let context = Context(store: store)
        let before = db.count
        let result = try context.fetchBatched(try request(batch: 20))
        #expect(db.count == before + 1, "the fetch itself: one query for the IDs")
        #expect(result.loadedBatchIndices.isEmpty && employeesRegistered(context) == 0)
        _ = result[25]["name"]
        #expect(db.count == before + 2 && context.statistics.batchLoads == 1)
        #expect(result.loadedBatchIndices == [1])
        // The rest of that batch is loaded: reading it runs nothing.
        for i in 20..<40 { _ = result[i]["name"] }
        #expect(db.count == before + 2)
        // Every batch once, in order: seven more queries.
        for object in result { _ = object["name"] }
        #expect(db.count == before + 9 && context.statistics.batchLoads == 8)
    }

    @Test(arguments: TestEngine.available, [1, 2, 3])
    func atMostTheMaximumNumberOfBatchesStaysAlive(engine: TestEngine, maximum: Int) throws {
        let store = try Self.stores.store(engine)
        let context = Context(store: store)
        let result = try context.fetchBatched(try request(batch: 20), maximumLoadedBatches: maximum)
        var most = 0
        for i in result.indices {
            _ = result[i]["name"]
            #expect(result.loadedBatchIndices.count <= maximum)
            most = max(most, employeesRegistered(context))
        }
        #expect(most == maximum * 20, "the context held \(most) employees at most")
        #expect(result.loadedBatchIndices == Array((8 - maximum)..<8))
        #expect(employeesRegistered(context) == maximum * 20)
        // Reading back the least recent batch reloads it and drops another.
        _ = result[0]["name"]
        #expect(result.loadedBatchIndices.last == 0 && result.loadedBatchIndices.count == maximum)
    }

    @Test(arguments: TestEngine.available)
    func heldObjectsStayUniqueAndOthersAreEvicted(engine: TestEngine) throws {
        let store = try Self.stores.store(engine)
        let context = Context(store: store)
        let result = try context.fetchBatched(try request(batch: 20), maximumLoadedBatches: 2)
        let kept = result[5]
        let forgotten = result[6].objectID
        for object in result { _ = object["name"] }
        #expect(!result.loadedBatchIndices.contains(0))
        // One no one kept has left the context (a new read makes a new one)…
        #expect(context.registeredObject(for: forgotten) == nil)
        // …while the object the caller kept is still the context's object for its row…
        #expect(context.registeredObject(for: kept.objectID) === kept)
        #expect(context.object(with: kept.objectID) === kept)
        #expect(result[5] === kept)
        #expect(try context.fetch(try request(batch: 0)).first { $0.objectID == kept.objectID } === kept)
        #expect(kept.context === context && kept["name"] != nil)
    }

    @Test(arguments: TestEngine.available)
    func changedObjectsAreNeverEvicted(engine: TestEngine) throws {
        let store = try Self.stores.store(engine)
        let context = Context(store: store)
        let result = try context.fetchBatched(try request(batch: 10), maximumLoadedBatches: 1)
        let id = result[3].objectID
        try result[3].setValue(.int(123_456), forKey: "salary")
        for object in result { _ = object["name"] }
        #expect(!result.loadedBatchIndices.contains(0))
        let changed = try #require(context.registeredObject(for: id))
        #expect(changed.isUpdated && changed["salary"] == .int(123_456))
        #expect(result[3] === changed && context.hasChanges)
        context.rollback()
    }

    @Test(arguments: TestEngine.available)
    func residualPredicatesAreJudgedABatchAtATime(engine: TestEngine) throws {
        let store = try Self.stores.store(engine)
        // `**` has no SQL: the whole predicate is a residual, judged in memory.
        let format = "salary ** 2 > 10000000000"
        if engine == .sqlite { #expect(try store.explain(try request(format, batch: 0)).residual != nil) }
        let reference = Context(store: store)
        let plain = try reference.fetch(try request(format, batch: 0))
        let context = Context(store: store)
        let result = try context.fetchBatched(try request(format, batch: 16), maximumLoadedBatches: 2)
        #expect(!plain.isEmpty && result.map(\.objectID) == plain.map(\.objectID))
        #expect(employeesRegistered(context) <= 2 * 16)
        // With a limit and an offset, applied after the residual.
        var limited = try request(format, batch: 16)
        limited.fetchOffset = 3
        limited.fetchLimit = 5
        #expect(try Context(store: store).fetchBatched(limited).map(\.objectID) == Array(plain.map(\.objectID)[3..<8]))
    }

    @Test(arguments: TestEngine.available)
    func pendingChangesTakePartAndInsertedObjectsAreHeld(engine: TestEngine) throws {
        let store = try Self.stores.store(engine)
        let context = Context(store: store)
        let gone = try #require(try context.fetch(try request("salary > 150000", batch: 0)).first)
        try context.delete(gone)
        let new = try context.insert("Employee")
        try new.setValue(.string("Zed"), forKey: "name")
        try new.setValue(.int(150_001), forKey: "salary")
        let expected = try context.fetch(try request("salary > 150000", batch: 0)).map(\.objectID)
        let result = try context.fetchBatched(try request("salary > 150000", batch: 3), maximumLoadedBatches: 1)
        #expect(result.map(\.objectID) == expected)
        #expect(result.contains { $0 === new } && !result.contains { $0 === gone })
        context.rollback()
    }

    @Test(arguments: TestEngine.available)
    func aBatchSizeIsRequired(engine: TestEngine) throws {
        let context = Context(store: try Self.stores.store(engine))
        #expect(throws: ContextError.batchSizeRequired(0)) { try context.fetchBatched(try request(batch: 0)) }
        #expect(throws: ContextError.batchSizeRequired(-5)) { try context.fetchBatched(try request(batch: -5)) }
        let result = try context.fetchBatched(try request(batch: 10))
        #expect(throws: ContextError.self) { try result.batch(at: 16) }
    }

    @Test(arguments: TestEngine.available)
    func evictionSparesWhatOthersHold(engine: TestEngine) throws {
        let store = try Self.stores.store(engine)
        let context = Context(store: store)
        var all: [ManagedObject]? = try context.fetch(try request(batch: 0))
        let kept = all![0]
        #expect(context.evictUnreferencedObjects() == 0, "the array holds every object")
        all = nil
        #expect(context.evictUnreferencedObjects() == 159)
        #expect(context.registeredObject(for: kept.objectID) === kept)
        #expect(employeesRegistered(context) == 1)
    }
}

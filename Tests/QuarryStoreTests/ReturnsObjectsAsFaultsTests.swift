// `returnsObjectsAsFaults` (Context+FaultingOptions.swift), counted with the
// context's query statistics on both databases: a batched fetch returns
// faults by default (reading one loads its batch: one more query) and, with
// the flag off, realized objects for its first batch (no query to read
// them; the second batch still loads on first touch); an unbatched fetch
// reads its rows either way.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Context: returnsObjectsAsFaults", .serialized)
struct ReturnsObjectsAsFaultsTests {
    static let stores = EngineStores { engine in
        let store = try emptyCompanyStore(engine)
        for i in 0..<5 { try store.insert("Employee", ["name": .string("E\(i)"), "salary": .int(Int64(i) * 1000)]) }
        return store
    }

    /// (batch size, returnsObjectsAsFaults, faults right after the fetch,
    ///  queries to read the first 2 names, queries to read all 5 names)
    static let cases: [(Int, Bool, Int, Int, Int)] = [
        (0, true, 0, 0, 0),
        (0, false, 0, 0, 0),
        (2, true, 5, 1, 3),
        (2, false, 3, 0, 2),
        (10, false, 0, 0, 0),
    ]

    @Test(arguments: TestEngine.available, cases)
    func faultsAndQueries(engine: TestEngine, c: (Int, Bool, Int, Int, Int)) throws {
        let context = Context(store: try Self.stores.store(engine))
        var request = FetchRequest(entity: "Employee", sortDescriptors: [QuerySortDescriptor("name")])
        request.fetchBatchSize = c.0
        request.returnsObjectsAsFaults = c.1
        #expect(FetchRequest(entity: "Employee").returnsObjectsAsFaults, "true by default, as in Core Data")
        let objects = try context.fetch(request)
        #expect(objects.count == 5)
        #expect(objects.filter(\.isFault).count == c.2)
        let start = context.statistics.queries
        #expect(names(Array(objects.prefix(2))) == ["E0", "E1"])
        #expect(context.statistics.queries - start == c.3)
        #expect(names(objects) == ["E0", "E1", "E2", "E3", "E4"])
        #expect(context.statistics.queries - start == c.4)
    }
}

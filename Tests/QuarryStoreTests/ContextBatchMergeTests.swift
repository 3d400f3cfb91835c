// Batch requests made through a context are merged into it: objects it holds
// show the new values, deleted ones leave its fetches, inserted ones appear.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Context: merging batch results", .serialized)
struct ContextBatchMergeTests {
    @Test(arguments: TestEngine.available)
    func batchUpdateRefreshesRegisteredObjects(engine: TestEngine) throws {
        let context = Context(store: try Fixture.store(engine: engine))
        let rich = try context.fetch(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary > 150000")))
        #expect(!rich.isEmpty)
        let result = try context.batchUpdate(entity: "Employee", predicate: try Parser.parsePredicate("salary > 150000"),
                                             set: [("salary", try Parser.parseExpression("1"))])
        guard case .objectIDs(let ids) = result else { Issue.record("\(result)"); return }
        #expect(Set(ids) == Set(rich.map(\.objectID)))
        for object in rich { #expect(object.value(forKey: "salary") == .int(1)) }
        #expect(try context.count(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary > 150000"))) == 0)
    }

    @Test(arguments: TestEngine.available)
    func batchDeleteRemovesObjectsFromFetches(engine: TestEngine) throws {
        let context = Context(store: try Fixture.store(engine: engine))
        let before = try context.count(FetchRequest(entity: "Employee"))
        let sales = try context.count(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("department.name == 'Sales'")))
        _ = try context.fetch(FetchRequest(entity: "Employee"))
        try context.batchDelete(entity: "Department", predicate: try Parser.parsePredicate("name == 'Sales'"))
        #expect(try context.count(FetchRequest(entity: "Employee")) == before - sales)
        #expect(try context.fetch(FetchRequest(entity: "Department", predicate: try Parser.parsePredicate("name == 'Sales'"))).isEmpty)
    }

    @Test(arguments: TestEngine.available)
    func batchInsertAppearsWithoutASave(engine: TestEngine) throws {
        let context = Context(store: try Fixture.store(engine: engine))
        let result = try context.batchInsert("Department", objects: [["name": .string("Quarry Labs")], ["name": .string("Quarry Ops")]])
        guard case .objectIDs(let ids) = result else { Issue.record("\(result)"); return }
        #expect(ids.count == 2)
        let found = try context.fetch(FetchRequest(entity: "Department", predicate: try Parser.parsePredicate("name BEGINSWITH 'Quarry'"),
                                                   sortDescriptors: [QuerySortDescriptor("name")]))
        #expect(found.map(\.objectID) == ids)
        #expect(!context.hasChanges)
    }
}

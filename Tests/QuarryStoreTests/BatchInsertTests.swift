// Batch insert (from dictionaries and from a handler), the result types of
// batch requests, and deleting a list of object IDs with the delete rules.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Batch insert and result types", .serialized)
struct BatchInsertTests {
    static let tasksModel = """
    entities:
      Task:
        attributes:
          task: { type: string, optional: false }
          done: { type: boolean, default: false }
          priority: { type: integer16, default: 3 }
        unique: [[task]]
    """

    func tasksStore(_ engine: TestEngine) throws -> SQLStore {
        try engine.emptyStore(model: try ModelReader.read(yaml: Self.tasksModel, file: "tasks.yaml"))
    }

    @Test(arguments: TestEngine.available)
    func insertsFromDictionariesWithDefaults(engine: TestEngine) throws {
        let store = try tasksStore(engine)
        let result = try store.batchInsert("Task", objects: (1...500).map { ["task": .string("Task \($0)")] })
        #expect(result == .count(500))
        #expect(try store.count(FetchRequest(entity: "Task", predicate: try Parser.parsePredicate("done == NO AND priority == 3"))) == 500)
    }

    @Test(arguments: TestEngine.available)
    func insertsFromAHandlerAndReturnsIDs(engine: TestEngine) throws {
        let store = try tasksStore(engine)
        var n = 0
        let result = try store.batchInsert("Task", resultType: .objectIDs) { () -> [String: Value]? in
            n += 1
            return n <= 3 ? ["task": .string("T\(n)"), "done": .bool(n == 2)] : nil
        }
        guard case .objectIDs(let ids) = result else { Issue.record("not IDs: \(result)"); return }
        #expect(ids.map(\.primaryKey) == [1, 2, 3])
        let done = try store.fetch(FetchRequest(entity: "Task", predicate: try Parser.parsePredicate("done == YES")))
        #expect(done.map(\.id) == [ids[1]])
    }

    static let badRows: [([[String: Value]], Int, String)] = [
        ([["task": .string("a")], ["task": .string("b")], ["task": .string("a")]], 2, "UNIQUE"),
        ([["task": .string("a")], ["task": .int(7)]], 1, "holds String"),
        ([["task": .string("a")], ["tsk": .string("b")]], 1, "did you mean 'task'?"),
        ([["task": .string("a")], ["done": .bool(true)]], 1, "is required"),
    ]

    @Test(arguments: TestEngine.available, 0..<badRows.count)
    func aBadRowNamesItselfAndInsertsNothing(engine: TestEngine, index: Int) throws {
        let (rows, badRow, message) = Self.badRows[index]
        let store = try tasksStore(engine)
        do {
            try store.batchInsert("Task", objects: rows)
            Issue.record("accepted")
        } catch let error as BatchInsertError {
            #expect(error.row == badRow)
            #expect(error.description.contains("row \(badRow + 1)"))
            // SQLite says "UNIQUE constraint failed", PostgreSQL "violates unique constraint".
            #expect("\(error.underlying)".lowercased().contains(message.lowercased()) || error.description.contains(message), "\(error)")
        }
        #expect(try store.count(FetchRequest(entity: "Task")) == 0)
    }

    @Test(arguments: TestEngine.available)
    func updateAndDeleteResultTypes(engine: TestEngine) throws {
        let store = try Fixture.store(engine: engine)
        let predicate = try Parser.parsePredicate("salary > 150000")
        let expected = try store.fetch(FetchRequest(entity: "Employee", predicate: predicate)).map(\.id)
        #expect(!expected.isEmpty)
        let updated = try store.batchUpdate(entity: "Employee", predicate: predicate, set: [("active", try Parser.parseExpression("YES"))],
                                            resultType: .objectIDs)
        #expect(updated == .objectIDs(expected))
        #expect(try store.batchUpdate(entity: "Employee", predicate: predicate, set: [("active", try Parser.parseExpression("NO"))],
                                      resultType: .count) == .count(expected.count))
        #expect(try store.batchDelete(entity: "Employee", predicate: predicate, resultType: .objectIDs) == .objectIDs(expected))
        #expect(try store.count(FetchRequest(entity: "Employee", predicate: predicate)) == 0)
    }

    @Test(arguments: TestEngine.available)
    func deleteByObjectIDsAppliesRules(engine: TestEngine) throws {
        let store = try Fixture.store(engine: engine)
        let sales = try store.fetch(FetchRequest(entity: "Department", predicate: try Parser.parsePredicate("name == 'Sales'"))).map(\.id)
        let staff = try store.count(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("department.name == 'Sales'")))
        let before = try store.count(FetchRequest(entity: "Employee"))
        #expect(try store.batchDelete(objectIDs: sales) == 1)
        #expect(try store.count(FetchRequest(entity: "Employee")) == before - staff)   // Cascade
        #expect(try store.batchDelete(objectIDs: []) == 0)
    }
}

// A batch delete names entities (the delete list's `entity` column, the
// entities that share a table) only as bound values: no statement it runs
// holds an entity's name as a quoted literal. Checked through a counting
// connection on each engine, for the rule-applying path (a Cascade from
// Department to its employees), the direct path (one DELETE), and the
// listing variant, with the rows that went checked too.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Batch delete binds entity names", .serialized)
struct BatchDeleteBindingTests {
    /// (entity, predicate, names of the objects that must be gone).
    static let deletes: [(String, String, [String])] = [
        ("Department", "name == 'Sales'", ["Sales", "Ann", "Bob"]),   // cascade: delete rules run
        ("Employee", "salary >= 60000", ["Ann", "Cy"]),               // nullify only
        ("Project", "name == 'Apollo'", ["Apollo"]),                  // join rows dropped
    ]

    @Test(arguments: TestEngine.available, deletes)
    func noEntityNameIsPastedIntoSQL(engine: TestEngine, delete: (String, String, [String])) throws {
        let (plain, ids) = try smallCompany(engine)
        let (store, counting) = try plain.counted()
        let deleted = try store.batchDelete(entity: delete.0, predicate: try Parser.parsePredicate(delete.1))
        #expect(deleted == delete.2.filter { ids[$0]?.entity == delete.0 }.count)
        for name in delete.2 {
            let id = try #require(ids[name])
            #expect(try plain.fetch(FetchRequest(entity: id.entity, predicate: try Parser.parsePredicate("name == %@", arguments: [.string(name)]))).isEmpty,
                    "\(name) is gone")
        }
        #expect(!counting.statements.isEmpty)
        for statement in counting.statements {
            for entity in ["Department", "Employee", "Project"] {
                #expect(!statement.contains("'\(entity)'"), "an entity name pasted into: \(statement)")
            }
        }
    }
}

// `batchDeleteListingCascades`: a batch delete that names every object it
// removed, the cascaded ones included, so that a context (and the shell's
// `.watch`) can drop them all. Checked against the store's rows before and
// after, on each engine, for a delete with a Cascade rule (Department →
// employees), one with only Nullify (Employee), and one selecting nothing.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Batch delete listing cascades", .serialized)
struct BatchDeleteListingTests {
    /// Every object of the company entities, by ID.
    func allIDs(_ store: SQLStore) throws -> Set<ObjectID> {
        var ids: Set<ObjectID> = []
        for entity in ["Department", "Employee", "Project"] {
            ids.formUnion(try store.fetch(FetchRequest(entity: entity)).map(\.id))
        }
        return ids
    }

    /// (entity, predicate) of deletes with different delete-rule paths.
    static let deletes: [(String, String)] = [
        ("Department", "name == 'Sales'"),       // cascades to Ann and Bob
        ("Employee", "salary >= 60000"),         // nullify only: one DELETE
        ("Department", "name == 'Nobody'"),      // selects nothing
    ]

    @Test(arguments: TestEngine.available, deletes)
    func listsExactlyTheRowsThatWent(engine: TestEngine, delete: (String, String)) throws {
        let (store, _) = try smallCompany(engine)
        let before = try allIDs(store)
        let selected = try store.fetch(FetchRequest(entity: delete.0, predicate: try Parser.parsePredicate(delete.1))).map(\.id)
        let listed = try store.batchDeleteListingCascades(entity: delete.0, predicate: try Parser.parsePredicate(delete.1))
        let after = try allIDs(store)
        #expect(Set(listed.deleted) == before.subtracting(after))
        #expect(listed.deleted.count == Set(listed.deleted).count)
        #expect(Set(listed.selected) == Set(selected))
    }

    @Test(arguments: TestEngine.available)
    func cascadedEmployeesAreListed(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let listed = try store.batchDeleteListingCascades(entity: "Department", predicate: try Parser.parsePredicate("name == 'Sales'"))
        #expect(Set(listed.deleted) == [ids["Sales"]!, ids["Ann"]!, ids["Bob"]!])
        #expect(listed.selected == [ids["Sales"]!])
        // The plain `.objectIDs` result still lists only the selected entity's objects.
        let (other, otherIDs) = try smallCompany(engine)
        let selected = try other.batchDelete(entity: "Department", predicate: try Parser.parsePredicate("name == 'Sales'"), resultType: .objectIDs)
        #expect(selected == .objectIDs([otherIDs["Sales"]!]))
    }

    @Test(arguments: TestEngine.available)
    func deniedDeleteListsNothingAndChangesNothing(engine: TestEngine) throws {
        let (store, _) = try smallCompany(engine)
        // Deny: make Department.employees deny by using a model where it does.
        var model = store.model
        guard let d = model.entities.firstIndex(where: { $0.name == "Department" }),
              let r = model.entities[d].relationships.firstIndex(where: { $0.name == "employees" }) else {
            Issue.record("company model changed"); return
        }
        model.entities[d].relationships[r].deleteRule = .deny
        let denying = try engine.emptyStore(model: model)
        let sales = try denying.insert("Department", ["name": .string("Sales")])
        _ = try denying.insert("Employee", ["name": .string("Ann"), "salary": .int(1)], toOne: ["department": sales])
        let before = try dump(denying)
        #expect(throws: StoreError.self) {
            try denying.batchDeleteListingCascades(entity: "Department", predicate: nil)
        }
        #expect(try dump(denying) == before)
    }
}

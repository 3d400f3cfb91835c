// Uniqueness constraints through the merge policy (Context+MergePolicy+
// Uniqueness.swift), on SQLite and PostgreSQL: a context inserts an object
// whose unique name a saved row already has. Under the property policies
// the object becomes that row — updated with the object's values (object
// trumps: an upsert, every attribute of the new object, as INSERT … ON
// CONFLICT DO UPDATE of every column) or keeping its own (store trumps);
// the others fail the
// save with the validation failure as before, writing nothing.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Uniqueness constraints through merge policies")
struct UniqueMergeTests {
    static let model = try! ModelReader.read(yaml: """
    entities:
      Team:
        attributes:
          name: { type: string, optional: false, unique: true }
          budget: { type: integer64, optional: true }
          code: { type: string, optional: true }
        relationships:
          members: { to: Member, many: true, inverse: team }
      Member:
        attributes:
          name: { type: string }
        relationships:
          team: { to: Team, inverse: members }
    """, file: "teams.yaml")

    /// The row after the save: budget and code (nil: the save failed).
    struct Case: Sendable, CustomTestStringConvertible {
        let policy: MergePolicy
        let budget: Int64?, code: String?
        var testDescription: String { policy.rawValue }
    }

    static let cases: [Case] = [
        Case(policy: .error, budget: nil, code: nil),
        Case(policy: .rollback, budget: nil, code: nil),
        Case(policy: .overwrite, budget: nil, code: nil),
        Case(policy: .mergeByPropertyObjectTrump, budget: 99, code: "N"),
        Case(policy: .mergeByPropertyStoreTrump, budget: 10, code: "S"),
    ]

    static var arguments: [(TestEngine, Case)] { TestEngine.available.flatMap { e in cases.map { (e, $0) } } }

    @Test(arguments: arguments)
    func anInsertCollidingWithASavedRow(engine: TestEngine, c: Case) throws {
        let store = try engine.emptyStore(model: Self.model)
        let saved = try store.insert("Team", ["name": "Sales", "budget": 10, "code": "S"])
        let context = Context(store: store)
        context.mergePolicy = c.policy
        let team = try context.insert("Team")
        try team.setValue("Sales", forKey: "name")
        try team.setValue(99, forKey: "budget")
        try team.setValue("N", forKey: "code")
        let member = try context.insert("Member")
        try member.setValue("Ann", forKey: "name")
        try member.setValue(team, forKey: "team")
        guard let budget = c.budget else {
            let error = try #require(throws: ValidationError.self) { try context.save() }
            #expect(error.failures.map(\.reason) == [.notUnique(properties: ["name"], conflicting: saved)])
            #expect(try store.count(FetchRequest(entity: "Member")) == 0)
            #expect(try store.database.rows(#"SELECT "budget" FROM "Team""#, as: [.int]) == [[.int(10)]])
            return
        }
        try context.save()
        // One row, the inserted object is it, and the member points at it.
        #expect(team.objectID == saved)
        #expect(try store.database.rows(#"SELECT "budget", "code" FROM "Team""#, as: [.int, .string]) == [[.int(budget), .string(c.code!)]])
        #expect(team["budget"] == .int(budget) && team["code"] == .string(c.code!))
        #expect(try store.database.rows(#"SELECT "team" FROM "Member""#, as: [.int]) == [[.int(saved.primaryKey)]])
        // The object's next save is no conflict.
        try team.setValue(5, forKey: "budget")
        try context.save()
        #expect(try store.database.rows(#"SELECT "budget" FROM "Team""#, as: [.int]) == [[.int(5)]])
    }

    @Test(arguments: TestEngine.available)
    func twoUnsavedObjectsWithOneNameStillFail(engine: TestEngine) throws {
        let store = try engine.emptyStore(model: Self.model)
        let context = Context(store: store)
        context.mergePolicy = .mergeByPropertyObjectTrump
        for _ in 0..<2 { try context.insert("Team").setValue("Sales", forKey: "name") }
        let error = try #require(throws: ValidationError.self) { try context.save() }
        #expect(error.failures.count == 1)
        #expect(try store.count(FetchRequest(entity: "Team")) == 0)
    }
}

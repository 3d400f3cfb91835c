// Validation hooks (Context+ValidationHooks.swift) on both databases: each
// kind of hook refuses what it should, a corrected value is what is saved,
// every failure of a save (the hooks' and the model's) comes in one error,
// and a refused save writes nothing.
import Foundation
import Testing
@testable import QuarryStore

private struct PlainError: Error, CustomStringConvertible { var description: String { "a plain error" } }

@Suite("Context: validation hooks", .serialized)
struct ValidationHookTests {
    /// A case: hooks to register, edits to make (on a fresh context of the
    /// small company), the failures expected as "Entity.property: message"
    /// (sorted), or none.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var hooks: @Sendable (inout ValidationHooks) -> Void
        var edit: @Sendable (Context, [String: ObjectID]) throws -> Void
        var failures: [String]
        var testDescription: String { name }
    }

    static let notEmpty: @Sendable (inout ValidationHooks) -> Void = { h in
        h.validate("Employee", key: "name") { (v: Value) in
            if case .string(let s) = v, s.isEmpty { throw ValidationHookError("must not be empty") }
        }
    }

    static let cases: [Case] = [
        Case(name: "key validator refuses an insert", hooks: notEmpty, edit: { c, _ in
            let e = try c.insert("Employee"); try e.setValue(.string(""), forKey: "name")
        }, failures: ["Employee.name: must not be empty"]),
        Case(name: "key validator accepts", hooks: notEmpty, edit: { c, _ in
            let e = try c.insert("Employee"); try e.setValue(.string("Dee"), forKey: "name")
        }, failures: []),
        Case(name: "key validator runs on an update of another key", hooks: { h in
            h.validate("Employee", key: "salary") { (v: Value) in
                if case .int(let n) = v, n > 80_000 { throw ValidationHookError("above the band") }
            }
        }, edit: { c, ids in
            try c.object(with: ids["Cy"]!).setValue(.int(30), forKey: "age")
        }, failures: ["Employee.salary: above the band"]),
        Case(name: "validateForInsert only on inserts", hooks: { h in
            h.validateForInsert("Employee") { _ in throw ValidationHookError("no hiring") }
        }, edit: { c, ids in
            try c.object(with: ids["Ann"]!).setValue(.int(31), forKey: "age")
        }, failures: []),
        Case(name: "validateForUpdate names a key", hooks: { h in
            h.validateForUpdate("Employee") { e in
                if case .int(let a)? = e["age"], a > 60 { throw ValidationHookError("past retirement", key: "age") }
            }
        }, edit: { c, ids in
            try c.object(with: ids["Bob"]!).setValue(.int(61), forKey: "age")
        }, failures: ["Employee.age: past retirement"]),
        Case(name: "validateForDelete refuses", hooks: { h in
            h.validateForDelete("Department") { d in
                if d["name"] == .string("Ops") { throw ValidationHookError("Ops stays") }
            }
        }, edit: { c, ids in
            try c.delete(c.object(with: ids["Ops"]!))
        }, failures: ["Department.validateForDelete: Ops stays"]),
        Case(name: "any error is reported with its description", hooks: { h in
            h.validateForInsert("Project") { _ in throw PlainError() }
        }, edit: { c, _ in
            try c.insert("Project").setValue(.string("X"), forKey: "name")
        }, failures: ["Project.validateForInsert: a plain error"]),
        Case(name: "hooks and model rules, every failure at once", hooks: { h in
            notEmpty(&h)
            h.validateForInsert("Employee") { _ in throw ValidationHookError("hiring freeze") }
            h.validateForUpdate("Department") { _ in throw ValidationHookError("budgets are frozen", key: "budget") }
        }, edit: { c, ids in
            let a = try c.insert("Employee"); try a.setValue(.string(""), forKey: "name"); try a.setValue(.int(5), forKey: "age")
            let b = try c.insert("Employee"); try b.setValue(.string("Eve"), forKey: "name")
            try c.object(with: ids["Sales"]!).setValue(.double(1), forKey: "budget")
        }, failures: ["Department.budget: budgets are frozen", "Employee.age: is less than the minimum 16",
                      "Employee.name: must not be empty", "Employee.validateForInsert: hiring freeze",
                      "Employee.validateForInsert: hiring freeze"]),
        Case(name: "a corrected value is judged by the model's rules", hooks: { h in
            h.validate("Employee", key: "age") { v, _ in v == .int(5) ? .corrected(.int(500)) : .valid }
        }, edit: { c, _ in
            let a = try c.insert("Employee"); try a.setValue(.string("Kid"), forKey: "name"); try a.setValue(.int(5), forKey: "age")
        }, failures: ["Employee.age: is greater than the maximum 120"]),
    ]

    @Test(arguments: TestEngine.available, cases)
    func hooksRefuseTogetherAndWriteNothing(engine: TestEngine, c: Case) throws {
        let (store, ids) = try smallCompany(engine)
        let before = try dump(store)
        let context = Context(store: store)
        c.hooks(&context.validationHooks)
        try c.edit(context, ids)
        if c.failures.isEmpty {
            try context.save()
            #expect(!context.hasChanges)
            return
        }
        let error = try #require(throws: ValidationError.self) { try context.save() }
        #expect(error.failures.map { "\($0.entity).\($0.property): \($0.reason)" }.sorted() == c.failures)
        #expect(try dump(store) == before)
        #expect(context.hasChanges)
    }

    @Test(arguments: TestEngine.available)
    func correctedValueIsSaved(engine: TestEngine) throws {
        let (store, _) = try smallCompany(engine)
        let context = Context(store: store)
        context.validationHooks.validate("Employee", key: "name") { v, _ in
            guard case .string(let s) = v else { return .valid }
            return .corrected(.string(s.trimmingCharacters(in: .whitespaces)))
        }
        let e = try context.insert("Employee")
        try e.setValue(.string("  Dee "), forKey: "name")
        try context.save()
        let saved = try store.fetch(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("name == 'Dee'")))
        #expect(saved.map(\.id) == [e.objectID])
    }

    @Test func hooksOfAnEntityRunForItsSubEntities() throws {
        let store = try SQLStore(path: ":memory:", model: Hierarchy.model)
        let context = Context(store: store)
        var seen: [String] = []
        context.validationHooks.validateForInsert("Person") { p in seen.append(p.entity.name) }
        for name in ["Employee", "Manager", "Customer"] {
            try context.insert(name).setValue(.string("x"), forKey: "name")
        }
        try context.save()
        #expect(seen == ["Employee", "Manager", "Customer"])
    }
}

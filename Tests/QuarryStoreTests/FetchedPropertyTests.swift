// Fetched properties (Context+FetchedProperties.swift) on both databases:
// `$FETCH_SOURCE` and `$FETCHED_PROPERTY` bound per object, the SQL and
// memory engines agreeing on every case, the result cached until refresh
// or save (one query, then none), and a fetched property's variables other
// than those two refused.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Context: fetched properties", .serialized)
struct FetchedPropertyTests {
    /// The company model with fetched properties on Department and Employee.
    static let model: Model = {
        var m = try! ModelReader.read(from: Fixture.modelPath)
        func add(_ entity: String, _ name: String, _ destination: String, _ predicate: String?) {
            let i = m.entities.firstIndex { $0.name == entity }!
            m.entities[i].fetchedProperties.append(try! FetchedProperty(name: name, destination: destination, predicateFormat: predicate))
        }
        add("Department", "wellPaid", "Employee", "department == $FETCH_SOURCE AND salary > 50000")
        add("Department", "namedAfter", "Project", "name BEGINSWITH[c] $FETCH_SOURCE.name")
        add("Department", "everyone", "Employee", nil)
        add("Employee", "richer", "Employee", "salary > $FETCH_SOURCE.salary")
        add("Employee", "colleagues", "Employee", "department.name == $FETCH_SOURCE.department.name AND self != $FETCH_SOURCE")
        add("Employee", "itself", "Employee", "name == $FETCH_SOURCE.name AND $FETCHED_PROPERTY.name == 'itself'")
        add("Employee", "unbound", "Employee", "salary > $minimum")
        return m
    }()

    static let stores = EngineStores { engine in
        let store = try engine.emptyStore(model: model)
        let sales = try store.insert("Department", ["name": .string("Sales")])
        try store.insert("Department", ["name": .string("Ops")])
        try store.insert("Employee", ["name": .string("Ann"), "salary": .int(60_000)], toOne: ["department": sales])
        try store.insert("Employee", ["name": .string("Bob"), "salary": .int(40_000)], toOne: ["department": sales])
        try store.insert("Employee", ["name": .string("Cy"), "salary": .int(90_000)])
        try store.insert("Project", ["name": .string("Sales drive")])
        try store.insert("Project", ["name": .string("Apollo")])
        return store
    }

    /// (entity, source name, fetched property, names expected in row order)
    static let cases: [(String, String, String, [String])] = [
        ("Department", "Sales", "wellPaid", ["Ann"]),
        ("Department", "Ops", "wellPaid", []),
        ("Department", "Sales", "namedAfter", ["Sales drive"]),
        ("Department", "Ops", "everyone", ["Ann", "Bob", "Cy"]),
        ("Employee", "Bob", "richer", ["Ann", "Cy"]),
        ("Employee", "Cy", "richer", []),
        ("Employee", "Ann", "colleagues", ["Bob"]),
        ("Employee", "Cy", "colleagues", []),
        ("Employee", "Ann", "itself", ["Ann"]),
    ]

    static func source(_ context: Context, _ entity: String, _ name: String) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entity: entity, predicate: try Parser.parsePredicate("name == %@", arguments: [.string(name)]))).first)
    }

    @Test(arguments: TestEngine.available, cases)
    func fetchedPropertiesSelectTheSameOnEveryEngine(engine: TestEngine, c: (String, String, String, [String])) throws {
        let context = Context(store: try Self.stores.store(engine))
        let source = try Self.source(context, c.0, c.1)
        #expect(names(try source.fetchedObjects(forKey: c.2)) == c.3)
        for e in FetchEngine.allCases {
            #expect(names(try context.evaluateFetchedProperty(c.2, of: source, engine: e)) == c.3, "engine \(e)")
        }
        // Through value(forKey:) too: an array of the objects.
        guard case .array(let items)? = source[c.2] else { Issue.record("not an array: \(String(describing: source[c.2]))"); return }
        #expect(items.count == c.3.count)
    }

    @Test(arguments: TestEngine.available)
    func cachedUntilRefreshOrSave(engine: TestEngine) throws {
        let context = Context(store: try Self.stores.store(engine))
        let bob = try Self.source(context, "Employee", "Bob")
        let before = context.statistics.queries
        #expect(names(try bob.fetchedObjects(forKey: "richer")) == ["Ann", "Cy"])
        let afterFirst = context.statistics.queries
        #expect(afterFirst > before)
        #expect(names(try bob.fetchedObjects(forKey: "richer")) == ["Ann", "Cy"])
        #expect(context.statistics.queries == afterFirst, "the second read is cached")
        // An unsaved change is not seen by the cached result ...
        try bob.setValue(.int(70_000), forKey: "salary")
        #expect(names(try bob.fetchedObjects(forKey: "richer")) == ["Ann", "Cy"])
        // ... until the object is refreshed (its edits merged back on top).
        context.refresh(bob, mergeChanges: true)
        #expect(names(try bob.fetchedObjects(forKey: "richer")) == ["Cy"])
        context.rollback()
        #expect(names(try bob.fetchedObjects(forKey: "richer")) == ["Ann", "Cy"])
    }

    @Test(arguments: TestEngine.available)
    func aSaveForgetsCachedResults(engine: TestEngine) throws {
        let store = try engine.emptyStore(model: Self.model)
        let context = Context(store: store)
        let sales = try context.insert("Department")
        try sales.setValue(.string("Sales"), forKey: "name")
        try context.save()
        #expect(try sales.fetchedObjects(forKey: "wellPaid").isEmpty)
        let dee = try context.insert("Employee")
        try dee.setValue(.string("Dee"), forKey: "name")
        try dee.setValue(.int(80_000), forKey: "salary")
        try dee.setValue(sales, forKey: "department")
        #expect(try sales.fetchedObjects(forKey: "wellPaid").isEmpty, "cached before the insert")
        try context.save()
        #expect(names(try sales.fetchedObjects(forKey: "wellPaid")) == ["Dee"])
    }

    @Test func otherVariablesAndUnknownKeysAreErrors() throws {
        let context = Context(store: try Self.stores.store(.sqlite))
        let ann = try Self.source(context, "Employee", "Ann")
        let missing = try #require(throws: Diagnostic.self) { try ann.fetchedObjects(forKey: "unbound") }
        #expect(missing.message == "no value for the variable $minimum")
        #expect(ann["unbound"] == .null)
        #expect(context.lastFaultError != nil)
        #expect(throws: ContextError.fetchError("Employee has no fetched property 'salary'")) { try ann.fetchedObjects(forKey: "salary") }
    }
}

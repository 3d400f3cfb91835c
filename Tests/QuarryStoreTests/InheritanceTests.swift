// Entity inheritance as Core Data has it, on every engine: an abstract
// entity cannot be inserted (the refusal names its concrete sub-entities,
// in the context, the store's insert and its batch insert); a fetch or count
// of an entity includes its sub-entities unless `includesSubentities` is
// off; predicates on a parent's attributes, sorts across sub-entities,
// relationships whose destination is a parent, dictionary results and
// COUNT over a hierarchy give the same answers on the memory engine and in
// SQL (SQLite, PostgreSQL) — and the answers written here, so that engines
// agreeing on a wrong answer still fail.
import Foundation
import Testing
@testable import QuarryStore

enum Hierarchy {
    /// Person (abstract) → Employee → Manager, Person → Customer; a Team
    /// holds Persons (a to-many whose destination is the abstract parent).
    static let model = Model(entities: [
        Entity(name: "Person", isAbstract: true, attributes: [
            Attribute(name: "name", type: .string),
            Attribute(name: "age", type: .integer32),
            Attribute(name: "mood", type: .string, isTransient: true),
        ], relationships: [Relationship(name: "team", destination: "Team", inverse: "members")]),
        Entity(name: "Employee", parent: "Person", attributes: [Attribute(name: "salary", type: .integer64)]),
        Entity(name: "Manager", parent: "Employee", attributes: [Attribute(name: "budget", type: .integer64)]),
        Entity(name: "Customer", parent: "Person", attributes: [Attribute(name: "tier", type: .integer16)]),
        Entity(name: "Team", attributes: [Attribute(name: "title", type: .string)],
               relationships: [Relationship(name: "members", destination: "Person", isToMany: true, inverse: "team")]),
    ])

    /// Red: Ann (Employee, 30), Cat (Manager, 50); Blue: Bob (Employee, 45),
    /// Eve (Customer, 60); no team: Dan (Customer, 25).
    static func store(_ engine: TestEngine) throws -> SQLStore {
        let store = try engine.emptyStore(model: model)
        let red = try store.insert("Team", ["title": .string("Red")])
        let blue = try store.insert("Team", ["title": .string("Blue")])
        try store.insert("Employee", ["name": .string("Ann"), "age": .int(30), "salary": .int(100)], toOne: ["team": red])
        try store.insert("Employee", ["name": .string("Bob"), "age": .int(45), "salary": .int(200)], toOne: ["team": blue])
        try store.insert("Manager", ["name": .string("Cat"), "age": .int(50), "salary": .int(300), "budget": .int(1000)], toOne: ["team": red])
        try store.insert("Customer", ["name": .string("Dan"), "age": .int(25), "tier": .int(1)])
        try store.insert("Customer", ["name": .string("Eve"), "age": .int(60), "tier": .int(2)], toOne: ["team": blue])
        return store
    }

    static func request(_ entity: String, _ predicate: String?, sort: [QuarrySQL.QuerySortDescriptor] = [QuerySortDescriptor("name")],
                        only: Bool = false) throws -> FetchRequest {
        var r = FetchRequest(entity: entity, predicate: try predicate.map { try Parser.parsePredicate($0) }, sortDescriptors: sort)
        r.includesSubentities = !only
        return r
    }

    /// The names and entities of fetched objects, in order.
    static func names(_ objects: [StoredObject]) -> [String] {
        objects.map { o in
            guard case .string(let n)? = o.value(forKey: "name") else { return "?" }
            return "\(n):\(o.id.entity)"
        }
    }
}

@Suite("Inheritance: abstract entities, sub-entities, ONLY", .serialized)
struct InheritanceTests {
    static let stores = EngineStores { try Hierarchy.store($0) }

    /// (entity, predicate, sort keys "key" or "-key", ONLY, expected "name:Entity" in order)
    static let fetches: [(String, String?, [String], Bool, [String])] = [
        ("Person", nil, ["name"], false, ["Ann:Employee", "Bob:Employee", "Cat:Manager", "Dan:Customer", "Eve:Customer"]),
        ("Person", "age > 40", ["name"], false, ["Bob:Employee", "Cat:Manager", "Eve:Customer"]),
        ("Person", nil, ["-age"], false, ["Eve:Customer", "Cat:Manager", "Bob:Employee", "Ann:Employee", "Dan:Customer"]),
        ("Person", "name BEGINSWITH 'A' OR age > 55", ["name"], false, ["Ann:Employee", "Eve:Customer"]),
        ("Person", "team.title == 'Red'", ["name"], false, ["Ann:Employee", "Cat:Manager"]),
        ("Person", "team == nil", ["name"], false, ["Dan:Customer"]),
        ("Person", nil, ["team.title", "-name"], false, ["Dan:Customer", "Eve:Customer", "Bob:Employee", "Cat:Manager", "Ann:Employee"]),
        ("Person", nil, ["name"], true, []),
        ("Person", "age > 40", ["name"], true, []),
        ("Employee", nil, ["name"], false, ["Ann:Employee", "Bob:Employee", "Cat:Manager"]),
        ("Employee", nil, ["name"], true, ["Ann:Employee", "Bob:Employee"]),
        ("Employee", "salary >= 200", ["-salary"], false, ["Cat:Manager", "Bob:Employee"]),
        ("Employee", "age > 40", ["name"], true, ["Bob:Employee"]),
        ("Employee", "team.members.@count == 2", ["name"], true, ["Ann:Employee", "Bob:Employee"]),
        ("Manager", nil, ["name"], false, ["Cat:Manager"]),
        ("Manager", nil, ["name"], true, ["Cat:Manager"]),
        ("Customer", "tier == 2", ["name"], false, ["Eve:Customer"]),
        ("Customer", "ANY team.members.age < 50", ["name"], true, ["Eve:Customer"]),
    ]

    static func sorts(_ keys: [String]) -> [QuarrySQL.QuerySortDescriptor] {
        keys.map { $0.hasPrefix("-") ? QuerySortDescriptor(String($0.dropFirst()), ascending: false) : QuerySortDescriptor($0) }
    }

    @Test(arguments: TestEngine.available, fetches)
    func fetchesAndCountsOverAHierarchy(engine: TestEngine, c: (String, String?, [String], Bool, [String])) throws {
        let (entity, predicate, keys, only, expected) = c
        let store = try Self.stores.store(engine)
        let request = try Hierarchy.request(entity, predicate, sort: Self.sorts(keys), only: only)
        for e in FetchEngine.allCases {
            #expect(Hierarchy.names(try store.fetch(request, engine: e)) == expected, "\(e)")
            #expect(try store.count(request, engine: e) == expected.count, "\(e)")
        }
        // Through a context: the same objects, and the same after an unsaved
        // change makes it answer in memory.
        let context = Context(store: store)
        #expect(try context.fetch(request).map(\.objectID) == (try store.fetch(request)).map(\.id))
        #expect(try context.count(request) == expected.count)
        #expect(try context.fetch(request, engine: .memory).map(\.objectID) == (try store.fetch(request)).map(\.id))
    }

    /// (entity, ONLY, team title or nil, objects it selects with their
    /// entities): relationships whose destination is the abstract parent.
    static let teams: [(String, [String])] = [
        ("ANY members.age > 55", ["Blue"]),
        ("SUBQUERY(members, $m, $m.age < 40).@count == 1", ["Red"]),
        ("members.@count == 2", ["Blue", "Red"]),
        ("members.@max.age == 50", ["Red"]),
        ("ALL members.age >= 45", ["Blue"]),
    ]

    @Test(arguments: TestEngine.available, teams)
    func toManyToAParentEntity(engine: TestEngine, c: (String, [String])) throws {
        let store = try Self.stores.store(engine)
        let request = try Hierarchy.request("Team", c.0, sort: [QuerySortDescriptor("title")])
        for e in FetchEngine.allCases {
            #expect(try store.fetch(request, engine: e).map { $0.value(forKey: "title") } == c.1.map { .string($0) }, "\(e)")
        }
        // The related objects keep their own entities.
        let context = Context(store: store)
        let red = try #require(try context.fetch(try Hierarchy.request("Team", "title == 'Red'", sort: [])).first)
        #expect(red.objects(forKey: "members").map(\.entity.name).sorted() == ["Employee", "Manager"])
    }

    /// (entity, ONLY, properties "name = expression", group by, expected rows printed)
    static let dictionaries: [(String, Bool, [String], [String], String)] = [
        ("Person", false, ["n = count:(name)", "s = sum:(age)"], [], "[{n: 5, s: 210}]"),
        ("Employee", true, ["n = count:(name)", "s = sum:(age)"], [], "[{n: 2, s: 75}]"),
        ("Person", true, ["n = count:(name)"], [], "[{n: 0}]"),
        ("Person", false, ["t = team.title", "n = count:(name)"], ["team.title"], "[{t: nil, n: 1}, {t: \"Blue\", n: 2}, {t: \"Red\", n: 2}]"),
        ("Employee", false, ["name = name"], [], "[{name: \"Ann\"}, {name: \"Bob\"}, {name: \"Cat\"}]"),
        ("Employee", true, ["name = name"], [], "[{name: \"Ann\"}, {name: \"Bob\"}]"),
    ]

    @Test(arguments: TestEngine.available, dictionaries)
    func dictionaryResultsOverAHierarchy(engine: TestEngine, c: (String, Bool, [String], [String], String)) throws {
        let store = try Self.stores.store(engine)
        var request = try Hierarchy.request(c.0, nil, sort: [], only: c.1)
        request.propertiesToFetch = try c.2.map { item in
            let parts = item.components(separatedBy: " = ")
            return FetchProperty(name: parts[0], expression: try Parser.parseExpression(parts[1]))
        }
        request.propertiesToGroupBy = try c.3.map { try FetchProperty(keyPath: $0) }
        if c.3.isEmpty && !c.2.contains(where: { $0.contains(":(") }) { request.sortDescriptors = [QuerySortDescriptor("name")] }
        if !c.3.isEmpty { request.sortDescriptors = [QuerySortDescriptor("team.title")] }
        for e in FetchEngine.allCases {
            #expect("\(try store.fetchDictionaries(request, engine: e))" == c.4, "\(e)")
        }
    }

    // MARK: Abstract entities cannot be inserted

    @Test(arguments: TestEngine.available)
    func insertingAnAbstractEntityNamesItsConcreteSubEntities(engine: TestEngine) throws {
        let store = try engine.emptyStore(model: Hierarchy.model)
        let refusal = StoreError.abstractEntity("Person", concrete: ["Employee", "Manager", "Customer"])
        #expect(refusal.description == "entity 'Person' is abstract: insert one of its sub-entities, 'Employee', 'Manager' or 'Customer'")
        #expect(throws: refusal) { try store.insert("Person", ["name": .string("X")]) }
        #expect(throws: refusal) { try store.batchInsert("Person", objects: [["name": .string("X")]]) }
        #expect(throws: StoreError.unknownEntity("Persons", suggestion: "Person")) { try store.insert("Persons", [:]) }
        let context = Context(store: store)
        #expect(throws: ContextError.abstractEntity("Person", concrete: ["Employee", "Manager", "Customer"])) { try context.insert("Person") }
        #expect(throws: refusal) { try context.batchInsert("Person", objects: [["name": .string("X")]]) }
        #expect(try store.count(FetchRequest(entity: "Person")) == 0)
        // A concrete entity below an abstract one inserts, and a fetch of the parent finds it.
        let m = try context.insert("Manager")
        try m.setValue(.string("Max"), forKey: "name")
        #expect(try context.fetch(FetchRequest(entity: "Person")).map(\.objectID) == [m.objectID])
        #expect(try context.count(try Hierarchy.request("Employee", nil, only: true)) == 0)
        try context.save()
        #expect(try store.count(try Hierarchy.request("Employee", nil)) == 1)
        #expect(try store.count(try Hierarchy.request("Manager", nil, only: true)) == 1)
    }

    @Test func anAbstractLeafHasNothingToInsert() {
        let model = Model(entities: [Entity(name: "Shape", isAbstract: true), Entity(name: "Polygon", isAbstract: true, parent: "Shape")])
        #expect(model.entity(named: "Shape")!.abstractRefusal(in: model)
            == "entity 'Shape' is abstract and has no concrete sub-entities: nothing of it can be inserted")
        #expect(model.entity(named: "Polygon")!.concreteEntities(in: model).isEmpty)
    }

    /// Unsaved objects take part as their entity says: a pending Manager is
    /// an Employee, but not an Employee ONLY.
    @Test(arguments: TestEngine.available)
    func pendingObjectsFollowIncludesSubentities(engine: TestEngine) throws {
        let store = try Hierarchy.store(engine)
        let context = Context(store: store)
        let zed = try context.insert("Manager")
        try zed.setValue(.string("Zed"), forKey: "name")
        try zed.setValue(.int(70), forKey: "age")
        let all = try Hierarchy.request("Employee", "age > 40", sort: [QuerySortDescriptor("name")])
        let only = try Hierarchy.request("Employee", "age > 40", sort: [QuerySortDescriptor("name")], only: true)
        #expect(try context.fetch(all).map { $0["name"] } == [.string("Bob"), .string("Cat"), .string("Zed")])
        #expect(try context.fetch(only).map { $0["name"] } == [.string("Bob")])
        #expect(try context.count(only) == 1 && context.count(all) == 3)
    }
}

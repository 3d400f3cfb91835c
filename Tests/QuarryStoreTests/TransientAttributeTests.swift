// Transient attributes, as Core Data keeps them: in the context's objects
// only — no column, nothing written, saving does not fail on them; usable in
// predicates and sorts evaluated in memory (the memory engine, through a
// context or a store); and refused with B007 naming the attribute by any
// request whose SQL would need one (fetch, count, dictionaries, batch
// update and delete), on SQLite and PostgreSQL.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Transient attributes", .serialized)
struct TransientAttributeTests {
    @Test(arguments: TestEngine.available)
    func keptInTheContextNeverStored(engine: TestEngine) throws {
        let store = try Hierarchy.store(engine)
        #expect(store.mapping.column(for: "mood", of: "Employee") == nil)
        #expect(store.mapping.column(for: "name", of: "Employee") != nil)
        let context = Context(store: store)
        let ann = try #require(try context.fetch(try Hierarchy.request("Employee", "name == 'Ann'")).first)
        try ann.setValue(.string("happy"), forKey: "mood")
        #expect(ann.hasChanges)
        let zed = try context.insert("Customer")
        try zed.setValue(.string("Zed"), forKey: "name")
        try zed.setValue(.string("grumpy"), forKey: "mood")
        try context.save()
        // The context keeps the values; nothing is pending any more.
        #expect(ann["mood"] == .string("happy") && zed["mood"] == .string("grumpy"))
        #expect(!context.hasChanges)
        // A fresh context reads no value: none was written.
        let fresh = Context(store: store)
        let again = try #require(try fresh.fetch(try Hierarchy.request("Person", "name == 'Ann'")).first)
        #expect(again["mood"] == .null)
        #expect(try store.count(FetchRequest(entity: "Person")) == 6)
    }

    /// Requests whose SQL would need the transient: (entity, predicate, sort key, property)
    static let refused: [(String, String?, String?, String?)] = [
        ("Person", "mood == 'happy'", nil, nil),
        ("Employee", "name == 'Ann' AND mood != nil", nil, nil),
        ("Person", "mood BEGINSWITH 'h' OR age > 3", nil, nil),
        ("Person", nil, "mood", nil),
        ("Team", "ANY members.mood == 'happy'", nil, nil),
        ("Team", "SUBQUERY(members, $m, $m.mood == 'x').@count > 0", nil, nil),
        ("Person", "team.title == 'Red'", "mood", nil),
        ("Person", nil, nil, "mood"),
        ("Person", "mood == nil", nil, "name"),
        // A residual predicate (FUNCTION runs in memory) does not hide the transient property.
        ("Person", "FUNCTION(name, 'uppercaseString') == 'ANN'", nil, "mood"),
    ]

    @Test(arguments: TestEngine.available, refused)
    func sqlThatNeedsOneIsRefusedNamingIt(engine: TestEngine, c: (String, String?, String?, String?)) throws {
        let store = try Hierarchy.store(engine)
        var request = try Hierarchy.request(c.0, c.1, sort: c.2.map { [QuerySortDescriptor($0)] } ?? [])
        func expectB007(_ body: () throws -> Void) {
            do {
                try body()
                Issue.record("no error for \(c)")
            } catch let d as Diagnostic {
                // Named on the entity the key path reached it through.
                #expect(d.code == .transientInStore && d.message.hasPrefix("\(c.0 == "Employee" ? "Employee" : "Person").mood is transient"), "\(d)")
            } catch { Issue.record("\(error)") }
        }
        if let p = c.3 {
            request.propertiesToFetch = [try FetchProperty(keyPath: p)]
            expectB007 { _ = try store.fetchDictionaries(request) }
            expectB007 { _ = try Context(store: store).fetchDictionaries(request) }
            // In memory the transient reads nil from every stored object.
            #expect(try store.fetchDictionaries(request, engine: .memory).count == (c.1?.hasPrefix("FUNCTION") == true ? 1 : 5))
            return
        }
        expectB007 { _ = try store.fetch(request) }
        expectB007 { _ = try store.count(request) }
        expectB007 { _ = try store.explain(request) }
        expectB007 { _ = try Context(store: store).fetch(request) }
        expectB007 { _ = try Context(store: store).count(request) }
        if let p = request.predicate, c.1?.contains("mood") == true {
            let key = c.0 == "Team" ? "title" : "name"
            expectB007 { _ = try store.batchUpdate(entity: c.0, predicate: p, set: [(key, try Parser.parseExpression("'x'"))]) }
            expectB007 { _ = try store.batchDelete(entity: c.0, predicate: p) }
        }
        // The memory engine evaluates it (the stored objects hold no value).
        _ = try store.fetch(request, engine: .memory)
    }

    /// In memory through a context: predicates and sorts see the values the
    /// context's objects hold, saved objects and unsaved ones alike.
    /// (predicate, sort keys, expected names)
    static let inMemory: [(String?, [String], [String])] = [
        ("mood == 'happy'", ["name"], ["Ann", "Zed"]),
        ("mood == nil", ["name"], ["Bob", "Dan", "Eve"]),
        ("mood != nil AND age > 20", ["name"], ["Ann", "Cat"]),
        (nil, ["mood", "name"], ["Bob", "Dan", "Eve", "Cat", "Ann", "Zed"]),
        (nil, ["-mood", "-name"], ["Zed", "Ann", "Cat", "Eve", "Dan", "Bob"]),
        ("mood IN {'calm', 'happy'} AND team.title == 'Red'", ["name"], ["Ann", "Cat"]),
    ]

    @Test(arguments: TestEngine.available, inMemory)
    func memoryPredicatesAndSortsReadTheContextsValues(engine: TestEngine, c: (String?, [String], [String])) throws {
        let store = try Hierarchy.store(engine)
        let context = Context(store: store)
        for person in try context.fetch(try Hierarchy.request("Person", nil)) {
            switch person["name"] {
            case .string("Ann"): try person.setValue(.string("happy"), forKey: "mood")
            case .string("Cat"): try person.setValue(.string("calm"), forKey: "mood")
            default: break
            }
        }
        try context.save()
        let zed = try context.insert("Employee")
        try zed.setValue(.string("Zed"), forKey: "name")
        try zed.setValue(.string("happy"), forKey: "mood")
        let request = try Hierarchy.request("Person", c.0, sort: InheritanceTests.sorts(c.1))
        #expect(try context.fetch(request, engine: .memory).map { $0["name"] } == c.2.map { .string($0) })
        #expect(try context.count(request, engine: .memory) == c.2.count)
        #expect(throws: Diagnostic.self) { try context.fetch(request) }
    }
}

/// Store writes have nowhere to put a transient value: refused, naming it,
/// with nothing written.
@Suite("Transient attributes: store writes", .serialized)
struct TransientWriteTests {
    @Test(arguments: TestEngine.available)
    func storeWritesOfATransientAreRefused(engine: TestEngine) throws {
        let store = try Hierarchy.store(engine)
        #expect(throws: StoreError.transientAttribute(key: "mood", entity: "Employee")) {
            try store.insert("Employee", ["name": .string("Zed"), "mood": .string("x")])
        }
        let batch = try #require(throws: (any Error).self) {
            try store.batchInsert("Employee", objects: [["name": .string("Zed")], ["name": .string("Yan"), "mood": .string("x")]])
        }
        #expect("\(batch)".contains("Employee.mood is transient"), "\(batch)")
        let update = try #require(throws: Diagnostic.self) {
            try store.batchUpdate(entity: "Employee", predicate: nil, set: [("mood", try Parser.parseExpression("'x'"))])
        }
        #expect(update.code == .transientInStore && update.message.hasPrefix("Employee.mood is transient"))
        #expect(try store.count(FetchRequest(entity: "Person")) == 5)
    }
}

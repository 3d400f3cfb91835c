// Fetch request gaps of issue 22: the object-ID result type (the IDs a fetch
// would return, in its order, on every engine, through a store and a
// context, pending changes included), and requests made from the model's
// fetch request templates with substitution variables — the same objects
// as the hand-written request, A006 for an unknown template, A005 for a
// variable without a value.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Fetch requests: object IDs, templates", .serialized)
struct FetchRequestGapTests {
    static let model: Model = {
        var m = Hierarchy.model
        m.fetchRequestTemplates = [
            try! FetchRequestTemplate(name: "olderThan", entity: "Person", predicateFormat: "age > $min"),
            try! FetchRequestTemplate(name: "teamMembers", entity: "Employee", predicateFormat: "team.title == $title AND age >= $min"),
            try! FetchRequestTemplate(name: "everyone", entity: "Person", predicateFormat: nil, fetchLimit: 2),
        ]
        return m
    }()

    static let stores = EngineStores { engine in
        let store = try engine.emptyStore(model: model)
        let red = try store.insert("Team", ["title": .string("Red")])
        try store.insert("Employee", ["name": .string("Ann"), "age": .int(30)], toOne: ["team": red])
        try store.insert("Employee", ["name": .string("Bob"), "age": .int(45)])
        try store.insert("Manager", ["name": .string("Cat"), "age": .int(50)], toOne: ["team": red])
        try store.insert("Customer", ["name": .string("Dan"), "age": .int(25)])
        return store
    }

    /// (template, variables, the same request written out)
    static let templates: [(String, [String: Value], String, String?, Int?)] = [
        ("olderThan", ["min": .int(40)], "Person", "age > 40", nil),
        ("olderThan", ["min": .int(0), "unused": .int(1)], "Person", "age > 0", nil),
        ("teamMembers", ["title": .string("Red"), "min": .int(35)], "Employee", "team.title == 'Red' AND age >= 35", nil),
        ("everyone", [:], "Person", nil, 2),
    ]

    @Test(arguments: TestEngine.available, templates)
    func templatesFetchWhatTheirRequestWouldFetch(engine: TestEngine, c: (String, [String: Value], String, String?, Int?)) throws {
        let store = try Self.stores.store(engine)
        var fromTemplate = try FetchRequest(template: c.0, in: Self.model, substitutionVariables: c.1)
        var written = FetchRequest(entity: c.2, predicate: try c.3.map { try Parser.parsePredicate($0) }, fetchLimit: c.4)
        #expect(fromTemplate.entity == written.entity && fromTemplate.predicate.map(Printer.format) == written.predicate.map(Printer.format))
        #expect(fromTemplate.fetchLimit == c.4)
        fromTemplate.sortDescriptors = [QuerySortDescriptor("name")]
        written.sortDescriptors = [QuerySortDescriptor("name")]
        let expected = try store.fetch(written).map(\.id)
        #expect(!expected.isEmpty)
        for e in FetchEngine.allCases {
            #expect(try store.fetch(fromTemplate, engine: e).map(\.id) == expected)
        }
    }

    @Test func unknownTemplatesAndMissingValuesAreErrors() throws {
        let unknown = try #require(throws: Diagnostic.self) { try FetchRequest(template: "olderThen", in: Self.model) }
        #expect(unknown.code == .invalidRequest && unknown.message == "no fetch request template named 'olderThen'")
        #expect(unknown.hints == ["did you mean 'olderThan'?"])
        let missing = try #require(throws: Diagnostic.self) {
            try FetchRequest(template: "teamMembers", in: Self.model, substitutionVariables: ["title": .string("Red")])
        }
        #expect(missing.code == .missingVariable)
        let none = try #require(throws: Diagnostic.self) { try FetchRequest(template: "x", in: Hierarchy.model) }
        #expect(none.hints == ["the model has no fetch request templates"])
    }

    /// (entity, predicate, sort keys, ONLY)
    static let idRequests: [(String, String?, [String], Bool)] = [
        ("Person", nil, ["name"], false),
        ("Person", "age > 28", ["-age"], false),
        ("Employee", nil, ["name"], true),
        ("Person", "team.title == 'Red'", ["name"], false),
        ("Person", "name MATCHES 'A.*|C.*'", ["name"], false),
        ("Person", nil, ["name"], true),
    ]

    @Test(arguments: TestEngine.available, idRequests)
    func objectIDsAreWhatAFetchReturns(engine: TestEngine, c: (String, String?, [String], Bool)) throws {
        let store = try Self.stores.store(engine)
        let request = try Hierarchy.request(c.0, c.1, sort: InheritanceTests.sorts(c.2), only: c.3)
        for e in FetchEngine.allCases {
            #expect(try store.fetchObjectIDs(request, engine: e) == store.fetch(request, engine: e).map(\.id), "\(e)")
        }
        let context = Context(store: store)
        let ids = try context.fetchObjectIDs(request)
        #expect(ids == (try store.fetch(request)).map(\.id))
        #expect(try context.fetchObjectIDs(request, engine: .memory) == ids)
        // An unsaved object that matches takes part, under its temporary ID.
        let zed = try context.insert("Employee")
        try zed.setValue(.string("Zed"), forKey: "name")
        try zed.setValue(.int(99), forKey: "age")
        let withPending = try context.fetchObjectIDs(request)
        #expect(withPending == (try context.fetch(request)).map(\.objectID))
        #expect(withPending.contains(zed.objectID) == (c.1 != "team.title == 'Red'" && c.1 != "name MATCHES 'A.*|C.*'" && (!c.3 || c.0 == "Employee")))
        #expect(try context.fetchObjectIDs(request, includesPendingChanges: false) == ids)
    }
}

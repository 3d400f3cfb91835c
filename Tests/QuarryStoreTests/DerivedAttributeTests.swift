// Derived attributes kept current as Core Data keeps them: each kind of
// derivation × each kind of write (context insert, update of the object,
// update of a related object, relationship added and removed, delete of a
// related object, batch update, batch delete, batch insert), on SQLite and
// PostgreSQL. After each write every stored derived value is compared with
// the derivation evaluated in memory by the evaluator over a fresh context's
// objects — agreement by construction — and the writing context must hold
// the same values. Then: derived attributes in predicates and sorts (SQL and
// memory agree), and every way of setting one is refused.
import Foundation
import Testing
@testable import QuarryStore

enum DerivedModel {
    static let model = Model(entities: [
        Entity(name: "Department", attributes: [
            Attribute(name: "name", type: .string),
            Attribute(name: "budget", type: .double),
            Attribute(name: "total", type: .integer64, derivation: "employees.@sum.salary"),
            Attribute(name: "headcount", type: .integer64, derivation: "employees.@count"),
            Attribute(name: "top", type: .integer64, derivation: "employees.@max.salary"),
            Attribute(name: "bottom", type: .integer64, derivation: "employees.@min.salary"),
            Attribute(name: "mean", type: .double, derivation: "employees.@avg.salary"),
            Attribute(name: "lower", type: .string, derivation: "lowercase:(name)"),
            Attribute(name: "upper", type: .string, derivation: "uppercase:(name)"),
            Attribute(name: "canon", type: .string, derivation: "canonical:(name)"),
            Attribute(name: "doubled", type: .double, derivation: "budget * 2 + 1"),
            Attribute(name: "touched", type: .date, derivation: "now()"),
        ], relationships: [Relationship(name: "employees", destination: "Employee", isToMany: true, inverse: "department")]),
        Entity(name: "Employee", attributes: [
            Attribute(name: "name", type: .string),
            Attribute(name: "salary", type: .integer64),
            Attribute(name: "raised", type: .integer64, derivation: "salary + 1000"),
            Attribute(name: "place", type: .string, derivation: "department.name"),
            Attribute(name: "placeFolded", type: .string, derivation: "canonical:(department.name)"),
            Attribute(name: "share", type: .double, derivation: "department.budget - salary"),
        ], relationships: [Relationship(name: "department", destination: "Department", inverse: "employees")]),
    ])

    /// Two departments (one named with diacritics and a capital sharp s), five employees, one without a department.
    static func store(_ engine: TestEngine) throws -> SQLStore {
        let store = try engine.emptyStore(model: model)
        let context = Context(store: store)
        let a = try context.insert("Department")
        try a.setValue(.string("Zoë Ärger"), forKey: "name")
        try a.setValue(.double(1000), forKey: "budget")
        let b = try context.insert("Department")
        try b.setValue(.string("Sales"), forKey: "name")
        try b.setValue(.double(50), forKey: "budget")
        for (name, salary, dept) in [("Ann", 100, a), ("Bob", 250, a), ("Cat", 400, b), ("Dan", 30, b), ("Eve", 70, nil)] as [(String, Int64, ManagedObject?)] {
            let e = try context.insert("Employee")
            try e.setValue(.string(name), forKey: "name")
            try e.setValue(.int(salary), forKey: "salary")
            if let dept { try e.setValue(dept, forKey: "department") }
        }
        try context.save()
        return store
    }

    static func one(_ context: Context, _ entity: String, _ name: String) throws -> ManagedObject {
        let r = FetchRequest(entity: entity, predicate: try Parser.parsePredicate("name == %@", arguments: [.string(name)]))
        return try #require(try context.fetch(r).first)
    }

    /// Numbers compare by value (a stored 3 and an evaluated 3.0 agree).
    static func same(_ a: Value, _ b: Value) -> Bool {
        func number(_ v: Value) -> Double? {
            switch v {
            case .int(let i): return Double(i)
            case .double(let d): return d
            case .date(let d): return d
            default: return nil
            }
        }
        if let x = number(a), let y = number(b) { return abs(x - y) <= 1e-9 * max(1, abs(x)) }
        return a == b
    }

    /// Every derived value of every object, stored vs evaluated in memory;
    /// and, for the writing context, its objects hold the stored values.
    static func expectAgreement(_ store: SQLStore, writer: Context? = nil, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let fresh = Context(store: store)
        var stored: [String: Value] = [:]
        for entity in model.entities {
            for object in try fresh.fetch(FetchRequest(entity: entity.name)) {
                for a in entity.attributes {
                    guard let text = a.derivation else { continue }
                    let value = object[a.name] ?? .null
                    stored["\(entity.name)/\(String(describing: object["name"]))/\(a.name)"] = value
                    if text == "now()" {
                        guard case .date(let d) = value else {
                            Issue.record("\(what): \(entity.name).\(a.name) is \(value), not a date", sourceLocation: sourceLocation)
                            continue
                        }
                        #expect(abs(d - Date().timeIntervalSinceReferenceDate) < 600, "\(what)", sourceLocation: sourceLocation)
                        continue
                    }
                    let expected = try Evaluator.compile(try Parser.parseExpression(text)).evaluate(.object(ObjectReference(object)))
                    #expect(same(value, expected), "\(what): \(entity.name) \(String(describing: object["name"])).\(a.name) stored \(value), evaluated \(expected)",
                            sourceLocation: sourceLocation)
                }
            }
        }
        guard let writer else { return }
        for entity in model.entities {
            for object in try writer.fetch(FetchRequest(entity: entity.name)) {
                for a in entity.attributes where a.derivation != nil && a.derivation != "now()" {
                    let key = "\(entity.name)/\(String(describing: object["name"]))/\(a.name)"
                    #expect(same(object[a.name] ?? .null, stored[key] ?? .null), "\(what): the writing context's \(key) is \(object[a.name] ?? .null), the store's \(stored[key] ?? .null)",
                            sourceLocation: sourceLocation)
                }
            }
        }
    }

    static func expr(_ text: String) throws -> QueryExpression { try Parser.parseExpression(text) }
    static func pred(_ text: String) throws -> QueryPredicate { try Parser.parsePredicate(text) }
}

@Suite("Derived attributes", .serialized)
struct DerivedAttributeTests {
    typealias Write = @Sendable (SQLStore, Context) throws -> Void

    /// Each kind of write, named; each touches several derivation kinds.
    static let writes: [(String, Write)] = [
        ("nothing (as seeded)", { _, _ in }),
        ("insert into a department", { _, c in
            let e = try c.insert("Employee")
            try e.setValue(.string("Fay"), forKey: "name")
            try e.setValue(.int(900), forKey: "salary")
            try e.setValue(try DerivedModel.one(c, "Department", "Sales"), forKey: "department")
            try c.save()
        }),
        ("insert a department", { _, c in
            let d = try c.insert("Department")
            try d.setValue(.string("ÉCOLE Straße"), forKey: "name")
            try c.save()
        }),
        ("update of the object itself", { _, c in
            let sales = try DerivedModel.one(c, "Department", "Sales")
            try sales.setValue(.string("Ventes Été"), forKey: "name")
            try sales.setValue(.double(75.5), forKey: "budget")
            try DerivedModel.one(c, "Employee", "Eve").setValue(.int(71), forKey: "salary")
            try c.save()
        }),
        ("update of a related object", { _, c in
            try DerivedModel.one(c, "Employee", "Ann").setValue(.int(1_000), forKey: "salary")
            try DerivedModel.one(c, "Department", "Zoë Ärger").setValue(.string("Research"), forKey: "name")
            try c.save()
        }),
        ("relationship added (moved)", { _, c in
            try DerivedModel.one(c, "Employee", "Cat").setValue(try DerivedModel.one(c, "Department", "Zoë Ärger"), forKey: "department")
            try DerivedModel.one(c, "Department", "Sales").add(try DerivedModel.one(c, "Employee", "Eve"), to: "employees")
            try c.save()
        }),
        ("relationship removed", { _, c in
            try DerivedModel.one(c, "Department", "Zoë Ärger").remove(try DerivedModel.one(c, "Employee", "Bob"), from: "employees")
            try DerivedModel.one(c, "Employee", "Dan").setValue(nil as ManagedObject?, forKey: "department")
            try c.save()
        }),
        ("delete of a related object", { _, c in
            try c.delete(try DerivedModel.one(c, "Employee", "Bob"))
            try c.save()
        }),
        ("delete of a department", { _, c in
            try c.delete(try DerivedModel.one(c, "Department", "Sales"))
            try c.save()
        }),
        ("batch update of related rows", { s, _ in
            try s.batchUpdate(entity: "Employee", predicate: try DerivedModel.pred("salary < 300"), set: [("salary", try DerivedModel.expr("salary * 3"))])
        }),
        ("batch update of own rows", { s, _ in
            try s.batchUpdate(entity: "Department", predicate: nil, set: [("name", try DerivedModel.expr("'Dépôt'")), ("budget", try DerivedModel.expr("budget + 1"))])
        }),
        ("batch update in memory (FUNCTION residual)", { s, _ in
            try s.batchUpdate(entity: "Employee", predicate: try DerivedModel.pred("FUNCTION(name, 'uppercaseString') == 'DAN'"), set: [("salary", try DerivedModel.expr("5"))])
        }),
        ("batch delete of related rows", { s, _ in
            try s.batchDelete(entity: "Employee", predicate: try DerivedModel.pred("salary > 200"))
        }),
        ("batch delete of departments", { s, _ in
            try s.batchDelete(entity: "Department", predicate: try DerivedModel.pred("name == 'Sales'"))
        }),
        ("batch insert", { s, _ in
            try s.batchInsert("Employee", objects: [["name": .string("Gus"), "salary": .int(12)], ["name": .string("Hal")]])
            try s.batchInsert("Department", objects: [["name": .string("Ωmega"), "budget": .double(2)]])
        }),
        ("store insert with a to-one", { s, _ in
            let sales = try #require(try s.fetch(FetchRequest(entity: "Department", predicate: try DerivedModel.pred("name == 'Sales'"))).first)
            try s.insert("Employee", ["name": .string("Ivy"), "salary": .int(5)], toOne: ["department": sales.id])
        }),
    ]

    @Test(arguments: TestEngine.available, writes.indices)
    func storedValuesAgreeWithTheEvaluator(engine: TestEngine, index: Int) throws {
        let (name, write) = Self.writes[index]
        let store = try DerivedModel.store(engine)
        let context = Context(store: store)
        // Objects loaded before the write: the context must see the new values.
        _ = try context.fetch(FetchRequest(entity: "Department"))
        _ = try context.fetch(FetchRequest(entity: "Employee"))
        try write(store, context)
        let wroteThroughContext = !name.hasPrefix("batch") && !name.hasPrefix("store") && name != "nothing (as seeded)"
        try DerivedModel.expectAgreement(store, writer: wroteThroughContext ? context : nil, name)
    }

    @Test(arguments: TestEngine.available)
    func someValuesByHand(engine: TestEngine) throws {
        let store = try DerivedModel.store(engine)
        let c = Context(store: store)
        let zoe = try DerivedModel.one(c, "Department", "Zoë Ärger")
        #expect(zoe["total"] == .int(350) && zoe["headcount"] == .int(2) && zoe["top"] == .int(250) && zoe["bottom"] == .int(100))
        #expect(zoe["lower"] == .string("zoë ärger") && zoe["upper"] == .string("ZOË ÄRGER") && zoe["canon"] == .string("zoe arger"))
        #expect(zoe["doubled"] == .double(2001))
        let eve = try DerivedModel.one(c, "Employee", "Eve")
        #expect(eve["place"] == .null && eve["raised"] == .int(1070))
        let ann = try DerivedModel.one(c, "Employee", "Ann")
        #expect(ann["place"] == .string("Zoë Ärger") && ann["placeFolded"] == .string("zoe arger") && ann["share"] == .double(900))
        // now() stamps only the rows a write touched.
        let salesStamp = try DerivedModel.one(c, "Department", "Sales")["touched"]
        store.now = { Date().timeIntervalSinceReferenceDate + 3600 }
        try zoe.setValue(.double(1), forKey: "budget")
        try c.save()
        let after = Context(store: store)
        #expect(try DerivedModel.one(after, "Department", "Sales")["touched"] == salesStamp)
        #expect(try DerivedModel.one(after, "Department", "Zoë Ärger")["touched"] != salesStamp)
    }

    /// Predicates and sorts on derived attributes: SQL and memory agree.
    static let queries: [(String, String, String)] = [
        ("Department", "total > 300", "total"),
        ("Department", "headcount == 2 AND lower BEGINSWITH 'z'", "canon"),
        ("Department", "canon CONTAINS 'arg' OR mean < 300", "mean"),
        ("Employee", "place == 'Sales' OR raised > 1200", "raised"),
        ("Employee", "placeFolded == nil", "name"),
        ("Employee", "share < 0", "share"),
    ]

    @Test(arguments: TestEngine.available, queries.indices)
    func predicatesAndSortsAgree(engine: TestEngine, index: Int) throws {
        let (entity, predicate, sort) = Self.queries[index]
        let store = try DerivedModel.store(engine)
        let request = FetchRequest(entity: entity, predicate: try DerivedModel.pred(predicate),
                                   sortDescriptors: [QuerySortDescriptor(sort), QuerySortDescriptor("name")])
        let sql = try Context(store: store).fetch(request).map { $0["name"] ?? .null }
        let memory = try Context(store: store).fetch(request, engine: .memory).map { $0["name"] ?? .null }
        #expect(sql == memory, "\(predicate)")
        #expect(!sql.isEmpty || predicate == "share < 0", "\(predicate)")
    }

    @Test(arguments: TestEngine.available)
    func settingOneIsRefused(engine: TestEngine) throws {
        let store = try DerivedModel.store(engine)
        let c = Context(store: store)
        let ann = try DerivedModel.one(c, "Employee", "Ann")
        #expect(throws: DerivedAttributeError.self) { try ann.setValue(.int(1), forKey: "raised") }
        #expect(!c.hasChanges)
        let fresh = try c.insert("Department")
        #expect(throws: DerivedAttributeError.self) { try fresh.setValue(.int(1), forKey: "total") }
        #expect(throws: DerivedAttributeError.self) { try store.insert("Employee", ["name": .string("X"), "raised": .int(3)]) }
        #expect(throws: DerivedAttributeError.self) {
            try store.batchUpdate(entity: "Employee", predicate: nil, set: [("place", try DerivedModel.expr("'x'"))])
        }
        #expect(throws: (any Error).self) { try store.batchInsert("Employee", objects: [["name": .string("Y"), "raised": .int(3)]]) }
        // Nothing was written by the refused requests.
        #expect(try store.count(FetchRequest(entity: "Employee")) == 5)
        #expect(try store.count(FetchRequest(entity: "Employee", predicate: try DerivedModel.pred("place == 'x'"))) == 0)
    }

    /// Adding derived attributes to a populated store computes them for
    /// every existing row; a lowercase: one is refused, the store unchanged.
    @Test(arguments: TestEngine.available)
    func migrationComputesAddedDerivedAttributes(engine: TestEngine) throws {
        var old = DerivedModel.model
        for e in old.entities.indices { old.entities[e].attributes.removeAll { $0.derivation != nil } }
        let location = try MigrationLocation.fresh(engine)
        defer { location.remove() }
        do {
            let store = try location.open(old)
            let c = Context(store: store)
            let d = try c.insert("Department")
            try d.setValue(.string("Zoë"), forKey: "name")
            for salary in [10, 32] as [Int64] {
                let e = try c.insert("Employee")
                try e.setValue(.string("E\(salary)"), forKey: "name")
                try e.setValue(.int(salary), forKey: "salary")
                try e.setValue(d, forKey: "department")
            }
            try c.save()
            store.database.close()
        }
        // lowercase:/uppercase: cannot be computed in SQL: refused, nothing changed.
        let before = try location.fingerprint(old)
        #expect(throws: MigrationError.self) { _ = try location.open(DerivedModel.model, migration: .automatic) }
        #expect(try location.fingerprint(old) == before)
        var new = DerivedModel.model
        for e in new.entities.indices {
            new.entities[e].attributes.removeAll { ["lower", "upper"].contains($0.name) }
        }
        let store = try location.open(new, migration: .automatic)
        defer { store.database.close() }
        let c = Context(store: store)
        let zoe = try DerivedModel.one(c, "Department", "Zoë")
        #expect(zoe["total"] == .int(42) && zoe["headcount"] == .int(2) && zoe["canon"] == .string("zoe") && zoe["top"] == .int(32))
        #expect(try DerivedModel.one(c, "Employee", "E10")["place"] == .string("Zoë"))
        #expect(try DerivedModel.one(c, "Employee", "E32")["raised"] == .int(1032))
    }
}

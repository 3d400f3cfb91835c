// Dictionary results (properties, aggregates, GROUP BY, HAVING, DISTINCT)
// computed by SQL and by memory must agree; batch update and delete change
// exactly the selected rows, honour delete rules, and are atomic.
import Foundation
import Testing
@testable import QuarryStore

func property(_ name: String, _ expression: String) throws -> FetchProperty {
    FetchProperty(name: name, expression: try Parser.parseExpression(expression))
}

@Suite("Dictionary results: SQL and memory agree", .serialized)
struct DictionaryTests {
    static let stores = EngineStores { try Fixture.store(engine: $0) }

    static let requests: [(String, String?, [(String, String)], [String], String?, [String], Bool)] = [
        // entity, predicate, properties, group by, having, sort keys ("-" prefix = descending), distinct
        ("Department", nil, [("name", "name"), ("headcount", "count:(employees)"), ("avg", "average:(employees.salary)")], [], nil, ["name"], false),
        ("Employee", nil, [("dept", "department.name"), ("avg", "average:(salary)"), ("n", "count:(salary)")], ["department.name"], nil, ["dept"], false),
        ("Employee", "active == YES", [("dept", "department.name"), ("total", "sum:(salary)")], ["department.name"], "total > 1000000", ["-total"], false),
        ("Employee", nil, [("avg", "average:(salary)"), ("oldest", "max:(age)"), ("youngest", "min:(age)")], [], nil, [], false),
        ("Employee", "salary > 1000000", [("avg", "average:(salary)"), ("n", "count:(salary)"), ("sum", "sum:(salary)")], [], nil, [], false),
        ("Employee", nil, [("active", "active")], [], nil, ["active"], true),
        ("Employee", nil, [("dept", "department.name"), ("active", "active")], [], nil, ["dept", "active"], true),
        ("Employee", "age > 30", [("name", "name"), ("projects", "projects.@count")], [], nil, ["-projects", "name"], false),
    ]

    @Test(arguments: TestEngine.available, 0..<requests.count)
    func sqlAndMemoryAgree(engine: TestEngine, index: Int) throws {
        let store = try Self.stores.store(engine)
        let (entity, predicate, properties, groupBy, having, sorts, distinct) = Self.requests[index]
        var request = FetchRequest(entity: entity, predicate: try predicate.map { try Parser.parsePredicate($0) })
        request.propertiesToFetch = try properties.map { try property($0.0, $0.1) }
        request.propertiesToGroupBy = try groupBy.map { try FetchProperty(keyPath: $0) }
        request.havingPredicate = try having.map { try Parser.parsePredicate($0) }
        request.sortDescriptors = sorts.map { QuerySortDescriptor($0.hasPrefix("-") ? String($0.dropFirst()) : $0, ascending: !$0.hasPrefix("-")) }
        request.returnsDistinctResults = distinct
        #expect(try SQLPlanner.planDictionaries(request, mapping: store.mapping) != nil, "should run in SQL")
        let sql = try store.fetchDictionaries(request, engine: .sql)
        let memory = try store.fetchDictionaries(request, engine: .memory)
        if engine != .sqlite {
            let reference = try Self.stores.store(.sqlite).fetchDictionaries(request, engine: .sql)
            #expect(sql.count == reference.count)
            for (a, b) in zip(sql, reference) {
                #expect(a.keys == b.keys)
                for (x, y) in zip(a.values, b.values) { #expect(Self.sameNumberOrValue(x, y), "\(engine) \(a) vs sqlite \(b)") }
            }
        }
        #expect(sql.count == memory.count)
        for (a, b) in zip(sql, memory) {
            #expect(a.keys == b.keys)
            for (x, y) in zip(a.values, b.values) {
                #expect(Self.sameNumberOrValue(x, y), "\(a) vs \(b)")
            }
        }
        #expect(!sql.isEmpty)
    }

    /// SQL's AVG is a double where memory may keep an integer; compare numbers by value.
    static func sameNumberOrValue(_ a: Value, _ b: Value) -> Bool {
        func number(_ v: Value) -> Double? {
            switch v {
            case .int(let i): return Double(i)
            case .double(let d): return d
            case .bool(let b): return b ? 1 : 0
            case .decimal(let d): return NSDecimalNumber(decimal: d).doubleValue
            default: return nil
            }
        }
        if let x = number(a), let y = number(b) { return abs(x - y) <= 1e-9 * max(1, abs(x)) }
        return a == b
    }
}

@Suite("Batch update and delete", .serialized)
struct BatchTests {
    func pks(_ store: SQLStore, _ entity: String, _ format: String) throws -> [Int64] {
        try store.fetch(FetchRequest(entity: entity, predicate: try Parser.parsePredicate(format))).map(\.id.primaryKey)
    }

    @Test(arguments: TestEngine.available)
    func updateChangesExactlyTheSelectedRows(engine: TestEngine) throws {
        let store = try Fixture.store(engine: engine)
        var before: [Int64: Int64] = [:]
        for o in try store.fetch(FetchRequest(entity: "Employee")) {
            if case .int(let s)? = o.value(forKey: "salary") { before[o.id.primaryKey] = s }
        }
        let selected = try pks(store, "Employee", "active == NO AND salary < 100000")
        let n = try store.batchUpdate(entity: "Employee", predicate: try Parser.parsePredicate("active == NO AND salary < 100000"),
                                      set: [("salary", try Parser.parseExpression("salary * 2 + 1"))])
        #expect(n == selected.count)
        #expect(n > 0)
        let after = try store.fetch(FetchRequest(entity: "Employee"))
        #expect(after.count == before.count)
        for object in after {
            guard let s0 = before[object.id.primaryKey], case .int(let s1)? = object.value(forKey: "salary") else { Issue.record("salary"); continue }
            #expect(s1 == (selected.contains(object.id.primaryKey) ? s0 * 2 + 1 : s0))
        }
    }

    @Test(arguments: TestEngine.available)
    func updateThroughARelationshipRunsObjectByObject(engine: TestEngine) throws {
        let store = try Fixture.store(engine: engine)
        let predicate = try Parser.parsePredicate("department.name == 'Sales' AND salary ** 1 > 0")
        let selected = try pks(store, "Employee", "department.name == 'Sales'")
        let n = try store.batchUpdate(entity: "Employee", predicate: predicate, set: [("active", try Parser.parseExpression("NO"))])
        #expect(n == selected.count)
        #expect(try pks(store, "Employee", "department.name == 'Sales' AND active == YES").isEmpty)
    }

    @Test(arguments: TestEngine.available)
    func updateErrorsChangeNothing(engine: TestEngine) throws {
        let store = try Fixture.store(engine: engine)
        #expect(throws: Diagnostic.self) { try store.batchUpdate(entity: "Employee", predicate: nil, set: [("salry", try Parser.parseExpression("1"))]) }
        #expect(throws: Diagnostic.self) { try store.batchUpdate(entity: "Employee", predicate: nil, set: [("salary", try Parser.parseExpression("'a lot'"))]) }
        #expect(try store.count(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary == 1"))) == 0)
    }

    @Test(arguments: TestEngine.available)
    func deleteCascadesAndNullifies(engine: TestEngine) throws {
        let store = try Fixture.store(engine: engine)
        let sales = try pks(store, "Department", "name == 'Sales'")
        let salesEmployees = try pks(store, "Employee", "department.name == 'Sales'")
        #expect(!salesEmployees.isEmpty)
        let employeesBefore = try store.count(FetchRequest(entity: "Employee"))
        let n = try store.batchDelete(entity: "Department", predicate: try Parser.parsePredicate("name == 'Sales'"))
        #expect(n == sales.count)
        // Department.employees is Cascade: the employees went too.
        #expect(try store.count(FetchRequest(entity: "Employee")) == employeesBefore - salesEmployees.count)
        // Their project memberships went with them (join rows), projects stay.
        #expect(try store.count(FetchRequest(entity: "Project")) == 12)
        let dangling = try store.database.rows(#"SELECT COUNT(*) FROM "_Employee_projects" WHERE "source" NOT IN (SELECT "_pk" FROM "Employee")"#)
        #expect(dangling.first?.first == .int(0))
    }

    @Test(arguments: TestEngine.available)
    func deleteEmployeesNullifiesNothingElse(engine: TestEngine) throws {
        let store = try Fixture.store(engine: engine)
        let n = try store.batchDelete(entity: "Employee", predicate: try Parser.parsePredicate("salary > 150000"))
        #expect(n > 0)
        #expect(try store.count(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary > 150000"))) == 0)
        #expect(try store.count(FetchRequest(entity: "Department")) == 8)
        let dangling = try store.database.rows(#"SELECT COUNT(*) FROM "_Employee_projects" WHERE "source" NOT IN (SELECT "_pk" FROM "Employee")"#)
        #expect(dangling.first?.first == .int(0))
    }

    static let denyModel = """
    entities:
      Owner:
        attributes: { name: string }
        relationships:
          pets: { to: Pet, many: true, inverse: owner, delete: deny }
      Pet:
        attributes: { name: string }
        relationships:
          owner: { to: Owner, delete: nullify }
    """

    @Test(arguments: TestEngine.available)
    func denyRefusesAndDeletesNothing(engine: TestEngine) throws {
        let store = try engine.emptyStore(model: try ModelReader.read(yaml: Self.denyModel, file: "deny.yaml"))
        let alice = try store.insert("Owner", ["name": .string("Alice")])
        try store.insert("Owner", ["name": .string("Bob")])
        try store.insert("Pet", ["name": .string("Rex")], toOne: ["owner": alice])
        #expect(throws: StoreError.deleteDenied(entity: "Owner", relationship: "pets", related: 1)) {
            try store.batchDelete(entity: "Owner", predicate: nil)
        }
        #expect(try store.count(FetchRequest(entity: "Owner")) == 2)
        // Without pets, Bob can go; deleting the pet first lets Alice go too.
        #expect(try store.batchDelete(entity: "Owner", predicate: try Parser.parsePredicate("name == 'Bob'")) == 1)
        #expect(try store.batchDelete(entity: "Pet", predicate: nil) == 1)
        #expect(try store.batchDelete(entity: "Owner", predicate: nil) == 1)
        #expect(try store.count(FetchRequest(entity: "Owner")) == 0)
    }

    @Test func explainAndQueryPlan() throws {
        let store = try Fixture.store()
        let request = FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("department.name == 'Sales'"))
        let plan = try store.queryPlan(request)
        #expect(plan.contains { $0.contains("SCAN") || $0.contains("SEARCH") })
        let indexed = try store.queryPlan(FetchRequest(entity: "Department", predicate: try Parser.parsePredicate("name == 'Sales'")))
        #expect(indexed.contains { $0.contains("USING INDEX") || $0.contains("USING COVERING INDEX") }, "\(indexed)")
    }
}

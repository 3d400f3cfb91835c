// The disagreements of issue 18, each as a table of cases that runs on every
// engine — the evaluator over the store's objects, SQLite's SQL, and
// PostgreSQL's SQL when a server is configured — and must come out the same:
// the same rows in the same order, or the same error code. Where Apple's
// answer is known the cases check it too (a bare key in a SUBQUERY is the
// outer object's; `@avg` counts a nil element as 0; a to-one sorts by its
// key), so that two engines agreeing on a wrong answer still fail.
import Foundation
import Testing
@testable import QuarryStore

/// What one engine made of a request: the rows' keys in order, or an error code.
enum EngineOutcome: Equatable, CustomStringConvertible {
    case rows([Int64])
    case error(String)

    init(_ body: () throws -> [StoredObject]) {
        do { self = .rows(try body().map(\.id.primaryKey)) } catch { self = .error(EngineOutcome.code(of: error)) }
    }

    /// A diagnostic's code (B002, E009...), or the error's type for others.
    static func code(of error: any Error) -> String {
        if let d = error as? Diagnostic { return d.code.rawValue }
        return String(describing: type(of: error))
    }

    var description: String {
        switch self {
        case .rows(let keys): return "\(keys.count) rows \(keys.prefix(8))"
        case .error(let code): return "error \(code)"
        }
    }
}

@Suite("Engines agree: issue 18's disagreements", .serialized)
struct EngineAgreementTests {
    static let stores = EngineStores { try Fixture.store(engine: $0) }

    /// The request on the memory engine and in SQL, on `engine`'s store
    /// (and SQLite's SQL, when `engine` is another database).
    func outcomes(_ engine: TestEngine, _ request: FetchRequest) throws -> (memory: EngineOutcome, sql: EngineOutcome, sqlite: EngineOutcome) {
        let store = try Self.stores.store(engine)
        let memory = EngineOutcome { try store.fetch(request, engine: .memory) }
        let sql = EngineOutcome { try store.fetch(request, engine: .sql) }
        let sqlite = engine == .sqlite ? sql : EngineOutcome { try Self.stores.store(.sqlite).fetch(request, engine: .sql) }
        return (memory, sql, sqlite)
    }

    @discardableResult
    func agree(_ engine: TestEngine, _ entity: String, _ format: String) throws -> EngineOutcome {
        let request = FetchRequest(entity: entity, predicate: try Parser.parsePredicate(format))
        let (memory, sql, sqlite) = try outcomes(engine, request)
        #expect(memory == sql, "\(format): memory \(memory), \(engine) sql \(sql)")
        #expect(sql == sqlite, "\(format): \(engine) sql \(sql), sqlite \(sqlite)")
        return memory
    }

    // MARK: A bare key inside SUBQUERY is the outer object's

    static let subqueryCases = [
        "SUBQUERY(department.employees, $e, $e.salary > salary).@count < 3",
        "SUBQUERY(department.employees, $e, $e.salary > salary AND $e.age == age).@count > 0",
        "SUBQUERY(department.employees, $e, $e.salary > salary).@count == 0",
        "SUBQUERY(projects, $p, $p.budget > 100 AND SELF.salary > 100000).@count > 0",
        "SUBQUERY(projects, $p, SUBQUERY($p.members, $m, $m.salary > salary).@count > 2).@count > 0",
    ]

    @Test(arguments: TestEngine.available, subqueryCases)
    func subqueryBareKeysAreTheOuterObjects(engine: TestEngine, format: String) throws {
        try agree(engine, "Employee", format)
    }

    /// The first case by hand: the employees with fewer than three
    /// colleagues (themselves included) in their department earning more.
    @Test(arguments: TestEngine.available)
    func subqueryMeansWhatAppleSays(engine: TestEngine) throws {
        let store = try Self.stores.store(engine)
        let all = try store.fetch(FetchRequest(entity: "Employee"), engine: .sql)
        var expected: [Int64] = []
        for e in all {
            guard case .object(let d)? = e.value(forKey: "department"), case .array(let colleagues)? = d.object.value(forKey: "employees"),
                  case .int(let salary)? = e.value(forKey: "salary") else { expected.append(e.id.primaryKey); continue }
            let richer = colleagues.filter { if case .object(let c) = $0, case .int(let s)? = c.object.value(forKey: "salary") { return s > salary } else { return false } }
            if richer.count < 3 { expected.append(e.id.primaryKey) }
        }
        let outcome = try agree(engine, "Employee", Self.subqueryCases[0])
        #expect(outcome == .rows(expected))
        #expect(expected.count < all.count, "the case must select some rows and not others")
    }

    // MARK: NSNumber / NSString suffixes

    static let suffixCases: [(String, String)] = [
        ("Department", "employees.@avg.salary.doubleValue > 70000"),
        ("Department", "employees.@avg.age.doubleValue > 45"),
        ("Department", "employees.@sum.age.doubleValue > 1000"),
        ("Department", "employees.@max.salary.integerValue > 190000"),
        ("Department", "ANY employees.name.length > 8"),
        ("Department", "ANY employees.salary.doubleValue > 199000.5"),
        ("Department", "average:(employees.salary.doubleValue) > 90000"),
        ("Employee", "salary.doubleValue > 50000.5"),
        ("Employee", "salary.doubleValue / 3 > 20000"),
        ("Employee", "salary.integerValue == salary"),
        ("Employee", "age.intValue > 40"),
        ("Employee", "age.longLongValue == nil"),
        ("Employee", "salary.floatValue >= 100000"),
        ("Employee", "active.boolValue == YES"),
        ("Employee", "active.intValue == 1"),
        ("Employee", "name.length > 5"),
        ("Employee", "name.length == 0"),
        ("Employee", "name.uppercaseString BEGINSWITH 'J'"),
        ("Employee", "name.lowercaseString CONTAINS 'ü'"),
        ("Employee", "salary.stringValue BEGINSWITH '1'"),
        ("Employee", "startDate.timeIntervalSinceReferenceDate > 0"),
        ("Employee", "startDate.timeIntervalSince1970 > 978307200"),
        ("Employee", "department.name.length > 4"),
        ("Employee", "department.budget.doubleValue > 500000"),
        ("Employee", "department.employees.@avg.salary.doubleValue > salary"),
        ("Employee", "salary.doubleValue.integerValue.doubleValue > 100000"),
        // Not keys of the value they follow: the same bind error everywhere.
        ("Employee", "salary.nosuch > 1"),
        ("Employee", "name.doubleValue.length > 1"),
        ("Employee", "startDate.length > 1"),
        ("Department", "employees.@avg.salary.lengthh > 1"),
    ]

    @Test(arguments: TestEngine.available, 0..<suffixCases.count)
    func scalarSuffixesAgree(engine: TestEngine, index: Int) throws {
        let (entity, format) = Self.suffixCases[index]
        let outcome = try agree(engine, entity, format)
        if format.contains("nosuch") || format.contains("lengthh") || format.contains("doubleValue.length") || format.contains("startDate.length") {
            #expect(outcome == .error("B005"), "\(format)")
        } else {
            #expect(outcome != EngineOutcome.error("B005") && outcome != EngineOutcome.error("B002"), "\(format) must be accepted: \(outcome)")
        }
    }

    // MARK: Key paths checked against the model on every engine

    static let bindErrorCases: [(String, String, String)] = [
        ("Employee", "nosuch == nil", "B002"),
        ("Employee", "department.nosuch == 1", "B002"),
        ("Employee", "projects.budget > 5", "B003"),
        ("Employee", "name.nosuch == 'x'", "B005"),
        ("Department", "employees.@avg.nosuch > 1", "B002"),
        ("Department", "employees.@distinctUnionOfObjects.name.@count > 1", "B002"),
        ("Employee", "salary > 0 AND nosuch == nil", "B002"),
    ]

    @Test(arguments: TestEngine.available, 0..<bindErrorCases.count)
    func unknownKeysFailTheSameWay(engine: TestEngine, index: Int) throws {
        let (entity, format, code) = Self.bindErrorCases[index]
        #expect(try agree(engine, entity, format) == .error(code))
        let store = try Self.stores.store(engine)
        let request = FetchRequest(entity: entity, predicate: try Parser.parsePredicate(format))
        for e in [FetchEngine.memory, .sql] {
            #expect(throws: Diagnostic.self) { try store.count(request, engine: e) }
        }
    }

    // MARK: Aggregates: @avg counts nil as 0, average: skips it

    static let aggregateCases: [(String, String)] = [
        ("Department", "employees.@avg.age > 45"),
        ("Department", "employees.@avg.age == average:(employees.age)"),
        ("Department", "average:(employees.age) > 45"),
        ("Department", "employees.@avg.age < average:(employees.age)"),
        ("Employee", "department.employees.@avg.age > age"),
        ("Employee", "department.employees.@avg.salary > salary"),
        ("Employee", "department.employees.@count > 20"),
        ("Employee", "department.employees.@count == nil"),
        ("Employee", "department.employees.@count < 25"),
        ("Employee", "department.employees.@sum.salary > 2000000"),
        ("Employee", "department.employees.@sum.salary == nil"),
        ("Employee", "department.employees.@max.age > 85"),
        ("Employee", "department.employees.@min.age < 20"),
        ("Employee", "average:(department.employees.age) > 50"),
        ("Employee", "ANY department.employees.salary > 190000"),
        ("Employee", "ALL department.employees.salary > 1000"),
        ("Employee", "NONE department.employees.age < 20"),
        ("Employee", "NOT (ANY department.employees.salary > 190000)"),
        ("Employee", "ANY department.employees.salary > salary"),
        ("Employee", "ANY department.employees.projects.budget > 490"),
        ("Employee", "ANY department.employees.name BEGINSWITH[cd] 'jo'"),
        ("Employee", "department.employees.@count > 20 AND ANY department.employees.age > 85"),
        ("Employee", "department.employees.@avg.salary > salary OR department.employees.@count < 10"),
    ]

    @Test(arguments: TestEngine.available, 0..<aggregateCases.count)
    func aggregatesAgree(engine: TestEngine, index: Int) throws {
        let (entity, format) = Self.aggregateCases[index]
        let outcome = try agree(engine, entity, format)
        if case .error(let code) = outcome { Issue.record("\(format) failed with \(code)") }
    }

    /// Through a to-one, aggregates are computed once per department (a
    /// grouped derived table) and quantifiers with a constant test become an
    /// uncorrelated list of departments; a test naming the outer row stays
    /// correlated. The plan says so (EXPLAIN prints the same SQL).
    static let shapes: [(String, [String], [String])] = [
        ("department.employees.@avg.salary > salary", ["LEFT JOIN (SELECT", "GROUP BY"], ["(SELECT (TOTAL"]),
        ("department.employees.@count > 20", ["LEFT JOIN (SELECT", "GROUP BY", "COUNT(*) AS"], ["CASE WHEN"]),
        ("count:(department.employees) > 20", ["GROUP BY", "COALESCE("], []),
        ("ANY department.employees.salary > 190000", [#"t0."department" IN (SELECT"#], ["EXISTS"]),
        ("NONE department.employees.age < 20", ["IS NULL OR", "NOT IN (SELECT"], ["EXISTS"]),
        ("ANY department.employees.salary > salary", ["EXISTS (SELECT"], ["GROUP BY"]),
        ("employees.@count > 1", [], ["GROUP BY"]),
    ]

    @Test(arguments: TestEngine.available, 0..<shapes.count)
    func decorrelatedShapes(engine: TestEngine, index: Int) throws {
        let (format, present, absent) = Self.shapes[index]
        let entity = format.hasPrefix("employees") ? "Department" : "Employee"
        let sql = try Self.stores.store(engine).explain(FetchRequest(entity: entity, predicate: try Parser.parsePredicate(format))).sql.sql
        for p in present { #expect(sql.contains(p), "\(format): \(sql)") }
        for a in absent { #expect(!sql.contains(a), "\(format): \(sql)") }
        try agree(engine, entity, format)
    }

    /// Apple's `@avg` divides by the number of elements (`[10, 20, nil]`
    /// averages to 10, observed on iOS 18.3); `average:` skips nil (15).
    @Test(arguments: TestEngine.available)
    func averageOfElementsWithNil(engine: TestEngine) throws {
        let store = try engine.emptyStore(model: try ModelReader.read(from: Fixture.modelPath))
        let d = try store.insert("Department", ["name": .string("D")])
        for age in [Value.int(10), .int(20), nil] {
            var values: [String: Value] = ["name": .string("e"), "salary": .int(1), "active": .bool(true)]
            if let age { values["age"] = age }
            _ = try store.insert("Employee", values, toOne: ["department": d])
        }
        _ = try store.insert("Department", ["name": .string("Empty")])
        var request = FetchRequest(entity: "Department", sortDescriptors: [QuerySortDescriptor("name")])
        request.propertiesToFetch = [try property("operator", "employees.@avg.age"), try property("function", "average:(employees.age)")]
        #expect(try SQLPlanner.planDictionaries(request, mapping: store.mapping) != nil, "should run in SQL")
        for e in [FetchEngine.sql, .memory] {
            let rows = try store.fetchDictionaries(request, engine: e)
            #expect(rows.map(\.values) == [[.double(10), .double(15)], [.null, .null]], "\(e)")
        }
        for e in [FetchEngine.sql, .memory] {
            let request = FetchRequest(entity: "Department", predicate: try Parser.parsePredicate("employees.@avg.age == 10"))
            #expect(try store.fetch(request, engine: e).map(\.id) == [d], "\(e)")
        }
    }

    // MARK: Sorting by a to-one

    @Test(arguments: TestEngine.available)
    func toOneSortsByItsKey(engine: TestEngine) throws {
        let store = try Self.stores.store(engine)
        var orders: [Bool: [Int64]] = [:]
        for ascending in [true, false] {
            let request = FetchRequest(entity: "Employee", sortDescriptors: [QuerySortDescriptor("department", ascending: ascending), QuerySortDescriptor("name")])
            let (memory, sql, sqlite) = try outcomes(engine, request)
            #expect(memory == sql)
            #expect(sql == sqlite)
            guard case .rows(let keys) = sql else { Issue.record("\(sql)"); continue }
            orders[ascending] = keys
            // The department keys in the order returned: nil first ascending,
            // last descending, and otherwise by the department's key.
            let objects = try store.fetch(request, engine: .sql)
            let departmentKeys = objects.map { o -> Int64 in
                if case .object(let d)? = o.value(forKey: "department"), let s = d.object as? StoredObject { return s.id.primaryKey }
                return Int64.min // nil: the smallest key, first ascending, last descending
            }
            #expect(departmentKeys == (ascending ? departmentKeys.sorted() : departmentKeys.sorted(by: >)))
        }
        #expect(orders[true] != orders[false])
    }

    // MARK: Dictionary results: a to-one is the object on both engines

    @Test(arguments: TestEngine.available)
    func toOnePropertyIsTheObject(engine: TestEngine) throws {
        let store = try Self.stores.store(engine)
        var request = FetchRequest(entity: "Employee", sortDescriptors: [QuerySortDescriptor("name")])
        request.propertiesToFetch = [try property("name", "name"), try property("department", "department")]
        #expect(try SQLPlanner.planDictionaries(request, mapping: store.mapping) != nil, "should run in SQL")
        func ids(_ rows: [DictionaryRow]) -> [String] {
            rows.map { row in
                switch row["department"] {
                case .object(let ref)?: return (ref.object as? StoredObject)?.id.description ?? "<object>"
                case .null?: return "nil"
                default: return "not an object: \(String(describing: row["department"]))"
                }
            }
        }
        let sql = try store.fetchDictionaries(request, engine: .sql)
        let memory = try store.fetchDictionaries(request, engine: .memory)
        #expect(ids(sql) == ids(memory))
        #expect(sql.map { $0["name"] } == memory.map { $0["name"] })
        #expect(ids(sql).contains { $0.hasPrefix("Department/") })
        #expect(ids(sql).contains("nil"))
    }

    // MARK: Minimal disagreements the fuzzer found (EngineFuzzTests)

    static let fuzzRegressions: [(String, String)] = [
        // SQL's part selected no row, so its residual never raised; memory
        // raised on the first row. Memory now evaluates SQL's conjuncts first.
        ("(name + 1 > 3 AND -age == 150000)", "rows"),
        ("(salary / 0 > 1 AND age == 999)", "rows"),
        // SQL skipped the FUNCTION once `nil == nil` decided the OR; the
        // evaluator compiles every part (E002). SQL now lowers every part.
        ("(nil == nil OR FUNCTION(SELF, 'missing') == 1)", "E002"),
        ("(FALSEPREDICATE AND FUNCTION(SELF, 'missing') == 1)", "E002"),
        // Rows of unrelated entities are never equal, whatever their keys.
        ("projects CONTAINS SELF", "rows"),
        ("ANY projects == SELF", "rows"),
        // A to-many aggregate through a nil to-one: the operator is nil, the
        // function count: 0.
        ("department.employees.@count == 0", "rows"),
        ("count:(department.employees) == 0", "rows"),
        ("sum:(department.employees.salary) == 0", "rows"),
        ("department.employees.@sum.salary == nil", "rows"),
        // PostgreSQL keeps MATCHES[c] in memory; the key after it must still
        // be bound (it was a quiet nil there, B002 on SQLite).
        ("(name MATCHES[c] 'j.*' OR department.nosuch == 1)", "B002"),
        ("(name MATCHES[c] '.*[0-9]' OR salary.nosuch > 1)", "B005"),
        ("(salary ** 2 > 4 OR nosuch == 1)", "B002"),
        ("SUBQUERY(projects, $p, $p.budget ** 2 > 1 OR $p.nosuch == 1).@count > 0", "B002"),
    ]

    @Test(arguments: TestEngine.available, 0..<fuzzRegressions.count)
    func fuzzRegression(engine: TestEngine, index: Int) throws {
        let (format, expected) = Self.fuzzRegressions[index]
        let outcome = try agree(engine, "Employee", format)
        if expected == "rows" {
            if case .error(let code) = outcome { Issue.record("\(format): \(code)") }
        } else {
            #expect(outcome == .error(expected), "\(format)")
        }
    }

    /// Employees without a department: `@count` through it is nil, `count:` 0.
    @Test(arguments: TestEngine.available)
    func aggregateThroughNilToOne(engine: TestEngine) throws {
        let store = try Self.stores.store(engine)
        let homeless = try store.fetch(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("department == nil"))).map(\.id.primaryKey)
        #expect(!homeless.isEmpty)
        #expect(try agree(engine, "Employee", "department.employees.@count == nil") == .rows(homeless))
        #expect(try agree(engine, "Employee", "count:(department.employees) == 0") == .rows(homeless))
    }

    // MARK: mode: skips nil, as average: does

    @Test func modeSkipsNil() throws {
        let mode = try Evaluator.compile(try Parser.parseExpression("mode:({1, nil, nil, 2, 1})"))
        #expect(try mode.evaluate(.null) == .array([.int(1)]))
        let none = try Evaluator.compile(try Parser.parseExpression("mode:({nil, nil})"))
        #expect(try none.evaluate(.null) == .array([]))
        let average = try Evaluator.compile(try Parser.parseExpression("average:({10, 20, nil})"))
        #expect(try average.evaluate(.null) == .double(15))
    }
}

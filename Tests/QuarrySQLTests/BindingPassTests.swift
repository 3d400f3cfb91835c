// The binding pass (QuarryBinding): every key path of a predicate resolved
// against the model once, by the code the SQL lowering binds with, so that a
// misspelt key is the same error whether the conjunct it sits in lowers to
// SQL or stays in memory (a registered FUNCTION, `**`, more operands than
// SQL takes) — and the same error the memory engine reports, since it plans
// through the same lowering. Also: the shared vocabulary (aggregates, string
// operators, the type rule) that both engines switch on.
import Foundation
import Testing
@testable import QuarrySQL
@testable import QuarryEvaluation

@Suite("Binding pass")
struct BindingPassTests {
    /// A misspelt key in every place a key path can sit, with the hint binding gives.
    static let misspelt: [(String, String)] = [
        ("nosuch == nil", "Employee has: name, age, salary, startDate, active, email, department, projects"),
        ("salry > 5", "did you mean 'salary'?"),
        ("FUNCTION(salry, 'f') == 1", "did you mean 'salary'?"),
        ("salry ** 2 > 4", "did you mean 'salary'?"),
        ("name == 'a' OR salry ** 2 > 4", "did you mean 'salary'?"),
        ("TERNARY(salary > 5, nam, 'x') == 'y'", "did you mean 'name'?"),
        ("CAST(salry, 'NSString') == '5'", "did you mean 'salary'?"),
        ("SUBQUERY(projects, $p, $p.budgt > 5 AND salary ** 2 > 1).@count > 0", "did you mean 'budget'?"),
        ("SUBQUERY(projects, $p, $p.budget > salry ** 2).@count > 0", "did you mean 'salary'?"),
        ("sum:(projects.budgt) > 5", "did you mean 'budget'?"),
        ("department.nam ** 1 == 2", "did you mean 'name'?"),
    ]

    @Test(arguments: misspelt)
    func misspeltKeysAreRefusedWhereverTheySit(format: String, hint: String) throws {
        let p = try Parser.parsePredicate(format)
        let fromPass = #expect(throws: Diagnostic.self) { try PredicateBinder(model: companyModel, entity: "Employee").check(p) }
        let fromPlanner = #expect(throws: Diagnostic.self) {
            try SQLPlanner.plan(FetchRequest(entity: "Employee", predicate: p), mapping: companyMapping)
        }
        #expect(fromPass?.code == .unknownKeyInModel)
        #expect(fromPass?.hints == [hint])
        // One binder: the planner (both engines' way in) says exactly the same.
        #expect(fromPlanner?.code == fromPass?.code)
        #expect(fromPlanner?.message == fromPass?.message)
        #expect(fromPlanner?.hints == fromPass?.hints)
        #expect(fromPlanner?.span == fromPass?.span)
    }

    /// A to-many path compared as a whole is B003 whether its conjunct lowers
    /// or not: PostgreSQL keeps MATCHES[c] with a class in memory, where the
    /// lowering's own check never ran (the engine fuzzer's seed
    /// 2705563203188962052: B003 on SQLite, 128 rows on PostgreSQL).
    @Test(arguments: ["name MATCHES[c] '.*[0-9]' OR projects.budget > 5", "projects.budget > 5", "salary ** 2 > 4 OR projects.name == 'x'",
                      "TERNARY(active == YES, 1, 0) == 1 AND 5 < projects.budget",
                      "SUBQUERY(department.employees, $e, FUNCTION($e, 'f') == 1 OR $e.projects.budget > 1).@count > 0"])
    func toManyComparedWholeIsB003OnEveryDialect(format: String) throws {
        let p = try Parser.parsePredicate(format)
        for dialect in SQLDialect.allCases {
            let d = #expect(throws: Diagnostic.self) {
                try SQLPlanner.plan(FetchRequest(entity: "Employee", predicate: p), mapping: StoreMapping(model: companyModel, dialect: dialect))
            }
            #expect(d?.code == .toManyWithoutQuantifier, "\(dialect)")
            #expect(d?.hints == ["use ANY, ALL or NONE before the comparison, or @count"])
        }
    }

    /// Key paths the pass leaves to evaluation: bound later, or not the model's.
    static let leftToEvaluation = [
        "$x.whatever == 1", "FUNCTION(SELF, 'f').whatever == 1", "SUBQUERY(projects, $p, $p.budget > salary).@count > 0",
        "ANY projects.budget > 5", "employees.@avg.salary > 5", "name.length > 3", "salary.doubleValue > 3", "department.employees.@count > 2",
        "{1, 2}.@count == 2", "SELF == $me",
    ]

    @Test(arguments: leftToEvaluation)
    func keyPathsItCannotPlaceOrThatResolveAreAccepted(format: String) throws {
        let p = try Parser.parsePredicate(format.replacingOccurrences(of: "employees.@avg", with: "department.employees.@avg"))
        try PredicateBinder(model: companyModel, entity: "Employee").check(p)
    }

    /// Past the number of operands SQL takes, parts run in memory; they bind all the same.
    @Test func partsPastTheSQLLimitAreBound() throws {
        let parts = (0...PredicateLowerer.maximumSQLOperands).map { "salary != \($0)" } + ["nosuch == nil"]
        let p = try Parser.parsePredicate(parts.joined(separator: " AND "))
        let d = #expect(throws: Diagnostic.self) { try SQLPlanner.plan(FetchRequest(entity: "Employee", predicate: p), mapping: companyMapping) }
        #expect(d?.code == .unknownKeyInModel)
    }

    // MARK: The shared vocabulary

    /// Every collection operator the evaluator knows is one binding knows:
    /// bound to a store aggregate, or refused on a store with a hint.
    @Test(arguments: CollectionOperator.allCases)
    func everyCollectionOperatorBindsOrIsRefusedOnAStore(op: CollectionOperator) throws {
        let binder = KeyPathBinder(model: companyModel)
        let path = op == .count ? ["employees", "@count"] : ["employees", "@" + op.rawValue, "salary"]
        if let aggregate = StoreAggregate(op) {
            let bound = try binder.bind(path, from: "Department", span: .synthesized)
            switch bound.terminal {
            case .count: #expect(aggregate == .count)
            case .aggregate(let a, _, _): #expect(a == aggregate)
            default: Issue.record("\(op) bound to \(bound.terminal)")
            }
        } else {
            let d = #expect(throws: Diagnostic.self) { try binder.bind(path, from: "Department", span: .synthesized) }
            #expect(d?.hints == ["use @count, @sum, @avg, @min or @max"])
        }
    }

    /// Every aggregate function a store computes is registered in the evaluator under the same name.
    @Test(arguments: StoreAggregate.allCases)
    func everyStoreAggregateFunctionIsTheEvaluators(aggregate: StoreAggregate) throws {
        guard let name = aggregate.functionName else {
            #expect(aggregate == .elementAverage)
            return
        }
        #expect(StoreAggregate(function: name) == aggregate)
        #expect(Builtins.table[name] != nil, "\(name) is not an evaluator function")
    }

    @Test func theTwoAveragesDifferOnNil() throws {
        // The operator counts a nil element as 0, the function skips it: one enum, two cases.
        let elements: Value = .array([.dictionary(["x": .int(10)]), .dictionary(["x": .int(20)]), .dictionary([:])])
        let op = try Evaluator.compile(Parser.parseExpression("$c.@avg.x")).evaluate(.null, variables: ["c": elements])
        let function = try Evaluator.compile(Parser.parseExpression("average:($c.x)")).evaluate(.null, variables: ["c": elements])
        #expect(op == .double(10))
        #expect(function == .double(15))
    }

    /// Each string operator lowers to its function, by the enum's name.
    @Test(arguments: [("name BEGINSWITH 'a'", StringOperator.beginsWith), ("name ENDSWITH 'a'", .endsWith), ("name CONTAINS 'a'", .contains),
                      ("'a' IN name", .contains), ("name LIKE 'a*'", .like), ("name MATCHES 'a.*'", .matches)])
    func stringOperatorsLowerToTheirFunction(format: String, op: StringOperator) throws {
        let (condition, _, residual) = try lower(format)
        #expect(residual == nil)
        #expect(condition.hasPrefix(op.sqlFunction + "("), "\(condition)")
    }

    /// The ahead-of-time rule agrees with the evaluator's run-time equality:
    /// a constant is compatible with an attribute type exactly when it can
    /// equal some value of that type.
    static let constants: [Value] = [.null, .int(1), .double(1), .bool(true), .decimal(1), .string("1"), .date(1), .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!),
                                     .data([1]), .array([.int(1)])]
    static func samples(of type: AttributeType) -> [Value] {
        switch type {
        case .integer16, .integer32, .integer64: return [.int(1)]
        case .double, .float: return [.double(1)]
        case .decimal: return [.decimal(1)]
        case .boolean: return [.bool(true)]
        case .string, .uri: return [.string("1")]
        case .date: return [.date(1)]
        case .uuid: return [.uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)]
        case .binary: return [.data([1])]
        case .transformable, .objectID, .undefined: return []
        }
    }

    @Test(arguments: AttributeType.allCases)
    func typeRuleAgreesWithTheEvaluator(type: AttributeType) {
        let samples = Self.samples(of: type)
        guard !samples.isEmpty else { return }
        for c in Self.constants where !c.isNull {
            let canEqual = samples.contains { Compare.equal(c, $0) }
            #expect(TypeRule.compatible(c, type) == canEqual, "\(c) against \(type)")
        }
        for other in AttributeType.allCases where !Self.samples(of: other).isEmpty {
            let canEqual = Self.samples(of: other).contains { x in samples.contains { Compare.equal(x, $0) } }
            #expect(TypeRule.sameFamily(other, type) == canEqual, "\(other) against \(type)")
        }
    }
}

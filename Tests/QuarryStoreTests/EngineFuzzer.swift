// A grammar-driven differential fuzzer: random Employee predicates typed
// against the company model (Examples/Models/Company.yaml), run on the
// memory engine and in SQL on every available database, which must select
// the same rows in the same order or fail with the same error code.
//
// Predicates are trees (so a disagreement can be shrunk): leaves are single
// comparisons drawn from the productions of Grammar/predicate.ebnf — every
// comparison operator with `[c] [d] [cd] [n]`, BETWEEN, IN over lists and
// strings, LIKE with `*` `?` and escapes, MATCHES, ANY/ALL/NONE/SOME over
// to-many paths (also through a to-one), to-one paths, @count @sum @avg @min
// @max, SUBQUERY with bare keys, SELF and nesting, NSNumber suffixes,
// arithmetic, aggregate functions, literals of every type with nil, dates,
// Unicode and extreme numbers, TRUEPREDICATE/FALSEPREDICATE — and a share of
// ill-typed ones (unknown keys and suffixes, to-many paths without a
// quantifier) that must fail the same way everywhere; inner nodes are NOT,
// AND and OR. `coverage` counts how often each production was drawn.
import Foundation
@testable import QuarryStore

indirect enum FuzzNode: CustomStringConvertible {
    case leaf(String)
    case not(FuzzNode)
    case and(FuzzNode, FuzzNode)
    case or(FuzzNode, FuzzNode)

    var description: String {
        switch self {
        case .leaf(let s): return s
        case .not(let x): return "NOT (\(x))"
        case .and(let a, let b): return "(\(a) AND \(b))"
        case .or(let a, let b): return "(\(a) OR \(b))"
        }
    }

    /// Smaller trees that might still show a disagreement: each child in
    /// place of its parent, then each child shrunk in place.
    var shrinks: [FuzzNode] {
        switch self {
        case .leaf: return []
        case .not(let x): return [x] + x.shrinks.map(FuzzNode.not)
        case .and(let a, let b): return [a, b] + a.shrinks.map { .and($0, b) } + b.shrinks.map { .and(a, $0) }
        case .or(let a, let b): return [a, b] + a.shrinks.map { .or($0, b) } + b.shrinks.map { .or(a, $0) }
        }
    }
}

struct GrammarFuzzer {
    var rng: Seeded
    /// How many times each production was drawn.
    var coverage: [String: Int] = [:]

    init(seed: UInt64) { rng = Seeded(state: seed) }

    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
    mutating func chance(_ n: Int) -> Bool { Int.random(in: 0..<n, using: &rng) == 0 }
    mutating func use(_ production: String) { coverage[production, default: 0] += 1 }

    static let productions = ["not", "and", "or", "true/false", "compare-number", "compare-string", "modifiers", "between", "in-list",
                              "in-string", "like", "matches", "compare-date", "compare-bool", "nil", "to-one", "quantifier",
                              "quantifier-through-to-one", "aggregate", "aggregate-through-to-one", "aggregate-function", "subquery",
                              "subquery-bare-key", "subquery-nested", "suffix", "arithmetic", "extreme-literal", "ill-typed",
                              "membership", "self", "ternary", "cast", "set-operation", "bitwise", "call", "string-function",
                              "literal-forms", "subscript", "aggregate-literal", "assignment", "function-expression", "predicate"]

    /// One predicate of the run (the top of the grammar, counted as such).
    mutating func draw() -> FuzzNode {
        use("predicate")
        return predicate(depth: 3)
    }

    mutating func predicate(depth: Int) -> FuzzNode {
        if depth > 0 && chance(3) {
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: use("not"); return .not(predicate(depth: depth - 1))
            case 1: use("and"); return .and(predicate(depth: depth - 1), predicate(depth: depth - 1))
            default: use("or"); return .or(predicate(depth: depth - 1), predicate(depth: depth - 1))
            }
        }
        return .leaf(leaf())
    }

    var numberLiterals: [String] { ["0", "1", "-1", "30", "45.5", "50000", "100000", "199999", "nil", "9223372036854775807", "-9223372036854775808", "1e300", "-0.0", "'30'"] }
    var stringLiterals: [String] { ["'Jo'", "'jo'", "'josé'", "'JOSE'", "'ZOË'", "'zoe'", "'müller'", "'ǰ'", "'İ'", "'ı'", "'ss'", "'ß'", "''", "'%'", "'a_b'", "'*'", "'?'", "'佐藤'", "'e\u{301}'", "nil", "3"] }
    var modifiers: [String] { ["", "", "[c]", "[d]", "[cd]", "[n]"] }
    var orderings: [String] { ["==", "!=", "<", "<=", ">", ">=", "=", "<>", "=<", "=>"] }

    mutating func numberKey() -> String { pick(["salary", "age", "department.budget", "salary.doubleValue", "age.intValue", "projects.@count"]) }

    mutating func leaf() -> String {
        switch Int.random(in: 0..<37, using: &rng) {
        case 0: use("true/false"); return pick(["TRUEPREDICATE", "FALSEPREDICATE"])
        case 1, 2:
            use("compare-number")
            let literal = pick(numberLiterals)
            if literal.count > 12 || literal.contains("e") { use("extreme-literal") }
            return "\(numberKey()) \(pick(orderings)) \(literal)"
        case 3, 4:
            use("compare-string")
            let m = pick(modifiers)
            if !m.isEmpty { use("modifiers") }
            return "\(pick(["name", "email", "department.name"])) \(pick(["==", "!=", "<", ">=", "BEGINSWITH", "ENDSWITH", "CONTAINS"]))\(m) \(pick(stringLiterals))"
        case 5: use("between"); return "\(pick(["salary", "age", "startDate"])) BETWEEN \(pick(["{20, 40}", "{50000, 150000}", "{40, 20}", "{nil, 30}", "{CAST(0, 'NSDate'), CAST(500000000, 'NSDate')}"]))"
        case 6:
            use("in-list")
            let m = pick(modifiers)
            return pick(["age IN {20, 30, 40, nil}", "salary IN {0, 100, 50000}", "name IN\(m) {'Anna', 'zoë 1', 'JOSÉ'}", "NOT (age IN {20, 30})", "department.name IN {'Sales', 'R&D'}"])
        case 7: use("in-string"); return "\(pick(["'an'", "'AN'", "'ü'", "''"])) IN\(pick(modifiers)) \(pick(["name", "email"]))"
        case 8: use("like"); return "\(pick(["name", "email"])) LIKE\(pick(modifiers)) \(pick(["'J*'", "'*o*'", "'?o*'", "'*\\\\**'", "'*%*'", "'a_b*'", "''", "'*'", "'*\\\\?*'", "'jos?*'"]))"
        case 9: use("matches"); return "name MATCHES\(pick(["", "[c]"])) \(pick(["'[A-Z].*'", "'j.*'", "'.*[0-9]'", "'(Anna|Jörg).*'", "'.*'"]))"
        case 10: use("compare-date"); return "startDate \(pick(orderings)) \(pick(["CAST(0, 'NSDate')", "CAST(300000000, 'NSDate')", "CAST(-50000000, 'NSDate')", "nil"]))"
        case 11: use("compare-bool"); return "active \(pick(["==", "!="])) \(pick(["YES", "NO", "TRUE", "nil", "1", "0", "2"]))"
        case 12: use("nil"); return "\(pick(["email", "startDate", "department", "age", "department.budget", "nil"])) \(pick(["==", "!="])) nil"
        case 13: use("to-one"); return "department.\(pick(["name", "budget"])) \(pick(["==", "!=", ">", "<"])) \(pick(["'Sales'", "500000", "nil", "'zoe'"]))"
        case 14, 15:
            use("quantifier")
            let q = pick(["ANY", "ALL", "NONE", "SOME"])
            if chance(2) {
                use("quantifier-through-to-one")
                return "\(q) department.employees.\(pick(["salary > 190000", "salary > salary", "age < 20", "name BEGINSWITH[cd] 'jo'", "age == nil", "salary.doubleValue > 150000.5"]))"
            }
            return "\(q) projects.\(pick(["budget > 250", "budget < 100", "name CONTAINS[cd] 'o'", "deadline == nil", "budget > salary"]))"
        case 16, 17:
            use("aggregate")
            let op = pick(["@count", "@sum.budget", "@avg.budget", "@min.budget", "@max.budget", "@avg.budget.doubleValue"])
            if chance(2) {
                use("aggregate-through-to-one")
                let op2 = pick(["@count", "@sum.salary", "@avg.salary", "@avg.age", "@min.age", "@max.age", "@avg.salary.doubleValue"])
                return "department.employees.\(op2) \(pick([">", "<", "==", "!="])) \(pick(["salary", "age", "20", "0", "nil", "100000"]))"
            }
            return "projects.\(op) \(pick([">", "<", "==", "!="])) \(pick(["0", "1", "250", "nil", "salary"]))"
        case 18:
            use("aggregate-function")
            return "\(pick(["count:(projects)", "sum:(projects.budget)", "average:(projects.budget)", "max:(projects.budget)", "min:(department.employees.age)", "average:(department.employees.age)"])) \(pick([">", "<", "=="])) \(pick(["0", "2", "200", "nil", "age"]))"
        case 19, 20:
            use("subquery")
            if chance(3) {
                use("subquery-nested")
                return "SUBQUERY(projects, $p, SUBQUERY($p.members, $m, $m.salary > \(pick(["salary", "100000"]))).@count > \(pick(["0", "2"]))).@count > 0"
            }
            let condition = pick(["$e.salary > salary", "$e.age == age", "$e.salary > 100000", "$e.name BEGINSWITH name", "$e.age > 60 AND SELF.salary > 50000", "$e == SELF"])
            if !condition.hasPrefix("$e.salary > 1") { use("subquery-bare-key") }
            if condition.contains("SELF") { use("self") }
            let collection = pick(["department.employees", "projects"])
            let c = collection == "projects" ? pick(["$e.budget > 100", "$e.budget > age", "$e.name CONTAINS 'o'"]) : condition
            return "SUBQUERY(\(collection), $e, \(c)).@count \(pick([">", "<", "=="])) \(pick(["0", "1", "3"]))"
        case 21: use("suffix"); return "\(pick(["salary.doubleValue", "name.length", "salary.stringValue", "age.integerValue", "name.uppercaseString", "startDate.timeIntervalSinceReferenceDate", "active.boolValue"])) \(pick(["==", ">", "<", "BEGINSWITH"])) \(pick(["5", "100000", "'1'", "'J'", "YES", "0"]))"
        case 22: use("arithmetic"); return "\(pick(["salary + 1000", "(salary + 1000) * 2", "salary - age", "salary / 2", "salary ** 2", "-age", "salary & 1", "salary | 1", "age * 1.5", "salary / 0", "age % 7"])) \(pick([">", "==", "<"])) \(pick(["150000", "0", "1", "salary", "45"]))"
        case 23: use("membership"); return pick(["'Zeus 2' IN projects.name", "projects CONTAINS SELF", "department IN {nil}", "SELF IN department.employees"])
        case 24:
            use("ternary")
            return pick(["TERNARY(age > 40, salary, 0) > 100000", "TERNARY(department == nil, 'none', name) == 'none'", "TERNARY(active == YES, 1, 0) == 1",
                         "TERNARY(ANY projects.budget > 250, age, -1) < 30", "TERNARY(email == nil, startDate, nil) == nil"])
        case 25:
            use("cast")
            return pick(["CAST(salary, 'NSString') BEGINSWITH '1'", "CAST('42', 'NSNumber') == 42", "CAST(startDate, 'NSNumber') > 0",
                         "CAST(age, 'NSString') == '30'", "CAST(name, 'NSNumber') == nil", "CAST(salary, 'NSDate') > CAST(100000, 'NSDate')"])
        case 26:
            use("set-operation")
            return pick(["age IN ({20, 30} UNION {40})", "({20, 30, 40} INTERSECT {30, 50}) CONTAINS age", "age IN ({20, 30, 40} MINUS {30})",
                         "name IN ({'Anna'} UNION {'JOSÉ', nil})"])
        case 27:
            use("bitwise")
            return "\(pick(["salary ^ 1", "salary << 1", "salary >> 2", "~age", "age ^ age", "age << 60"])) \(pick([">", "==", "<"])) \(pick(["0", "20000", "100000", "-31"]))"
        case 28:
            use("call")
            return pick(["startDate < now()", "random() < 2", "startDate > now()"])
        case 29:
            use("string-function")
            return "\(pick(["uppercase:(name)", "lowercase:(name)", "length:(name)", "uppercase:(email)", "length:(department.name)"])) \(pick(["==", ">", "BEGINSWITH[c]"])) \(pick(["'JOSÉ'", "'j'", "4", "'ANNA'", "nil"]))"
        case 30:
            use("literal-forms")
            return pick(["age == 0x1E", "age < 0b11111", "age > 0o17", "name != 'O\\'Brien'", "name == \"a\\\"b\"", "#age > 30",
                         "#name BEGINSWITH 'J'", "salary < 1.5e5", "name == 'tab\\there'", "department.#name == 'Sales'"])
        case 31:
            use("subscript")
            return pick(["{20, 30, 40}[FIRST] == age", "{20, 30}[SIZE] == 2", "{20, 30, 40}[LAST] < age", "{20, 30, 40}[1] == age", "{20, 30}[5] == age"])
        case 32:
            use("aggregate-literal")
            return pick(["age IN {salary, 30, nil}", "{age, salary} CONTAINS 30", "{age, 1}[FIRST] > 40", "{}.@count == 0"])
        case 33:
            use("assignment")
            return pick(["$x := age + 1 == 31", "$x := salary > 100000"])
        case 34:
            use("function-expression")
            return pick(["FUNCTION(name, 'length') > 4", "FUNCTION(SELF, 'missing') == 1", "FUNCTION(name, 'uppercaseString') == 'ANNA'"])
        default:
            use("ill-typed")
            return pick(["nosuch == nil", "projects.budget > 5", "salary.nosuch > 1", "name.length.length > 1", "department.nosuch == 1",
                         "projects.@avg.nosuch > 1", "employees.@count > 1", "startDate.length > 3", "name + 1 > 3", "name > 5",
                         "FUNCTION(SELF, 'missing') == 1", "projects.@distinctUnionOfObjects.name.@count > 0", "ANYKEY == 1",
                         "CAST(nosuch, 'NSString') == '1'", "TERNARY(nosuch > 1, 1, 0) == 1", "length:(nam) > 1"])
        }
    }
}

/// One engine pair's verdict on a predicate.
struct FuzzDisagreement: CustomStringConvertible {
    var format: String
    var left: String, right: String
    var leftOutcome: EngineOutcome, rightOutcome: EngineOutcome
    var description: String { "\(format)\n    \(left): \(leftOutcome)\n    \(right): \(rightOutcome)" }
}

enum EngineFuzzer {
    /// The outcomes of `format` on every engine: memory and SQL on each store.
    static func outcomes(_ format: String, stores: [(String, SQLStore)], entity: String = "Employee") -> [(String, EngineOutcome)] {
        var out: [(String, EngineOutcome)] = []
        let request: FetchRequest
        do {
            request = FetchRequest(entity: entity, predicate: try Parser.parsePredicate(format))
        } catch {
            return [("parse", .error(EngineOutcome.code(of: error)))]
        }
        var memory: EngineOutcome?
        for (name, store) in stores {
            if let reference = memory {
                // The memory engine on another database evaluates the same
                // objects as on the first; only its planning (the bind check,
                // done in that database's dialect) can differ. Planning is
                // pure, so it is checked without a round trip per object.
                do {
                    _ = try SQLPlanner.plan(request, mapping: store.mapping)
                    out.append(("\(name) memory", reference))
                } catch {
                    out.append(("\(name) memory", .error(EngineOutcome.code(of: error))))
                }
            } else {
                let m = EngineOutcome { try store.fetch(request, engine: .memory) }
                memory = m
                out.append(("\(name) memory", m))
            }
            out.append(("\(name) sql", EngineOutcome { try store.fetch(request, engine: .sql) }))
        }
        return out
    }

    /// The first pair of engines that disagree on `format`, if any.
    static func disagreement(_ format: String, stores: [(String, SQLStore)], entity: String = "Employee") -> FuzzDisagreement? {
        let all = outcomes(format, stores: stores, entity: entity)
        guard let first = all.first else { return nil }
        for other in all.dropFirst() where other.1 != first.1 {
            return FuzzDisagreement(format: format, left: first.0, right: other.0, leftOutcome: first.1, rightOutcome: other.1)
        }
        return nil
    }

    /// `node` made as small as it can be while some engines still disagree.
    static func shrink(_ node: FuzzNode, stores: [(String, SQLStore)], entity: String = "Employee") -> FuzzNode {
        var current = node
        var improved = true
        while improved {
            improved = false
            for candidate in current.shrinks where disagreement(candidate.description, stores: stores, entity: entity) != nil {
                current = candidate
                improved = true
                break
            }
        }
        return current
    }
}

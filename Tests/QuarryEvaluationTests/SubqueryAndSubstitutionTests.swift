// SUBQUERY scoping (nested, outer variables, outer key paths, shadowing) and
// template substitution.
import Foundation
import Testing
@testable import QuarryEvaluation

@Suite struct Subqueries {
    static let cases: [(String, Bool)] = [
        ("SUBQUERY(departments, $d, $d.budget > 100).@count == 1", true),
        ("SUBQUERY(departments[0].employees, $e, $e.salary > 100).@count == 1", true),
        ("SUBQUERY(departments[0].employees, $e, $e.salary > $limit).@count == 2", true),
        ("SUBQUERY(departments, $d, SUBQUERY($d.employees, $e, $e.salary < $d.budget).@count == 2).@count == 1", true),
        ("SUBQUERY(departments, $d, SUBQUERY($d.employees, $e, $e.salary > $d.budget).@count > 0).@count == 0", true),
        ("SUBQUERY(departments, $x, SUBQUERY($x.employees, $x, $x.salary > 100).@count > 0).@count == 1", true),
        // numbers is [3, 1, nil, 2]: @avg is 6 / 4 (nil counts as 0).
        ("SUBQUERY(numbers, $n, $n > numbers.@avg.#self).@count == 2", true),
        ("SUBQUERY(departments[0].employees, $e, ANY $e.tags == 'b')[SIZE] == 2", true),
        ("SUBQUERY(departments[0].employees, $e, $e.name BEGINSWITH[cd] 'jo')[0].salary == 120", true),
        ("SUBQUERY(missing, $m, $m > 1).@count == 0", true),
        ("SUBQUERY(words, $w, $w == 'x').@count == 1", true),
        ("SUBQUERY(info, $v, $v > 1).@count == 1", true),
        ("SUBQUERY(departments, $d, $d.name == 'Sales').@count == 1 AND SUBQUERY(departments, $d, $d.name == 'HR').@count == 0", true),
    ]

    @Test(arguments: cases)
    func subqueryFilters(_ format: String, _ expected: Bool) throws {
        #expect(try holds(format, company, vars: ["limit": .int(50)]) == expected)
    }

    @Test func subqueryVariableDoesNotLeak() throws {
        // After the SUBQUERY, $e is the caller's binding again.
        #expect(try holds("SUBQUERY(numbers, $e, $e > 1).@count == 2 AND $e == 'outer'", company, vars: ["e": .string("outer")]))
    }

    @Test func compiledPredicatesAreReusableAndThreadSafe() async throws {
        let p = try Evaluator.compile(try Parser.parsePredicate("SUBQUERY(SELF, $x, $x > 1).@count == 2"))
        let objects: [Value] = (0..<200).map { n in .array((0..<(n % 5)).map { .int(Int64($0)) }) }
        let expected = try objects.map { try p.evaluate($0) }
        let results = await withTaskGroup(of: [Bool].self) { group in
            for _ in 0..<4 { group.addTask { (try? objects.map { try p.evaluate($0) }) ?? [] } }
            var all: [[Bool]] = []
            for await r in group { all.append(r) }
            return all
        }
        for r in results { #expect(r == expected) }
        #expect(try p.filter(objects).count == 40)
    }
}

@Suite struct Substitutions {
    @Test func variablesBecomeConstants() throws {
        let template = try Parser.parsePredicate("age > $MIN AND name BEGINSWITH[c] $P")
        let p = try template.substituting(["MIN": .int(18), "P": .string("jo")])
        #expect(Printer.format(p) == "age > 18 AND name BEGINSWITH[c] \"jo\"")
        #expect(try Evaluator.compile(p).evaluate(person))
    }

    @Test func boundVariablesStay() throws {
        let template = try Parser.parsePredicate("SUBQUERY(kids, $k, $k.age < $MIN).@count > 0 AND ($t := 1) == $t")
        let p = try template.substituting(["MIN": .int(18)])
        #expect(Printer.format(p).contains("$k.age < 18"))
        #expect(Printer.format(p).contains("$t"))
    }

    @Test func missingBindingIsAnError() throws {
        let template = try Parser.parsePredicate("age > $MIN OR $k == 1")
        #expect(throws: Diagnostic.self) { try template.substituting(["MIN": .int(1)]) }
        do {
            _ = try template.substituting(["MIN": .int(1)])
        } catch {
            #expect(error.code == .missingVariable)
            #expect(error.message.contains("$k"))
        }
    }

    @Test func expressionsSubstituteToo() throws {
        let e = try Parser.parseExpression("$rate * salary").substituting(["rate": .int(2)])
        #expect(try Evaluator.compile(e).evaluate(dict(["salary": .int(21)])) == .int(42))
    }
}

// Collections: IN and CONTAINS membership (with options), ANY / SOME / ALL /
// NONE, subscripts, key paths through dictionaries, host objects and to-many
// relationships, and the collection operators.
import Foundation
import Testing
@testable import QuarryEvaluation

let company: Value = {
    func employee(_ name: String, _ salary: Value, _ tags: [String]) -> Value {
        dict(["name": .string(name), "salary": salary, "tags": .array(tags.map(Value.string))])
    }
    let sales = dict(["name": .string("Sales"), "budget": .int(150),
                      "employees": .array([employee("José", .int(120), ["a", "b"]), employee("Zoë", .int(80), ["b"]),
                                           employee("Ann", .null, [])])])
    let empty = dict(["name": .string("Empty"), "budget": .int(10), "employees": .array([])])
    return dict(["departments": .array([sales, empty]), "numbers": .array([.int(3), .int(1), .null, .int(2)]),
                 "doubles": .array([.double(0.5), .double(0.25)]), "words": .set([.string("x"), .string("y")]),
                 "matrix": .array([.array([.int(1), .int(2)]), .array([.int(2), .int(3)])]),
                 "boss": .object(ObjectReference(Person(["name": .string("Müller"), "age": .int(61)]))),
                 "info": dict(["a": .int(1), "b": .int(2)])])
}()

@Suite struct CollectionSemantics {
    static let membership: [(String, Value, Bool)] = [
        ("SELF IN {1, 2, 3}", .double(2.0), true), ("SELF IN {1, 2, 3}", .string("2"), false),
        ("SELF IN {1, 2, 3}", .bool(true), true), ("SELF IN {}", .int(1), false),
        ("SELF IN[c] {'Apple', 'Pear'}", .string("apple"), true), ("SELF IN {'Apple'}", .string("apple"), false),
        ("SELF IN[cd] {'Müller'}", .string("MULLER"), true), ("SELF IN[c] {'Müller'}", .string("MULLER"), false),
        ("SELF IN $set", .string("a"), true), ("SELF IN $set", .string("c"), false),
        ("SELF IN $dict", .int(1), true), ("SELF IN $dict", .string("k"), false),
        ("SELF IN nil", .int(1), false), ("SELF IN $number", .int(1), false),
        ("SELF IN {$a, $b}", .int(2), true), ("SELF IN[c] {$a, 'X'}", .string("x"), true),
        ("SELF CONTAINS 2", .array([.int(1), .int(2)]), true), ("SELF CONTAINS 2.0", .array([.int(1), .int(2)]), true),
        ("SELF CONTAINS 'a'", .array([.string("abc")]), false), ("SELF CONTAINS[c] 'A'", .array([.string("a")]), true),
        ("SELF CONTAINS 1", .set([.int(1)]), true), ("SELF CONTAINS 'x'", .int(5), false),
        ("SELF CONTAINS {1}", .array([.array([.int(1)])]), true),
    ]

    @Test(arguments: membership)
    func inAndContainsTestMembership(_ format: String, _ object: Value, _ expected: Bool) throws {
        let vars: [String: Value] = ["set": .set([.string("a"), .string("b")]), "dict": dict(["k": .int(1)]),
                                     "number": .int(1), "a": .int(1), "b": .int(2)]
        #expect(try holds(format, object, vars: vars) == expected)
    }

    static let quantifiers: [(String, Value, Bool)] = [
        ("ANY SELF > 2", .array([.int(1), .int(3)]), true), ("SOME SELF > 5", .array([.int(1), .int(3)]), false),
        ("ALL SELF > 0", .array([.int(1), .int(3)]), true), ("ALL SELF > 1", .array([.int(1), .int(3)]), false),
        ("ALL SELF > 0", .array([]), true), ("ANY SELF > 0", .array([]), false), ("NONE SELF > 0", .array([]), true),
        ("NONE SELF > 5", .array([.int(1), .int(3)]), true), ("NONE SELF > 2", .array([.int(1), .int(3)]), false),
        ("ANY SELF == 1", .int(1), true), ("ALL SELF == 1", .int(2), false),
        ("ANY SELF == nil", .array([.int(1), .null]), true), ("ALL SELF < 5", .array([.int(1), .null]), false),
        ("ANY SELF BEGINSWITH[cd] 'jo'", .array([.string("Ann"), .string("José")]), true),
        ("ALL SELF LIKE[c] 'a*'", .array([.string("Ann"), .string("abe")]), true),
        ("ANY SELF IN {3, 4}", .set([.int(1), .int(4)]), true),
        ("ANY SELF BETWEEN {2, 3}", .array([.int(1), .int(4)]), false),
        ("ANY tags == 'x'", dict([:]), false), ("ALL tags == 'x'", dict([:]), true), ("NONE tags == 'x'", dict([:]), true),
        ("ANY SELF == 2", dict(["a": .int(2)]), true),
    ]

    @Test(arguments: quantifiers)
    func quantifiersOverElements(_ format: String, _ object: Value, _ expected: Bool) throws {
        #expect(try holds(format, object) == expected)
    }

    static let paths: [(String, Bool)] = [
        ("ANY departments.employees.salary > 100", true), ("ALL departments.employees.salary > 100", false),
        ("ANY departments.employees.name ==[cd] 'zoe'", true), ("NONE departments.name == 'HR'", true),
        ("departments.employees.@count == 3", true), ("departments.@count == 2", true),
        ("departments[0].employees[1].name == 'Zoë'", true), ("departments[FIRST].name == 'Sales'", true),
        ("departments[LAST].employees[SIZE] == 0", true), ("departments[9].name == nil", true),
        // @avg divides by the elements, a nil counting as 0 (Apple's KVC:
        // [120, 80, nil] → 66.7); average: skips nil (100).
        ("departments[0].employees.@sum.salary == 200", true), ("departments[0].employees.@avg.salary * 3 == 200", true),
        ("average:(departments[0].employees.salary) == 100", true),
        ("departments[0].employees.@max.salary == 120", true), ("departments[0].employees.@min.salary == 80", true),
        ("departments[1].employees.@avg.salary == nil", true), ("departments[1].employees.@sum.salary == 0", true),
        ("numbers.@sum.#self == 6", true), ("numbers.@avg.#self == 1.5", true), ("average:(numbers) == 2", true), ("numbers.@min.#self == 1", true),
        ("numbers.@max.#self == 3", true), ("numbers.@count == 4", true), ("doubles.@sum.#self == 0.75", true),
        ("departments.employees.tags.@count == 3", true),
        ("departments.@distinctUnionOfArrays.employees.tags == {'a', 'b'}", true),
        ("departments[0].employees.@unionOfArrays.tags == {'a', 'b', 'b'}", true),
        ("departments[0].employees.@distinctUnionOfObjects.tags == {'a', 'b'}", true),
        ("departments[0].employees.@unionOfObjects.name == {'José', 'Zoë', 'Ann'}", true),
        ("matrix.@distinctUnionOfSets.#self == $set", true),
        ("words.@count == 2", true), ("info.@count == 2", true), ("info['b'] == 2", true), ("info.a == 1", true),
        ("info['zz'] == nil", true), ("info[SIZE] == 2", true), ("boss.name == 'Müller'", true),
        ("boss.age > 60", true), ("boss.missing == nil", true), ("boss['name'] ==[cd] 'MULLER'", true),
        ("boss.name.length == 6", true), ("SELF.info.b == 2", true), ("missing.deeper.still == nil", true),
        ("departments[0].name.uppercaseString == 'SALES'", true), ("numbers[0].#self == 3", true),
        ("SUBQUERY(departments, $d, $d.budget > 100).@count == 1", true),
    ]

    @Test(arguments: paths)
    func keyPathsAndCollectionOperators(_ format: String, _ expected: Bool) throws {
        #expect(try holds(format, company, vars: ["set": .set([.int(1), .int(2), .int(3)])]) == expected)
    }

    @Test func toManyKeyPathsMapAndFlatten() throws {
        let v = try value("departments.employees.name", company)
        #expect(v == .array([.string("José"), .string("Zoë"), .string("Ann")]))
        let salaries = try value("departments[0].employees.salary", company)
        #expect(salaries == .array([.int(120), .int(80), .null]))
        let set = try value("words.#self", company)
        guard case .set(let items) = set else { Issue.record("a set maps to a set"); return }
        #expect(items.count == 2)
    }

    @Test func indexEdgeCases() throws {
        #expect(try value("{1, 2}[-1]") == .null)
        #expect(try value("{1, 2}[1.0]") == .int(2))
        #expect(try value("{1, 2}[1.5]") == .null)
        #expect(try value("{}[FIRST]") == .null)
        #expect(try value("{}[LAST]") == .null)
        #expect(try value("{1, {2, 3}}[LAST][LAST]") == .int(3))
        #expect(try value("'abc'[SIZE]") == .int(3))
        #expect(try value("$d[$k]", vars: ["d": dict(["x": .int(7)]), "k": .string("x")]) == .int(7))
    }

    @Test func sumsAreExact() throws {
        #expect(try value("{9223372036854775807, 1}[SIZE]") == .int(2))
        #expect(same(try value("sum:({9223372036854775807, 1})"), .double(9_223_372_036_854_775_808)))
        let d = try value("sum:({CAST('0.1', 'NSDecimalNumber'), CAST('0.2', 'NSDecimalNumber')})")
        #expect(d == .decimal(Decimal(string: "0.3")!))
        #expect(same(try value("sum:({0.1, 0.2, 0.3})"), .double(0.6)))
        #expect(try value("sum:({1, 2, 3})") == .int(6))
        #expect(try value("sum:({})") == .int(0))
        #expect(try value("average:({})") == .null)
        #expect(try value("max:({})") == .null)
    }
}

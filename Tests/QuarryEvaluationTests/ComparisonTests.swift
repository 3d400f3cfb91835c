// Comparison semantics: numbers across integer / double / boolean / decimal,
// strings by Unicode order, dates, unrelated types, nil rules, BETWEEN, and
// the [c] [d] [cd] [n] options on == != < <= > >=.
import Foundation
import Testing
@testable import QuarryEvaluation

let person = dict(["name": .string("José"), "age": .int(30), "nickname": .null,
                   "born": .date(100), "score": .double(2.5)])

@Suite struct Comparisons {
    static let numeric: [(String, Bool)] = [
        ("1 == 1.0", true), ("1 == YES", true), ("0 == NO", true), ("2 == YES", false),
        ("1.5 > 1", true), ("1 < 1.5", true), ("-1 < 0.5", true), ("YES > NO", true),
        ("9007199254740993 == 9007199254740992.0", false),
        ("9007199254740992 == 9007199254740992.0", true),
        ("9223372036854775807 < 9223372036854775808.0", true),
        ("CAST('1.5', 'NSDecimalNumber') == 1.5", true),
        ("CAST('0.1', 'NSDecimalNumber') == 0.1", true),
        ("CAST('2', 'NSDecimalNumber') == 2", true),
        ("CAST('2.5', 'NSDecimalNumber') > 2", true),
        ("CAST('2.5', 'NSDecimalNumber') < YES", false),
        ("1 != 1.0", false), ("3 >= 3.0", true), ("3 <= 2.9999", false),
    ]

    @Test(arguments: numeric)
    func numbersCompareByValueAcrossTypes(_ format: String, _ expected: Bool) throws {
        #expect(try holds(format) == expected)
    }

    static let strings: [(String, String, Bool)] = [
        ("SELF < 'B'", "a", false), ("SELF > 'B'", "a", true), ("SELF < 'abd'", "abc", true),
        ("SELF == 'é'", "e\u{301}", true),            // canonical equivalence
        ("SELF <[c] 'B'", "a", true), ("SELF >=[c] 'A'", "a", true),
        ("SELF ==[c] 'muller'", "MULLER", true), ("SELF ==[cd] 'muller'", "MÜLLER", true),
        ("SELF ==[c] 'muller'", "MÜLLER", false), ("SELF ==[d] 'muller'", "MÜLLER", false),
        ("SELF ==[d] 'MULLER'", "MÜLLER", true), ("SELF !=[cd] 'muller'", "Müller", false),
        ("SELF ==[c] 'STRASSE'", "straße", true), ("SELF == 'strasse'", "straße", false),
        ("SELF ==[c] 'i'", "ı", false), ("SELF ==[c] 'I'", "ı", false),
        ("SELF ==[cd] 'istanbul'", "İstanbul", true), ("SELF ==[c] 'istanbul'", "İstanbul", false),
        ("SELF ==[d] 'e'", "e\u{301}", true), ("SELF ==[d] 'e'", "é", true),
        ("SELF ==[cn] 'abc'", "ABC", false),          // [n] overrides c
        ("SELF ==[l] 'abc'", "abc", true), ("SELF ==[cdl] 'ABC'", "abç", true),
        ("SELF ==[cd] 'zoe'", "ZOË", true), ("SELF ==[c] 'ǆ'", "ǅ", true),
        ("SELF ==[c] 'jose'", "JOSÉ", false), ("SELF ==[cd] 'jose'", "JOSÉ", true),
    ]

    @Test(arguments: strings)
    func stringsCompareByUnicodeOrderWithOptions(_ format: String, _ subject: String, _ expected: Bool) throws {
        #expect(try holds(format, .string(subject)) == expected)
    }

    static let mixed: [(String, Bool)] = [
        ("age == '30'", false), ("age != '30'", true), ("age < '40'", false), ("age > '20'", false),
        ("name == 30", false), ("name > 1", false), ("born > 50", false), ("born == 100", false),
        ("born > %@", true), ("born < %@", false), ("born == %@", false),
        ("score == 2.5", true), ("score > 2", true), ("age == 30.0", true),
    ]

    @Test(arguments: mixed)
    func unrelatedTypesAreNeitherEqualNorOrdered(_ format: String, _ expected: Bool) throws {
        let args: [Value] = format.contains("%@") ? [.date(50)] : []
        #expect(try holds(format, person, args: args) == expected)
    }

    static let nils: [(String, Value, Bool)] = [
        ("age == nil", dict([:]), true), ("age == nil", dict(["age": .null]), true),
        ("age == NULL", dict(["age": .int(3)]), false), ("age != nil", dict([:]), false),
        ("age > 5", dict([:]), false), ("age < 5", dict(["age": .null]), false),
        ("NOT (age > 5)", dict([:]), true), ("NOT (age > 5)", dict(["age": .int(9)]), false),
        ("age <= nil", dict([:]), false), ("age >= nil", dict(["age": .null]), false),
        ("nil == nil", .null, true), ("SELF == nil", .null, true), ("SELF != nil", .null, false),
        ("age != 5", dict([:]), true), ("name BEGINSWITH 'a'", dict([:]), false),
        ("name LIKE '*'", dict([:]), false), ("name MATCHES '.*'", dict([:]), false),
        ("manager.name == nil", dict(["manager": .null]), true),
        ("manager.name == 'x'", dict([:]), false),
        ("age BETWEEN {1, 5}", dict([:]), false), ("age IN {1, nil}", dict([:]), true),
    ]

    @Test(arguments: nils)
    func nilEqualsOnlyNilAndOrdersNothing(_ format: String, _ object: Value, _ expected: Bool) throws {
        #expect(try holds(format, object) == expected)
    }

    static let collections: [(String, Bool)] = [
        ("{1, 2} == {1.0, 2}", true), ("{1, 2} == {2, 1}", false), ("{1, {2}} == {1, {2.0}}", true),
        ("$s == $t", true), ("$s == $u", false), ("$d == $e", true), ("$d == $f", false),
        ("{1, 2} == $s", false),
    ]

    @Test(arguments: collections)
    func collectionsCompareElementWise(_ format: String, _ expected: Bool) throws {
        let vars: [String: Value] = [
            "s": .set([.int(1), .int(2)]), "t": .set([.double(2), .int(1)]), "u": .set([.int(1)]),
            "d": dict(["a": .int(1), "b": .string("x")]), "e": dict(["b": .string("x"), "a": .double(1)]),
            "f": dict(["a": .int(1)]),
        ]
        #expect(try holds(format, vars: vars) == expected)
    }

    static let between: [(String, Value, Bool)] = [
        ("SELF BETWEEN {1, 5}", .int(1), true), ("SELF BETWEEN {1, 5}", .int(5), true),
        ("SELF BETWEEN {1, 5}", .double(5.0001), false), ("SELF BETWEEN {1, 5}", .int(0), false),
        ("SELF BETWEEN {1.5, 2.5}", .int(2), true), ("SELF BETWEEN {'a', 'c'}", .string("b"), true),
        ("SELF BETWEEN {'a', 'c'}", .string("B"), false), ("SELF BETWEEN[c] {'a', 'c'}", .string("B"), true),
        ("SELF BETWEEN {CAST(0, 'NSDate'), CAST(10, 'NSDate')}", .date(10), true),
        ("SELF BETWEEN {1, 5}", .string("3"), false), ("SELF BETWEEN {5, 1}", .int(3), false),
        ("SELF BETWEEN {$lo, $hi}", .int(3), true),
    ]

    @Test(arguments: between)
    func betweenIsInclusive(_ format: String, _ object: Value, _ expected: Bool) throws {
        #expect(try holds(format, object, vars: ["lo": .int(3), "hi": .int(4)]) == expected)
    }

    @Test func dateComparisonsUseTime() throws {
        #expect(try holds("SELF > %@", .date(10), args: [.date(9.5)]))
        #expect(try holds("SELF == %@", .date(10), args: [.date(10)]))
        #expect(try !holds("SELF < %@", .date(10), args: [.date(10)]))
    }

    @Test func uuidAndDataCompareByValue() throws {
        let u = UUID()
        #expect(try holds("SELF == %@", .uuid(u), args: [.uuid(u)]))
        #expect(try !holds("SELF == %@", .uuid(u), args: [.uuid(UUID())]))
        #expect(try holds("SELF == %@", .data([1, 2]), args: [.data([1, 2])]))
        #expect(try !holds("SELF == %@", .data([1, 2]), args: [.string("\u{1}\u{2}")]))
    }

    @Test func hostObjectsCompareByIdentity() throws {
        let a = Person(["name": .string("Ann")]), b = Person(["name": .string("Ann")])
        #expect(try holds("SELF == %@", .object(ObjectReference(a)), args: [.object(ObjectReference(a))]))
        #expect(try !holds("SELF == %@", .object(ObjectReference(a)), args: [.object(ObjectReference(b))]))
    }
}

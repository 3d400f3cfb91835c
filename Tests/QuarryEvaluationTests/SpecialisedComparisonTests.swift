// The specialised comparisons (`key op constant`, Compiler+Specialised.swift)
// read one or two plain keys inline and skip the general dispatch; they must
// answer as the general path does. The general path is reached here by a
// left side that is not a plain key path (`SELF`, `d['name']`), so every
// operator is checked with the key read inline and through a closure, on
// strings, numbers, nulls and collections. The ASCII fast path of BEGINSWITH
// is also checked against whole-string folding on random text.
import Foundation
import Testing
@testable import QuarryEvaluation

@Suite("Specialised comparisons")
struct SpecialisedComparisonTests {
    static let values: [Value] = [
        .string("José 7"), .string("JOANNA"), .string("jo"), .string("j"), .string("Jö"), .string("Jörg"),
        .string("e\u{301}tude"), .string("Łukasz"), .string("佐藤"), .string("jo\u{301}e"), .string("ßa"), .string(""),
        .int(7), .int(50_000), .int(50_001), .double(50_000.5), .double(7), .bool(true), .null,
        .array([.string("jo"), .int(7)]), .dictionary(["jo": .int(1)]),
    ]

    /// `X` stands for the left side.
    static let comparisons: [String] = [
        "X == 'José 7'", "X != 'José 7'", "X == nil", "X != nil", "X == 7", "X != 7", "X < 50000", "X <= 50000",
        "X > 50000", "X >= 50001", "X > 50000.25", "X < 7.5", "X <= 7.0", "X >= 7.0",
        "X BEGINSWITH[cd] 'jo'", "X BEGINSWITH[c] 'jo'", "X BEGINSWITH[d] 'Jo'", "X BEGINSWITH 'Jo'", "X BEGINSWITH[c] 'ss'",
        "X ENDSWITH[cd] 'E'", "X ENDSWITH 'tude'", "X CONTAINS[c] 'ann'", "X CONTAINS 'jo'", "X CONTAINS 7",
        "X ==[cd] 'jose 7'", "X ==[c] 'JO'", "X LIKE[c] 'jo*'", "X == 7.0", "X == YES",
    ]

    static let forms: [(String, String)] = [("one key", "name"), ("two keys", "person.name")]

    @Test(arguments: comparisons, forms)
    func inlineReadsAnswerAsTheGeneralPath(_ comparison: String, _ form: (String, String)) throws {
        let inline = try Evaluator.compile(try Parser.parsePredicate(comparison.replacingOccurrences(of: "X", with: form.1)))
        let general = try Evaluator.compile(try Parser.parsePredicate(comparison.replacingOccurrences(of: "X", with: "SELF")))
        for v in Self.values {
            let object: Value = form.1 == "name" ? .dictionary(["name": v]) : .dictionary(["person": .dictionary(["name": v])])
            #expect(try inline.evaluate(object) == general.evaluate(v), "\(comparison) with \(form.0) on \(v)")
        }
    }

    /// ANDs chain their specialised tests (each calls the rest itself); the
    /// same conjunction written with NOT and OR (De Morgan) takes no chain.
    static let conjunctions: [[String]] = [
        ["name BEGINSWITH 'J'", "age > 30"],
        ["age > 30", "name BEGINSWITH 'J'", "tags CONTAINS 'x'"],
        ["name != nil", "ANY tags == 'x'", "age <= 41", "name ENDSWITH[c] 'É'"],
        ["age > 30", "age + 0 > 30", "TRUEPREDICATE", "name LIKE '*'"],
        ["tags.@count > 0", "age == 41"],
        ["age > 40", "name BEGINSWITH 'J'", "age > $min", "person.name == nil"],
    ]

    static let people: [Value] = [
        .dictionary(["name": .string("José"), "age": .int(41), "tags": .array([.string("x")])]),
        .dictionary(["name": .string("Jo"), "age": .int(29), "tags": .array([])]),
        .dictionary(["name": .string("Ann"), "age": .int(52), "tags": .array([.string("x"), .string("y")])]),
        .dictionary(["age": .double(41), "tags": .array([.string("x")])]),
        .dictionary(["name": .int(3), "age": .string("41")]),
        .null,
    ]

    @Test(arguments: conjunctions)
    func chainedAndsAnswerAsTheirDeMorganForm(_ parts: [String]) throws {
        let chained = try Evaluator.compile(try Parser.parsePredicate(parts.joined(separator: " AND ")))
        let reference = try Evaluator.compile(try Parser.parsePredicate(
            "NOT (" + parts.map { "NOT (\($0))" }.joined(separator: " OR ") + ")"))
        for o in Self.people {
            #expect(try chained.evaluate(o, variables: ["min": .int(30)]) == reference.evaluate(o, variables: ["min": .int(30)]),
                    "\(parts) on \(o)")
        }
    }

    @Test func anAndChainStopsAtTheFirstFalsePart() throws {
        // `age.foo` raises E009 on a number, but only when reached.
        let p = try Evaluator.compile(try Parser.parsePredicate("name == 'x' AND age > 3 AND age.foo == 1"))
        #expect(try p.evaluate(.dictionary(["name": .string("y"), "age": .int(5)])) == false)
        #expect(try p.evaluate(.dictionary(["name": .string("x"), "age": .int(2)])) == false)
        var error: Diagnostic?
        do throws(Diagnostic) { _ = try p.evaluate(.dictionary(["name": .string("x"), "age": .int(5)])) } catch let e { error = e }
        #expect(error?.code == .unknownKey)
    }

    @Test func aMissingKeyAndAMissingRelationAreNull() throws {
        let p = try Evaluator.compile(try Parser.parsePredicate("person.name == nil AND person.name != 'x' AND NOT (age > 3)"))
        #expect(try p.evaluate(.dictionary([:])) == true)
        #expect(try p.evaluate(.dictionary(["person": .null])) == true)
        #expect(try p.evaluate(.dictionary(["person": .dictionary(["name": .string("x")])])) == false)
    }

    @Test func anErrorInAnInlineReadIsTheGeneralOne() throws {
        let object: Value = .dictionary(["age": .int(3)])
        let inline = predicateError("age.foo == 1", object)
        let general = predicateError("age.foo == SELF.x", object)
        #expect(inline?.code == .unknownKey)
        #expect(inline?.code == general?.code && inline?.span == general?.span)
    }

    @Test(arguments: [("c", true, false), ("d", false, true), ("cd", true, true), ("", false, false)])
    func beginsWithAgreesWithWholeStringFolding(_ name: String, _ c: Bool, _ d: Bool) throws {
        let folding = Folding(caseInsensitive: c, diacriticInsensitive: d)
        var options: String.CompareOptions = []
        if c { options.insert(.caseInsensitive) }
        if d { options.insert(.diacriticInsensitive) }
        let pool: [String] = ["j", "J", "o", "O", "s", "é", "e", "\u{301}", "ö", "ß", "Ł", "佐", " ", "K", "\u{212A}", "x"]
        var state: UInt64 = 0xC0FFEE
        func next() -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int(state >> 33) }
        let matcher = StringMatcher(folding: folding)
        for needle in ["jo", "j", "k", "ss", "jos"] {
            let prepared = folding.prepare(needle)
            let p = try Evaluator.compile(try Parser.parsePredicate("name BEGINSWITH\(name.isEmpty ? "" : "[\(name)]") '\(needle)'"))
            for _ in 0..<2_000 {
                let s = (0..<(next() % 6)).map { _ in pool[next() % pool.count] }.joined()
                let expected = !needle.isEmpty && s.folding(options: options, locale: nil)
                    .hasPrefix(needle.folding(options: options, locale: nil))
                #expect(matcher.beginsWith(s, prepared) == expected, "[\(name)] \(s.unicodeScalars.map { String($0.value, radix: 16) }) BEGINSWITH \(needle)")
                #expect(try p.evaluate(.dictionary(["name": .string(s)])) == expected)
            }
        }
    }
}

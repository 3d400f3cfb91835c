// BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES and the substring form of IN,
// each with and without [c] [d] [cd] [n], over ASCII and non-ASCII text
// (José, Zoë, Müller, ß, Turkish ı/İ, combining accents).
import Foundation
import Testing
@testable import QuarryEvaluation

@Suite struct StringOperators {
    static let prefixSuffixContains: [(String, String, Bool)] = [
        ("SELF BEGINSWITH 'Jo'", "José", true), ("SELF BEGINSWITH 'jo'", "José", false),
        ("SELF BEGINSWITH[c] 'jo'", "José", true), ("SELF BEGINSWITH[cd] 'JO'", "josé", true),
        ("SELF BEGINSWITH[cd] 'jo'", "Jöhn", true), ("SELF BEGINSWITH[c] 'jo'", "Jöhn", false), ("SELF BEGINSWITH[d] 'Jo'", "Jöhn", true),
        ("SELF BEGINSWITH[cd] 'jo'", "JO", true), ("SELF BEGINSWITH[cd] 'jo'", "J", false),
        ("SELF BEGINSWITH 'e'", "e\u{301}tude", false), ("SELF BEGINSWITH[d] 'e'", "e\u{301}tude", true),
        ("SELF BEGINSWITH[cd] 'ETU'", "étude", true), ("SELF BEGINSWITH[c] 'ss'", "ßa", true),
        ("SELF BEGINSWITH[c] 'i'", "İstanbul", false), ("SELF BEGINSWITH[cd] 'i'", "İstanbul", true),
        ("SELF BEGINSWITH[c] 'ı'", "Istanbul", false), ("SELF BEGINSWITH[n] 'ab'", "abc", true),
        ("SELF BEGINSWITH[cn] 'AB'", "abc", false), ("SELF BEGINSWITH ''", "abc", false),
        ("SELF ENDSWITH 'sé'", "José", true), ("SELF ENDSWITH 'se'", "José", false),
        ("SELF ENDSWITH[d] 'se'", "José", true), ("SELF ENDSWITH[cd] 'SE'", "José", true),
        ("SELF ENDSWITH[c] 'LER'", "Müller", true), ("SELF ENDSWITH ''", "abc", false),
        ("SELF ENDSWITH[c] 'SS'", "Straß", true), ("SELF ENDSWITH 'abcd'", "bcd", false),
        ("SELF CONTAINS 'oë'", "Zoë", true), ("SELF CONTAINS 'zoe'", "Zoë", false),
        ("SELF CONTAINS[d] 'Zoe'", "Zoë", true), ("SELF CONTAINS[d] 'zoe'", "Zoë", false),
        ("SELF CONTAINS[cd] 'ZOE'", "Zoë", true), ("SELF CONTAINS[c] 'ÜLL'", "Müller", true),
        ("SELF CONTAINS[cd] 'ull'", "MÜLLER", true), ("SELF CONTAINS[c] 'ull'", "MÜLLER", false),
        ("SELF CONTAINS 'e'", "e\u{301}", false), ("SELF CONTAINS[d] 'e'", "e\u{301}", true),
        ("SELF CONTAINS[c] 'SS'", "Straße", true), ("SELF CONTAINS ''", "abc", false),
        ("SELF CONTAINS 'bc'", "abc", true), ("SELF CONTAINS[c] 'BC'", "abc", true),
        ("SELF CONTAINS 'BC'", "abc", false), ("SELF CONTAINS 'abcd'", "abc", false),
    ]

    @Test(arguments: prefixSuffixContains)
    func prefixSuffixAndSubstring(_ format: String, _ subject: String, _ expected: Bool) throws {
        #expect(try holds(format, .string(subject)) == expected)
    }

    static let like: [(String, String, Bool)] = [
        ("SELF LIKE 'a*c'", "abc", true), ("SELF LIKE 'a*c'", "ac", true), ("SELF LIKE 'a*c'", "abcd", false),
        ("SELF LIKE 'a?c'", "abc", true), ("SELF LIKE 'a?c'", "abbc", false), ("SELF LIKE '*'", "", true),
        ("SELF LIKE '*'", "anything", true), ("SELF LIKE '?'", "", false), ("SELF LIKE ''", "", false),
        ("SELF LIKE ''", "x", false), ("SELF LIKE 'abc'", "ABC", false), ("SELF LIKE[c] 'abc'", "ABC", true),
        ("SELF LIKE 'a.c'", "abc", false), ("SELF LIKE 'a.c'", "a.c", true), ("SELF LIKE '100%'", "100%", true),
        ("SELF LIKE 'a_c'", "abc", false), ("SELF LIKE '[ab]'", "a", false), ("SELF LIKE '[ab]'", "[ab]", true),
        ("SELF LIKE '(x)+'", "(x)+", true), ("SELF LIKE '^a$'", "^a$", true),
        ("SELF LIKE 'a\\\\*'", "a*", true), ("SELF LIKE 'a\\\\*'", "ab", false),
        ("SELF LIKE 'a\\\\?'", "a?", true), ("SELF LIKE 'a\\\\?'", "ab", false),
        ("SELF LIKE 'Zo?'", "Zoë", true), ("SELF LIKE 'Zo?'", "Zoe\u{308}", true), ("SELF LIKE 'Zoe'", "Zoë", false),
        ("SELF LIKE[d] 'Zoe'", "Zoë", true), ("SELF LIKE[cd] 'jos?'", "JOSÉ", true),
        ("SELF LIKE[c] 'm*ller'", "MÜLLER", true), ("SELF LIKE[cd] 'mu*'", "Müller", true),
        ("SELF LIKE[c] 'mu*'", "Müller", false), ("SELF LIKE[c] 'stra*e'", "STRASSE", true),
        ("SELF LIKE '*a*a*a*a*b'", "aaaaaaaaab", true), ("SELF LIKE '*a*a*a*a*b'", "aaaaaaaaaa", false),
        ("SELF LIKE 'a*b*c?e'", "abcfebbcce", true), ("SELF LIKE '**'", "", true),
    ]

    @Test(arguments: like)
    func likeIsAWholeStringWildcardMatch(_ format: String, _ subject: String, _ expected: Bool) throws {
        #expect(try holds(format, .string(subject)) == expected)
    }

    static let matches: [(String, String, Bool)] = [
        ("SELF MATCHES 'a|ab'", "ab", true), ("SELF MATCHES 'b'", "abc", false),
        ("SELF MATCHES '[a-z]+'", "abc", true), ("SELF MATCHES '[a-z]+'", "ABC", false),
        ("SELF MATCHES[c] '[a-z]+'", "ABC", true), ("SELF MATCHES[d] 'zoe'", "zoë", true),
        ("SELF MATCHES 'zoe'", "zoë", false), ("SELF MATCHES[cd] 'ZOE'", "zoë", true),
        ("SELF MATCHES ''", "", false), ("SELF MATCHES '.*'", "", true),
        ("SELF MATCHES 'hel{2}o'", "hello", true), ("SELF MATCHES '\\\\d{3}'", "123", true),
        ("SELF MATCHES '\\\\d{3}'", "1234", false), ("SELF MATCHES 'a$'", "a", true),
        ("SELF MATCHES '(?i)abc'", "ABC", true), ("SELF MATCHES 'Jos.'", "José", true),
        ("SELF MATCHES '#\\\\d'", "#1", true), ("SELF MATCHES '\\\\Qa.b'", "a.b", true),
        ("SELF MATCHES '\\\\Qa.b'", "axb", false),
    ]

    @Test(arguments: matches)
    func matchesIsAWholeStringRegularExpression(_ format: String, _ subject: String, _ expected: Bool) throws {
        #expect(try holds(format, .string(subject)) == expected)
    }

    static let substringIn: [(String, String, Bool)] = [
        ("'oh' IN SELF", "John", true), ("'OH' IN SELF", "John", false), ("'OH' IN[c] SELF", "John", true),
        ("'' IN SELF", "John", false), ("'ü' IN[d] SELF", "Muller", true), ("'ü' IN SELF", "Muller", false), ("'u' IN[d] SELF", "Müller", true),
        ("SELF IN 'Johnny'", "ohn", true), ("SELF IN 'Johnny'", "x", false),
    ]

    @Test(arguments: substringIn)
    func inWithStringsIsASubstringTest(_ format: String, _ subject: String, _ expected: Bool) throws {
        #expect(try holds(format, .string(subject)) == expected)
    }

    static let nonStrings: [(String, Value)] = [
        ("SELF BEGINSWITH 'a'", .int(5)), ("SELF CONTAINS 'a'", .null), ("SELF LIKE '1'", .int(1)),
        ("SELF MATCHES '1'", .int(1)), ("SELF ENDSWITH 'a'", .bool(true)), ("SELF BEGINSWITH $x", .string("abc")),
        ("'abc' BEGINSWITH SELF", .int(1)), ("SELF LIKE $x", .string("abc")),
    ]

    @Test(arguments: nonStrings)
    func aNonStringSideIsFalseNotAnError(_ format: String, _ object: Value) throws {
        #expect(try holds(format, object, vars: ["x": .int(1)]) == false)
    }

    @Test func nonConstantPatternsWork() throws {
        let o = dict(["name": .string("Zoë"), "pattern": .string("z*"), "regex": .string("[a-z]+ë"), "prefix": .string("ZO")])
        #expect(try holds("name LIKE[cd] pattern", o))
        #expect(try holds("name MATCHES[c] regex", o))
        #expect(try holds("name BEGINSWITH[c] prefix", o))
        #expect(try holds("name ==[cd] 'zoe' AND name !=[c] 'zoe'", o))
    }

    @Test func longStringsUseTheFastPathsCorrectly() throws {
        let long = String(repeating: "ab", count: 5000) + "Zoë"
        #expect(try holds("SELF ENDSWITH[cd] 'ZOE'", .string(long)))
        #expect(try holds("SELF BEGINSWITH[c] 'ABAB'", .string(long)))
        #expect(try holds("SELF CONTAINS[c] 'BZO'", .string(long)))
        #expect(try !holds("SELF CONTAINS 'abc'", .string(long)))
    }
}

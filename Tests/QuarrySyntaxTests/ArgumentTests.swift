// Argument substitution: each specifier takes its value at parse time; `%@`
// strings are constants, `%K` inserts key paths, printf specifiers convert,
// and counts and types are checked.
import Foundation
import Testing
@testable import QuarrySyntax

@Suite("Arguments")
struct ArgumentTests {
    static let substitutions: [(String, [Value], String)] = [
        ("%@ like %@", [.string("firstName"), .string("Adam")], #""firstName" LIKE "Adam""#),
        ("%K like %@", [.string("firstName"), .string("Adam")], #"firstName LIKE "Adam""#),
        ("'%K' like '%@'", [], #""%K" LIKE "%@""#),
        ("%K.%K == 1", [.string("a"), .string("b.c")], "a.b.c == 1"),
        ("%K == %d", [.string("age"), .int(42)], "age == 42"),
        ("age == %d", [.double(42.9)], "age == 42"),
        ("age == %f", [.int(42)], "age == 42.0"),
        ("age == %i AND b == %ld AND c == %lld AND d == %lu AND e == %hi AND f == %qi AND g == %u",
         [.int(1), .int(2), .int(3), .int(4), .int(5), .int(6), .int(7)],
         "age == 1 AND b == 2 AND c == 3 AND d == 4 AND e == 5 AND f == 6 AND g == 7"),
        ("x == %g OR x == %lf", [.double(1.5), .double(2.5)], "x == 1.5 OR x == 2.5"),
        ("x == %x", [.int(255)], "x == 255"),
        ("x == %c", [.int(65)], #"x == "A""#),
        ("x == %s", [.string("hi")], #"x == "hi""#),
        ("%2$K == %1$@", [.string("v"), .string("k")], #"k == "v""#),
        ("x IN %@", [.array([.int(1), .string("a")])], #"x IN {1, "a"}"#),
        ("x == %@", [.null], "x == nil"),
        ("x == %@", [.bool(true)], "x == YES"),
        ("x == %@", [.date(0)], #"x == CAST(0.0, "NSDate")"#),
        ("x BETWEEN %@", [.array([.int(1), .int(2)])], "x BETWEEN {1, 2}"),
        ("name == %@", [.string("it's \"quoted\"")], #"name == "it's \"quoted\"""#),
        ("%K == 1", [.string("size")], "#size == 1"),
    ]

    @Test(arguments: substitutions)
    func substitutes(format: String, args: [Value], expected: String) throws {
        #expect(try canonical(format, args) == expected)
    }

    @Test func aStringArgumentIsNeverAKeyPath() throws {
        let p = try Parser.parsePredicate("%@ == 1", arguments: [.string("name")])
        guard case .comparison(let c) = p.kind else { Issue.record("not a comparison"); return }
        #expect(c.lhs.kind == .constant(.string("name")))
    }

    @Test func withoutArgumentsSpecifiersArePlaceholders() throws {
        #expect(try canonical("%K.%K == %@ AND x == %d") == "%K.%K == %@ AND x == %d")
        let p = try Parser.parsePredicate("a == %@")
        guard case .comparison(let c) = p.kind else { Issue.record("not a comparison"); return }
        #expect(c.rhs.kind == .placeholder("%@"))
    }

    static let failures: [(String, [Value], DiagnosticCode, Int)] = [
        ("a == %@ AND b == %@", [.int(1)], .missingArgument, 18),
        ("a == %@", [], .missingArgument, 6),
        ("a == %@", [.int(1), .int(2)], .extraArgument, 1),
        ("%K == 1", [.int(3)], .keyPathArgumentNotString, 1),
        ("%K == 1", [.string("")], .keyPathArgumentNotString, 1),
        ("a == %d", [.string("x")], .argumentTypeMismatch, 6),
        ("a == %f", [.array([])], .argumentTypeMismatch, 6),
        ("a == %s", [.int(1)], .argumentTypeMismatch, 6),
        ("a == %3$@", [.int(1)], .missingArgument, 6),
    ]

    @Test(arguments: failures)
    func argumentErrors(format: String, args: [Value], code: DiagnosticCode, column: Int) throws {
        let d = try #require(diagnostic(format, args))
        #expect(d.code == code, "\(d.message)")
        #expect(d.stage == .input)
        #expect(d.location(in: SourceText(format)).column == column)
    }

    @Test func missingArgumentNamesTheSpecifier() throws {
        let d = try #require(diagnostic("a == %@ AND b == %d", [.int(1)]))
        #expect(d.message.contains("%d"))
        #expect(d.message.contains("argument 2"))
    }

    @Test func extraArgumentsCanBeAllowedAsAppleDoes() throws {
        let p = try Parser.parsePredicate("self == '%@'", arguments: [.string("x")], allowsExtraArguments: true)
        #expect(Printer.format(p) == #"SELF == "%@""#)
    }
}

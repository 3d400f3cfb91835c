// Every evaluation error: its code, stage and location. None of these may
// trap; each must be a Diagnostic.
import Foundation
import Testing
@testable import QuarryEvaluation

@Suite struct Errors {
    static let cases: [(String, DiagnosticCode)] = [
        ("1 / 0 == 1", .divisionByZero), ("age / 0 > 1", .divisionByZero), ("modulus:by:(1, 0) == 0", .divisionByZero),
        ("CAST('1', 'NSDecimalNumber') / 0 == 1", .divisionByZero), ("divide:by:(age, 0) == 1", .divisionByZero),
        ("foo(1) == 1", .unknownFunction), ("averag:({1}) == 1", .unknownFunction),
        ("FUNCTION(1, 'nope') == 1", .unknownFunction), ("FUNCTION(1, $f) == 1", .unknownFunction),
        ("sqrt(1, 2) == 1", .badFunctionArgument), ("random:(0) == 1", .badFunctionArgument),
        ("CAST(1, 'NSFoo') == 1", .badFunctionArgument), ("CAST('abc', 'NSNumber') == 1", .badFunctionArgument),
        ("CAST('not a date', 'NSDate') == 1", .badFunctionArgument), ("FUNCTION('a', 'uppercase', 1) == 1", .badFunctionArgument),
        ("SELF MATCHES '('", .invalidRegularExpression), ("name MATCHES $p", .invalidRegularExpression),
        ("name UTI-CONFORMS-TO 'public.data'", .unsupportedOperation), ("name UTI-EQUALS 'public.data'", .unsupportedOperation),
        ("numbers.@sum == 1", .unsupportedOperation), ("numbers.@foo.x == 1", .unsupportedOperation),
        ("ANYKEY == 1", .unsupportedOperation),
        ("'a' + 1 == 1", .typeMismatch), ("5 BETWEEN {1}", .typeMismatch), ("5 BETWEEN {1, 2, 3}", .typeMismatch),
        ("5 BETWEEN 3", .typeMismatch), ("age.@count == 1", .typeMismatch), ("SUBQUERY(age, $x, $x > 1).@count == 0", .typeMismatch),
        ("{1} UNION 2 == nil", .typeMismatch), ("'a' & 1 == 1", .typeMismatch), ("-name == 1", .typeMismatch),
        ("uppercase:(5) == 'x'", .typeMismatch), ("max:({1, 'a'}) == 1", .typeMismatch), ("sum:({'a'}) == 1", .typeMismatch),
        ("$a.$b > 1", .typeMismatch), ("{1}[$x] == 1", .typeMismatch),
        ("age.foo == 1", .unknownKey), ("name.bogus == 1", .unknownKey), ("$a.$c > 1", .unknownKey),
        ("$undefined == 1", .missingVariable),
    ]

    @Test(arguments: cases)
    func errorCodes(_ format: String, _ code: DiagnosticCode) throws {
        let vars: [String: Value] = ["f": .string("nope"), "p": .string("(["), "a": .array([.int(2)]), "b": .int(0),
                                     "c": .string("0"), "x": .string("k")]
        let d = predicateError(format, person, vars: vars)
        #expect(d?.code == code, "\(format): \(d.map { "\($0)" } ?? "no error")")
        #expect(d?.stage == .evaluate || d?.stage == .input)
    }

    /// An AND one part makes false is false and an OR one part makes true
    /// is true, whichever part raises an error, wherever it stands: the error
    /// stands only when no part decides (Compiler.decidedByAnyPart). On
    /// José, 30: `CAST(name, 'NSNumber')` raises E004, `age / 0` E005.
    static let decided: [(String, Bool?)] = [
        ("CAST(name, 'NSNumber') == 1 AND age > 100", false),
        ("age > 100 AND CAST(name, 'NSNumber') == 1", false),
        ("CAST(name, 'NSNumber') == 1 AND age > 1", nil),
        ("CAST(name, 'NSNumber') == 1 OR age > 1", true),
        ("age > 1 OR CAST(name, 'NSNumber') == 1", true),
        ("CAST(name, 'NSNumber') == 1 OR age > 100", nil),
        ("CAST(name, 'NSNumber') == nil AND (name MATCHES[c] 'j.*' AND nickname ENDSWITH 'x')", false),
        ("age / 0 == 1 AND age > 1 AND name == 'nobody'", false),
        ("age / 0 == 1 AND age > 1 AND name == 'José'", nil),
        ("NOT (CAST(name, 'NSNumber') == 1 AND age > 100)", true),
        ("(age / 0 == 1 OR age > 1) AND name != nil", true),
        ("(age / 0 == 1 OR age > 100) AND name != nil", nil),
        ("(age / 0 == 1 OR age > 100) AND name == nil", false),
    ]

    @Test(arguments: decided)
    func anErrorStandsOnlyWhenNoPartDecides(_ format: String, _ expected: Bool?) throws {
        if let expected {
            #expect(try holds(format, person) == expected, "\(format)")
        } else {
            let d = predicateError(format, person)
            #expect(d?.code == .badFunctionArgument || d?.code == .divisionByZero, "\(format): \(d.map { "\($0)" } ?? "no error")")
        }
    }

    @Test func errorsPointAtTheNode() throws {
        let format = "age > 1 AND salary / 0 > 2"
        let d = predicateError(format, dict(["age": .int(2), "salary": .int(1)]))
        #expect(d?.code == .divisionByZero)
        let start = format.utf8.count - "salary / 0 > 2".utf8.count
        #expect(d?.span.start == start)
        #expect(d?.span.end == start + "salary / 0".utf8.count)
        let u = predicateError("x == 1 OR bogus:(x) == 2")
        #expect(u?.code == .unknownFunction)
        #expect(u?.message.contains("bogus:") == true)
        #expect(u?.span.start == 10)
        let near = predicateError("averag:({1}) == 1")
        #expect(near?.hints.first == "did you mean average:?")
    }

    @Test func unsubstitutedPlaceholdersCannotRun() throws {
        let p = try Parser.parsePredicate("age > %@")
        #expect(throws: Diagnostic.self) { try Evaluator.compile(p) }
        do {
            _ = try Evaluator.compile(p)
        } catch {
            #expect(error.code == .unsupportedOperation)
            #expect(error.message.contains("unsubstituted argument %@"))
        }
    }

    @Test func catastrophicRegexIsStopped() throws {
        var options = EvaluationOptions()
        options.regexTimeLimit = 0.05
        let subject = String(repeating: "a", count: 40) + "b"
        let start = Date()
        let d = predicateError("SELF MATCHES '(a+)+'", .string(subject), options: options)
        #expect(d?.code == .regularExpressionTooComplex)
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test func errorsInUntakenBranchesDoNotFire() throws {
        #expect(try holds("FALSEPREDICATE AND 1 / 0 == 1") == false)
        #expect(try holds("age > 100 AND age / 0 == 1", person) == false)
        #expect(try value("TERNARY(1 > 2, 1 / 0, 5)") == .int(5))
    }
}

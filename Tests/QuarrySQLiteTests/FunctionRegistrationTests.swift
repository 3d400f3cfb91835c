// Every quarry_* function QuarrySQLFunction names is registered on a SQLite
// connection, with the arity the lowering calls it with: a call on NULLs
// gives NULL (not "no such function" nor "wrong number of arguments"), and
// a call on text decides as the evaluator does.
import QuarryBinding
import Testing
@testable import QuarrySQLite

@Suite struct FunctionRegistrationTests {
    @Test(arguments: QuarrySQLFunction.allCases)
    func registeredWithItsArity(function: QuarrySQLFunction) throws {
        let db = try SQLiteConnection(path: ":memory:")
        let nulls = Array(repeating: "NULL", count: function.arity)
        #expect(try db.query("SELECT " + function.call(nulls.joined(separator: ", "))) == [[.null]])
        // One argument short is refused: the arity is the registered one.
        #expect(throws: (any Error).self) { try db.query("SELECT " + function.call(nulls.dropLast().joined(separator: ", "))) }
    }

    /// A call on values, per function: the text "Abc" against a needle or pattern that matches.
    static let answers: [(QuarrySQLFunction, [Value], Value)] = [
        (.fold, [.string("ÀBC"), .int(3)], .string("abc")),
        (.like, [.string("Abc"), .string("a*"), .int(1)], .int(1)),
        (.matches, [.string("Abc"), .string("a.*"), .int(1)], .int(1)),
        (.begins, [.string("Abc"), .string("a"), .int(1)], .int(1)),
        (.ends, [.string("Abc"), .string("C"), .int(1)], .int(1)),
        (.contains, [.string("Abc"), .string("b"), .int(0)], .int(1)),
    ]

    @Test func everyFunctionHasAnAnswerCase() {
        #expect(Set(Self.answers.map(\.0)) == Set(QuarrySQLFunction.allCases))
    }

    @Test(arguments: answers)
    func decidesAsTheEvaluator(function: QuarrySQLFunction, arguments: [Value], expected: Value) throws {
        let db = try SQLiteConnection(path: ":memory:")
        let call = function.call(Array(repeating: "?", count: function.arity).joined(separator: ", "))
        #expect(try db.query("SELECT " + call, arguments) == [[expected]])
    }
}

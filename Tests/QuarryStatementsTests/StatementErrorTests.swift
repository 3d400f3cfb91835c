// The statement parser's errors without the shell: every statement-grammar
// code (S…) with its message, place and hints, rendered exactly as the
// shell prints it (the same texts ShellTranscriptTests pins through
// `quarry`), and a clause's language diagnostic carried unchanged, with
// its offset moved from the clause into the statement.
import Testing
@testable import QuarryStatements

@Suite("Statement errors")
struct StatementErrorTests {
    /// (statement, code, rendered without a file name)
    static let grammar: [(String, StatementCode, String)] = [
        ("FECH Employee", .unknownStatement,
         "1:1: error[S001]: unknown statement 'FECH'; expected FETCH, COUNT, EVAL, INSERT, UPDATE, DELETE, SECTIONS, SET, EXPLAIN\n    FECH Employee\n    ^~~~\nhelp: did you mean FETCH?"),
        ("FETCH", .expectedEntity, "1:6: error[S002]: expected an entity name after FETCH\n    FETCH\n         ^"),
        ("FETCH Employee SORT BY name WHERE age > 3", .misplacedClause,
         "1:29: error[S003]: WHERE must come before SORT BY\n    FETCH Employee SORT BY name WHERE age > 3\n                                ^~~~~\nhelp: clauses go in the order PROPERTIES, WHERE, GROUP BY, HAVING, SORT BY, LIMIT, OFFSET, BATCH"),
        ("COUNT Employee LIMIT 3", .misplacedClause,
         "1:16: error[S003]: COUNT has no LIMIT clause\n    COUNT Employee LIMIT 3\n                   ^~~~~\nhelp: COUNT takes WHERE"),
        ("FETCH Employee LIMIT ten", .expectedInteger,
         "1:22: error[S004]: LIMIT takes a whole number, as in LIMIT 10\n    FETCH Employee LIMIT ten\n                         ^~~"),
        ("FETCH Employee SORT name", .expectedBy, "1:21: error[S005]: expected BY after SORT\n    FETCH Employee SORT name\n                        ^~~~"),
        ("FETCH Employee extra", .unexpectedText,
         "1:16: error[S006]: unexpected 'extra'; expected PROPERTIES, WHERE, GROUP BY, HAVING, SORT BY, LIMIT, OFFSET, BATCH or the end of the statement\n    FETCH Employee extra\n                   ^~~~~"),
        ("FETCH Employee PROPERTIES name AS", .malformedProperty,
         "1:34: error[S007]: expected a name after AS\n    FETCH Employee PROPERTIES name AS\n                                     ^"),
        ("SET minimum = 1", .malformedAssignment,
         "1:5: error[S008]: expected a $variable after SET\n    SET minimum = 1\n        ^~~~~~~\nhelp: as in SET $minimum = 50000"),
        ("SAVEPOINT", .expectedKeyPath,
         "1:10: error[S009]: expected a savepoint name after SAVEPOINT\n    SAVEPOINT\n             ^\nhelp: as in SAVEPOINT before_cleanup"),
        ("FETCH Employee WHERE", .emptyClause, "1:21: error[S012]: WHERE needs something after it\n    FETCH Employee WHERE\n                        ^"),
    ]

    @Test(arguments: grammar)
    func grammarErrors(text: String, code: StatementCode, rendered: String) {
        #expect(throws: StatementError.self) { try StatementParser.parse(text) }
        do {
            _ = try StatementParser.parse(text)
        } catch {
            #expect(error.code == .statement(code))
            #expect(error.stage == .parse)
            #expect(error.diagnostic == nil)
            #expect(error.rendered(in: SourceText(text)) == rendered)
            #expect(error.rendered(in: SourceText(text), file: "q.qry") == "q.qry:" + rendered)
        }
    }

    /// Every statement-grammar code has a case above.
    @Test func everyCodeIsExercised() {
        #expect(Set(Self.grammar.map(\.1)) == Set(StatementCode.allCases))
    }

    /// (statement, arguments, language code, byte offset in the statement)
    static let language: [(String, [Value], DiagnosticCode, Int)] = [
        ("FETCH Employee WHERE salary > AND name == 'x'", [], .expectedValue, 30),
        ("COUNT Employee WHERE name == 'x", [], .unterminatedString, 29),
        ("FETCH Employee WHERE salary > %@", [], .missingArgument, 30),
        ("EVAL 1 +", [], .expectedValue, 8),
        // In a later clause: the offset is still the statement's.
        ("FETCH Employee PROPERTIES name GROUP BY name HAVING name == AND SORT BY name", [], .expectedValue, 60),
        // Unused values: the whole statement is the place.
        ("COUNT Employee WHERE salary > %@", [.int(1), .int(2)], .extraArgument, 0),
    ]

    @Test(arguments: language)
    func languageDiagnosticsCarriedOver(text: String, arguments: [Value], code: DiagnosticCode, offset: Int) {
        do {
            _ = try StatementParser.parse(text, arguments: arguments)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.code == .language(code), "\(error)")
            #expect(error.span.start == offset, "\(error)")
            let d = error.diagnostic
            #expect(d?.code == code)
            // The rendering is the language diagnostic's own.
            if let d { #expect(error.rendered(in: SourceText(text)) == d.rendered(in: SourceText(text))) }
        }
    }
}

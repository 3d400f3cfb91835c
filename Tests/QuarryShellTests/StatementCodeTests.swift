// The statement grammar's errors reach the shell unchanged: its codes are
// the shell's S codes of the same name and value (ShellCode repeats them
// because the shell raises some while binding), and a StatementError
// becomes a ShellError with the same code, message, place, hints and
// rendering, and the exit status of bad input.
import Testing
@testable import QuarryShell

@Suite("Statement codes in the shell")
struct StatementCodeTests {
    @Test(arguments: StatementCode.allCases)
    func shellCodeMirrorsStatementCode(code: StatementCode) {
        let shell = ShellCode(rawValue: code.rawValue)
        #expect(shell != nil, "\(code.rawValue) is not a ShellCode")
        #expect(shell.map { String(describing: $0) } == String(describing: code))
    }

    static let statements: [(String, [Value])] = [
        ("FETCH Employee SORT BY name WHERE age > 3", []),
        ("SAVEPOINT", []),
        ("FETCH Employee WHERE salary > AND name == 'x'", []),
        ("FETCH Employee WHERE salary > %@", []),
    ]

    @Test(arguments: statements)
    func shellErrorKeepsWhatTheParserSaid(text: String, arguments: [Value]) {
        do {
            _ = try StatementParser.parse(text, arguments: arguments)
            Issue.record("\(text) parsed")
        } catch {
            let shell = ShellError(error)
            #expect(shell.code == error.code.rawValue)
            #expect(shell.message == error.message)
            #expect(shell.hints == error.hints)
            #expect(shell.stage == error.stage.rawValue)
            #expect(shell.exitCode == ExitStatus.badInput)
            #expect(shell.located)
            let source = SourceText("-- a line before\n" + text)
            let moved = shell.shifted(by: 17)
            var expected = error
            expected.span = SourceSpan(start: error.span.start + 17, end: error.span.end + 17)
            #expect(moved.rendered(in: source, file: "q.qry") == expected.rendered(in: source, file: "q.qry"))
        }
    }
}

// The REPL's tab completion: statement words, entity names, key paths
// through relationships, dot-commands and variables, from the default
// store's model. (Split from the statement parser's tests when the parser
// moved to QuarryStatements; completion is the shell's.)
import Testing
@testable import QuarryShell

@Suite("Completion")
struct CompletionTests {
    static let completions: [(String, String, [String])] = [
        ("FET", "FET", ["FETCH"]),
        ("fet", "fet", ["fetch"]),
        ("FETCH Emp", "Emp", ["Employee"]),
        ("FETCH Employee WHERE department.na", "department.na", ["department.name"]),
        ("FETCH Employee WHERE department.employees.sal", "department.employees.sal", ["department.employees.salary"]),
        ("FETCH Employee WHERE sal", "sal", ["salary"]),
        ("COUNT Employee WHERE departm", "departm", ["department"]),
        (".sc", ".sc", [".schema"]),
        ("EVAL $mi", "$mi", ["$minimum"]),
    ]

    @Test(arguments: completions)
    func completes(line: String, word: String, expected: [String]) throws {
        let model = try DefaultStore.model()
        #expect(Completion.candidates(line: line, word: word, model: model, variables: ["minimum"]) == expected)
    }
}

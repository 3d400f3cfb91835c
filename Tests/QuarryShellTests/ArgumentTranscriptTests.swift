// `--arg` values in statements: each statement is one format string whose
// `%@`, `%d`, `%K` ... take the values in order across its clauses, and
// `%2$@` the second; a value is JSON when it is valid JSON, else a string
// (as for `quarry parse` and `eval`). A missing value is A001 at the
// specifier; values that sequential specifiers leave unused are A002 over
// the statement; positional specifiers take only the values they name, and a
// statement without specifiers ignores them.
import Foundation
import Testing
@testable import QuarryShell

@Suite("--arg in statements")
struct ArgumentTranscriptTests {
    /// (script, --arg values as typed, expected stdout)
    static let substitutions: [(String, [String], String)] = [
        ("FETCH Department PROPERTIES name WHERE name BEGINSWITH %@ SORT BY name", ["S"],
         " name\n---------\n Sales\n Support\n(2 rows)\n"),
        ("COUNT Employee WHERE salary > %@", ["149000"], " count\n-------\n     1\n(1 row)\n"),
        ("COUNT Employee WHERE salary > %d", ["149000"], " count\n-------\n     1\n(1 row)\n"),
        // Sequential specifiers go on from clause to clause; %K inserts a key path.
        ("FETCH Department PROPERTIES %K AS n WHERE name BEGINSWITH %@ SORT BY %K DESC", ["name", "S", "name"],
         " n\n---------\n Support\n Sales\n(2 rows)\n"),
        // Positional specifiers index the whole list.
        ("FETCH Department PROPERTIES name WHERE name == %2$@ OR name == %1$@ SORT BY name", ["Legal", "Sales"],
         " name\n-------\n Legal\n Sales\n(2 rows)\n"),
        // Positional specifiers take only what they name.
        ("COUNT Department WHERE name BEGINSWITH %2$@", ["x", "S"], " count\n-------\n     2\n(1 row)\n"),
        // Each statement reads the values from the first.
        ("COUNT Department WHERE name BEGINSWITH %@; FETCH Department PROPERTIES name WHERE name BEGINSWITH %@ AND name != 'Sales'", ["S"],
         " count\n-------\n     2\n(1 row)\n name\n---------\n Support\n(1 row)\n"),
        // A statement without specifiers ignores them.
        ("EVAL 1 + 1; EVAL %@ * 2", ["21"], " 1 + 1\n-------\n     2\n(1 row)\n 21 * 2\n--------\n     42\n(1 row)\n"),
        // JSON when valid JSON, a string otherwise.
        ("EVAL %@", ["\"30\""], " \"30\"\n------\n 30\n(1 row)\n"),
        ("EVAL %@", ["[1,2]"], " {1, 2}\n--------\n [1, 2]\n(1 row)\n"),
        ("SET $who = %@; .vars", ["José"], "$who = \"José\"\n"),
        ("INSERT Department {name: %@, budget: %@}; COUNT Department WHERE budget == %2$@", ["New", "7"],
         "inserted Department/11\n count\n-------\n     1\n(1 row)\n"),
        ("UPDATE Employee SET salary = %@ WHERE salary > %@", ["1", "149000"], "updated 1 object\n"),
    ]

    @Test(arguments: substitutions)
    func substitution(script: String, arguments: [String], out: String) {
        let r = transcript([.command(script)], arguments: arguments.map(CommandLineValue.parse))
        #expect(r.err == "")
        #expect(r.status == 0)
        #expect(r.out == out)
    }

    /// (script, --arg values, expected stderr, exit status)
    static let errors: [(String, [String], String, Int32)] = [
        ("COUNT Employee WHERE name BEGINSWITH %@", [],
         "1:38: error[A001]: no argument for %@ (argument 1); 0 arguments were given\n    COUNT Employee WHERE name BEGINSWITH %@\n                                         ^~\nhelp: pass one value per specifier, in order\n", 65),
        ("FETCH Employee PROPERTIES %K WHERE name BEGINSWITH %@", ["name"],
         "1:52: error[A001]: no argument for %@ (argument 2); 1 argument was given\n    FETCH Employee PROPERTIES %K WHERE name BEGINSWITH %@\n                                                       ^~\nhelp: pass one value per specifier, in order\n", 65),
        ("COUNT Employee WHERE name BEGINSWITH %@", ["jo", "x"],
         "1:1: error[A002]: 2 arguments were given but the format has 1 specifier\n    COUNT Employee WHERE name BEGINSWITH %@\n    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n", 65),
        ("COUNT Employee WHERE name BEGINSWITH '%@'", ["jo"],
         "1:1: error[A002]: 1 argument was given but the format has 0 specifiers\n    COUNT Employee WHERE name BEGINSWITH '%@'\n    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\nhelp: '%@' inside quotes is literal text: remove the quotes to insert the argument\n", 65),
        ("FETCH Employee SORT BY %K", ["3"],
         "1:24: error[A003]: %K needs a key path string, but argument is integer\n    FETCH Employee SORT BY %K\n                           ^~\nhelp: use %@ to insert a value\n", 65),
        ("COUNT Employee WHERE age > %d", ["\"old\""],
         "1:28: error[A004]: %d needs an integer, but the argument is string\n    COUNT Employee WHERE age > %d\n                               ^~\nhelp: use %@ to insert any value as it is\n", 65),
    ]

    @Test(arguments: errors)
    func error(script: String, arguments: [String], err: String, status: Int32) {
        let r = transcript([.command(script)], arguments: arguments.map(CommandLineValue.parse))
        #expect(r.out == "")
        #expect(r.err == err)
        #expect(r.status == status)
    }

    @Test func errorsInFilesPointAtTheSpecifier() throws {
        let path = NSTemporaryDirectory() + "quarry-args-\(getpid()).qry"
        try "COUNT Department WHERE name BEGINSWITH %1$@;\nCOUNT Employee WHERE salary > %2$@ AND age < %3$@;\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = transcript([.file(path)], arguments: [.string("S"), .int(1000)])
        // Checked before anything runs: the first statement does not run either.
        #expect(r.out == "")
        #expect(r.err.hasPrefix("\(path):2:46: error[A001]: no argument for %3$@ (argument 3); 2 arguments were given\n"))
        #expect(r.status == 65)
    }

    /// The built `quarry`: `--arg` on the command line, before or after `-c`.
    @Test(.enabled(if: REPLTerminalTests.binary != nil, "needs the built quarry executable"),
          arguments: [
            (["-c", "FETCH Department PROPERTIES name WHERE name BEGINSWITH %@ SORT BY name", "--arg", "S", "--mode", "csv"], "name\r\nSales\r\nSupport\r\n", Int32(0)),
            (["--arg", "149000", "-c", "COUNT Employee WHERE salary > %@", "--mode", "csv"], "count\r\n1\r\n", Int32(0)),
            (["--arg=S", "-c", "COUNT Department WHERE name BEGINSWITH %@", "--mode", "csv"], "count\r\n2\r\n", Int32(0)),
            (["-c", "COUNT Employee WHERE name BEGINSWITH %@"], "", Int32(65)),
          ])
    func commandLine(arguments: [String], out: String, status: Int32) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: REPLTerminalTests.binary!)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(String(decoding: data, as: UTF8.self) == out)
        #expect(process.terminationStatus == status)
    }
}

// Shell transcripts: a script in, stdout, stderr and the exit status out,
// for every statement, dot-command, output mode and error class; and every
// example query file against its expected output, byte for byte.
import Foundation
import Testing
@testable import QuarryShell

/// Runs sources on a fresh session (the embedded default store) and captures everything.
func transcript(_ sources: [ScriptSource], keepGoing: Bool = false, mode: OutputMode = .table,
                jsonErrors: Bool = false, store: StoreLocation = .defaultStore, modelPath: String? = nil,
                arguments: [Value] = []) -> (out: String, err: String, status: Int32) {
    final class Box: @unchecked Sendable { var out = ""; var err = "" }
    let box = Box()
    let session = ShellSession(location: store, mode: mode, output: { box.out += $0 }, errors: { box.err += $0 })
    session.jsonErrors = jsonErrors
    session.arguments = arguments
    var status = session.setUp(modelPath: modelPath, openStore: store != .defaultStore)
    if status == 0 { status = ScriptRunner(session: session, keepGoing: keepGoing).run(sources) }
    return (box.out, box.err, status)
}

func run(_ script: String, mode: OutputMode = .table) -> (out: String, err: String, status: Int32) {
    transcript([.command(script)], mode: mode)
}

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

@Suite("Shell transcripts")
struct ShellTranscriptTests {
    /// (script, expected stdout, expected stderr, exit status)
    static let statements: [(String, String, String, Int32)] = [
        ("COUNT Employee", " count\n-------\n   200\n(1 row)\n", "", 0),
        ("count Employee where salary > 149000", " count\n-------\n     1\n(1 row)\n", "", 0),
        ("FETCH Department PROPERTIES name WHERE name BEGINSWITH 'S' SORT BY name",
         " name\n---------\n Sales\n Support\n(2 rows)\n", "", 0),
        ("FETCH Department PROPERTIES name SORT BY name DESC LIMIT 2 OFFSET 1",
         " name\n----------\n Sales\n Research\n(2 rows)\n", "", 0),
        ("FETCH Department PROPERTIES name AS n, count:(employees) AS c WHERE name == 'People'",
         " n      | c\n--------+----\n People | 13\n(1 row)\n", "", 0),
        ("FETCH Employee PROPERTIES department.name AS d, count:(salary) AS c GROUP BY department.name HAVING c < 17 SORT BY department.name",
         " d           | c\n-------------+----\n Engineering | 16\n People      | 13\n(2 rows)\n", "", 0),
        ("FETCH DISTINCT Employee PROPERTIES age WHERE age < 24 SORT BY age BATCH 10",
         " age\n-----\n  22\n  23\n(2 rows)\n", "", 0),
        ("EVAL 1 + 2", " 1 + 2\n-------\n     3\n(1 row)\n", "", 0),
        ("EVAL 7 / 2", " 7 / 2\n-------\n     3\n(1 row)\n", "", 0),
        ("EVAL 'abc' BEGINSWITH 'a'", " \"abc\" BEGINSWITH \"a\"\n----------------------\n true\n(1 row)\n", "", 0),
        ("SET $x = 40; EVAL $x + 2", " $x + 2\n--------\n     42\n(1 row)\n", "", 0),
        ("SET $x = 'People'; .vars", "$x = \"People\"\n", "", 0),
        ("INSERT Department {name: 'New'}; COUNT Department", "inserted Department/11\n count\n-------\n    11\n(1 row)\n", "", 0),
        ("UPDATE Employee SET salary = 1 WHERE salary > 149000", "updated 1 object\n", "", 0),
        ("DELETE Employee WHERE salary > 149000; COUNT Employee", "deleted 1 object\n count\n-------\n   199\n(1 row)\n", "", 0),
        ("SECTIONS Employee BY department.name WHERE salary > 149000 SORT BY department.name",
         "== Support [S] — 1 object ==\n", "", 0),
    ]

    @Test(arguments: statements)
    func statement(script: String, out: String, err: String, status: Int32) {
        let r = run(script)
        if script.hasPrefix("SECTIONS") { #expect(r.out.hasPrefix(out)) } else { #expect(r.out == out) }
        #expect(r.err == err)
        #expect(r.status == status)
    }

    /// (script, expected stderr, exit status): every error class.
    static let errors: [(String, String, Int32)] = [
        ("FETCH Employee WHERE salary > AND name == 'x'",
         "1:31: error[P012]: expected a value after '>', found 'AND'\n    FETCH Employee WHERE salary > AND name == 'x'\n                                  ^~~\nhelp: did you mean `salary > %@`?\n", 65),
        ("FECH Employee", "1:1: error[S001]: unknown statement 'FECH'; expected FETCH, COUNT, EVAL, INSERT, UPDATE, DELETE, SECTIONS, SET, EXPLAIN\n    FECH Employee\n    ^~~~\nhelp: did you mean FETCH?\n", 65),
        ("FETCH Employe", "1:7: error[B001]: unknown entity 'Employe'; the model has Department, Employee, Project\n    FETCH Employe\n          ^~~~~~~\nhelp: did you mean 'Employee'?\n", 65),
        ("FETCH", "1:6: error[S002]: expected an entity name after FETCH\n    FETCH\n         ^\n", 65),
        ("FETCH Employee SORT BY name WHERE age > 3", "1:29: error[S003]: WHERE must come before SORT BY\n    FETCH Employee SORT BY name WHERE age > 3\n                                ^~~~~\nhelp: clauses go in the order PROPERTIES, WHERE, GROUP BY, HAVING, SORT BY, LIMIT, OFFSET, BATCH\n", 65),
        ("COUNT Employee LIMIT 3", "1:16: error[S003]: COUNT has no LIMIT clause\n    COUNT Employee LIMIT 3\n                   ^~~~~\nhelp: COUNT takes WHERE\n", 65),
        ("FETCH Employee LIMIT ten", "1:22: error[S004]: LIMIT takes a whole number, as in LIMIT 10\n    FETCH Employee LIMIT ten\n                         ^~~\n", 65),
        ("FETCH Employee SORT name", "1:21: error[S005]: expected BY after SORT\n    FETCH Employee SORT name\n                        ^~~~\n", 65),
        ("FETCH Employee extra", "1:16: error[S006]: unexpected 'extra'; expected PROPERTIES, WHERE, GROUP BY, HAVING, SORT BY, LIMIT, OFFSET, BATCH or the end of the statement\n    FETCH Employee extra\n                   ^~~~~\n", 65),
        ("FETCH Employee WHERE", "1:21: error[S012]: WHERE needs something after it\n    FETCH Employee WHERE\n                        ^\n", 65),
        ("FETCH Employee WHERE name == 'x", "1:30: error[L001]: unterminated string\n    FETCH Employee WHERE name == 'x\n                                 ^~\nhelp: add the closing '\n", 65),
        ("FETCH Employee WHERE age > $nope", "1:28: error[A005]: no value for the variable $nope\n    FETCH Employee WHERE age > $nope\n                               ^~~~~\nhelp: every $VARIABLE of a template needs a binding\n", 65),
        ("EVAL 1 / 0", "1:6: error[E003]: division by zero\n    EVAL 1 / 0\n         ^~~~~\nhelp: Apple answers 0 here; Quarry reports it\n", 1),
        (".frobnicate", "1:1: error[S010]: unknown command '.frobnicate'\n    .frobnicate\n    ^~~~~~~~~~~\nhelp: type .help for the list\n", 65),
        (".mode xml", "1:7: error[S011]: unknown mode 'xml'; use table, json, ndjson, csv, markdown, line\n    .mode xml\n          ^~~\n", 65),
        (".read /nonexistent/file.qry", "1:7: error[R002]: cannot open '/nonexistent/file.qry': no such file\n    .read /nonexistent/file.qry\n          ^~~~~~~~~~~~~~~~~~~~~\n", 66),
    ]

    @Test(arguments: errors)
    func error(script: String, err: String, status: Int32) {
        let r = run(script)
        #expect(r.err == err)
        #expect(r.status == status)
    }

    @Test func firstErrorStopsUnlessKeepGoing() {
        // A parse error anywhere stops the run before it starts (preflight) ...
        let stop = transcript([.command("EVAL 1"), .command("EVAL +"), .command("EVAL 3")])
        #expect(stop.out.isEmpty)
        #expect(stop.status == 65)
        // ... a run-time error stops it where it happens.
        let failed = transcript([.command("EVAL 1"), .command("EVAL 1 / 0"), .command("EVAL 3")])
        #expect(failed.out.contains(" 1\n(1 row)") && !failed.out.contains(" 3\n(1 row)"))
        #expect(failed.status == 1)
        let going = transcript([.command("EVAL 1"), .command("EVAL +"), .command("EVAL 3")], keepGoing: true)
        #expect(going.out.contains(" 3\n(1 row)\n"))
        #expect(going.status == 65)
    }

    @Test func missingFileExits66() {
        let r = transcript([.file("/nonexistent/x.qry")])
        #expect(r.err == "error[R002]: cannot open '/nonexistent/x.qry': no such file\n")
        #expect(r.status == 66)
    }

    @Test func unwritableStoreExits66() {
        let r = transcript([.command("COUNT Employee")], store: .sqlite("/nonexistent-dir/x.sqlite"))
        #expect(r.err.hasPrefix("error[R002]: cannot open store '/nonexistent-dir/x.sqlite'"))
        #expect(r.status == 66)
    }

    @Test func jsonErrors() {
        let r = transcript([.command("FETCH Employee WHERE salary > AND x")], jsonErrors: true)
        #expect(r.err == #"{"code":"P012","message":"expected a value after '>', found 'AND'","file":null,"line":1,"column":31,"length":3,"stage":"parse","hints":["did you mean `salary > %@`?"]}"# + "\n")
    }

    @Test func errorsInFilesNameFileLineAndColumn() throws {
        let path = NSTemporaryDirectory() + "quarry-shell-test-\(getpid()).qry"
        try "COUNT Employee;\n-- a comment\nFETCH Employee\n  WHERE salary > AND x;\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = transcript([.file(path)])
        #expect(r.err.hasPrefix("\(path):4:18: error[P012]: expected a value after '>', found 'AND'\n      WHERE salary > AND x;\n                     ^~~\n"))
        #expect(r.status == 65)
    }

    @Test func fileSurvivesOnDisk() throws {
        let path = NSTemporaryDirectory() + "quarry-shell-store-\(getpid()).sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/Models/Company.yaml").path
        // Creating a file needs a model; reopening reads the model saved in it.
        let refused = transcript([.command("COUNT Department")], store: .sqlite(path))
        #expect(refused.status == 64)
        #expect(refused.err.contains("needs a model"))
        _ = transcript([.command("INSERT Department {name: 'Kept'}")], store: .sqlite(path), modelPath: model)
        let r = transcript([.command("FETCH Department PROPERTIES name")], store: .sqlite(path))
        #expect(r.out == " name\n------\n Kept\n(1 row)\n")
    }

    /// (dot-command script, a line stdout must contain)
    static let dotCommands: [(String, String)] = [
        (".help", ".schema [ENTITY]"),
        (".schema Department", "entity Department\n  name       string, required\n  budget     decimal\n  employees  -> Employee (to-many), inverse department, cascade\n"),
        (".mode json\n.mode", "json\n"),
        (".timer on\nEVAL 1", "Run Time: "),
        (".explain on\nCOUNT Employee", "statement: COUNT Employee\nsql: SELECT COUNT(*)"),
        (".engine memory\nCOUNT Employee WHERE name CONTAINS[cd] 'zoe'", "     5\n"),
        ("FETCH Employee WHERE age > 3;\n.tokens", "1:7\tidentifier\tEmployee\n"),
        ("COUNT Employee WHERE age > 3;\n.ast", #"{"statement":"COUNT","entity":"Employee","where":"#),
        ("EXPLAIN DELETE Employee WHERE age > 60", "statement: DELETE Employee WHERE age > 60\n"),
        // Numeric sort keys, every row: read unsorted and sorted in memory.
        ("EXPLAIN FETCH Employee WHERE salary > 5 SORT BY age DESC, salary",
         "WHERE t0.\"salary\" > ?\narguments: [5]\nsort: in memory, in SQLite's order: age DESC, salary, then the key\n"),
        // Text keys and limits: SQL sorts.
        ("EXPLAIN FETCH Employee SORT BY name", "ORDER BY t0.\"name\", t0.\"_pk\"\narguments: []\nresidual: none\n"),
        ("EXPLAIN FETCH Employee SORT BY age LIMIT 3", "ORDER BY t0.\"age\", t0.\"_pk\" LIMIT ? OFFSET ?\narguments: [3, 0]\nresidual"),
        (".open :memory:\nCOUNT Employee", "     0\n"),
        (".model Examples/Models/Tasks.yaml\nCOUNT Task", "     0\n"),
        (".quit\nEVAL 1", ""),
    ]

    @Test(arguments: dotCommands)
    func dotCommand(script: String, contains: String) {
        let r = run(script)
        #expect(r.err == "")
        #expect(r.status == 0)
        if contains.isEmpty { #expect(r.out == "") } else { #expect(r.out.contains(contains), "\(r.out)") }
    }

    /// Each mode on one row with a Unicode name, a null and a date.
    static let modes: [(OutputMode, String)] = [
        (.table, " name         | age  | startDate\n--------------+------+----------------------\n Mateo Müller | NULL | 2017-10-26T00:00:00Z\n(1 row)\n"),
        (.json, "[\n{\"name\":\"Mateo Müller\",\"age\":null,\"startDate\":\"2017-10-26T00:00:00Z\"}\n]\n"),
        (.ndjson, "{\"name\":\"Mateo Müller\",\"age\":null,\"startDate\":\"2017-10-26T00:00:00Z\"}\n"),
        (.csv, "name,age,startDate\r\nMateo Müller,,2017-10-26T00:00:00Z\r\n"),
        (.markdown, "| name | age | startDate |\n| --- | --- | --- |\n| Mateo Müller | NULL | 2017-10-26T00:00:00Z |\n"),
        (.line, "     name = Mateo Müller\n      age = NULL\nstartDate = 2017-10-26T00:00:00Z\n"),
    ]

    @Test(arguments: modes)
    func mode(mode: OutputMode, out: String) {
        let r = run("FETCH Employee PROPERTIES name, age, startDate WHERE email == 'employee8@example.com'", mode: mode)
        #expect(r.out == out)
    }

    @Test func tableAlignsWideCharacters() {
        let text = TableFormatter().format(ResultSet(columns: ["n"], rows: [[.string("佐藤")], [.string("Zoë")], [.string("e\u{301}")]]))
        #expect(text == " n\n------\n 佐藤\n Zoë\n é\n(3 rows)\n")
    }

    @Test func csvQuotesPerRFC4180() {
        let text = CSVFormatter().format(ResultSet(columns: ["a"], rows: [[.string("x,y")], [.string("say \"hi\"")], [.string("")], [.null], [.string("l1\nl2")]]))
        #expect(text == "a\r\n\"x,y\"\r\n\"say \"\"hi\"\"\"\r\n\"\"\r\n\r\n\"l1\nl2\"\r\n")
    }

    static let examples: [String] = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Examples/Queries").path))?
        .filter { $0.hasSuffix(".qry") }.sorted() ?? []

    @Test(arguments: examples)
    func example(name: String) throws {
        let directory = packageRoot.appendingPathComponent("Examples/Queries")
        let expected = try String(contentsOf: directory.appendingPathComponent(name.replacingOccurrences(of: ".qry", with: ".expected.txt")), encoding: .utf8)
        let r = transcript([.file(directory.appendingPathComponent(name).path)])
        #expect(r.err == "")
        #expect(r.status == 0)
        #expect(r.out == expected)
    }

    @Test func examplesExist() { #expect(Self.examples.contains("tour.qry")) }

}

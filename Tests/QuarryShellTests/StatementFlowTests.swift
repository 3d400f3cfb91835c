// The shell's statement flow: where the REPL cuts statements (only at `;`),
// preflight (a typo anywhere fails a file or the `-c`s before anything
// runs), the failure policy (`.bail`, `--keep-going`), which `-c` an error
// is in, and the sqlite3-style dot-commands.
import Foundation
import Testing
@testable import QuarryShell

/// A fresh SQLite file holding the example company, and its path.
func companyFile(_ name: String) throws -> String {
    let path = NSTemporaryDirectory() + "quarry-flow-\(getpid())-\(name).sqlite"
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    let store = try SQLStore(path: path, model: try DefaultStore.model(),
                             modelFile: packageRoot.appendingPathComponent("Examples/Models/Company.yaml").path)
    try DefaultStore.fill(store)
    store.database.close()
    return path
}

/// The file's bytes after every connection is closed (WAL checkpointed).
func bytes(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }

@Suite("Statement flow")
struct StatementFlowTests {
    /// (lines typed one by one, the texts run after each line, what is left unfinished)
    static let typing: [([String], [String?], String)] = [
        // The issue's paste: DELETE must wait for its WHERE.
        (["DELETE Employee", "  WHERE age > 60;"], [nil, "DELETE Employee\n  WHERE age > 60;"], ""),
        (["FETCH Employee", "WHERE salary > 100000", "SORT BY name", "LIMIT 3;"], [nil, nil, nil, "FETCH Employee\nWHERE salary > 100000\nSORT BY name\nLIMIT 3;"], ""),
        // Several statements in one paste run in order; the unfinished tail waits.
        (["COUNT Employee; COUNT Department; EVAL 1"], ["COUNT Employee; COUNT Department; "], "EVAL 1"),
        (["EVAL 1", "+ 2; EVAL 3;"], [nil, "EVAL 1\n+ 2; EVAL 3;"], ""),
        // Dot-commands are one line, where a statement could start.
        ([".mode csv"], [".mode csv"], ""),
        (["FETCH Employee", ".5;"], [nil, "FETCH Employee\n.5;"], ""),
        // A ';' inside quotes does not end the statement.
        (["EVAL 'a;b", "c';"], [nil, "EVAL 'a;b\nc';"], ""),
        (["", "   ", "-- a comment"], [nil, nil, nil], ""),
        (["COUNT Employee -- no semicolon yet"], [nil], "COUNT Employee -- no semicolon yet"),
    ]

    @Test(arguments: typing)
    func replRunsOnlyCompleteStatements(lines: [String], runs: [String?], left: String) {
        var collector = StatementCollector()
        var ran: [String?] = []
        for line in lines { ran.append(collector.add(line)) }
        #expect(ran == runs)
        #expect(collector.pending == left)
    }

    @Test func pastedMultiLineDeleteDeletesOnlyItsRows() {
        var out = ""
        let session = ShellSession(mode: .csv, output: { out += $0 }, errors: { _ in })
        func count(_ statement: String) -> Int {
            out = ""
            session.run(statement, stopOnError: true)
            return Int(out.split(separator: "\r\n")[1]) ?? -1
        }
        let old = count("COUNT Employee WHERE age > 60")
        #expect(old > 0)
        var collector = StatementCollector()
        for line in ["DELETE Employee", "  WHERE age > 60;"] {
            if let text = collector.add(line) { #expect(session.run(text, stopOnError: false) == 0) }
        }
        #expect(count("COUNT Employee") == 200 - old)
    }

    /// (sources, stderr prefix, exit status, stdout): preflight stops a run
    /// before its first statement.
    static let preflights: [([ScriptSource], String, Int32, String)] = [
        ([.command("EVAL 1; COUNT Employe")], "1:15: error[B001]: unknown entity 'Employe'", 65, ""),
        ([.command("EVAL 1"), .command("COUNT Employe")], "-c #2:1:7: error[B001]", 65, ""),
        ([.command("EVAL 1"), .command("FETCH Employee WHERE salry > 3")], "-c #2:1:22: error[B002]", 65, ""),
        ([.command("EVAL 1"), .command("FETCH Employee SORT BY nme")], "-c #2:", 65, ""),
        ([.command("EVAL 1"), .command("EVAL $nope")], "-c #2:1:6: error[A005]", 65, ""),
        // SET variables are known to later statements.
        ([.command("SET $m = 149000"), .command("COUNT Employee WHERE salary > $m")], "", 0, " count\n-------\n     1\n(1 row)\n"),
        // Run-time errors are left to the run: the first statement runs.
        ([.command("EVAL 2"), .command("EVAL 1 / 0")], "-c #2:1:6: error[E003]", 1, " 2\n---\n 2\n(1 row)\n"),
        // After .model, nothing is checked against the old model.
        ([.command(".model \(packageRoot.appendingPathComponent("Examples/Models/Tasks.yaml").path)"), .command("COUNT Task")],
         "", 0, " count\n-------\n     0\n(1 row)\n"),
    ]

    @Test(arguments: preflights)
    func preflight(sources: [ScriptSource], err: String, status: Int32, out: String) {
        let r = transcript(sources)
        #expect(r.err.hasPrefix(err), "\(r.err)")
        if err.isEmpty { #expect(r.err.isEmpty, "\(r.err)") }
        #expect(r.status == status)
        #expect(r.out == out)
    }

    @Test func preflightUsesArguments() {
        let r = transcript([.command("COUNT Employee WHERE salary > %@")], arguments: [.int(149000)])
        #expect(r.out == " count\n-------\n     1\n(1 row)\n")
        #expect(r.status == 0)
    }

    @Test func aTypoInAFileWritesNothing() throws {
        let path = try companyFile("typo")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = bytes(path)
        let script = NSTemporaryDirectory() + "quarry-flow-\(getpid())-typo.qry"
        try "INSERT Department {name: 'Ops'};\nDELETE Employee WHERE age > 60;\nCOUNT Employe;\n".write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let r = transcript([.file(script)], store: .sqlite(path))
        #expect(r.status == 65)
        #expect(r.err.hasPrefix("\(script):3:7: error[B001]"), "\(r.err)")
        #expect(r.out.isEmpty)
        #expect(bytes(path) == before)
    }

    @Test func keepGoingRunsEverything() {
        let r = transcript([.command("EVAL 1 / 0"), .command("EVAL 2")], keepGoing: true)
        #expect(r.status == 1)
        #expect(r.out.contains(" 2\n"))
    }

    @Test func bailOffInAScriptGoesOn() {
        let r = run(".bail off\nEVAL 1 / 0;\nEVAL 2;")
        #expect(r.status == 1)
        #expect(r.out.contains(" 2\n"))
        let stopped = run("EVAL 1 / 0;\nEVAL 2;")
        #expect(!stopped.out.contains(" 2\n"))
    }

    /// (script, exact stdout)
    static let dotCommands: [(String, String)] = [
        (".headers off\nFETCH Department PROPERTIES name WHERE name BEGINSWITH 'S' SORT BY name", " Sales\n Support\n"),
        (".mode csv\n.headers off\nFETCH Department PROPERTIES name WHERE name BEGINSWITH 'S' SORT BY name", "Sales\r\nSupport\r\n"),
        (".nullvalue (none)\nEVAL nil", " nil\n--------\n (none)\n(1 row)\n"),
        (".mode json\n.nullvalue x\nEVAL nil", "[\n{\"nil\":null}\n]\n"),
        (".width 8\nEVAL 1", " 1\n----------\n        1\n(1 row)\n"),
        (".print hello  world", "hello  world\n"),
        (".expanded on\nFETCH Department PROPERTIES name, budget WHERE name == 'Sales'", "  name = Sales\nbudget = 625000.0\n"),
        (".tables", "Department  Employee  Project\n"),
        (".echo on\nEVAL 1;", "EVAL 1;\n 1\n---\n 1\n(1 row)\n"),
        (".mode csv\n.echo on\n.mode json", ".mode json\n"),
    ]

    @Test(arguments: dotCommands)
    func dotCommand(script: String, out: String) {
        let r = run(script)
        #expect(r.out == out, "\(r.out.debugDescription)")
        #expect(r.err.isEmpty, "\(r.err)")
        #expect(r.status == 0)
    }

    @Test func showListsTheSettings() {
        let r = run(".bail off\n.headers off\n.show")
        #expect(r.out.contains("bail        off\n"))
        #expect(r.out.contains("headers     off\n"))
        #expect(r.out.contains("transaction none\n"))
    }

    @Test func outputAndOnceWriteFiles() throws {
        let a = NSTemporaryDirectory() + "quarry-flow-\(getpid())-a.txt"
        let b = NSTemporaryDirectory() + "quarry-flow-\(getpid())-b.txt"
        defer { for p in [a, b] { try? FileManager.default.removeItem(atPath: p) } }
        let r = run(".mode csv\n.output \(a)\nEVAL 1;\nEVAL 2;\n.output\nEVAL 3;\n.once \(b)\nEVAL 4;\nEVAL 5;")
        #expect(try String(contentsOfFile: a, encoding: .utf8) == "1\r\n1\r\n2\r\n2\r\n")
        #expect(try String(contentsOfFile: b, encoding: .utf8) == "4\r\n4\r\n")
        #expect(r.out == "3\r\n3\r\n5\r\n5\r\n")
    }

    @Test(arguments: [(".exit", Int32(0)), (".exit 3", 3), (".quit", 0)])
    func exitStatus(command: String, status: Int32) {
        let session = ShellSession(output: { _ in }, errors: { _ in })
        session.run(command + "\nEVAL 1 / 0", stopOnError: true)
        #expect(session.quitRequested)
        #expect(session.exitStatus == status)
    }

    @Test func badDotArguments() {
        #expect(run(".exit nine").err.contains("error[S011]"))
        #expect(run(".width x").err.contains("error[S011]"))
        #expect(run(".output /nonexistent-dir/x").err.contains("error[R002]"))
    }

    /// (line, word, completions)
    static let completions: [(String, String, [String])] = [
        (".mode ", "", OutputMode.allCases.map(\.rawValue)),
        (".mode c", "c", ["csv"]),
        (".bail ", "", ["on", "off"]),
        (".engine m", "m", ["memory"]),
        ("FETCH Employee ", "", ["PROPERTIES", "WHERE", "GROUP BY", "HAVING", "SORT BY", "LIMIT", "OFFSET", "BATCH"]),
        ("FETCH Employee w", "w", ["where"]),
        ("COUNT Employee ", "", ["WHERE"]),
        ("UPDATE Employee S", "S", ["SET"]),
        ("BEG", "BEG", ["BEGIN", "BEGINSWITH"]),
    ]

    @Test(arguments: completions)
    func completesByPlace(line: String, word: String, expected: [String]) throws {
        #expect(Completion.candidates(line: line, word: word, model: try DefaultStore.model()) == expected)
    }

    /// (line, lone match, whether no space should follow it)
    static let continuing: [(String, String, Bool)] = [
        ("FETCH Employee WHERE departm", "department", true),
        ("FETCH Employee WHERE department.na", "department.name", false),
        ("FETCH Employee WHERE proj", "projects", false),          // to-many: a quantifier or @count comes next
        ("FETCH Employee WHERE sal", "salary", false),
        ("FETCH Department WHERE ANY employees.dep", "employees.department", false),
    ]

    @Test(arguments: continuing)
    func noSpaceAfterAToOneKey(line: String, match: String, continues: Bool) throws {
        #expect(Completion.endsAtToOne(line: line, match: match, model: try DefaultStore.model()) == continues)
    }

    @Test func completesFileNames() throws {
        let folder = NSTemporaryDirectory() + "quarry-complete-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder + "/sub-dir", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: folder + "/tour.qry", contents: Data())
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(Completion.candidates(line: ".read \(folder)/to", word: "to", model: nil) == ["tour.qry"])
        // readline breaks words at '-': the candidate is the rest of the word.
        #expect(Completion.candidates(line: ".open \(folder)/sub-d", word: "d", model: nil) == ["dir/"])
        #expect(Completion.candidates(line: ".output \(folder)/", word: "", model: nil) == ["sub-dir/", "tour.qry"])
    }
}

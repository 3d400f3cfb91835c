// `.watch`: transcripts (script in; stdout, stderr, exit status out) for a
// watched SECTIONS statement and the writes after it — a move between
// sections, a DELETE emptying a section (directly and by cascade), an INSERT
// making one, writes that change nothing the watch shows, `.watch off`, the
// JSON modes and the errors. Every transcript's stdout starts with exactly
// what SECTIONS prints for the watched statement.
//
// Then the watch's own state, statement by statement, on the embedded
// store, a store file and PostgreSQL (when a server is configured): its
// sections render exactly as a fresh SECTIONS run does, its change sets
// replayed on the sections before give the sections after, and the three
// stores print the same transcript.
import Foundation
import QuarryPostgresTestSupport
import Testing
@testable import QuarryShell

@Suite("Shell .watch")
struct WatchTests {
    static let byAge = "SECTIONS Employee BY age WHERE age >= 64 SORT BY age, name"
    static let byDepartment = "SECTIONS Employee BY department.name WHERE salary >= 146000 SORT BY department.name, name"

    /// (watched statement, script after `.watch`, expected stdout after the sections, stderr, exit status)
    static let transcripts: [(String, String, String, String, Int32)] = [
        // Hiroshi Smith (64) joins 65 between Amélie and José; 64 is left empty.
        (byAge, "UPDATE Employee SET age = 65 WHERE email == 'employee81@example.com'",
         "updated 1 object\nwatch: section '64' [6] deleted at 0\nwatch: Employee/81 moved from '64' [0, 0] to '65' [0, 1]\n", "", 0),
        // José Jones (65) moves to 64, after Hiroshi; both sections stay.
        (byAge, "UPDATE Employee SET age = 64 WHERE email == 'employee10@example.com'",
         "updated 1 object\nwatch: Employee/10 moved from '65' [1, 1] to '64' [0, 1]\n", "", 0),
        (byAge, "DELETE Employee WHERE age == 64",
         "deleted 1 object\nwatch: section '64' [6] deleted at 0\nwatch: Employee/81 deleted from '64' [0, 0]\n", "", 0),
        (byAge, "INSERT Employee {name: 'Zed New', age: 66, email: 'zed@example.com'}",
         "inserted Employee/201\nwatch: section '66' [6] inserted at 2\nwatch: Employee/201 inserted into '66' [2, 0]\n", "", 0),
        // In place: updates, at unchanged index paths.
        (byAge, "UPDATE Employee SET salary = 2 WHERE age == 65",
         "updated 2 objects\nwatch: Employee/125 updated in '65' [1, 0]\nwatch: Employee/10 updated in '65' [1, 1]\n", "", 0),
        // Writes that change nothing the watch shows.
        (byAge, "UPDATE Employee SET salary = 1 WHERE age > 200", "updated 0 objects\nwatch: no changes\n", "", 0),
        (byAge, "UPDATE Employee SET salary = 1 WHERE email == 'employee8@example.com'", "updated 1 object\nwatch: no changes\n", "", 0),
        (byAge, "INSERT Department {name: 'Annex'}", "inserted Department/11\nwatch: no changes\n", "", 0),
        (byAge, "DELETE Project WHERE name == 'No such project'", "deleted 0 objects\nwatch: no changes\n", "", 0),
        // Statements that do not write print no report.
        (byAge, "COUNT Employee WHERE age >= 64; EVAL 1", " count\n-------\n     3\n(1 row)\n 1\n---\n 1\n(1 row)\n", "", 0),
        // Deleting a department cascades to its employees: its section goes.
        (byDepartment, "DELETE Department WHERE name == 'Support'",
         "deleted 1 object\nwatch: section 'Support' [S] deleted at 3\nwatch: Employee/59 deleted from 'Support' [3, 0]\n", "", 0),
        // The same when the sections do not read the department: the cascaded
        // employees are merged as deleted, not left as faults of gone rows.
        (byAge, "DELETE Department WHERE name == 'Sales'",
         "deleted 1 object\nwatch: section '64' [6] deleted at 0\nwatch: Employee/81 deleted from '64' [0, 0]\n", "", 0),
        // Renaming a department renames (deletes and inserts) its section.
        (byDepartment, "UPDATE Department SET name = 'Zales' WHERE name == 'Sales'",
         "updated 1 object\nwatch: section 'Sales' [S] deleted at 2\nwatch: section 'Zales' [Z] inserted at 3\n"
            + "watch: Employee/40 moved from 'Sales' [2, 0] to 'Zales' [3, 0]\nwatch: Employee/74 moved from 'Sales' [2, 1] to 'Zales' [3, 1]\n"
            + "watch: Employee/118 moved from 'Sales' [2, 2] to 'Zales' [3, 2]\n", "", 0),
        // A new department and an employee in it: a new section.
        (byDepartment, "INSERT Department {name: 'Annex'}; INSERT Employee {name: 'Ann Annex', salary: 147000, department: 'Department/11'}",
         "inserted Department/11\nwatch: no changes\ninserted Employee/201\nwatch: section 'Annex' [A] inserted at 0\nwatch: Employee/201 inserted into 'Annex' [0, 0]\n", "", 0),
        // .watch, .watch off, .unwatch; a write after it prints no report.
        (byAge, ".watch\n.watch off\nUPDATE Employee SET age = 65 WHERE email == 'employee81@example.com';\n.watch\n.unwatch",
         "watching: \(byAge) (2 sections, 3 objects)\nstopped watching: \(byAge)\nupdated 1 object\nnot watching; start with \(ShellSession.watchUsage)\nnot watching\n", "", 0),
        (byAge, ".open :memory:\nUPDATE Employee SET age = 1",
         "stopped watching: \(byAge) (another store was opened)\nupdated 0 objects\n", "", 0),
        (byAge, ".model Examples/Models/Tasks.yaml\nCOUNT Task",
         "stopped watching: \(byAge) (the store was reopened with another model)\n count\n-------\n     0\n(1 row)\n", "", 0),
        // JSON modes: one object per write.
        (byAge, ".mode json\nUPDATE Employee SET age = 65 WHERE email == 'employee81@example.com'",
         "[\n{\"updated\":1}\n]\n{\"watch\":\"\(byAge)\",\"sections\":[{\"type\":\"delete\",\"index\":0,\"section\":\"64\",\"indexTitle\":\"6\"}],"
            + "\"objects\":[{\"type\":\"move\",\"object\":\"Employee/81\",\"from\":[0,0],\"fromSection\":\"64\",\"to\":[0,1],\"toSection\":\"65\"}]}\n", "", 0),
        (byAge, ".mode ndjson\nINSERT Employee {name: 'Zed New', age: 66}; UPDATE Employee SET age = 1 WHERE age > 200",
         "{\"inserted\":\"Employee/201\"}\n{\"watch\":\"\(byAge)\",\"sections\":[{\"type\":\"insert\",\"index\":2,\"section\":\"66\",\"indexTitle\":\"6\"}],"
            + "\"objects\":[{\"type\":\"insert\",\"object\":\"Employee/201\",\"to\":[2,0],\"toSection\":\"66\"}]}\n"
            + "{\"updated\":0}\n{\"watch\":\"\(byAge)\",\"sections\":[],\"objects\":[]}\n", "", 0),
        // A failed .watch leaves the running watch as it was.
        (byAge, ".watch FETCH Employee\nDELETE Employee WHERE age == 64",
         "deleted 1 object\nwatch: section '64' [6] deleted at 0\nwatch: Employee/81 deleted from '64' [0, 0]\n",
         "2:8: error[S011]: only SECTIONS statements can be watched, not FETCH\n    .watch FETCH Employee\n           ^~~~~\nhelp: as in \(ShellSession.watchUsage)\n", 65),
    ]

    @Test(arguments: transcripts)
    func transcript(watched: String, script: String, out: String, err: String, status: Int32) {
        let sections = run(watched)
        #expect(sections.status == 0 && sections.out.hasPrefix("== "))
        let r = QuarryShellTests.transcript([.command(".watch \(watched)\n\(script)")], keepGoing: true)
        #expect(r.out == sections.out + out)
        #expect(r.err == err)
        #expect(r.status == status)
    }

    /// (script, stderr, exit status): nothing is printed on stdout.
    static let errors: [(String, String, Int32)] = [
        (".watch FETCH Employee",
         "1:8: error[S011]: only SECTIONS statements can be watched, not FETCH\n    .watch FETCH Employee\n           ^~~~~\nhelp: as in \(ShellSession.watchUsage)\n", 65),
        (".watch SECTIONS Employee BY department.name",
         "1:44: error[S011]: a watched SECTIONS statement needs SORT BY: the watch keeps its objects in that order\n    .watch SECTIONS Employee BY department.name\n                                               ^\nhelp: add SORT BY department.name, ... (the section key first)\n", 65),
        (".watch SECTIONS Employe BY name SORT BY name",
         "1:17: error[B001]: unknown entity 'Employe'; the model has Department, Employee, Project\n    .watch SECTIONS Employe BY name SORT BY name\n                    ^~~~~~~\nhelp: did you mean 'Employee'?\n", 65),
        (".watch SECTIONS Employee BY department.name WHERE salary > AND x SORT BY name",
         "1:60: error[P012]: expected a value after '>', found 'AND'\n    .watch SECTIONS Employee BY department.name WHERE salary > AND x SORT BY name\n                                                               ^~~\nhelp: did you mean `salary > %@`?\n", 65),
        (".watch bogus",
         "1:8: error[S001]: unknown statement 'bogus'; expected FETCH, COUNT, EVAL, INSERT, UPDATE, DELETE, SECTIONS, SET, EXPLAIN\n    .watch bogus\n           ^~~~~\n", 65),
        (".watch SECTIONS Employee BY department.name SORT BY name",
         "1:53: error[S011]: section 'Marketing' appears in two places: the section key path 'department.name' must order the objects as the first sort descriptor ('name') does — sort by 'department.name' first\n    .watch SECTIONS Employee BY department.name SORT BY name\n                                                        ^~~~\n", 65),
        (".watch SECTIONS Employee BY nosuch SORT BY name",
         "1:29: error[B002]: Employee has no attribute or relationship 'nosuch'\n    .watch SECTIONS Employee BY nosuch SORT BY name\n                                ^~~~~~\nhelp: Employee has: name, age, salary, startDate, active, email, department, projects\n", 65),
        (".watch SECTIONS Employee BY name SORT BY name, department.nme",
         "1:48: error[B002]: Department has no attribute or relationship 'nme'\n    .watch SECTIONS Employee BY name SORT BY name, department.nme\n                                                   ^~~~~~~~~~~~~~\nhelp: did you mean 'name'?\n", 65),
        (".watch SECTIONS Employee BY projects.name SORT BY name",
         "1:29: error[B003]: 'projects' is a to-many relationship: a section or sort key reads one value per object\n    .watch SECTIONS Employee BY projects.name SORT BY name\n                                ^~~~~~~~~~~~~\n", 65),
        (".watch SECTIONS Employee BY department SORT BY department",
         "1:48: error[B003]: cannot sort by 'department': sort keys are attributes reached through to-one relationships\n    .watch SECTIONS Employee BY department SORT BY department\n                                                   ^~~~~~~~~~\n", 65),
        (".watch  EXPLAIN SECTIONS Employee BY name SORT BY name",
         "1:9: error[S011]: only SECTIONS statements can be watched, not EXPLAIN\n    .watch  EXPLAIN SECTIONS Employee BY name SORT BY name\n            ^~~~~~~\nhelp: as in \(ShellSession.watchUsage)\n", 65),
    ]

    @Test(arguments: errors)
    func error(script: String, err: String, status: Int32) {
        let r = run(script)
        #expect(r.out == "")
        #expect(r.err == err)
        #expect(r.status == status)
    }

    @Test func errorsDoNotStopTheShell() {
        let r = QuarryShellTests.transcript([.command(".watch SECTIONS Employee BY age"), .command("COUNT Employee")], keepGoing: true)
        #expect(r.status == 65)
        #expect(r.out == " count\n-------\n   200\n(1 row)\n")
    }

    @Test func helpAndCompletionKnowIt() {
        #expect(run(".help").out.contains(".watch SECTIONS ..."))
        #expect(Completion.candidates(line: ".wa", word: ".wa", model: nil) == [".watch"])
        #expect(Completion.candidates(line: ".un", word: ".un", model: nil) == [".unwatch"])
        // The statement after .watch completes as any statement does.
        let model = try? DefaultStore.model()
        #expect(Completion.candidates(line: ".watch SECTIONS Employee BY department.na", word: "department.na", model: model) == ["department.name"])
        #expect(Completion.candidates(line: ".watch SECTIONS Empl", word: "Empl", model: model) == ["Employee"])
    }

    @Test func aTrailingSemicolonIsAllowed() {
        let plain = run(".watch \(Self.byAge)")
        let semicolon = run(".watch \(Self.byAge);")
        #expect(plain.status == 0 && semicolon.status == 0)
        #expect(semicolon.out == plain.out)
        #expect(plain.out == run(Self.byAge).out)
    }
}

// MARK: - The watch's state, on every kind of store

/// Where `WatchStateTests` run: the embedded store, a store file, PostgreSQL.
enum WatchStore: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case embedded, file, postgres

    static var available: [WatchStore] { PostgresTestEnvironment.shouldRun ? allCases : [.embedded, .file] }

    var testDescription: String { rawValue }

    /// A location holding the example company (a new file or schema each time).
    func location() throws -> StoreLocation {
        let companyPath = packageRoot.appendingPathComponent("Examples/Models/Company.yaml").path
        switch self {
        case .embedded:
            return .defaultStore
        case .file:
            let path = NSTemporaryDirectory() + "quarry-watch-\(getpid())-\(UInt32.random(in: 0 ... .max)).sqlite"
            let store = try SQLStore(path: path, model: try DefaultStore.model(), modelFile: companyPath)
            try DefaultStore.fill(store)
            store.database.close()
            return .sqlite(path)
        case .postgres:
            var url = try PostgresTestEnvironment.requireURL()
            url.schema = PostgresTestEnvironment.freshSchemaName()
            let store = try SQLStore(postgres: url.description, model: try DefaultStore.model(), modelFile: companyPath)
            try DefaultStore.fill(store)
            store.database.close()
            return .postgres(url.description)
        }
    }
}

@Suite("Shell .watch state", .serialized)
struct WatchStateTests {
    /// (watched statement, the writes run one by one after it)
    static let scenarios: [(String, [String])] = [
        (WatchTests.byDepartment, [
            "UPDATE Employee SET salary = 146500 WHERE email == 'employee81@example.com'",   // joins Sales
            "UPDATE Employee SET age = 30 WHERE salary >= 146000",                            // in place
            "DELETE Department WHERE name == 'Support'",                                       // cascade
            "UPDATE Department SET name = 'Zales' WHERE name == 'Sales'",                     // section renamed
            "INSERT Department {name: 'Annex'}",
            "INSERT Employee {name: 'Ann Annex', salary: 147000, department: 'Department/11'}",
            "UPDATE Employee SET salary = 1 WHERE name == 'Ivan Schmidt'",                    // leaves; Legal empties
            "UPDATE Employee SET salary = 1 WHERE salary > 1000000",                           // nothing
            "DELETE Employee WHERE department.name == 'Operations'",
            "UPDATE Employee SET salary = 200000 WHERE department.name == 'People' AND age < 30", // several join
        ]),
        (WatchTests.byAge, [
            "DELETE Department WHERE name == 'Support'",                                       // cascade, key reads no relationship
            "UPDATE Employee SET age = 64 WHERE age == 65",
            "UPDATE Employee SET age = age + 1 WHERE age >= 60",
            "INSERT Employee {name: 'Zed New', age: 70}",
            "DELETE Employee WHERE age == 65",
            "UPDATE Employee SET age = 80 WHERE age >= 64 AND name BEGINSWITH 'A'",
        ]),
        // Headings that are not the controller's section names: NULL and booleans.
        ("SECTIONS Employee BY age WHERE age == nil OR age >= 65 SORT BY age, name", [
            "UPDATE Employee SET age = 66 WHERE email == 'employee8@example.com'",
            "UPDATE Employee SET age = 65 WHERE age == nil",
            "UPDATE Employee SET age = nil WHERE age == 66",
        ]),
        ("SECTIONS Employee BY active WHERE age >= 60 SORT BY active, name", [
            "UPDATE Employee SET active = NO WHERE age >= 63",
            "UPDATE Employee SET active = YES WHERE age >= 60",
            "INSERT Employee {name: 'Old Timer', age: 90, active: NO}",
        ]),
    ]

    final class Captured: @unchecked Sendable { var out = ""; var err = "" }

    @Test(arguments: WatchStore.available)
    func sectionsAndChangeSetsStayRight(store: WatchStore) throws {
        var transcripts: [String] = []
        for (watched, writes) in Self.scenarios {
            let captured = Captured()
            let location = try store.location()
            defer {
                if case .sqlite(let path) = location {
                    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                }
            }
            let session = ShellSession(location: location, output: { captured.out += $0 }, errors: { captured.err += $0 })
            #expect(session.setUp(modelPath: nil, openStore: store != .embedded) == 0)
            #expect(session.run(".watch \(watched)", stopOnError: true) == 0, "\(captured.err)")
            let statement = try StatementParser.parse(watched)
            for write in writes {
                let watch = try #require(session.watch)
                let before = watch.controller.snapshot
                #expect(session.run(write, stopOnError: true) == 0, "\(write): \(captured.err)")
                // The change sets, applied in order to the sections before, give the sections after.
                var replayed = before
                for report in watch.lastReports { replayed = report.change.applied(to: replayed) }
                #expect(replayed == watch.controller.snapshot, "\(write)")
                // The watch's sections print exactly as a fresh SECTIONS run.
                let fresh = try session.result(of: statement)
                let shown = StatementOutput.sections(columns: watch.columns, watch.resultSections())
                #expect(TableFormatter().render(shown) == TableFormatter().render(fresh), "\(write)")
                #expect(JSONFormatter(lines: false).render(shown) == JSONFormatter(lines: false).render(fresh), "\(write)")
            }
            #expect(captured.err == "")
            transcripts.append(captured.out)
        }
        // Every store prints what the embedded one prints.
        if store != .embedded {
            var embedded: [String] = []
            for (watched, writes) in Self.scenarios {
                embedded.append(QuarryShellTests.transcript([.command(".watch \(watched)\n" + writes.joined(separator: ";\n"))]).out)
            }
            #expect(transcripts == embedded)
        }
    }
}

// The statement grammar: each statement form parses to the tree it should,
// prints back canonically, and the printed text parses to the same tree;
// the splitter and the REPL's "needs more input" rule. Moved here from the
// shell's tests with the parser: none of it needs a store or a terminal.
import Testing
@testable import QuarryStatements

@Suite("Statement parser")
struct StatementParserTests {
    /// (statement, canonical print)
    static let canonical: [(String, String)] = [
        ("fetch Employee", "FETCH Employee"),
        ("FETCH DISTINCT Employee PROPERTIES department.name", "FETCH DISTINCT Employee PROPERTIES department.name"),
        ("FETCH Employee WHERE department.name == 'Sales' AND salary > 50000 SORT BY department.name DESC, name LIMIT 30 OFFSET 10",
         "FETCH Employee WHERE department.name == \"Sales\" AND salary > 50000 SORT BY department.name DESC, name LIMIT 30 OFFSET 10"),
        ("FETCH Department PROPERTIES name, count:(employees) AS headcount, average:(employees.salary) AS avg SORT BY name",
         "FETCH Department PROPERTIES name, count:(employees) AS headcount, average:(employees.salary) AS avg SORT BY name"),
        ("FETCH Employee PROPERTIES department.name AS dept, average:(salary) AS avg GROUP BY department.name HAVING avg > 50000",
         "FETCH Employee PROPERTIES department.name AS dept, average:(salary) AS avg GROUP BY department.name HAVING avg > 50000"),
        ("FETCH Employee ORDER BY name ASC BATCH 20", "FETCH Employee SORT BY name BATCH 20"),
        ("COUNT Employee WHERE name BEGINSWITH[cd] 'jo'", "COUNT Employee WHERE name BEGINSWITH[cd] \"jo\""),
        ("fetch only Employee where age > 3", "FETCH ONLY Employee WHERE age > 3"),
        ("FETCH distinct Only Employee PROPERTIES name", "FETCH DISTINCT ONLY Employee PROPERTIES name"),
        ("count only Person", "COUNT ONLY Person"),
        ("COUNT Only WHERE x > 1", "COUNT Only WHERE x > 1"),
        ("FETCH Only", "FETCH Only"),
        ("FETCH ONLY Only SORT BY name", "FETCH ONLY Only SORT BY name"),
        ("EXPLAIN COUNT ONLY Employee", "EXPLAIN COUNT ONLY Employee"),
        ("fetch from template wellPaid with $minimum = 50000, $name := 'Ann'",
         "FETCH FROM TEMPLATE wellPaid WITH $minimum = 50000, $name = \"Ann\""),
        ("FETCH FROM TEMPLATE everyone", "FETCH FROM TEMPLATE everyone"),
        ("FETCH From", "FETCH From"),
        ("FETCH From WHERE a > 1", "FETCH From WHERE a > 1"),
        ("EVAL average:({1, 2, 3, 4}) * 2", "EVAL average:({1, 2, 3, 4}) * 2"),
        ("EVAL 1 < 2", "EVAL 1 < 2"),
        ("INSERT Task {task: 'Write report', date: now(), done: NO}", "INSERT Task {task: \"Write report\", date: now(), done: NO}"),
        ("INSERT INTO Task {'task': 'x'}", "INSERT Task {task: \"x\"}"),
        ("UPDATE Task SET done = YES WHERE done == NO", "UPDATE Task SET done = YES WHERE done == NO"),
        ("DELETE FROM Task WHERE done == YES", "DELETE Task WHERE done == YES"),
        ("SECTIONS Employee BY department.name SORT BY department.name, name",
         "SECTIONS Employee BY department.name SORT BY department.name, name"),
        ("SET $minimum = 50000", "SET $minimum = 50000"),
        ("EXPLAIN FETCH Employee WHERE ANY projects.budget > $minimum", "EXPLAIN FETCH Employee WHERE ANY projects.budget > $minimum"),
        ("FETCH Employee WHERE SUBQUERY(projects, $p, $p.budget > 1 AND $p.name != 'where').@count > 0",
         "FETCH Employee WHERE SUBQUERY(projects, $p, $p.budget > 1 AND $p.name != \"where\").@count > 0"),
    ]

    @Test(arguments: canonical)
    func printsCanonically(text: String, printed: String) throws {
        let statement = try StatementParser.parse(text)
        #expect(StatementPrinter.format(statement) == printed)
        #expect(try StatementParser.parse(printed) == statement)
    }

    @Test func splitterKeepsOffsetsAndSkipsComments() {
        let source = SourceText("COUNT A; -- note; here\n.mode json\nFETCH B WHERE s == 'a;b' -- x\n;")
        let items = ScriptSplitter.split(source)
        #expect(items.map(\.kind) == [.statement, .dotCommand, .statement])
        #expect(items[0].text == "COUNT A")
        #expect(items[1].text == ".mode json")
        #expect(items[2].text == "FETCH B WHERE s == 'a;b'     \n")
        #expect(items[2].offset == 34)
    }

    static let continuation: [(String, Bool)] = [
        ("FETCH Employee", false), ("FETCH Employee WHERE", true), ("FETCH Employee WHERE (a > 1", true),
        ("FETCH Employee WHERE name == 'x", true), ("COUNT Employee WHERE a > 1 AND", true), ("COUNT Employee;", false),
        ("FETCH Department PROPERTIES name,", true), ("EVAL 1 +", true), ("EVAL {1, 2}", false),
    ]

    @Test(arguments: continuation)
    func needsMoreInput(text: String, more: Bool) {
        #expect(ScriptSplitter.needsMoreInput(text) == more)
    }
}

/// ONLY before the entity: `includesSubentities = false`. A statement word,
/// not a reserved one: an entity named Only is still fetched as before.
@Suite("Statement parser: ONLY")
struct StatementOnlyTests {
    /// (statement, entity, only)
    static let cases: [(String, String, Bool)] = [
        ("FETCH ONLY Employee", "Employee", true),
        ("FETCH Employee", "Employee", false),
        ("FETCH Only", "Only", false),
        ("FETCH Only WHERE a > 1", "Only", false),
        ("FETCH only Only", "Only", true),
        ("FETCH DISTINCT ONLY Employee PROPERTIES name", "Employee", true),
        ("COUNT ONLY Employee WHERE a > 1", "Employee", true),
        ("COUNT Only", "Only", false),
        ("COUNT Only WHERE a > 1", "Only", false),
    ]

    @Test(arguments: cases)
    func onlyIsReadBeforeTheEntity(text: String, entity: String, only: Bool) throws {
        switch try StatementParser.parse(text) {
        case .fetch(let f): #expect(f.entity.text == entity && f.only == only)
        case .count(let e, _, let o): #expect(e.text == entity && o == only)
        default: Issue.record("\(text) is neither FETCH nor COUNT")
        }
    }

    @Test func onlyWithoutAnEntityIsTheEntityNamedOnly() throws {
        // `FETCH ONLY` alone fetches an entity named ONLY (S002 would be
        // surprising for a model that has one); the shell reports it unknown.
        guard case .fetch(let f) = try StatementParser.parse("FETCH ONLY") else { Issue.record("not a FETCH"); return }
        #expect(f.entity.text == "ONLY" && !f.only)
    }
}

@Suite("Statement parser: FETCH FROM TEMPLATE")
struct StatementTemplateTests {
    /// (statement, error code, message)
    static let errors: [(String, String, String)] = [
        ("FETCH FROM TEMPLATE t WITH", "S012", "WITH needs $variable = value after it"),
        ("FETCH FROM TEMPLATE t WITH x = 1", "S008", "expected '$variable = value'"),
        ("FETCH FROM TEMPLATE t WITH $x 1", "S008", "expected '$variable = value'"),
        ("FETCH FROM TEMPLATE t WHERE a > 1", "S006", "unexpected 'WHERE'; expected WITH or the end of the statement"),
        ("FETCH FROM TEMPLATE t WITH $x = ", "S008", "expected '$variable = value'"),
    ]

    @Test(arguments: errors)
    func malformedTemplateFetches(text: String, code: String, message: String) {
        do {
            _ = try StatementParser.parse(text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.code.rawValue == code && error.message == message, "\(error)")
        }
    }

    @Test func bindingsKeepTheirOrderAndValues() throws {
        guard case .fetchTemplate(let name, let bindings) = try StatementParser.parse("FETCH FROM TEMPLATE t WITH $b = 2, $a = 'x'") else {
            Issue.record("not a template fetch"); return
        }
        #expect(name.text == "t" && bindings.map(\.variable.text) == ["b", "a"])
        #expect(bindings.map { Printer.format($0.value) } == ["2", "\"x\""])
    }
}

// The printer's round trip over every statement form, clause and spelling
// the grammar allows: parse → print → parse gives the same statement, and
// printing is a fixed point (the printed text prints as itself). The
// canonical texts themselves are pinned in StatementParserTests.
import Testing
@testable import QuarryStatements

@Suite("Statement printer round trip")
struct StatementPrinterTests {
    static let statements: [String] = [
        "fetch Employee",
        "FETCH DISTINCT Employee PROPERTIES department.name AS dept",
        "FETCH Employee PROPERTIES name, salary * 2 AS double, @count",
        "FETCH Employee WHERE name ==[cd] 'zoë' OR NOT (age BETWEEN {20, 30})",
        "FETCH Employee WHERE ANY projects.budget > 10 AND department.name IN {'A', 'B'}",
        "FETCH Employee WHERE name MATCHES '^J.*' SORT BY name ASC, age DESC LIMIT 5 OFFSET 2 BATCH 3",
        "FETCH Employee ORDER BY name",
        "FETCH Employee PROPERTIES department.name AS dept, sum:(salary) AS total GROUP BY department.name HAVING total > 1",
        "FETCH Employee WHERE SUBQUERY(projects, $p, $p.limit > 1).@count > 0",
        "FETCH Employee WHERE hired > CAST(0, 'NSDate') AND note == nil",
        "FETCH Employee WHERE name == 'semi;colon' AND name != \"dash--dash\"",
        "COUNT Employee",
        "COUNT ONLY Employee WHERE age > 1",
        "FETCH ONLY Employee SORT BY name LIMIT 2",
        "FETCH DISTINCT ONLY Employee PROPERTIES name",
        "FETCH Only WHERE age > 1",
        "COUNT only Only",
        "FETCH FROM TEMPLATE wellPaid WITH $minimum = 50000 * 2, $d = now()",
        "EXPLAIN FETCH FROM TEMPLATE t",
        "COUNT Employee WHERE salary >= 50000",
        "EVAL 1 + 2 * 3",
        "EVAL 'Zoë' ==[cd] 'zoe'",
        "EVAL now()",
        "EVAL {1, 2, 3}[LAST]",
        "INSERT Task {task: 'Write', done: NO, date: now()}",
        "INSERT INTO Task {'task': 'x', #done: YES}",
        "INSERT Task {}",
        "UPDATE Task SET done = YES, task = 'y' WHERE done == NO",
        "UPDATE Task SET done := YES",
        "DELETE Task",
        "DELETE FROM Task WHERE done == YES",
        "SECTIONS Employee BY department.name",
        "SECTIONS Employee BY department.name WHERE salary > 1 SORT BY department.name, name DESC",
        "SET $minimum = 50000",
        "SET $name := 'x' + 'y'",
        "EXPLAIN FETCH Employee WHERE salary > $minimum",
        "EXPLAIN EXPLAIN COUNT Employee",
        "BEGIN", "BEGIN TRANSACTION", "COMMIT", "END TRANSACTION", "ROLLBACK",
        "SAVEPOINT before_cleanup", "RELEASE before_cleanup", "RELEASE SAVEPOINT s1",
        "ROLLBACK TO s1", "ROLLBACK TRANSACTION TO SAVEPOINT s1",
    ]

    @Test(arguments: statements)
    func roundTrips(text: String) throws {
        let statement = try StatementParser.parse(text)
        let printed = StatementPrinter.format(statement)
        let again = try StatementParser.parse(printed)
        #expect(again == statement, "\(text) printed as \(printed)")
        #expect(StatementPrinter.format(again) == printed)
    }

    /// Statements with `--arg` values print their values in place of the
    /// specifiers, and that text parses, without arguments, to the same statement.
    static let withArguments: [(String, [Value])] = [
        ("FETCH Employee WHERE salary > %@ AND name BEGINSWITH %@", [.int(5), .string("J")]),
        ("UPDATE Task SET %K = %@", [.string("done"), .bool(true)]),
        ("INSERT Task {%K: %@}", [.string("task"), .string("x")]),
        ("COUNT Employee WHERE %K == %2$@", [.string("name"), .string("Ann")]),
    ]

    @Test(arguments: withArguments)
    func roundTripsWithArguments(text: String, arguments: [Value]) throws {
        let statement = try StatementParser.parse(text, arguments: arguments)
        let printed = StatementPrinter.format(statement)
        #expect(!printed.contains("%"), "\(printed)")
        #expect(try StatementParser.parse(printed) == statement, "\(text) printed as \(printed)")
    }
}

// The shell over an entity hierarchy, on SQLite and (when a server is
// configured) PostgreSQL, byte for byte the same: INSERT of an abstract
// entity refused with the sub-entities to insert instead, FETCH and COUNT
// including sub-entities unless ONLY, EXPLAIN showing the `_entity` filter,
// a transient attribute refused in SQL (B007) and evaluated by the memory
// engine.
import Foundation
import QuarryPostgresTestSupport
import Testing
@testable import QuarryShell

@Suite("Shell: inheritance, ONLY, transients", .serialized)
struct InheritanceShellTests {
    static let model = """
    entities:
      Person:
        abstract: true
        attributes:
          name: string
          age: integer32
          mood: { type: string, transient: true }
        relationships:
          team: { to: Team, inverse: members }
      Employee:
        parent: Person
        attributes: { salary: integer64 }
      Manager:
        parent: Employee
        attributes: { budget: integer64 }
      Customer:
        parent: Person
        attributes: { tier: integer16 }
      Team:
        attributes: { title: string }
        relationships:
          members: { to: Person, many: true, inverse: team }
    fetchRequests:
      olderThan: { entity: Person, predicate: "age > $min" }
      redTeam: { entity: Employee, predicate: "team.title == 'Red'", limit: 1 }
    """

    static let setUp = """
    INSERT Team {title: 'Red'};
    INSERT Employee {name: 'Ann', age: 30, salary: 100, team: 'Team/1'};
    INSERT Employee {name: 'Bob', age: 45, salary: 200};
    INSERT Manager {name: 'Cat', age: 50, salary: 300, budget: 1000, team: 'Team/1'};
    INSERT Customer {name: 'Dan', age: 25, tier: 1};
    """

    /// (statement, stdout, stderr, status)
    static let cases: [(String, String, String, Int32)] = [
        ("COUNT Person", " count\n-------\n     4\n(1 row)\n", "", 0),
        ("COUNT ONLY Person", " count\n-------\n     0\n(1 row)\n", "", 0),
        ("count only Employee where age > 20", " count\n-------\n     2\n(1 row)\n", "", 0),
        ("FETCH Person PROPERTIES name, age SORT BY age DESC",
         " name | age\n------+-----\n Cat  |  50\n Bob  |  45\n Ann  |  30\n Dan  |  25\n(4 rows)\n", "", 0),
        ("FETCH ONLY Employee PROPERTIES name SORT BY name", " name\n------\n Ann\n Bob\n(2 rows)\n", "", 0),
        ("FETCH ONLY Person", " name | age | team\n------+-----+------\n(0 rows)\n", "", 0),
        ("FETCH Team PROPERTIES title WHERE ANY members.age >= 50", " title\n-------\n Red\n(1 row)\n", "", 0),
        ("FETCH Person PROPERTIES name WHERE team.title == 'Red' SORT BY name", " name\n------\n Ann\n Cat\n(2 rows)\n", "", 0),
        ("EXPLAIN COUNT ONLY Employee",
         "statement: COUNT ONLY Employee\nsql: SELECT COUNT(*) FROM \"Person\" t0 WHERE t0.\"_entity\" = ?\narguments: [\"Employee\"]\n", "", 0),
        ("INSERT Person {name: 'Nobody'}", "",
         "1:8: error[S008]: entity 'Person' is abstract: insert one of its sub-entities, 'Employee', 'Manager' or 'Customer'\n    INSERT Person {name: 'Nobody'}\n           ^~~~~~\n", 65),
        ("FETCH Person WHERE mood == 'happy'", "",
         "1:1: error[B007]: Person.mood is transient: it is kept only in a context's objects, never stored, so the store cannot fetch, test or sort by it\n    FETCH Person WHERE mood == 'happy'\n    ^\nhelp: evaluate it in memory (the memory engine, or a context's fetch with engine: .memory), or store it as a regular attribute\n", 65),
        (".engine memory\nFETCH Person PROPERTIES name WHERE mood == nil SORT BY name LIMIT 2", " name\n------\n Ann\n Bob\n(2 rows)\n", "", 0),
        // Fetch request templates, with WITH or SET values.
        ("FETCH FROM TEMPLATE olderThan WITH $min = 40",
         " name | age | team\n------+-----+--------\n Bob  |  45 | NULL\n Cat  |  50 | Team/1\n(2 rows)\n", "", 0),
        ("SET $min = 44; fetch from template olderThan", " name | age | team\n------+-----+--------\n Bob  |  45 | NULL\n Cat  |  50 | Team/1\n(2 rows)\n", "", 0),
        ("FETCH FROM TEMPLATE redTeam", " name | age | salary | team\n------+-----+--------+--------\n Ann  |  30 |    100 | Team/1\n(1 row)\n", "", 0),
        ("FETCH FROM TEMPLATE olderThan", "",
         "1:21: error[A005]: template 'olderThan': no value for the variable $min\n    FETCH FROM TEMPLATE olderThan\n                        ^~~~~~~~~\nhelp: give it with WITH $variable = value (or SET it first)\n", 65),
        ("FETCH FROM TEMPLATE oldrThan WITH $min = 1", "",
         "1:21: error[A006]: no fetch request template named 'oldrThan'\n    FETCH FROM TEMPLATE oldrThan WITH $min = 1\n                        ^~~~~~~~\nhelp: did you mean 'olderThan'?\n", 65),
    ]

    @Test(arguments: TranscriptTable.locations)
    func transcripts(location: String) throws {
        try TranscriptTable.run(at: location, model: Self.model, setUp: Self.setUp, cases: Self.cases)
    }
}

// Fetched properties in the shell's PROPERTIES, on SQLite and (when a server
// is configured) PostgreSQL, byte for byte the same: a fetched property
// lists the objects its query selects for each row (`$FETCH_SOURCE` bound
// to that row's object), key paths through it work (`wellPaid.@count`), the
// memory engine agrees, and GROUP BY over one is refused (R004).
import Foundation
import QuarryPostgresTestSupport
import Testing
@testable import QuarryShell

@Suite("Shell: fetched properties", .serialized)
struct FetchedPropertyShellTests {
    static let model = """
    entities:
      Department:
        attributes: { name: string }
        relationships:
          staff: { to: Employee, many: true, inverse: department }
        fetchedProperties:
          wellPaid: { entity: Employee, predicate: "department == $FETCH_SOURCE AND salary > 50000" }
          outsiders: { entity: Employee, predicate: "department.name != $FETCH_SOURCE.name" }
      Employee:
        attributes: { name: string, salary: integer64 }
        relationships:
          department: { to: Department, inverse: staff }
    """

    static let setUp = """
    INSERT Department {name: 'Sales'};
    INSERT Department {name: 'Ops'};
    INSERT Employee {name: 'Ann', salary: 60000, department: 'Department/1'};
    INSERT Employee {name: 'Bob', salary: 40000, department: 'Department/1'};
    INSERT Employee {name: 'Cy', salary: 90000, department: 'Department/2'};
    """

    static let table = """
     name  | wellPaid     | wellPaid.@count
    -------+--------------+-----------------
     Ops   | [Employee/3] |               1
     Sales | [Employee/1] |               1
    (2 rows)

    """

    /// (statement, stdout, stderr, status)
    static let cases: [(String, String, String, Int32)] = [
        ("FETCH Department PROPERTIES name, wellPaid, wellPaid.@count SORT BY name", table, "", 0),
        (".engine memory\nFETCH Department PROPERTIES name, wellPaid, wellPaid.@count SORT BY name", table, "", 0),
        ("FETCH Department PROPERTIES name, outsiders.name WHERE name == 'Ops'",
         " name | outsiders.name\n------+----------------\n Ops  | [Ann, Bob]\n(1 row)\n", "", 0),
    ]

    @Test(arguments: TranscriptTable.locations)
    func transcripts(location: String) throws {
        try TranscriptTable.run(at: location, model: Self.model, setUp: Self.setUp, cases: Self.cases) { store in
            let grouped = transcript([.command("FETCH Department PROPERTIES wellPaid GROUP BY wellPaid")], store: store)
            #expect(grouped.err.contains("error[R004]"), "\(grouped.err)")
        }
    }
}

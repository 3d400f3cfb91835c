// The shell over a YAML model with derived attributes and an ordered
// to-many, on SQLite and (when a server is configured) PostgreSQL, byte for
// byte the same: derived values computed on INSERT, kept current by UPDATE
// and DELETE of related rows, usable in WHERE and SORT BY; setting one is
// refused; the ordered relationship answers [FIRST] and [LAST].
import Foundation
import QuarryPostgresTestSupport
import Testing
@testable import QuarryShell

@Suite("Shell: derived attributes, ordered relationships", .serialized)
struct DerivedShellTests {
    static let model = """
    entities:
      Department:
        attributes:
          name: string
          total: { type: integer64, derived: "employees.@sum.salary" }
          headcount: { type: integer64, derived: "employees.@count" }
          key: { type: string, derived: "canonical:(name)" }
        relationships:
          employees: { to: Employee, many: true, ordered: true, inverse: department }
      Employee:
        attributes:
          name: string
          salary: integer64
          place: { type: string, derived: "department.name" }
        relationships:
          department: { to: Department, inverse: employees }
    """

    static let setUp = """
    INSERT Department {name: 'Zoë Ärger'};
    INSERT Department {name: 'Sales'};
    INSERT Employee {name: 'Ann', salary: 100, department: 'Department/1'};
    INSERT Employee {name: 'Bob', salary: 250, department: 'Department/1'};
    INSERT Employee {name: 'Cat', salary: 400, department: 'Department/2'};
    """

    /// (statement, stdout, stderr, status)
    static let cases: [(String, String, String, Int32)] = [
        ("FETCH Department PROPERTIES name, total, headcount, key SORT BY name",
         " name      | total | headcount | key\n-----------+-------+-----------+-----------\n Sales     |   400 |         1 | sales\n Zoë Ärger |   350 |         2 | zoe arger\n(2 rows)\n", "", 0),
        ("FETCH Employee PROPERTIES name, place WHERE place BEGINSWITH 'Z' SORT BY name",
         " name | place\n------+-----------\n Ann  | Zoë Ärger\n Bob  | Zoë Ärger\n(2 rows)\n", "", 0),
        ("UPDATE Employee SET salary = salary + 1 WHERE name == 'Ann'; FETCH Department PROPERTIES name, total SORT BY total DESC",
         "updated 1 object\n name      | total\n-----------+-------\n Sales     |   400\n Zoë Ärger |   351\n(2 rows)\n", "", 0),
        ("DELETE Employee WHERE name == 'Cat'; FETCH Department PROPERTIES name, total, headcount WHERE headcount == 0",
         "deleted 1 object\n name  | total | headcount\n-------+-------+-----------\n Sales |     0 |         0\n(1 row)\n", "", 0),
        ("UPDATE Department SET name = 'Verkauf' WHERE name == 'Sales'; FETCH Department PROPERTIES key WHERE name == 'Verkauf'",
         "updated 1 object\n key\n---------\n verkauf\n(1 row)\n", "", 0),
        ("FETCH Department PROPERTIES name WHERE employees[FIRST].name == 'Ann' AND employees[LAST].name == 'Bob'",
         " name\n-----------\n Zoë Ärger\n(1 row)\n", "", 0),
        ("UPDATE Department SET total = 5", "",
         "error[A006]: Department.total is derived (employees.@sum.salary): it is read-only, the store computes it on every save\n", 65),
        ("INSERT Employee {name: 'Dan', place: 'x'}", "",
         "error[A006]: Employee.place is derived (department.name): it is read-only, the store computes it on every save\n", 65),
    ]

    @Test(arguments: TranscriptTable.locations)
    func transcripts(location: String) throws {
        try TranscriptTable.run(at: location, model: Self.model, setUp: Self.setUp, cases: Self.cases)
    }
}

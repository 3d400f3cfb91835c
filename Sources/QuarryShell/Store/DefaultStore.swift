// The embedded default store: the example company (Examples/Models/
// Company.yaml, embedded here so the binary needs no files) in an in-memory
// SQLite database, filled with the same departments, employees and projects
// on every machine: a seeded SplitMix64 generator and fixed lists of names
// (non-ASCII ones included, so that [cd] searches and column widths have
// something to show). `quarry Examples/Queries/tour.qry` runs against it.
// A test keeps the embedded model text equal to the file.

enum DefaultStore {
    /// The text of Examples/Models/Company.yaml.
    static let companyYAML = #"""
# The company model of Quarry's examples and seeds: departments, their
# employees, and projects that employees work on (many-to-many).
# Company.xcdatamodeld is the same model as Xcode writes it; the tests check
# that the two read as equal models.
entities:
  Department:
    attributes:
      name: { type: string, optional: false, unique: true }
      budget: { type: decimal, min: 0 }
    relationships:
      employees: { to: Employee, many: true, inverse: department, delete: cascade }
    indexes: [name]

  Employee:
    attributes:
      name: { type: string, optional: false }
      age: { type: integer16, min: 16, max: 120 }
      salary: { type: integer64, optional: false, default: 50000, min: 0 }
      startDate: date
      active: { type: boolean, optional: false, default: true }
      email: { type: string, regex: '[^@ ]+@[^@ ]+' }
    relationships:
      department: { to: Department, delete: nullify }     # inverse stated on Department.employees
      projects: { to: Project, many: true, inverse: members }
    indexes:
      bySalaryIndex: [salary desc]

  Project:
    attributes:
      name: { type: string, optional: false }
      budget: { type: decimal, default: 0, min: 0 }
      deadline: date
    relationships:
      members: [Employee]                                 # many-to-many with Employee.projects

fetchRequests:
  wellPaid: { entity: Employee, predicate: "salary > 100000" }
  inDepartment: { entity: Employee, predicate: "department.name == $name" }
  onBigProjects: { entity: Employee, predicate: "ANY projects.budget > $minimum" }

"""#

    static let departments = ["Engineering", "Sales", "Marketing", "Finance", "Support", "Legal", "Research",
                              "Operations", "Design", "People"]
    static let firstNames = ["José", "Zoë", "Jürgen", "Łukasz", "Søren", "Anaïs", "Chloé", "Björn", "Ana", "John",
                             "Mary", "Wei", "Amélie", "Noah", "Emma", "Liam", "Olivia", "Mateo", "Sofia", "Hiroshi",
                             "Aisha", "Ivan", "Fatima", "Lars", "Inès"]
    static let lastNames = ["Müller", "García", "O'Brien", "Nguyen", "Smith", "Kowalski", "Dubois", "Rossi", "Tanaka",
                            "Öztürk", "Novák", "Johansson", "Silva", "Schmidt", "Brown", "Jones"]
    static let projects: [(String, Int, String?)] = [
        ("Apollo", 250_000, "2025-06-30"), ("Borealis", 90_000, "2024-12-31"), ("Cobalt", 400_000, nil),
        ("Delta", 30_000, "2025-03-15"), ("Éclair", 120_000, "2026-01-31"), ("Fjord", 60_000, nil),
    ]

    /// SplitMix64: tiny, seeded, identical on every platform.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    static func model() throws -> Model {
        try ModelReader.read(yaml: companyYAML, file: "Company.yaml")
    }

    /// Seconds since 2001 of a `yyyy-mm-dd` date at midnight UTC.
    static func date(_ ymd: String) -> Double {
        let p = ymd.split(separator: "-").map { Int($0)! }
        // Days from civil (Howard Hinnant's algorithm), then shift to 2001.
        let y = p[1] <= 2 ? p[0] - 1 : p[0]
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (p[1] + 9) % 12
        let doy = (153 * mp + 2) / 5 + p[2] - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Double(days) * 86_400 - 978_307_200
    }

    /// 10 departments, 200 employees, 6 projects; the same on every run.
    static func make() throws -> SQLStore {
        let store = try SQLStore(path: ":memory:", model: try model())
        try fill(store)
        return store
    }

    /// Writes the example company into an empty store of the company model
    /// (any database: the tests fill a PostgreSQL schema the same way).
    static func fill(_ store: SQLStore) throws {
        var rng = Generator(state: 2001)
        try store.database.inTransaction {
            var departmentIDs: [ObjectID] = []
            for (i, name) in departments.enumerated() {
                departmentIDs.append(try store.insert("Department", ["name": .string(name), "budget": .double(Double(500_000 + i * 125_000))]))
            }
            var projectIDs: [ObjectID] = []
            for (name, budget, deadline) in projects {
                var values: [String: Value] = ["name": .string(name), "budget": .double(Double(budget))]
                if let deadline { values["deadline"] = .date(date(deadline)) }
                projectIDs.append(try store.insert("Project", values))
            }
            let start2010 = date("2010-01-01")
            for e in 0..<200 {
                let first = firstNames[rng.below(firstNames.count)], last = lastNames[rng.below(lastNames.count)]
                var values: [String: Value] = [
                    "name": .string("\(first) \(last)"),
                    "salary": .int(Int64(30_000 + rng.below(241) * 500)),
                    "active": .bool(rng.below(10) != 0),
                    "startDate": .date(start2010 + Double(rng.below(5_000)) * 86_400),
                    "email": .string("employee\(e + 1)@example.com"),
                ]
                // A few employees have no recorded age: nulls should be visible.
                if e % 25 != 7 { values["age"] = .int(Int64(22 + rng.below(44))) }
                let id = try store.insert("Employee", values, toOne: ["department": departmentIDs[rng.below(departmentIDs.count)]])
                for _ in 0..<rng.below(3) { try store.link(id, "projects", projectIDs[rng.below(projectIDs.count)]) }
            }
        }
    }
}

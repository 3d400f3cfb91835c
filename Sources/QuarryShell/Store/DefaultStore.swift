// The embedded default store: the example company (Examples/Models/
// Company.yaml, built in code here so the binary needs no files and start-up
// parses no YAML) in an in-memory SQLite database, filled with the same
// departments, employees and projects on every machine: a seeded SplitMix64
// generator and fixed lists of names (non-ASCII ones included, so that [cd]
// searches and column widths have something to show). `quarry
// Examples/Queries/tour.qry` runs against it. `make()` loads a prebuilt
// SQLite image of it (DefaultStore+Image.swift); `writtenStore()` builds the
// same database with one prepared INSERT per table (DefaultStore+Rows.swift);
// `fill(_:)` writes the same rows object by object on any database. Tests
// keep the model equal to the file's, and the image and the two fills equal,
// table for table and row for row.

enum DefaultStore {
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

    /// The model of Examples/Models/Company.yaml.
    static func model() throws -> Model {
        let department = Entity(
            name: "Department",
            attributes: [Attribute(name: "name", type: .string, isOptional: false),
                         Attribute(name: "budget", type: .decimal, minimum: .decimal(0))],
            relationships: [Relationship(name: "employees", destination: "Employee", isToMany: true, inverse: "department",
                                         deleteRule: .cascade)],
            fetchIndexes: [FetchIndex(name: "byNameIndex", elements: [FetchIndexElement(property: "name")])],
            uniquenessConstraints: [UniquenessConstraint(["name"])])
        let employee = Entity(
            name: "Employee",
            attributes: [Attribute(name: "name", type: .string, isOptional: false),
                         Attribute(name: "age", type: .integer16, minimum: .int(16), maximum: .int(120)),
                         Attribute(name: "salary", type: .integer64, isOptional: false, defaultValue: .int(50_000), minimum: .int(0)),
                         Attribute(name: "startDate", type: .date),
                         Attribute(name: "active", type: .boolean, isOptional: false, defaultValue: .bool(true)),
                         Attribute(name: "email", type: .string, regularExpression: "[^@ ]+@[^@ ]+")],
            relationships: [Relationship(name: "department", destination: "Department", inverse: "employees", deleteRule: .nullify),
                            Relationship(name: "projects", destination: "Project", isToMany: true, inverse: "members")],
            fetchIndexes: [FetchIndex(name: "bySalaryIndex", elements: [FetchIndexElement(property: "salary", isAscending: false)])])
        let project = Entity(
            name: "Project",
            attributes: [Attribute(name: "name", type: .string, isOptional: false),
                         Attribute(name: "budget", type: .decimal, defaultValue: .decimal(0), minimum: .decimal(0)),
                         Attribute(name: "deadline", type: .date)],
            relationships: [Relationship(name: "members", destination: "Employee", isToMany: true, inverse: "projects")])
        do {
            return Model(entities: [department, employee, project], fetchRequestTemplates: [
                try FetchRequestTemplate(name: "wellPaid", entity: "Employee", predicateFormat: "salary > 100000"),
                try FetchRequestTemplate(name: "inDepartment", entity: "Employee", predicateFormat: "department.name == $name"),
                try FetchRequestTemplate(name: "onBigProjects", entity: "Employee", predicateFormat: "ANY projects.budget > $minimum"),
            ])
        } catch {
            preconditionFailure("the embedded model's predicates parse: \(error)")
        }
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

    /// One employee of the example company, as `fill` and `make` write it.
    struct EmployeeRow {
        var name: String
        var salary: Int64
        var active: Bool
        var startDate: Double
        var email: String
        var age: Int64?
        var department: Int      // index into `departments`
        var projects: [Int]      // indexes into `projects`, in link order (repeats possible)
    }

    /// The 200 employees; the generator is drawn from in the same order on every run.
    static func employees() -> [EmployeeRow] {
        var rng = Generator(state: 2001)
        let start2010 = date("2010-01-01")
        var rows: [EmployeeRow] = []
        rows.reserveCapacity(200)
        for e in 0..<200 {
            let first = firstNames[rng.below(firstNames.count)], last = lastNames[rng.below(lastNames.count)]
            let salary = Int64(30_000 + rng.below(241) * 500)
            let active = rng.below(10) != 0
            let startDate = start2010 + Double(rng.below(5_000)) * 86_400
            // A few employees have no recorded age: nulls should be visible.
            let age = e % 25 != 7 ? Int64(22 + rng.below(44)) : nil
            let department = rng.below(departments.count)
            var projectIndexes: [Int] = []
            for _ in 0..<rng.below(3) { projectIndexes.append(rng.below(projects.count)) }
            rows.append(EmployeeRow(name: "\(first) \(last)", salary: salary, active: active, startDate: startDate,
                                    email: "employee\(e + 1)@example.com", age: age, department: department, projects: projectIndexes))
        }
        return rows
    }

    static func departmentBudget(_ i: Int) -> Double { Double(500_000 + i * 125_000) }

    /// 10 departments, 200 employees, 6 projects; the same on every run.
    /// Loaded from the prebuilt database image (DefaultStore+Image.swift).
    static func make() throws -> SQLStore {
        let connection = try SQLiteConnection.inMemory()
        try loadImage(into: connection)
        return try SQLStore(database: connection, model: try model())
    }

    /// The same store built the long way: schema created, rows inserted.
    /// The image is made from this, and tests compare the two.
    static func writtenStore() throws -> SQLStore {
        let store = try SQLStore(path: ":memory:", model: try model())
        try writeRows(into: store)
        return store
    }

    /// Writes the example company into an empty store of the company model
    /// object by object (any database: the tests fill a PostgreSQL schema
    /// the same way).
    static func fill(_ store: SQLStore) throws {
        try store.database.inTransaction {
            var departmentIDs: [ObjectID] = []
            for (i, name) in departments.enumerated() {
                departmentIDs.append(try store.insert("Department", ["name": .string(name), "budget": .double(departmentBudget(i))]))
            }
            var projectIDs: [ObjectID] = []
            for (name, budget, deadline) in projects {
                var values: [String: Value] = ["name": .string(name), "budget": .double(Double(budget))]
                if let deadline { values["deadline"] = .date(date(deadline)) }
                projectIDs.append(try store.insert("Project", values))
            }
            for row in employees() {
                var values: [String: Value] = [
                    "name": .string(row.name), "salary": .int(row.salary), "active": .bool(row.active),
                    "startDate": .date(row.startDate), "email": .string(row.email),
                ]
                if let age = row.age { values["age"] = .int(age) }
                let id = try store.insert("Employee", values, toOne: ["department": departmentIDs[row.department]])
                for p in row.projects { try store.link(id, "projects", projectIDs[p]) }
            }
        }
    }
}

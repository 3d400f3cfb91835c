// The default store's fast fill: the rows `DefaultStore.fill` writes object
// by object through the store, written instead with one prepared INSERT per
// table (and one for the employee–project join table) stepped once per row
// — no per-object SQL text, dictionaries or savepoints — with the primary
// keys the one-by-one inserts would get (1, 2, 3 ... in an empty table),
// in the same order. Values are given as the
// store would store them: decimals as doubles, booleans as 0/1, dates as
// seconds since 2001, and strings as written here — every name in
// DefaultStore is already in NFC, which a test checks, so no Unicode
// normalization (and no ICU) runs at start-up. Table and column names come
// from the store's mapping. A test compares every table with `fill`'s.

extension DefaultStore {
    /// Writes the example company into an empty SQLite store of the company model.
    static func writeRows(into store: SQLStore) throws {
        let mapping = store.mapping
        guard case .foreignKey(let departmentColumn)? = mapping.storage(of: "department", of: "Employee"),
              case .joinTable(let joinTable, let employeeColumn, let projectColumn)? = mapping.storage(of: "projects", of: "Employee")
        else { preconditionFailure("the company model keeps Employee.department as a foreign key and projects in a join table") }
        let connection = store.connection
        /// One prepared INSERT of `attributes` (then the raw columns `extra`),
        /// stepped once per row with keys 1, 2, 3 ...: SQLite parses it once.
        func insert(_ entity: String, _ attributes: [String], extra: [String] = [], rows: [[Value]]) throws {
            let names = [StoreMapping.primaryKey, StoreMapping.entityColumn] + attributes.map { mapping.column(for: $0, of: entity)! } + extra
            let statement = try connection.prepare("INSERT INTO \(SQLIdentifier.quoted(mapping.table(for: entity)!)) (\(names.map(SQLIdentifier.quoted).joined(separator: ", "))) VALUES ("
                + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")")
            for (i, row) in rows.enumerated() {
                try statement.bind([.int(Int64(i + 1)), .string(entity)] + row)
                _ = try statement.step()
                statement.reset()
            }
        }

        let employees = employees()
        try store.database.inTransaction {
            try insert("Department", ["name", "budget"],
                       rows: departments.enumerated().map { i, name in [.string(name), .double(departmentBudget(i))] })
            try insert("Project", ["name", "budget", "deadline"],
                       rows: projects.map { name, budget, deadline in [.string(name), .double(Double(budget)), deadline.map { .date(date($0)) } ?? .null] })
            try insert("Employee", ["name", "salary", "active", "startDate", "email", "age"], extra: [departmentColumn],
                       rows: employees.map { e in
                           [.string(e.name), .int(e.salary), .int(e.active ? 1 : 0), .date(e.startDate), .string(e.email),
                            e.age.map(Value.int) ?? .null, .int(Int64(e.department + 1))]
                       })
            let link = try connection.prepare("INSERT INTO \(SQLIdentifier.quoted(joinTable)) (\(SQLIdentifier.quoted(employeeColumn)), \(SQLIdentifier.quoted(projectColumn))) VALUES (?, ?) ON CONFLICT DO NOTHING")
            for (i, e) in employees.enumerated() {
                for p in e.projects {
                    try link.bind([.int(Int64(i + 1)), .int(Int64(p + 1))])
                    _ = try link.step()
                    link.reset()
                }
            }
        }
    }
}

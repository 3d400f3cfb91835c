// The default store's fast fill: the rows `DefaultStore.fill` writes object
// by object, written instead as one multi-row INSERT per table (and one for
// the employee–project join table), with the primary keys the one-by-one
// inserts would get (1, 2, 3 ... in an empty table). Values are given as the
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
        /// One multi-row INSERT of `attributes` (then the raw columns `extra`), keys 1, 2, 3 ...
        func insert(_ entity: String, _ attributes: [String], extra: [String] = [], rows: [[Value]]) throws {
            let names = [StoreMapping.primaryKey, StoreMapping.entityColumn] + attributes.map { mapping.column(for: $0, of: entity)! } + extra
            let placeholders = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
            let sql = "INSERT INTO \(SQLIdentifier.quoted(mapping.table(for: entity)!)) (\(names.map(SQLIdentifier.quoted).joined(separator: ", "))) VALUES "
                + Array(repeating: placeholders, count: rows.count).joined(separator: ", ")
            var arguments: [Value] = []
            arguments.reserveCapacity(rows.count * names.count)
            for (i, row) in rows.enumerated() {
                arguments.append(.int(Int64(i + 1)))
                arguments.append(.string(entity))
                arguments.append(contentsOf: row)
            }
            _ = try store.database.run(sql, arguments)
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
            var links: [Value] = []
            for (i, e) in employees.enumerated() {
                for p in e.projects { links.append(.int(Int64(i + 1))); links.append(.int(Int64(p + 1))) }
            }
            if !links.isEmpty {
                let sql = "INSERT INTO \(SQLIdentifier.quoted(joinTable)) (\(SQLIdentifier.quoted(employeeColumn)), \(SQLIdentifier.quoted(projectColumn))) VALUES "
                    + Array(repeating: "(?, ?)", count: links.count / 2).joined(separator: ", ") + " ON CONFLICT DO NOTHING"
                _ = try store.database.run(sql, links)
            }
        }
    }
}

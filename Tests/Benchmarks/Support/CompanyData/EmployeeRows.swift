// The hand-written side of the fetch benchmarks: a SELECT of the employee
// table read column by column through SQLite's C API into plain Swift
// structs — what a programmer would write without Quarry. The SELECT is the
// one Quarry plans (`_pk`, `_entity`, then the attributes in model order),
// so both sides run the same SQL.
import QuarryStore

/// One employee row, typed.
public struct EmployeeRow {
    public let pk: Int64
    public let name: String
    public let age: Int64?
    public let salary: Int64
    public let startDate: Double?
    public let active: Bool
    public let department: Int64?
}

/// The rows of `sql` (a planned SELECT of Employee) in `store`, decoded into structs.
public func readEmployeeRows(_ store: SQLStore, _ sql: SQLFragment) throws -> [EmployeeRow] {
    var rows: [EmployeeRow] = []
    try store.sqlite!.forEachRow(sql.sql, sql.arguments) { row in
        rows.append(EmployeeRow(pk: row.int(at: 0), name: row.string(at: 2) ?? "", age: row.isNull(at: 3) ? nil : row.int(at: 3),
                                salary: row.int(at: 4), startDate: row.isNull(at: 5) ? nil : row.double(at: 5),
                                active: row.int(at: 6) != 0, department: row.isNull(at: 7) ? nil : row.int(at: 7)))
    }
    return rows
}

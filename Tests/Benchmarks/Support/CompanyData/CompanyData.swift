// The company data the store benchmarks share (PERFORMANCE.md, "The data"):
// 100 departments and N employees with name, age, salary, startDate,
// active and department, names including non-ASCII ones (José, Zoë, Müller)
// so that `[cd]` work is exercised. Every benchmark that needs the company
// store builds it here, so that their figures are about the same rows.
//
// Rows go in through prepared INSERTs in one transaction: the quickest way
// to a million rows, and independent of the code the benchmarks measure.
import Foundation
import QuarryStore

/// The company model as Quarry's YAML model format.
public let companyModelYAML = """
entities:
  Department:
    attributes: { name: { type: string, optional: false } }
    relationships:
      employees: { to: Employee, many: true, inverse: department, delete: nullify }
  Employee:
    attributes:
      name: { type: string, optional: false }
      age: integer16
      salary: integer64
      startDate: date
      active: boolean
    relationships:
      department: { to: Department, delete: nullify }
"""

public let companyModel = try! ModelReader.read(yaml: companyModelYAML, file: "company.yaml")

/// First names of the employees (a number follows each).
public let employeeNames = ["José", "Zoë", "Müller", "John", "joanna", "Łukasz", "Anna", "Jörg", "Ivan", "佐藤"]

/// Employee `i`'s values, as every company store holds them: half are
/// active, salaries spread over 20,000 ..< 180,000, department `1 + i % 100`.
public enum CompanyEmployee {
    public static func name(_ i: Int) -> String { employeeNames[i % employeeNames.count] + " \(i % 9973)" }
    public static func age(_ i: Int) -> Int64 { Int64(18 + i % 50) }
    public static func salary(_ i: Int) -> Int64 { Int64(20_000 + (i &* 7919) % 160_000) }
    public static func startDate(_ i: Int) -> Double { Double(i % 100_000) * 3600 }
    public static func active(_ i: Int) -> Bool { i % 2 == 1 }
    public static func department(_ i: Int) -> Int64 { Int64(1 + i % 100) }
}

/// Adds 100 departments and `employees` employees (keys 1...employees) to
/// an empty company store, in one transaction.
public func fillCompanyStore(_ store: SQLStore, employees: Int) throws {
    let c = store.sqlite!
    try c.transaction {
        let d = try c.prepare(#"INSERT INTO "Department" ("_pk", "_entity", "name") VALUES (?, 'Department', ?)"#)
        for i in 1...100 {
            try d.bind([.int(Int64(i)), .string("Dept \(i)")])
            _ = try d.step()
            d.reset()
        }
        let e = try c.prepare(#"INSERT INTO "Employee" ("_pk", "_entity", "name", "age", "salary", "startDate", "active", "department") VALUES (?, 'Employee', ?, ?, ?, ?, ?, ?)"#)
        for i in 1...employees {
            try e.bind([.int(Int64(i)), .string(CompanyEmployee.name(i)), .int(CompanyEmployee.age(i)),
                        .int(CompanyEmployee.salary(i)), .double(CompanyEmployee.startDate(i)),
                        .int(CompanyEmployee.active(i) ? 1 : 0), .int(CompanyEmployee.department(i))])
            _ = try e.step()
            e.reset()
        }
    }
}

/// A new company store of `employees` employees in the temporary folder,
/// named after `label` and this process (any earlier file of that name is replaced).
public func makeCompanyStore(_ label: String, employees: Int) -> SQLStore {
    let path = NSTemporaryDirectory() + "quarry-\(label)-\(getpid()).sqlite"
    try? FileManager.default.removeItem(atPath: path)
    // Removed when the benchmark process exits: a 1M-row store is ~100 MB.
    if storePaths.isEmpty { atexit { removeStoreFiles() } }
    storePaths.append(path)
    let store = try! SQLStore(path: path, model: companyModel)
    try! fillCompanyStore(store, employees: employees)
    return store
}

/// The store files this process made (see `makeCompanyStore`).
nonisolated(unsafe) private var storePaths: [String] = []

private func removeStoreFiles() {
    for path in storePaths {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }
}

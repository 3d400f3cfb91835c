// Issue 18's decorrelated aggregates and quantifiers: a to-many reached
// through a to-one, on 1M employees in 1,000 departments, each beside the
// hand-written decorrelated SQL (a GROUP BY derived table joined on the
// department, or an uncorrelated IN list) in the same run; target ≤ 1.10×.
// Both count the matching employees (the query's shape is what differs;
// materializing a million objects would only blur it).
//   D1 department.employees.@avg.salary > salary
//   D2 department.employees.@count > 900
//   D3 ANY department.employees.salary > 190000
// D0 is the old correlated shape (a scalar subquery per employee) at 100k
// employees, for comparison. SQLite always; PostgreSQL too when
// QUARRY_POSTGRES_URL is set (Scripts/postgres-test-server.sh run -- bash -c
// 'cd Tests/Benchmarks && swift package benchmark --target Decorrelation').
// QUARRY_DECORRELATION_EMPLOYEES sets the size (default 1,000,000).
import Benchmark
import CompanyData
import Foundation
import QuarryPostgres
import QuarryStore

let employees = Int(ProcessInfo.processInfo.environment["QUARRY_DECORRELATION_EMPLOYEES"] ?? "") ?? 1_000_000
let departments = 1_000

/// Salaries 20,000 ..< 200,000, so that a few exceed 190,000 in every department.
func salary(_ i: Int) -> Int64 { Int64(20_000 + (i &* 7919) % 180_000) }

/// The company store of `count` employees, department `1 + i % 1000`.
func fill(_ store: SQLStore, employees count: Int) throws {
    if store.database.dialect == .sqlite {
        let c = store.sqlite!
        try c.transaction {
            let d = try c.prepare(#"INSERT INTO "Department" ("_pk", "_entity", "name") VALUES (?, 'Department', ?)"#)
            for i in 1...departments {
                try d.bind([.int(Int64(i)), .string("Dept \(i)")])
                _ = try d.step()
                d.reset()
            }
            let e = try c.prepare(#"INSERT INTO "Employee" ("_pk", "_entity", "name", "age", "salary", "active", "department") VALUES (?, 'Employee', ?, ?, ?, ?, ?)"#)
            for i in 1...count {
                try e.bind([.int(Int64(i)), .string(CompanyEmployee.name(i)), .int(CompanyEmployee.age(i)), .int(salary(i)),
                            .int(Int64(i % 2)), .int(Int64(1 + i % departments))])
                _ = try e.step()
                e.reset()
            }
        }
        try c.execute("ANALYZE")
    } else {
        try store.batchInsert("Department", objects: (1...departments).map { ["name": Value.string("Dept \($0)")] })
        for start in stride(from: 1, through: count, by: 100_000) {
            let rows = (start...min(start + 99_999, count)).map { i -> [String: Value] in
                ["name": .string(CompanyEmployee.name(i)), "age": .int(CompanyEmployee.age(i)), "salary": .int(salary(i)), "active": .bool(i % 2 == 1)]
            }
            try store.batchInsert("Employee", objects: rows)
        }
        try store.database.run(#"UPDATE "Employee" SET "department" = 1 + "_pk" % \#(departments)"#, [])
        try store.database.run("ANALYZE", [])
    }
}

func sqliteStore(_ label: String, employees count: Int) -> SQLStore {
    let path = NSTemporaryDirectory() + "quarry-decorrelation-\(label)-\(getpid()).sqlite"
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    let store = try! SQLStore(path: path, model: companyModel)
    try! fill(store, employees: count)
    return store
}

nonisolated(unsafe) let sqlite = sqliteStore("big", employees: employees)

nonisolated(unsafe) let postgres: SQLStore? = {
    guard let text = ProcessInfo.processInfo.environment["QUARRY_POSTGRES_URL"], var url = try? PostgresURL(text) else { return nil }
    url.schema = "quarry_decorrelation_\(getpid())"
    let store = try! SQLStore(postgres: url.description, model: companyModel)
    try! fill(store, employees: employees)
    return store
}()

/// Each scenario: the predicate and the hand-written decorrelated COUNT.
let scenarios: [(String, String, String)] = [
    ("D1", "department.employees.@avg.salary > salary",
     #"SELECT COUNT(*) FROM "Employee" e JOIN (SELECT "department" AS k, AVG("salary") AS a FROM "Employee" GROUP BY "department") d ON d.k = e."department" WHERE d.a > e."salary""#),
    ("D2", "department.employees.@count > 900",
     #"SELECT COUNT(*) FROM "Employee" e JOIN (SELECT "department" AS k, COUNT(*) AS n FROM "Employee" GROUP BY "department") d ON d.k = e."department" WHERE d.n > 900"#),
    ("D3", "ANY department.employees.salary > 190000",
     #"SELECT COUNT(*) FROM "Employee" e WHERE e."department" IN (SELECT "department" FROM "Employee" WHERE "salary" > 190000)"#),
]

func count(_ store: SQLStore, _ sql: String) throws -> Int64 {
    guard case .int(let n)? = try store.database.rows(sql, []).first?.first else { fatalError("no count") }
    return n
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock], maxDuration: .seconds(10), maxIterations: 20)
    var stores: [(String, SQLStore)] = [("sqlite", sqlite)]
    if let postgres { stores.append(("postgres", postgres)) }
    for (engine, store) in stores {
        for (id, format, handWritten) in scenarios {
            let request = FetchRequest(entity: "Employee", predicate: try! Parser.parsePredicate(format))
            // Same answer, or the comparison means nothing.
            let quarry = try! store.count(request)
            precondition(Int64(quarry) == (try! count(store, handWritten)), "\(id) \(engine): Quarry and the hand-written SQL disagree")
            Benchmark("\(id) \(engine) quarry: count \(format)") { _ in blackHole(try store.count(request)) }
            Benchmark("\(id) \(engine) baseline: hand-written decorrelated SQL") { _ in blackHole(try count(store, handWritten)) }
        }
    }
    // The old plan: a correlated scalar subquery per employee, at 100k.
    let small = sqliteStore("small", employees: 100_000)
    let correlated = #"SELECT COUNT(*) FROM "Employee" t0 LEFT JOIN "Department" t1 ON t1."_pk" = t0."department" WHERE (SELECT AVG(t2."salary") FROM "Employee" t2 WHERE t2."department" = t1."_pk") > t0."salary""#
    let request = FetchRequest(entity: "Employee", predicate: try! Parser.parsePredicate(scenarios[0].1))
    Benchmark("D0 sqlite 100k old correlated plan: \(scenarios[0].1)", configuration: .init(maxIterations: 3)) { _ in
        blackHole(try count(small, correlated))
    }
    Benchmark("D0 sqlite 100k quarry: \(scenarios[0].1)", configuration: .init(maxIterations: 3)) { _ in
        blackHole(try small.count(request))
    }
}

// Issue 8's PostgreSQL scenarios on a 200k-employee store (100 departments),
// each beside hand-written SQL sent through postgres-nio in the same run
// (target ≤ 1.10×):
//   filter + sort with LIMIT 30, decoded (objects vs structs);
//   GROUP BY department.name with average:(salary);
//   a batch update of about half the rows.
// Needs a server: Scripts/postgres-test-server.sh run -- bash -c \
//   'cd Tests/Benchmarks && swift package benchmark --target Postgres'
// (QUARRY_POSTGRES_URL names it; the store goes to a schema of its own).
import Benchmark
import CompanyData
import Foundation
import Logging
import PostgresNIO
import QuarryPostgres

let rows = 200_000
let schema = "quarry_bench_\(getpid())"

let serverURL: PostgresURL = {
    guard let text = ProcessInfo.processInfo.environment["QUARRY_POSTGRES_URL"], var url = try? PostgresURL(text) else {
        fatalError("QUARRY_POSTGRES_URL is not set; run under Scripts/postgres-test-server.sh run -- ...")
    }
    url.schema = schema
    return url
}()

/// Employee `i` as CompanyData describes it (departments are linked later).
func employee(_ i: Int) -> [String: Value] {
    ["name": .string(CompanyEmployee.name(i)), "age": .int(CompanyEmployee.age(i)), "salary": .int(CompanyEmployee.salary(i)),
     "startDate": .date(CompanyEmployee.startDate(i)), "active": .bool(CompanyEmployee.active(i))]
}

/// The store, filled once with batch inserts (multi-row INSERTs).
nonisolated(unsafe) let store: SQLStore = {
    let store = try! SQLStore(postgres: serverURL.description, model: companyModel)
    let departments = (1...100).map { ["name": Value.string("Dept \($0)")] }
    try! store.batchInsert("Department", objects: departments)
    try! store.batchInsert("Employee", objects: (1...rows).map(employee))
    // Departments by key, as a loader would (batch inserts do not link).
    try! store.database.run(#"UPDATE "Employee" SET "department" = 1 + "_pk" % 100"#, [])
    try! store.database.run("ANALYZE", [])
    return store
}()

/// The baseline's own connection: postgres-nio, no Quarry in between.
let raw: PostgresConnection = {
    var configuration = PostgresConnection.Configuration(host: serverURL.host ?? "127.0.0.1", port: serverURL.port,
                                                         username: serverURL.user, password: serverURL.password,
                                                         database: serverURL.database, tls: .disable)
    configuration.options.additionalStartupParameters = [("search_path", schema)]
    return try! PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration,
                                           id: 1, logger: Logger(label: "bench")).wait()
}()

struct EmployeeRow { let pk: Int64; let name: String; let age: Int64?; let salary: Int64; let startDate: Double?; let active: Bool; let department: Int64? }

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock], maxDuration: .seconds(10), maxIterations: 50)
    _ = store

    var top: FetchRequest = FetchRequest(entity: "Employee", predicate: try! Parser.parsePredicate("salary > 100000"),
                                         sortDescriptors: [QuerySortDescriptor("salary", ascending: false)])
    top.fetchLimit = 30
    Benchmark("pg quarry: salary > 100000 sorted, LIMIT 30, objects") { _ in
        store.forgetObjects()
        blackHole(try store.fetch(top).count)
    }
    let topSQL = #"SELECT "_pk", "name", "age", "salary", "startDate", "active", "department" FROM "Employee" WHERE "salary" > $1 ORDER BY "salary" DESC, "_pk" LIMIT 30"#
    Benchmark("pg baseline: the same by hand through postgres-nio, structs") { _ in
        let result = try raw.query(topSQL, [PostgresData(int64: 100_000)]).wait()
        var out: [EmployeeRow] = []
        for row in result {
            let r = row.makeRandomAccess()
            out.append(EmployeeRow(pk: try r[0].decode(Int64.self), name: try r[1].decode(String.self), age: try r[2].decode(Int64?.self),
                                   salary: try r[3].decode(Int64.self), startDate: try r[4].decode(Double?.self),
                                   active: try r[5].decode(Int64.self) != 0, department: try r[6].decode(Int64?.self)))
        }
        blackHole(out.count)
    }

    let grouped: FetchRequest = {
        var r = FetchRequest(entity: "Employee", sortDescriptors: [QuerySortDescriptor("dept")])
        r.propertiesToFetch = [FetchProperty(name: "dept", expression: try! Parser.parseExpression("department.name")),
                               FetchProperty(name: "avg", expression: try! Parser.parseExpression("average:(salary)"))]
        r.propertiesToGroupBy = [try! FetchProperty(keyPath: "department.name")]
        return r
    }()
    Benchmark("pg quarry: GROUP BY department.name, average:(salary)") { _ in
        blackHole(try store.fetchDictionaries(grouped).count)
    }
    let groupSQL = #"SELECT d."name", AVG(e."salary")::float8 FROM "Employee" e LEFT JOIN "Department" d ON d."_pk" = e."department" GROUP BY d."name" ORDER BY d."name""#
    Benchmark("pg baseline: GROUP BY by hand through postgres-nio") { _ in
        let result = try raw.query(groupSQL, []).wait()
        var out: [(String?, Double?)] = []
        for row in result {
            let r = row.makeRandomAccess()
            out.append((try r[0].decode(String?.self), try r[1].decode(Double?.self)))
        }
        blackHole(out.count)
    }

    let half = try! Parser.parsePredicate("active == YES")
    // Each update leaves 100k dead row versions; VACUUM before every
    // iteration (not timed) so that both sides start from the same table.
    func vacuum() throws { _ = try raw.simpleQuery(#"VACUUM "Employee""#).wait() }
    Benchmark("pg quarry: batch update of 100k rows", configuration: .init(maxIterations: 10)) { benchmark in
        try vacuum()
        benchmark.startMeasurement()
        blackHole(try store.batchUpdate(entity: "Employee", predicate: half, set: [("age", try Parser.parseExpression("age + 1"))]))
        benchmark.stopMeasurement()
    }
    Benchmark("pg baseline: one hand-written UPDATE through postgres-nio", configuration: .init(maxIterations: 10)) { benchmark in
        try vacuum()
        benchmark.startMeasurement()
        _ = try raw.simpleQuery("BEGIN").wait()
        blackHole(try raw.query(#"UPDATE "Employee" SET "age" = "age" + 1 WHERE "active" = $1"#, [PostgresData(int64: 1)]).wait())
        _ = try raw.simpleQuery("COMMIT").wait()
        benchmark.stopMeasurement()
    }
}

// Issue 18's decorrelation figures without the benchmark package's release
// build: a COUNT spends its time in the database engine, not in Swift, so
// the debug test build measures the query's shape as well as a release one.
// Skipped unless QUARRY_DECORRELATION_EMPLOYEES is set (e.g. 1000000);
//   QUARRY_DECORRELATION_EMPLOYEES=1000000 swift test --skip-build --filter DecorrelationTiming
// prints, per scenario and engine, the median wall-clock and CPU time of
// Quarry's count and of the hand-written decorrelated SQL (1,000
// departments), their ratio, and the old correlated shape at 100k on SQLite.
// Tests/Benchmarks/Benchmarks/Decorrelation is the same in package-benchmark.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Decorrelation timing (opt-in)", .serialized)
struct DecorrelationTimingTests {
    static let employees = Int(ProcessInfo.processInfo.environment["QUARRY_DECORRELATION_EMPLOYEES"] ?? "")
    static let departments = 1_000

    static let scenarios: [(String, String, String)] = [
        ("D1", "department.employees.@avg.salary > salary",
         #"SELECT COUNT(*) FROM "Employee" e JOIN (SELECT "department" AS k, AVG("salary") AS a FROM "Employee" GROUP BY "department") d ON d.k = e."department" WHERE d.a > e."salary""#),
        ("D2", "department.employees.@count > 900",
         #"SELECT COUNT(*) FROM "Employee" e JOIN (SELECT "department" AS k, COUNT(*) AS n FROM "Employee" GROUP BY "department") d ON d.k = e."department" WHERE d.n > 900"#),
        ("D3", "ANY department.employees.salary > 190000",
         #"SELECT COUNT(*) FROM "Employee" e WHERE e."department" IN (SELECT "department" FROM "Employee" WHERE "salary" > 190000)"#),
    ]

    static func fill(_ store: SQLStore, employees count: Int) throws {
        try store.batchInsert("Department", objects: (1...departments).map { ["name": Value.string("Dept \($0)")] })
        for start in stride(from: 1, through: count, by: 50_000) {
            var rows: [[String: Value]] = []
            for i in start...min(start + 49_999, count) {
                let age = Int64(18 + i % 50)
                let salary = Int64(20_000 + (i &* 7919) % 180_000)
                var row: [String: Value] = [:]
                row["name"] = .string("E \(i)")
                row["age"] = .int(age)
                row["salary"] = .int(salary)
                row["active"] = .bool(i % 2 == 1)
                rows.append(row)
            }
            try store.batchInsert("Employee", objects: rows)
        }
        _ = try store.database.run(#"UPDATE "Employee" SET "department" = 1 + "_pk" % 1000"#, [])
        _ = try store.database.run("ANALYZE", [])
    }

    static func store(_ engine: TestEngine, employees count: Int) throws -> SQLStore {
        let model = try ModelReader.read(from: Fixture.modelPath)
        if engine == .postgres { return try engine.emptyStore(model: model).filled(count) }
        let path = NSTemporaryDirectory() + "quarry-decorrelation-\(count)-\(getpid()).sqlite"
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        return try SQLStore(path: path, model: model).filled(count)
    }

    static func cpu() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Median wall-clock and CPU seconds of `runs` runs of `body`.
    static func time(runs: Int, _ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
        var walls: [Double] = [], cpus: [Double] = []
        for _ in 0..<runs {
            let w = Date(), c = cpu()
            try body()
            cpus.append(cpu() - c)
            walls.append(Date().timeIntervalSince(w))
        }
        return (walls.sorted()[runs / 2], cpus.sorted()[runs / 2])
    }

    /// The medians of `a` and `b` run alternately, so that the machine's
    /// load (shared with other builds) falls on both alike.
    static func alternate(runs: Int, _ a: () throws -> Void, _ b: () throws -> Void) rethrows
        -> (a: (wall: Double, cpu: Double), b: (wall: Double, cpu: Double)) {
        var ta: [(Double, Double)] = [], tb: [(Double, Double)] = []
        for _ in 0..<runs {
            let x = try time(runs: 1, a), y = try time(runs: 1, b)
            ta.append((x.wall, x.cpu))
            tb.append((y.wall, y.cpu))
        }
        func median(_ t: [(Double, Double)]) -> (wall: Double, cpu: Double) {
            (t.map(\.0).sorted()[runs / 2], t.map(\.1).sorted()[runs / 2])
        }
        return (median(ta), median(tb))
    }

    static func count(_ store: SQLStore, _ sql: String) throws -> Int {
        guard case .int(let n)? = try store.database.rows(sql, []).first?.first else { return -1 }
        return Int(n)
    }

    @Test(.enabled(if: employees != nil), arguments: TestEngine.available)
    func decorrelatedAgainstHandWritten(engine: TestEngine) throws {
        let n = Self.employees!
        let store = try Self.store(engine, employees: n)
        func ms(_ s: Double) -> String { String(format: "%.1f ms", s * 1000) }
        for (id, format, handWritten) in Self.scenarios {
            let request = FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate(format))
            #expect(try store.count(request) == (try Self.count(store, handWritten)), "\(id) \(engine)")
            let (quarry, baseline) = try Self.alternate(runs: 9, { _ = try store.count(request) }, { _ = try Self.count(store, handWritten) })
            print("decorrelation \(id) \(engine) \(n): quarry \(ms(quarry.wall)) wall / \(ms(quarry.cpu)) cpu; hand-written \(ms(baseline.wall)) wall / \(ms(baseline.cpu)) cpu; "
                  + String(format: "ratio %.2f× wall, %.2f× cpu", quarry.wall / baseline.wall, quarry.cpu / max(baseline.cpu, 1e-9)) + " — \(format)")
            print("decorrelation \(id) \(engine) plan: " + (try store.queryPlan(request)).joined(separator: " | "))
        }
        if engine == .sqlite {
            let small = try Self.store(.sqlite, employees: 100_000)
            let correlated = #"SELECT COUNT(*) FROM "Employee" t0 LEFT JOIN "Department" t1 ON t1."_pk" = t0."department" WHERE (SELECT AVG(t2."salary") FROM "Employee" t2 WHERE t2."department" = t1."_pk") > t0."salary""#
            let request = FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate(Self.scenarios[0].1))
            #expect(try small.count(request) == (try Self.count(small, correlated)))
            let old = try Self.time(runs: 1) { _ = try Self.count(small, correlated) }
            let new = try Self.time(runs: 3) { _ = try small.count(request) }
            print("decorrelation D0 sqlite 100000: old correlated plan \(ms(old.wall)) wall / \(ms(old.cpu)) cpu; quarry now \(ms(new.wall)) wall / \(ms(new.cpu)) cpu")
        }
    }
}

private extension SQLStore {
    func filled(_ count: Int) throws -> SQLStore {
        try DecorrelationTimingTests.fill(self, employees: count)
        return self
    }
}

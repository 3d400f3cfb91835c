// Issue 18's decorrelation figures without the benchmark package's release
// build: a COUNT spends its time in the database engine, not in Swift, so
// the debug test build measures the query's shape as well as a release one.
// Skipped unless QUARRY_DECORRELATION_EMPLOYEES is set (e.g. 1000000);
//   QUARRY_DECORRELATION_EMPLOYEES=1000000 swift test --skip-build --filter DecorrelationTiming
// prints, per scenario and engine (SQLite, and PostgreSQL when a server is
// configured), the median wall-clock and CPU time of Quarry's count and of
// the hand-written decorrelated SQL (1,000 departments), their ratio, and the
// old correlated shape at 100k. CPU time is this process's on SQLite and the
// server's (from /proc: the backend and its parallel workers) on PostgreSQL,
// where the query runs; it is steadier than wall time on a machine shared
// with other builds.
// QUARRY_DECORRELATION_RUNS sets the runs per median (default 9),
// QUARRY_DECORRELATION_ENGINE=sqlite|postgres times one engine only.
// Tests/Benchmarks/Benchmarks/Decorrelation is the same in package-benchmark.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Decorrelation timing (opt-in)", .serialized)
struct DecorrelationTimingTests {
    static let employees = Int(ProcessInfo.processInfo.environment["QUARRY_DECORRELATION_EMPLOYEES"] ?? "")
    static let departments = 1_000
    static let runs = Int(ProcessInfo.processInfo.environment["QUARRY_DECORRELATION_RUNS"] ?? "") ?? 9

    static let scenarios: [(String, String, String)] = [
        ("D1", "department.employees.@avg.salary > salary",
         #"SELECT COUNT(*) FROM "Employee" e JOIN (SELECT "department" AS k, AVG("salary") AS a FROM "Employee" GROUP BY "department") d ON d.k = e."department" WHERE d.a > e."salary""#),
        ("D2", "department.employees.@count > 900",
         #"SELECT COUNT(*) FROM "Employee" e JOIN (SELECT "department" AS k, COUNT(*) AS n FROM "Employee" GROUP BY "department") d ON d.k = e."department" WHERE d.n > 900"#),
        ("D3", "ANY department.employees.salary > 190000",
         #"SELECT COUNT(*) FROM "Employee" e WHERE e."department" IN (SELECT "department" FROM "Employee" WHERE "salary" > 190000)"#),
    ]

    /// D1 by hand with the average Quarry must compute (PredicateLowering+
    /// Averages.swift: the exact sum rounded once; SQLite 3.40's AVG adds
    /// doubles and loses bits past 2^53), to tell the cost of the plan's
    /// shape from that of exactness.
    static func exactAverageBaseline(_ dialect: SQLDialect) -> String {
        let average = dialect == .postgres
            ? #"CAST(SUM("salary") AS DOUBLE PRECISION) / COUNT(*)"#
            : #"(CAST(SUM("salary" >> 32) AS REAL) * 4294967296.0 + CAST(SUM("salary" & 4294967295) AS REAL)) / COUNT(*)"#
        return #"SELECT COUNT(*) FROM "Employee" e JOIN (SELECT "department" AS k, "# + average
            + #" AS a FROM "Employee" GROUP BY "department") d ON d.k = e."department" WHERE d.a > e."salary""#
    }

    /// 1,000 departments and `count` employees, made by the database itself
    /// (a debug build's batchInsert of a million rows takes minutes): the
    /// rows `batchInsert` would write, salaries spread over 20,000–199,999,
    /// employee k in department 1 + k % 1000.
    static func fill(_ store: SQLStore, employees count: Int) throws {
        let db = store.database
        let series = db.dialect == .postgres
            ? "SELECT i FROM generate_series(1, CAST(? AS BIGINT)) AS s(i)"
            : "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?) SELECT i FROM s"
        _ = try db.run(#"INSERT INTO "Department" ("_entity", "name") SELECT 'Department', 'Dept ' || i FROM ("# + series + ") n",
                       [.int(Int64(departments))])
        _ = try db.run(#"INSERT INTO "Employee" ("_entity", "name", "age", "salary", "active") "#
                       + #"SELECT 'Employee', 'E ' || i, 18 + i % 50, 20000 + (i * 7919) % 180000, i % 2 FROM ("# + series + ") n",
                       [.int(Int64(count))])
        _ = try db.run(#"UPDATE "Employee" SET "department" = 1 + "_pk" % 1000"#, [])
        if db.dialect == .postgres {
            // VACUUM too: the visibility map lets both plans scan indexes only.
            _ = try db.run(#"VACUUM ANALYZE "Employee""#, [])
            _ = try db.run(#"VACUUM ANALYZE "Department""#, [])
        } else {
            _ = try db.run("ANALYZE", [])
        }
    }

    static func store(_ engine: TestEngine, employees count: Int) throws -> SQLStore {
        let model = try ModelReader.read(from: Fixture.modelPath)
        if engine == .postgres { return try engine.emptyStore(model: model).filled(count) }
        let path = file(count)
        removeFile(count)
        return try SQLStore(path: path, model: model).filled(count)
    }

    /// Where the query's CPU time is spent: this process (SQLite), or the
    /// PostgreSQL server whose backend serves the store's connection.
    nonisolated(unsafe) static var backend: Int32?

    /// Fields of /proc/PID/stat after the command name (state is [0], ppid
    /// [1], utime [11], stime [12], cutime [13], cstime [14]).
    static func stat(_ pid: Int32) -> [Double]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 14 else { return nil }
        return fields.map { Double($0) ?? 0 }
    }

    /// The PostgreSQL server's CPU seconds so far: the postmaster's own and
    /// its reaped children's (parallel workers that have exited), and its
    /// live children's (the backend, workers still running).
    static func serverCPU(backend: Int32) -> Double? {
        guard let b = stat(backend) else { return nil }
        let postmaster = Int32(b[1])
        guard let p = stat(postmaster) else { return nil }
        var ticks = p[11] + p[12] + p[13] + p[14]
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
        for pid in pids where pid != postmaster {
            if let s = stat(pid), Int32(s[1]) == postmaster { ticks += s[11] + s[12] }
        }
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The SQLite file of a run (tens of megabytes at 1M: removed after).
    static func file(_ count: Int) -> String { NSTemporaryDirectory() + "quarry-decorrelation-\(count)-\(getpid()).sqlite" }

    static func removeFile(_ count: Int) {
        for suffix in ["", "-wal", "-shm"] { unlink(file(count) + suffix) }
    }

    static func cpu() -> Double {
        if let pid = backend, let seconds = serverCPU(backend: pid) { return seconds }
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

    /// The PostgreSQL backend's process id for `store` (nil on SQLite).
    static func backendPID(_ store: SQLStore, _ engine: TestEngine) throws -> Int32? {
        guard engine == .postgres, case .int(let pid)? = try store.database.rows("SELECT pg_backend_pid()", []).first?.first else { return nil }
        return Int32(pid)
    }

    /// The engines to time: every available one, or QUARRY_DECORRELATION_ENGINE's.
    static let engines: [TestEngine] = {
        guard let only = ProcessInfo.processInfo.environment["QUARRY_DECORRELATION_ENGINE"] else { return TestEngine.available }
        return TestEngine.available.filter { $0.rawValue == only }
    }()

    @Test(.enabled(if: employees != nil), arguments: engines)
    func decorrelatedAgainstHandWritten(engine: TestEngine) throws {
        let n = Self.employees!
        defer { Self.removeFile(n); Self.removeFile(100_000) }
        let store = try Self.store(engine, employees: n)
        Self.backend = try Self.backendPID(store, engine)
        defer { Self.backend = nil }
        func ms(_ s: Double) -> String { String(format: "%.1f ms", s * 1000) }
        for (id, format, handWritten) in Self.scenarios {
            let request = FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate(format))
            #expect(try store.count(request) == (try Self.count(store, handWritten)), "\(id) \(engine)")
            let (quarry, baseline) = try Self.alternate(runs: Self.runs, { _ = try store.count(request) }, { _ = try Self.count(store, handWritten) })
            print("decorrelation \(id) \(engine) \(n): quarry \(ms(quarry.wall)) wall / \(ms(quarry.cpu)) cpu; hand-written \(ms(baseline.wall)) wall / \(ms(baseline.cpu)) cpu; "
                  + String(format: "ratio %.2f× wall, %.2f× cpu", quarry.wall / baseline.wall, quarry.cpu / max(baseline.cpu, 1e-9)) + " — \(format)")
            print("decorrelation \(id) \(engine) plan: " + (try store.queryPlan(request)).joined(separator: " | "))
            if id == "D1" {
                let exact = Self.exactAverageBaseline(store.database.dialect)
                #expect(try store.count(request) == (try Self.count(store, exact)))
                let (q, b) = try Self.alternate(runs: Self.runs, { _ = try store.count(request) }, { _ = try Self.count(store, exact) })
                print("decorrelation D1x \(engine) \(n): quarry \(ms(q.wall)) wall / \(ms(q.cpu)) cpu; hand-written with the exact average \(ms(b.wall)) wall / \(ms(b.cpu)) cpu; "
                      + String(format: "ratio %.2f× wall, %.2f× cpu", q.wall / b.wall, q.cpu / max(b.cpu, 1e-9)))
            }
        }
        let small = try Self.store(engine, employees: 100_000)
        Self.backend = try Self.backendPID(small, engine)
        let correlated = #"SELECT COUNT(*) FROM "Employee" t0 LEFT JOIN "Department" t1 ON t1."_pk" = t0."department" WHERE (SELECT AVG(t2."salary") FROM "Employee" t2 WHERE t2."department" = t1."_pk") > t0."salary""#
        let request = FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate(Self.scenarios[0].1))
        #expect(try small.count(request) == (try Self.count(small, correlated)))
        let old = try Self.time(runs: 1) { _ = try Self.count(small, correlated) }
        let new = try Self.time(runs: 3) { _ = try small.count(request) }
        print("decorrelation D0 \(engine) 100000: old correlated plan \(ms(old.wall)) wall / \(ms(old.cpu)) cpu; quarry now \(ms(new.wall)) wall / \(ms(new.cpu)) cpu")
    }
}

private extension SQLStore {
    func filled(_ count: Int) throws -> SQLStore {
        try DecorrelationTimingTests.fill(self, employees: count)
        return self
    }
}

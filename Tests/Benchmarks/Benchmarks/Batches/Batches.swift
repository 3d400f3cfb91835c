// Iterating a large result through a batched fetch result (PERFORMANCE.md,
// "Memory": a fetch with a batch size keeps at most a few batches of objects
// alive). Timed here beside its baselines in the same run, on 1M employees
// (100 departments), reading each employee's name and salary:
//   - quarry: `context.fetchBatched` with batches of 1000 (bounded memory);
//   - baseline: a plain `context.fetch` of every object (unbounded memory);
//   - baseline: the same SQL read through SQLite's column calls into structs.
// First runs (2-core shared machine, medians of 5): fetchBatched 5.80 s,
// 8.76 s, 5.66 s against a plain context fetch 4.21 s, 4.28 s, 4.45 s
// (1.38×, 2.05× under load, 1.27×) and hand-written SQL into structs 1.02 s,
// 1.52 s, 1.09 s. The extra time is mostly SQLite reading the rows of each
// batch by key (random pages) instead of one sequential scan.
// Peak resident memory is measured per process by
// Scripts/batched-fetch-memory.sh (`/usr/bin/time -v`), not here: in one
// process, memory freed by one benchmark stays in the allocator for the next.
import Benchmark
import CompanyData
import Foundation
import QuarryStore

/// The 1M-employee store (CompanyData).
nonisolated(unsafe) let store = makeCompanyStore("batches", employees: 1_000_000)

let request: FetchRequest = {
    var r = FetchRequest(entity: "Employee", sortDescriptors: [QuerySortDescriptor("salary"), QuerySortDescriptor("name")])
    r.fetchBatchSize = 1000
    return r
}()

/// What every variant computes from each row: the same checksum.
func read(_ object: ManagedObject, into sum: inout Int) {
    if case .int(let salary)? = object["salary"] { sum &+= Int(salary) }
    if case .string(let name)? = object["name"] { sum &+= name.utf8.count }
}

struct Row { let pk: Int64; let name: String; let age: Int64?; let salary: Int64; let startDate: Double?; let active: Bool; let department: Int64? }

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock], maxDuration: .seconds(30), maxIterations: 5)
    _ = store

    Benchmark("M quarry: iterate 1M through fetchBatched, batches of 1000") { _ in
        let context = Context(store: store)
        var sum = 0
        for object in try context.fetchBatched(request) { read(object, into: &sum) }
        blackHole(sum)
    }
    Benchmark("M baseline: iterate 1M through a plain context fetch") { _ in
        let context = Context(store: store)
        var plain = request
        plain.fetchBatchSize = 0
        var sum = 0
        for object in try context.fetch(plain) { read(object, into: &sum) }
        blackHole(sum)
    }
    let sql = try! store.explain({ var r = request; r.fetchBatchSize = 0; return r }()).sql
    Benchmark("M baseline: the same SQL into structs by hand") { _ in
        var rows: [Row] = []
        try store.sqlite!.forEachRow(sql.sql, sql.arguments) { row in
            rows.append(Row(pk: row.int(at: 0), name: row.string(at: 2) ?? "", age: row.isNull(at: 3) ? nil : row.int(at: 3),
                            salary: row.int(at: 4), startDate: row.isNull(at: 5) ? nil : row.double(at: 5),
                            active: row.int(at: 6) != 0, department: row.isNull(at: 7) ? nil : row.int(at: 7)))
        }
        var sum = 0
        for row in rows { sum &+= Int(row.salary) &+ row.name.utf8.count }
        blackHole(sum)
    }
}

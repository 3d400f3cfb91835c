// Scenarios 10 and 11 of PERFORMANCE.md, each beside its baseline in the
// same run:
//  10. a results controller's performFetch with sections over 1M employees
//      vs the same sorted SELECT written by hand (SQLite's C API into
//      structs) plus the section counts (target ≤ 1.15×); for information,
//      also vs a context fetch plus counts by hand, vs the rows read unsorted
//      and sorted in Swift by hand (as Quarry does for numeric keys), with
//      the section cache hit, and with tracking on (sort keys kept);
//  11. one object changes among 100k results: the change set (processing
//      the context's pending change, which the tracking controller turns
//      into a move) vs recomputing the whole result (a fresh performFetch)
//      (target ≥ 100× faster, ≤ 1 ms).
// Figures: the issue notes and the README.
import Benchmark
import CompanyData
import Foundation
import QuarryStore

// Company stores of two sizes (CompanyData).
nonisolated(unsafe) let million = makeCompanyStore("sections-1m", employees: 1_000_000)
nonisolated(unsafe) let hundredK = makeCompanyStore("sections-100k", employees: 100_000)

/// The section cache's folder, removed when the process exits.
let cacheDirectory: URL = {
    atexit { try? FileManager.default.removeItem(at: cacheDirectory) }
    return URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("quarry-sections-cache-\(getpid())")
}()

let byAge = FetchRequest(entity: "Employee", sortDescriptors: [QuerySortDescriptor("age"), QuerySortDescriptor("salary")])

final class Sink: FetchedResultsDelegate {
    var changes = 0
    func controller(_ controller: FetchedResultsController, didChangeContentWith change: FetchedResultsChange) { changes += 1 }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock], maxDuration: .seconds(20), maxIterations: 7)
    _ = million

    Benchmark("10 quarry: performFetch, sections by age, 1M") { _ in
        million.forgetObjects()
        let controller = FetchedResultsController(fetchRequest: byAge, context: Context(store: million), sectionNameKeyPath: "age")
        try controller.performFetch()
        blackHole(controller.sections!.count)
    }
    Benchmark("10 baseline: context fetch sorted + section counts by hand, 1M") { _ in
        million.forgetObjects()
        let objects = try Context(store: million).fetch(byAge)
        var counts: [(Value, Int)] = []
        for o in objects {
            let age = o.value(forKey: "age") ?? .null
            if let last = counts.last, last.0 == age { counts[counts.count - 1].1 += 1 } else { counts.append((age, 1)) }
        }
        blackHole(counts.count)
    }
    // The same sorted SELECT written by hand: SQLite's C API into structs,
    // then the section counts (runs of equal ages).
    let sortedSQL = try! SQLPlanner.plan(byAge, mapping: million.mapping).sql
    Benchmark("10 baseline: hand-written sorted SELECT into structs + section counts, 1M") { _ in
        let rows = try readEmployeeRows(million, sortedSQL)
        var counts: [(Int64?, Int)] = []
        for row in rows {
            if let last = counts.last, last.0 == row.age { counts[counts.count - 1].1 += 1 } else { counts.append((row.age, 1)) }
        }
        blackHole(counts.count)
    }
    // For information: Quarry sorts these numeric keys in memory (MemorySorter
    // in QuarryStore), where the baseline above lets SQLite sort. The same
    // done by hand: the SELECT without ORDER BY into structs, sorted in Swift.
    let unsortedSQL = try! SQLPlanner.plan(byAge, mapping: million.mapping).memorySort!.unsorted
    Benchmark("10 baseline: hand-written unsorted SELECT into structs, sorted in Swift + section counts, 1M") { _ in
        var rows = try readEmployeeRows(million, unsortedSQL)
        // SQLite's order: NULL ages first, then age, salary, key.
        rows.sort { a, b in
            if a.age != b.age { return a.age == nil || (b.age != nil && a.age! < b.age!) }
            return a.salary != b.salary ? a.salary < b.salary : a.pk < b.pk
        }
        var counts: [(Int64?, Int)] = []
        for row in rows {
            if let last = counts.last, last.0 == row.age { counts[counts.count - 1].1 += 1 } else { counts.append((row.age, 1)) }
        }
        blackHole(counts.count)
    }
    Benchmark("10 quarry: performFetch, sections from the cache, 1M") { benchmark in
        million.forgetObjects()
        let warm = FetchedResultsController(fetchRequest: byAge, context: Context(store: million), sectionNameKeyPath: "age", cacheName: "bench")
        warm.cacheDirectory = cacheDirectory
        try warm.performFetch()
        million.forgetObjects()
        let controller = FetchedResultsController(fetchRequest: byAge, context: Context(store: million), sectionNameKeyPath: "age", cacheName: "bench")
        controller.cacheDirectory = cacheDirectory
        benchmark.startMeasurement()
        try controller.performFetch()
        benchmark.stopMeasurement()
        precondition(controller.lastFetchUsedCache)
        blackHole(controller.sections!.count)
    }
    Benchmark("10 quarry: performFetch with tracking (sort keys kept), 1M") { _ in
        million.forgetObjects()
        let sink = Sink()
        let controller = FetchedResultsController(fetchRequest: byAge, context: Context(store: million), sectionNameKeyPath: "age")
        controller.delegate = sink
        try controller.performFetch()
        blackHole(controller.sections!.count)
    }

    // 11: one context with a tracking controller over 100k employees; each
    // iteration moves one employee (a new salary, so a new place in its
    // section) and processes the change.
    nonisolated(unsafe) let context = Context(store: hundredK)
    nonisolated(unsafe) let sink = Sink()
    nonisolated(unsafe) let tracked = FetchedResultsController(fetchRequest: byAge, context: context, sectionNameKeyPath: "age")
    nonisolated(unsafe) var salary: Int64 = 0
    Benchmark("11 quarry: change set after one object changes, 100k", configuration: .init(maxDuration: .seconds(10), maxIterations: 2_000)) { benchmark in
        if tracked.fetchedObjects == nil {
            tracked.delegate = sink
            try tracked.performFetch()
        }
        let objects = tracked.fetchedObjects!
        let target = objects[Int(salary % 1000) * 97 % objects.count]
        salary += 1
        try target.setValue(.int(20_000 + (salary &* 104_729) % 160_000), forKey: "salary")
        benchmark.startMeasurement()
        try context.processPendingChanges()
        benchmark.stopMeasurement()
        precondition(tracked.lastChange?.objects.count == 1)
    }
    Benchmark("11 baseline: recompute the whole result (performFetch), 100k", configuration: .init(maxIterations: 20)) { _ in
        hundredK.forgetObjects()
        let fresh = FetchedResultsController(fetchRequest: byAge, context: Context(store: hundredK), sectionNameKeyPath: "age")
        try fresh.performFetch()
        blackHole(fresh.sections!.count)
    }
}

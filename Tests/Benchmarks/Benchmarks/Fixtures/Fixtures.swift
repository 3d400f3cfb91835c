// Scenario 12 of PERFORMANCE.md: 1M employees (Company model, 100
// departments) generated into a new SQLite store by QuarryFixtures, beside
// the baseline measured in the same run: a hand-written prepared INSERT
// loop, in one transaction, writing rows of the same shape (same schema,
// same pragmas, values computed inline from the row number) into a store
// created the same way. The figure is the ratio of medians (target ≤ 1.5×);
// peak resident memory is reported per benchmark (the run streams rows, so
// it should not grow with the count).
//
// Run: cd Tests/Benchmarks && swift package benchmark --target Fixtures
// (QUARRY_FIXTURES_COUNT=100000 for a quicker run).
import Benchmark
import Foundation
import QuarryFixtures

let employees = Int(ProcessInfo.processInfo.environment["QUARRY_FIXTURES_COUNT"] ?? "") ?? 1_000_000
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
let model = try! ModelReader.read(from: root + "/Examples/Models/Company.yaml")
let factories = try! FactoriesReader.read(from: root + "/Examples/Fixtures/company.yaml")
let counts = ["Department": 100, "Employee": employees, "Project": 0]

func temporary(_ name: String) -> String {
    NSTemporaryDirectory() + "quarry-bench-\(ProcessInfo.processInfo.processIdentifier)-" + name
}

func remove(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}

/// The hand-written loader: one prepared INSERT per table, one transaction.
func handWritten(_ path: String) throws {
    let store = try SQLStore(path: path, model: model)
    let db = store.sqlite!
    try db.execute("PRAGMA journal_mode = OFF")
    try db.execute("PRAGMA synchronous = OFF")
    try db.execute("BEGIN IMMEDIATE")
    let department = try db.prepare("INSERT INTO \"Department\" (\"_pk\", \"_entity\", \"name\", \"budget\") VALUES (?, ?, ?, ?)")
    for i in 1...100 {
        try department.bind([.int(Int64(i)), .string("Department"), .string("Department \(i)"), .double(Double(i) * 1000)])
        _ = try department.step()
        department.reset()
    }
    let names = ["José Müller", "Zoë Smith", "Łukasz Kowalczyk", "Anna Brown", "佐藤 健", "John Garcia"]
    let insert = try db.prepare("""
        INSERT INTO "Employee" ("_pk", "_entity", "name", "age", "salary", "startDate", "active", "email", "department") \
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
    var arguments: [Value] = []
    for i in 1...employees {
        arguments.removeAll(keepingCapacity: true)
        arguments.append(.int(Int64(i)))
        arguments.append(.string("Employee"))
        arguments.append(.string(names[i % names.count]))
        arguments.append(.int(Int64(18 + i % 50)))
        arguments.append(.int(Int64(30_000 + (i * 7_919) % 150_000)))
        arguments.append(.date(Double(600_000_000 + i * 97)))
        arguments.append(.bool(i % 10 != 0))
        arguments.append(.string("user\(i % 5_000)@example.com"))
        arguments.append(.int(Int64(1 + (i * 31) % 100)))
        try insert.bind(arguments)
        _ = try insert.step()
        insert.reset()
    }
    try db.execute("COMMIT")
    db.close()
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .peakMemoryResident], timeUnits: .milliseconds,
                                           maxDuration: .seconds(120), maxIterations: 5)

    Benchmark("12 baseline: hand-written prepared INSERT loop, \(employees) employees") { benchmark in
        let path = temporary("baseline.sqlite")
        remove(path)
        benchmark.startMeasurement()
        try handWritten(path)
        benchmark.stopMeasurement()
        remove(path)
    }
    Benchmark("12 quarry: fixtures for \(employees) employees into SQLite") { benchmark in
        let path = temporary("fixtures.sqlite")
        remove(path)
        benchmark.startMeasurement()
        try FixtureGenerator(model: model, factories: factories, seed: 42, counts: counts).write(to: path, format: .sqlite)
        benchmark.stopMeasurement()
        remove(path)
    }
}

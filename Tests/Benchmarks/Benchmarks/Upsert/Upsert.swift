// Issue 23 / PERFORMANCE.md scenario 19: an upsert import — 1M rows into a
// store that already holds 500k of their keys, on a unique key, so half the
// rows update a saved row and half insert — against the hand-written
// statement doing the same in the same run:
//   - quarry: `batchInsert(_:mergePolicy: .mergeByPropertyObjectTrump)`
//     (SQLStore+BatchUpsert.swift: one prepared INSERT … ON CONFLICT DO
//     UPDATE stepped per row, the version raised, in one transaction);
//   - baseline: the same INSERT … ON CONFLICT ("key") DO UPDATE written by
//     hand, prepared once and stepped per row in one transaction.
// Each iteration starts from a fresh copy of the 500k-row file (not
// measured). The issue's bar: within 1.5×.
// First run (2-core VM, release, `cd Tests/Benchmarks && swift package
// benchmark --target Upsert`, medians of 5, 2026-11-27): quarry min 6.76 s,
// median 7.14 s; baseline min 3.52 s, median 4.22 s — 1.69×, over the bar.
// The difference is per row, outside SQLite: the batch's dictionary per
// row (the API Core Data's batch insert also has), each key checked
// against the model, each value converted for its attribute, then bound.
import Benchmark
import Foundation
import QuarrySQLite
import QuarryStore

let model = try! ModelReader.read(yaml: """
entities:
  Reading:
    attributes:
      key: { type: string, optional: false, unique: true }
      value: { type: integer64, optional: false }
      note: string
""", file: "readings.yaml")

let saved = 500_000
let imported = 1_000_000

/// Row `i` of the import: keys 0..<1M, of which 0..<500k are saved.
func key(_ i: Int) -> String { "sensor-\(i)" }

/// A closed store file holding keys 0..<500k, copied for every iteration.
let original: String = {
    let path = NSTemporaryDirectory() + "quarry-upsert-original-\(getpid()).sqlite"
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    let store = try! SQLStore(path: path, model: model)
    var i = 0
    try! store.batchInsert("Reading") {
        guard i < saved else { return nil }
        defer { i += 1 }
        return ["key": .string(key(i)), "value": .int(Int64(i)), "note": "first"]
    }
    store.database.close()
    return path
}()
let scratch = NSTemporaryDirectory() + "quarry-upsert-scratch-\(getpid()).sqlite"

func freshCopy() throws {
    for suffix in ["", "-wal", "-shm"] { unlink(scratch + suffix) }
    try FileManager.default.copyItem(atPath: original, toPath: scratch)
}

/// Every row is there once, the saved half updated: fails a broken run.
func check(_ connection: SQLiteConnection) throws {
    let rows = try connection.query(#"SELECT COUNT(*), SUM("_version" = 2), SUM("value") FROM "Reading""#, [], as: [SQLiteValueKind.int, .int, .int])
    let expected: [Value] = [.int(Int64(imported)), .int(Int64(saved)), .int(Int64(imported) * Int64(imported - 1) / 2 * 2)]
    guard rows.first == expected else { fatalError("upsert result wrong: \(rows) instead of \(expected)") }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock], maxDuration: .seconds(90), maxIterations: 5)
    _ = original
    atexit { for path in [original, scratch] { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } } }

    Benchmark("U quarry: batch upsert of 1M rows, 500k colliding (object trumps)") { benchmark in
        try freshCopy()
        let store = try SQLStore(path: scratch, model: model)
        var i = 0
        benchmark.startMeasurement()
        let result = try store.batchInsert("Reading", mergePolicy: .mergeByPropertyObjectTrump) {
            guard i < imported else { return nil }
            defer { i += 1 }
            return ["key": .string(key(i)), "value": .int(Int64(2 * i)), "note": "second"]
        }
        benchmark.stopMeasurement()
        guard result == .count(imported) else { fatalError("\(result)") }
        try check(store.sqlite!)
        store.database.close()
    }

    Benchmark("U baseline: hand-written INSERT … ON CONFLICT DO UPDATE, 1M rows") { benchmark in
        try freshCopy()
        let connection = try SQLiteConnection(path: scratch)
        benchmark.startMeasurement()
        try connection.transaction {
            let insert = try connection.prepare(#"INSERT INTO "Reading" ("_entity", "key", "value", "note") VALUES ('Reading', ?, ?, ?) ON CONFLICT ("key") DO UPDATE SET "key" = excluded."key", "value" = excluded."value", "note" = excluded."note", "_version" = "Reading"."_version" + 1"#)
            for i in 0..<imported {
                try insert.bind([.string(key(i)), .int(Int64(2 * i)), .string("second")])
                _ = try insert.step()
                insert.reset()
            }
        }
        benchmark.stopMeasurement()
        try check(connection)
        connection.close()
    }
}

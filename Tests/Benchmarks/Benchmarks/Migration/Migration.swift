// Issue 22: migrating a 1M-employee store (CompanyData) to the next model
// version, against the hand-written SQL doing the same in the same run:
//   - an attribute added with a default: Quarry's migration (open with
//     `migration: .automatic`: difference, plan, ADD COLUMN, the default
//     bound into one UPDATE, the model saved) against ADD COLUMN + UPDATE;
//   - an attribute renamed (renaming identifier): Quarry's migration
//     against one ALTER TABLE RENAME COLUMN.
// Each iteration starts from a fresh copy of the store file (not measured).
// The issue's bar: within 1.5× of the hand-written SQL. The rename is also
// measured paired (both sides in every iteration, their ratio recorded):
// a few milliseconds each, its two medians from separate runs drifted
// apart by more than the margin to the bar.
// First figures (not from this harness: `quarry migrate` in a debug build
// against the sqlite3 shell on a 1M-row file, 2-core machine under load
// ~13): add with default 0.73–1.00 s against 0.76–0.91 s (0.96–1.09×);
// rename 37–55 ms against 19–41 ms — a fixed ~20 ms of process start,
// model reading and saving, which this harness leaves out of neither side.
import Benchmark
import CompanyData
import Foundation
import QuarryStore

/// A closed 1M-employee store file, copied for every iteration.
let original: String = {
    let store = makeCompanyStore("migration", employees: 1_000_000)
    let path = store.database.location
    store.database.close()
    return path
}()
let scratch = NSTemporaryDirectory() + "quarry-migration-scratch-\(getpid()).sqlite"

func freshCopy() throws {
    for suffix in ["", "-wal", "-shm"] { unlink(scratch + suffix) }
    try FileManager.default.copyItem(atPath: original, toPath: scratch)
}

let withEmail = try! ModelReader.read(yaml: companyModelYAML.replacingOccurrences(
    of: "      active: boolean\n", with: "      active: boolean\n      email: { type: string, default: none }\n"), file: "company-email.yaml")
let withFullName = try! ModelReader.read(yaml: companyModelYAML.replacingOccurrences(
    of: "      name: { type: string, optional: false }\n      age: integer16",
    with: "      fullName: { type: string, optional: false, userInfo: { renamingIdentifier: name } }\n      age: integer16"), file: "company-rename.yaml")

/// What the rename's migration leaves in `_quarry_metadata` (the new model
/// and the layout record, which name the column), read once from a copy
/// Quarry migrated: a hand-written migration of a Quarry store must write
/// them too, or the store no longer opens with the new model.
let renamedMetadata: [(key: String, value: String)] = {
    try! freshCopy()
    try! SQLStore(path: scratch, model: withFullName, migration: .automatic).database.close()
    let connection = try! SQLiteConnection(path: scratch)
    defer { connection.close() }
    return try! connection.rows("SELECT \"key\", \"value\" FROM \(StoreMapping.quotedMetadataTable) WHERE \"key\" IN ('model', 'layout')").map {
        guard case .string(let key) = $0[0], case .string(let value) = $0[1] else { fatalError("metadata row") }
        return (key, value)
    }
}()

/// The rename's hand-written side: its connection, left open (closing is
/// not measured on either side).
func renameByHand(_ metadata: [(key: String, value: String)]) throws -> SQLiteConnection {
    let connection = try SQLiteConnection(path: scratch)
    try connection.inTransaction {
        _ = try connection.run(#"ALTER TABLE "Employee" RENAME COLUMN "name" TO "fullName""#, [])
        for (key, value) in metadata {
            _ = try connection.run("UPDATE \(StoreMapping.quotedMetadataTable) SET \"value\" = ? WHERE \"key\" = ?", [.string(value), .string(key)])
        }
    }
    return connection
}

/// One side of a paired iteration: the time of `body` alone, on a fresh
/// copy; what it returns (closing its connection) runs after the clock stops.
func timed(_ body: () throws -> () -> Void) throws -> Duration {
    try freshCopy()
    let start = ContinuousClock.now
    let close = try body()
    let elapsed = ContinuousClock.now - start
    close()
    return elapsed
}

/// Quarry's time over the hand-written side's, ×100, both measured in the
/// same iteration (which goes first alternates): the machine's drift from
/// one run to the next moves both sides of a pair alike.
let pairedRatio = BenchmarkMetric.custom("Quarry / hand-written ×100, paired", polarity: .prefersSmaller, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock], maxDuration: .seconds(60), maxIterations: 5)
    _ = original
    atexit { for suffix in ["", "-wal", "-shm"] { unlink(scratch + suffix) } }

    Benchmark("M quarry: migrate 1M rows, attribute added with a default") { benchmark in
        try freshCopy()
        benchmark.startMeasurement()
        let store = try SQLStore(path: scratch, model: withEmail, migration: .automatic)
        benchmark.stopMeasurement()
        store.database.close()
    }
    Benchmark("M baseline: ALTER TABLE ADD COLUMN + UPDATE by hand") { benchmark in
        try freshCopy()
        benchmark.startMeasurement()
        let connection = try SQLiteConnection(path: scratch)
        try connection.inTransaction {
            _ = try connection.run(#"ALTER TABLE "Employee" ADD COLUMN "email" TEXT"#, [])
            _ = try connection.run(#"UPDATE "Employee" SET "email" = ?"#, [.string("none")])
        }
        benchmark.stopMeasurement()
        connection.close()
    }
    // A rename takes a few milliseconds, most of them the commit's fsync,
    // whose time varies by a millisecond from one to the next: 25 iterations.
    let renames = Benchmark.Configuration(metrics: [.wallClock], maxDuration: .seconds(60), maxIterations: 25)
    Benchmark("M quarry: migrate 1M rows, attribute renamed", configuration: renames) { benchmark in
        try freshCopy()
        benchmark.startMeasurement()
        let store = try SQLStore(path: scratch, model: withFullName, migration: .automatic)
        benchmark.stopMeasurement()
        store.database.close()
    }
    Benchmark("M baseline: ALTER TABLE RENAME COLUMN + the new model and layout, by hand", configuration: renames) { benchmark in
        let metadata = renamedMetadata
        try freshCopy()
        benchmark.startMeasurement()
        let connection = try renameByHand(metadata)
        benchmark.stopMeasurement()
        connection.close()
    }
    // The rename's two sides again, paired in each iteration: the medians
    // above come from two runs a minute apart, and this machine's runs
    // drift by more than the gap between the bar and the measurement.
    let paired = Benchmark.Configuration(metrics: [pairedRatio], maxDuration: .seconds(120), maxIterations: 41)
    Benchmark("M paired: attribute renamed, Quarry over the hand-written SQL", configuration: paired) { benchmark in
        let metadata = renamedMetadata
        var quarry = Duration.zero, hand = Duration.zero
        // Whichever side ran first in the last iteration runs second in this one.
        let quarryFirst = benchmark.currentIteration % 2 == 0
        for side in quarryFirst ? [true, false] : [false, true] {
            if side {
                quarry = try timed {
                    let store = try SQLStore(path: scratch, model: withFullName, migration: .automatic)
                    return { store.database.close() }
                }
            } else {
                hand = try timed {
                    let connection = try renameByHand(metadata)
                    return { connection.close() }
                }
            }
        }
        benchmark.measurement(pairedRatio, Int((quarry / hand * 100).rounded()))
    }
    Benchmark("M baseline: ALTER TABLE RENAME COLUMN alone, by hand", configuration: renames) { benchmark in
        try freshCopy()
        benchmark.startMeasurement()
        let connection = try SQLiteConnection(path: scratch)
        try connection.inTransaction { _ = try connection.run(#"ALTER TABLE "Employee" RENAME COLUMN "name" TO "fullName""#, []) }
        benchmark.stopMeasurement()
        connection.close()
    }
}

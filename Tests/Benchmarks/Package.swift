// swift-tools-version: 6.1
// Quarry's benchmarks, a package of their own so that users of the library
// never resolve the benchmark harness and `swift test` stays fast.
// Run from this folder: `swift package benchmark` (see README.md here).
import Foundation
import PackageDescription

// A path dependency is known by its folder's name, which is the clone's name
// (main, quarry, ...); read it instead of hard-coding it.
let quarry = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

/// A benchmark executable: Benchmarks/<name>, run by the benchmark plugin.
func benchmark(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.product(name: "Benchmark", package: "package-benchmark")] + dependencies,
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
    )
}

let store = Target.Dependency.product(name: "QuarryStore", package: quarry)

let package = Package(
    name: "QuarryBenchmarks",
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // The company store every store benchmark measures (not a benchmark).
        .target(name: "CompanyData", dependencies: [store], path: "Support/CompanyData"),
        benchmark("Parsing", [.product(name: "QuarrySyntax", package: quarry)]),
        benchmark("Evaluation", [.product(name: "QuarryEvaluation", package: quarry)]),
        benchmark("Store", [store, "CompanyData"]),
        benchmark("Postgres", [.product(name: "QuarryPostgres", package: quarry),
                               .product(name: "PostgresNIO", package: "postgres-nio"), "CompanyData"]),
        benchmark("Fixtures", [.product(name: "QuarryFixtures", package: quarry)]),
        benchmark("Batches", [store, "CompanyData"]),
        benchmark("Sections", [store, "CompanyData"]),
        benchmark("Decorrelation", [store, .product(name: "QuarryPostgres", package: quarry), "CompanyData"]),
        // Issue 19's scale cliffs: store open, fixtures, long needles and patterns.
        benchmark("Hardening", [.product(name: "QuarryFixtures", package: quarry), .product(name: "QuarryPostgres", package: quarry)]),
        // Issue 21: a Core Data store read through QuarryCoreData's views.
        benchmark("CoreData", [.product(name: "QuarryCoreData", package: quarry)]),
        // Issue 24: linting a 2,000-file tree against reading it.
        benchmark("Lint", [.product(name: "QuarryLint", package: quarry), .product(name: "QuarryModel", package: quarry)]),
        // Issue 22: migrating a 1M-row store against hand-written ALTER TABLE.
        benchmark("Migration", [store, "CompanyData"]),
        // Issue 22 on Core Data stores: CoreDataMigration against hand-written SQL.
        benchmark("CoreDataMigration", [.product(name: "QuarryCoreData", package: quarry)]),
        benchmark("Concurrency", [store, "CompanyData"]),
        // Issue 23: an upsert import of 1M rows against INSERT … ON CONFLICT.
        benchmark("Upsert", [store, .product(name: "QuarrySQLite", package: quarry)]),
        // Spawns the root package's release `quarry` (build it first).
        benchmark("Startup", []),
        // Not a benchmark (its folder is not under Benchmarks/): the program
        // Scripts/batched-fetch-memory.sh measures with /usr/bin/time -v.
        .executableTarget(name: "BatchMemory", dependencies: [store, "CompanyData"], path: "Tools/BatchMemory"),
    ]
)

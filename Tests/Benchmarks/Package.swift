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

let package = Package(
    name: "QuarryBenchmarks",
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .executableTarget(
            name: "Parsing",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "QuarrySyntax", package: quarry),
            ],
            path: "Benchmarks/Parsing",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "Evaluation",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "QuarryEvaluation", package: quarry),
            ],
            path: "Benchmarks/Evaluation",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "Store",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "QuarryStore", package: quarry),
            ],
            path: "Benchmarks/Store",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "Postgres",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "QuarryPostgres", package: quarry),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Benchmarks/Postgres",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "Fixtures",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "QuarryFixtures", package: quarry),
            ],
            path: "Benchmarks/Fixtures",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "Batches",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "QuarryStore", package: quarry),
            ],
            path: "Benchmarks/Batches",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // Not a benchmark (its folder is not under Benchmarks/): the program
        // Scripts/batched-fetch-memory.sh measures with /usr/bin/time -v.
        .executableTarget(
            name: "BatchMemory",
            dependencies: [.product(name: "QuarryStore", package: quarry)],
            path: "Tools/BatchMemory"
        ),
        .executableTarget(
            name: "Sections",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "QuarryStore", package: quarry),
            ],
            path: "Benchmarks/Sections",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // Spawns the root package's release `quarry` (build it first).
        .executableTarget(
            name: "Startup",
            dependencies: [.product(name: "Benchmark", package: "package-benchmark")],
            path: "Benchmarks/Startup",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ]
)

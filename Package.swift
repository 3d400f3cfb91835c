// swift-tools-version: 6.1
// Quarry: Core Data's predicate and expression language on Linux.
// Layers (see ../shared/design/ARCHITECTURE.md): QuarrySyntax (text → AST, printer,
// diagnostics) → QuarryEvaluation (AST → closures → values) → QuarryShell (the
// machine interface and, later, the REPL) → the `quarry` executable.
import PackageDescription

let package = Package(
    name: "Quarry",
    products: [
        .library(name: "QuarrySyntax", targets: ["QuarrySyntax"]),
        .library(name: "QuarryEvaluation", targets: ["QuarryEvaluation"]),
        .library(name: "QuarryModel", targets: ["QuarryModel"]),
        .library(name: "QuarrySQLite", targets: ["QuarrySQLite"]),
        .library(name: "QuarrySQL", targets: ["QuarrySQL"]),
        .library(name: "QuarryStore", targets: ["QuarryStore"]),
        .library(name: "QuarryFixtures", targets: ["QuarryFixtures"]),
        .library(name: "QuarryPostgres", targets: ["QuarryPostgres"]),
        .library(name: "QuarryLint", targets: ["QuarryLint"]),
        .library(name: "QuarryStatements", targets: ["QuarryStatements"]),
        .library(name: "QuarryCoreData", targets: ["QuarryCoreData"]),
        .executable(name: "quarry", targets: ["quarry"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .target(name: "QuarrySyntax"),
        .target(name: "QuarryModel", dependencies: ["QuarrySyntax", .product(name: "Yams", package: "Yams")]),
        // The binding pass (issue 18): key paths resolved against a model once,
        // and the vocabulary (collection operators, aggregates, string
        // operators, scalar keys, the type rule) both engines switch on.
        .target(name: "QuarryBinding", dependencies: ["QuarrySyntax", "QuarryModel"]),
        .target(name: "QuarryEvaluation", dependencies: ["QuarrySyntax", "QuarryBinding"]),
        .target(name: "QuarrySQL", dependencies: ["QuarryModel", "QuarryEvaluation"]),
        // `quarry lint`: format strings in Swift/Objective-C sources checked against models.
        .target(name: "QuarryLint", dependencies: ["QuarrySyntax", "QuarryModel", .product(name: "Yams", package: "Yams")]),
        // The statement language (parser, script splitter, printer) for any
        // tool that reads statements: no store, terminal or database, so it
        // must depend on nothing past QuarrySyntax and QuarryModel
        // (Tests/QuarryStatementsTests/DependencyTests.swift checks).
        .target(name: "QuarryStatements", dependencies: ["QuarrySyntax"]),
        .target(name: "QuarryStore", dependencies: ["QuarrySQL", "QuarrySQLite"]),
        .target(name: "QuarryFixtures", dependencies: ["QuarryStore", "QuarryCoreData", .product(name: "Yams", package: "Yams")]),
        // The PostgreSQL driver: a synchronous `SQLDatabase` over postgres-nio's
        // EventLoopFuture API (see Sources/QuarryPostgres/PostgresDatabase.swift).
        .target(
            name: "QuarryPostgres",
            dependencies: ["QuarryStore", .product(name: "PostgresNIO", package: "postgres-nio")]
        ),
        // Not a product: finds the test server (QUARRY_POSTGRES_URL) and hands
        // out connections on fresh schemas, for any test target that needs one.
        .target(name: "QuarryPostgresTestSupport", dependencies: ["QuarryPostgres"]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "QuarrySQLite", dependencies: ["CSQLite", "QuarryEvaluation"]),
        .systemLibrary(name: "CReadline", providers: [.apt(["libreadline-dev"])]),
        // Reading apps' Core Data stores read-only (issue 21); zlib inflates
        // the model Core Data caches in the store.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "QuarryCoreData", dependencies: ["QuarryStore", "QuarrySQLite", "CZlib"]),
        // The default store's prebuilt SQLite image (bytes in C: compiles fast).
        .target(name: "CDefaultStoreImage"),
        .target(name: "QuarryShell", dependencies: ["QuarrySyntax", "QuarryStatements", "QuarryEvaluation", "QuarryStore", "QuarryPostgres", "QuarryCoreData", "CReadline",
                                                    "CDefaultStoreImage"]),
        .executableTarget(
            name: "quarry",
            dependencies: [
                "QuarryShell",
                "QuarryFixtures",
                "QuarryPostgres",
                "QuarryLint",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Start-up time (`quarry -c 'COUNT Employee'` within 5× of
            // `sqlite3 :memory: 'select 1'`, Tests/Benchmarks target Startup):
            // the Swift runtime and Foundation linked in statically (no symbol
            // lookups across a dozen shared libraries at every start), a
            // position-dependent executable (no 100,000 relocations applied
            // before main), and no exported symbol table (the runtime's dladdr
            // at start-up scans it). The other modules are compiled against
            // the shared Foundation, whose link lines do not name the static
            // archives' own dependencies, so they are named here. Libraries and
            // tests are unaffected.
            // QUARRY_SHARED_STDLIB=1 (Scripts/sanitizers.sh thread) links it the
            // ordinary way instead: ThreadSanitizer's runtime cannot share a
            // process with a statically linked Swift runtime and libdispatch.
            linkerSettings: Context.environment["QUARRY_SHARED_STDLIB"] != nil ? [] : [.unsafeFlags([
                "-static-stdlib", "-Xclang-linker", "-no-pie", "-Xlinker", "--no-export-dynamic",
                "-lCoreFoundation", "-l_FoundationICU", "-l_FoundationCShims", "-l_FoundationCollections",
                "-l_CFXMLInterface", "-lxml2", "-lstdc++",
            ], .when(platforms: [.linux]))]
        ),
        // The seeded mutation fuzzer of every reader of untrusted text
        // (issue 19); Scripts/fuzz.sh runs it. Not a product.
        .executableTarget(name: "quarry-fuzz", dependencies: ["QuarryShell", "QuarryFixtures"], path: "Sources/QuarryFuzz"),
        // The stress writers' loop, and the program that runs it as a
        // process of its own (MultiProcessStressTests); test tools, not products.
        .target(name: "QuarryStressWriting", dependencies: ["QuarryStore", "QuarryPostgres"]),
        .executableTarget(name: "quarry-stress-writer", dependencies: ["QuarryStressWriting", "QuarryPostgres"], path: "Sources/QuarryStressWriter"),
        .testTarget(name: "QuarrySyntaxTests", dependencies: ["QuarrySyntax"]),
        .testTarget(name: "QuarryEvaluationTests", dependencies: ["QuarryEvaluation"]),
        .testTarget(name: "QuarryShellTests", dependencies: ["QuarryShell", "QuarryFixtures", "QuarryPostgresTestSupport"]),
        .testTarget(name: "QuarryModelTests", dependencies: ["QuarryModel"]),
        .testTarget(name: "QuarryLintTests", dependencies: ["QuarryLint"]),
        .testTarget(name: "QuarryStatementsTests", dependencies: ["QuarryStatements"]),
        .testTarget(name: "QuarrySQLiteTests", dependencies: ["QuarrySQLite"]),
        .testTarget(name: "QuarrySQLTests", dependencies: ["QuarrySQL"]),
        .testTarget(name: "QuarryStoreTests", dependencies: ["QuarryStore", "QuarryFixtures", "QuarryPostgres", "QuarryPostgresTestSupport", "QuarryStressWriting"]),
        .testTarget(name: "QuarryFixturesTests", dependencies: ["QuarryFixtures", "QuarryPostgres", "QuarryPostgresTestSupport"]),
        .testTarget(name: "QuarryCoreDataTests", dependencies: ["QuarryCoreData", "QuarryFixtures"]),
        .testTarget(name: "QuarryPostgresTests", dependencies: ["QuarryPostgres", "QuarryPostgresTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// Sanitized builds (Scripts/asan-build-flags.sh, Scripts/sanitizers.sh):
// QUARRY_SANITIZER=address|thread instruments Quarry's own modules and links
// the sanitizer's runtime into its executables and test bundle. Only
// Quarry's modules: the dependencies (swift-nio, BoringSSL twice, Yams, …)
// keep the plain build's flags, so in the plain build's folder they are not
// compiled again — CI builds them once, not three times. A sanitizer's
// runtime still sees every allocation and lock of theirs (it intercepts
// malloc, free and pthread); what it does not see is a stray access inside
// their own code. `swift build --sanitize=…` would instrument everything.
// The variable must be set alike for the build and `swift test`, or SwiftPM
// sees another manifest and builds again.
if let sanitizer = Context.environment["QUARRY_SANITIZER"], !sanitizer.isEmpty {
    var swiftFlags = ["-sanitize=\(sanitizer)"]
    var linkFlags = ["-sanitize=\(sanitizer)"]
    if sanitizer == "address" {
        // libFuzzer's coverage instrumentation (what `-sanitize=fuzzer` would
        // add) rides along, so Scripts/fuzz.sh needs no build of its own; in
        // the tests its hooks are the ASan runtime's no-ops. The runtime is
        // linked as a shared library: `quarry` links the Swift runtime
        // statically and hides its symbols, which would also hide a static
        // ASan's malloc and free from libc and libreadline.
        swiftFlags.append("-sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp")
        linkFlags += ["-Xclang-linker", "-shared-libasan"]
    }
    // C targets (named C…) hold no code worth instrumenting.
    for target in package.targets where target.type != .system && !target.name.hasPrefix("C") {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(swiftFlags)]
        if target.type == .executable || target.type == .test {
            target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(linkFlags)]
        }
    }
}

// QUARRY_TEST_TARGETS=A,B,… declares only those test targets (CI's sanitized
// builds: each runs a filter that touches a few of them, and compiling the
// others instrumented would cost minutes of CI's hour for nothing). A name
// that is not a test target of this package stops the build here, so a
// renamed target cannot silently leave a sanitized run with fewer suites.
// Like QUARRY_SANITIZER, it must be set alike for the build and `swift test`.
if let selected = Context.environment["QUARRY_TEST_TARGETS"], !selected.isEmpty {
    let names = Set(selected.split(separator: ",").map { String($0) })
    let known = Set(package.targets.filter { $0.type == .test }.map(\.name))
    if let unknown = names.subtracting(known).sorted().first {
        fatalError("QUARRY_TEST_TARGETS names \(unknown), which is not a test target (they are: \(known.sorted().joined(separator: ", ")))")
    }
    package.targets.removeAll { $0.type == .test && !names.contains($0.name) }
}

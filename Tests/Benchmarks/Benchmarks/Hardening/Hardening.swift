// Scale cliffs of issue 19, each beside what it must stay close to:
//   - opening an existing store whose model has 10,000 entities (target
//     ≤ 1 s; it was quadratic: 2,000 entities took 26 s);
//   - fixtures for 1,000 entities against 100 (target ≤ 12× the time for
//     10× the entities; it was roughly cubic);
//   - `CONTAINS[cd]` with a 1 kB needle and `LIKE` with 50 `?` over 1 MB of
//     text, in memory and in SQLite (Quarry's functions), each against a
//     plain `CONTAINS` of a 3-byte needle over the same text (target ≤ 3×);
//     on PostgreSQL too (Quarry's PL/pgSQL functions) when
//     QUARRY_POSTGRES_URL names a server.
// The text is built to defeat the old quadratic loops: a run of one letter
// the long needle and the pattern almost match at every position.
//
// Run: cd Tests/Benchmarks && swift package benchmark --target Hardening
// (with PostgreSQL: Scripts/postgres-test-server.sh run -- bash -c
// 'cd Tests/Benchmarks && swift package benchmark --target Hardening')
import Benchmark
import Foundation
import QuarryFixtures
import QuarryPostgres

/// A chain of entities, each with two attributes, a to-one to the next and
/// every tenth a many-to-many: the shape the scale measurements used.
func chainModel(_ n: Int) -> Model {
    var entities: [Entity] = []
    for i in 0..<n {
        var relationships: [Relationship] = []
        if i + 1 < n { relationships.append(Relationship(name: "next", destination: "E\(i + 1)", inverse: "prev")) }
        if i > 0 { relationships.append(Relationship(name: "prev", destination: "E\(i - 1)", isToMany: true, inverse: "next")) }
        if i % 10 == 0 && i + 5 < n { relationships.append(Relationship(name: "tags", destination: "E\(i + 5)", isToMany: true, inverse: "tagged")) }
        if i % 10 == 5 { relationships.append(Relationship(name: "tagged", destination: "E\(i - 5)", isToMany: true, inverse: "tags")) }
        entities.append(Entity(name: "E\(i)", attributes: [Attribute(name: "name", type: .string), Attribute(name: "size", type: .integer32)],
                               relationships: relationships))
    }
    return Model(entities: entities)
}

func temporary(_ name: String) -> String {
    NSTemporaryDirectory() + "quarry-bench-hardening-\(ProcessInfo.processInfo.processIdentifier)-" + name
}

func remove(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}

let bigModel = chainModel(10_000)
let storePath: String = {
    let path = temporary("open.sqlite")
    remove(path)
    _ = try! SQLStore(path: path, model: bigModel)
    return path
}()

let text = String(repeating: "a", count: 1_000_000)
let textModel = Model(entities: [Entity(name: "T", attributes: [Attribute(name: "text", type: .string)])])
nonisolated(unsafe) let textStore: SQLStore = {
    let store = try! SQLStore(path: ":memory:", model: textModel)
    _ = try! store.database.run(#"INSERT INTO "T" ("_pk", "_entity", "text") VALUES (1, 'T', ?)"#, [.string(text)])
    return store
}()

/// The same text on PostgreSQL, in a schema of its own, when a server is named.
nonisolated(unsafe) let postgresTextStore: SQLStore? = {
    guard let server = ProcessInfo.processInfo.environment["QUARRY_POSTGRES_URL"], !server.isEmpty,
          var url = try? PostgresURL(server) else { return nil }
    url.schema = "quarry_bench_hardening_\(getpid())"
    let store = try! SQLStore(postgres: url.description, model: textModel)
    try! store.batchInsert("T", objects: [["text": .string(text)]])
    return store
}()

let needle = String(repeating: "a", count: 1_000) + "b"
let pattern = "*" + String(repeating: "?", count: 50) + "b*"
let cases: [(String, String, [Value])] = [
    ("baseline: CONTAINS, 3-byte needle", "text CONTAINS %@", [.string("aab")]),
    ("quarry: CONTAINS[cd], 1 kB needle", "text CONTAINS[cd] %@", [.string(needle)]),
    ("quarry: LIKE with 50 ?", "text LIKE %@", [.string(pattern)]),
]

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock], timeUnits: .milliseconds,
                                           maxDuration: .seconds(30), maxIterations: 10)

    Benchmark("open a store of 10,000 entities (model in memory)") { benchmark in
        benchmark.startMeasurement()
        _ = try SQLStore(path: storePath, model: bigModel)
        benchmark.stopMeasurement()
    }

    for n in [100, 1_000] {
        let model = chainModel(n)
        Benchmark("fixtures for \(n) entities into SQLite") { benchmark in
            let path = temporary("fixtures-\(n).sqlite")
            remove(path)
            benchmark.startMeasurement()
            try FixtureGenerator(model: model, seed: 1).write(to: path, format: .sqlite)
            benchmark.stopMeasurement()
            remove(path)
        }
    }

    for (name, format, arguments) in cases {
        let compiled = try! Evaluator.compile(try! Parser.parsePredicate(SourceText(format), arguments: arguments))
        let object = Value.dictionary(["text": .string(text)])
        Benchmark("in memory, 1 MB, \(name)") { _ in
            blackHole(try compiled.evaluate(object))
        }
        let request = FetchRequest(entity: "T", predicate: try! Parser.parsePredicate(SourceText(format), arguments: arguments))
        Benchmark("in SQLite, 1 MB, \(name)") { _ in
            blackHole(try textStore.count(request))
        }
        if let postgres = postgresTextStore {
            Benchmark("in PostgreSQL, 1 MB, \(name)") { _ in
                blackHole(try postgres.count(request))
            }
        }
    }
}

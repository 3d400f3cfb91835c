// The differential fuzzer's run (EngineFuzzer.swift): N random predicates
// on a fresh seed, printed, through the memory engine and SQL on SQLite (and
// on PostgreSQL when a server is configured): every pair must agree. On a
// disagreement it prints the shrunk predicate, both outcomes and a
// ready-to-run `quarry` command on a copy of the fixture store, then the
// data shrunk as well (EngineFuzzer+DataShrinking.swift): the minimal
// objects as a `quarry` script and a store holding only them, with commands.
//   QUARRY_FUZZ_COUNT (default 10,000) and QUARRY_FUZZ_SEED (default: a new
//   random seed) set the run; Scripts/fuzz-engines.sh --count N --seed S
//   runs a longer one.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Fuzzer: every engine agrees on random predicates", .serialized)
struct EngineFuzzTests {
    static let stores = EngineStores { try Fixture.store(engine: $0) }

    @Test func randomPredicatesAgreeOnEveryEngine() throws {
        let environment = ProcessInfo.processInfo.environment
        let count = Int(environment["QUARRY_FUZZ_COUNT"] ?? "") ?? 10_000
        let seed = environment["QUARRY_FUZZ_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        let stores = try TestEngine.available.map { ($0.rawValue, try Self.stores.store($0)) }
        print("fuzz-engines: seed \(seed), \(count) predicates, engines: \(stores.map { "\($0.0) memory, \($0.0) sql" }.joined(separator: ", "))")
        var fuzzer = GrammarFuzzer(seed: seed)
        var found: [String: FuzzDisagreement] = [:]
        var minimal: [String: String] = [:]
        var errors = 0
        let started = Date()
        for _ in 0..<count {
            let node = fuzzer.draw()
            let outcomes = EngineFuzzer.outcomes(node.description, stores: stores)
            if case .error? = outcomes.first?.1 { errors += 1 }
            guard outcomes.contains(where: { $0.1 != outcomes[0].1 }) else { continue }
            let small = EngineFuzzer.shrink(node, stores: stores)
            if found[small.description] == nil, let d = EngineFuzzer.disagreement(small.description, stores: stores) {
                found[small.description] = d
                // The data shrunk too, on fresh stores of the engines that disagree.
                minimal[small.description] = EngineFuzzer.minimalCase(d, entity: "Employee", source: stores[0].1, seed: seed, tag: "\(found.count)")
            }
        }
        let seconds = Date().timeIntervalSince(started)
        let missing = GrammarFuzzer.productions.filter { fuzzer.coverage[$0, default: 0] == 0 }
        print("fuzz-engines: \(count) predicates in \(String(format: "%.1f", seconds)) s, \(errors) failed the same way everywhere, "
              + "\(found.count) minimal disagreements; productions covered \(GrammarFuzzer.productions.count - missing.count)/\(GrammarFuzzer.productions.count)")
        print("fuzz-engines: coverage " + fuzzer.coverage.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        // The grammar's productions, through the categories that draw them.
        let grammar = GrammarCoverage.drawn(fuzzer.coverage)
        let undrawn = grammar.filter { $0.1 == 0 }.map(\.0)
        print("fuzz-engines: grammar productions drawn \(grammar.count - undrawn.count)/\(grammar.count) claimed "
              + "(\(GrammarCoverage.notGenerated.count) not generated: \(GrammarCoverage.notGenerated.keys.sorted().joined(separator: ", "))): "
              + grammar.map { "\($0.0)=\($0.1)" }.joined(separator: " "))
        if !found.isEmpty {
            let path = NSTemporaryDirectory() + "quarry-fuzz-\(seed).sqlite"
            unlink(path)
            try? Self.stores.store(.sqlite).connection.execute("VACUUM INTO '\(path)'")
            for d in found.values.sorted(by: { $0.format < $1.format }) {
                print("fuzz-engines: DISAGREEMENT (seed \(seed))\n    \(d)")
                let statement = "FETCH Employee WHERE \(d.format)".replacingOccurrences(of: "'", with: "'\\''")
                print("    quarry --store \(path) --engine memory -c '\(statement)'; quarry --store \(path) --engine sql -c '\(statement)'")
                print(minimal[d.format] ?? "")
            }
        }
        #expect(missing.isEmpty, "categories never drawn: \(missing)")
        #expect(undrawn.isEmpty, "grammar productions never drawn: \(undrawn)")
        #expect(found.isEmpty, "seed \(seed): \(found.count) disagreements, e.g. \(found.keys.sorted().prefix(5))")
    }
}

/// The same differential run on randomly drawn models (EngineFuzzer+Models.swift).
@Suite("Fuzzer: engines agree on random models", .serialized)
struct RandomModelFuzzTests {
    @Test func randomModelsAgreeOnEveryEngine() throws {
        let environment = ProcessInfo.processInfo.environment
        let models = Int(environment["QUARRY_FUZZ_MODELS"] ?? "") ?? 5
        let perModel = Int(environment["QUARRY_FUZZ_MODEL_COUNT"] ?? "") ?? 600
        let seed = environment["QUARRY_FUZZ_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("fuzz-models: seed \(seed), \(models) models × \(perModel) predicates, engines: \(TestEngine.available.map(\.rawValue))")
        var rng = Seeded(state: seed)
        var found: [String: FuzzDisagreement] = [:]
        var errors = 0
        var commands: [String] = []
        for m in 0..<models {
            let model = RandomModel(rng: &rng)
            let dataSeed = rng.next()
            // Every other model gets its rows from QuarryFixtures with edge
            // cases (what `quarry fixtures --edge-cases` writes) instead of
            // the fuzzer's own pools; QUARRY_FUZZ_FIXTURES=0 turns that off.
            // (LIKE between two rows' text, one of them the 10,000-character
            // edge case, once ran for minutes per row on PostgreSQL; its
            // functions are linear in the text now: issue 19.)
            let fromFixtures = environment["QUARRY_FUZZ_FIXTURES"] != "0" && m % 2 == 1
            let stores = try TestEngine.available.map { engine in
                let store = try engine.emptyStore(model: model.model)
                if fromFixtures { try model.fillFromFixtures(store, seed: dataSeed) } else { try model.fill(store, seed: dataSeed) }
                return (engine.rawValue, store)
            }
            print("fuzz-models: model \(m): data from \(fromFixtures ? "QuarryFixtures (edge cases)" : "the fuzzer's value pools"), "
                  + RandomModel.entities.map { "\($0) \((try? stores[0].1.count(FetchRequest(entity: $0))) ?? -1)" }.joined(separator: ", "))
            var fuzzer = ModelFuzzer(rng: Seeded(state: rng.next()), model: model)
            for _ in 0..<perModel {
                let entity = fuzzer.pick(RandomModel.entities)
                let node = fuzzer.predicate(entity, depth: 2)
                let outcomes = EngineFuzzer.outcomes(node.description, stores: stores, entity: entity)
                if case .error? = outcomes.first?.1 { errors += 1 }
                guard outcomes.contains(where: { $0.1 != outcomes[0].1 }) else { continue }
                let small = EngineFuzzer.shrink(node, stores: stores, entity: entity)
                let key = "model \(m) \(entity): \(small)"
                if found[key] == nil, let d = EngineFuzzer.disagreement(small.description, stores: stores, entity: entity) {
                    found[key] = d
                    print("fuzz-models: DISAGREEMENT (seed \(seed), model \(m), FETCH \(entity))\n    \(d)")
                    // The store (it carries its model) in a file, and the
                    // commands that show the two answers.
                    let path = NSTemporaryDirectory() + "quarry-fuzz-\(seed)-model\(m).sqlite"
                    if !FileManager.default.fileExists(atPath: path) { try? stores[0].1.connection.execute("VACUUM INTO '\(path)'") }
                    let statement = "FETCH \(entity) WHERE \(d.format)".replacingOccurrences(of: "'", with: "'\\''")
                    commands.append("quarry --store \(path) --engine memory -c '\(statement)'; quarry --store \(path) --engine sql -c '\(statement)'")
                    print("    " + commands[commands.count - 1])
                    print(EngineFuzzer.minimalCase(d, entity: entity, source: stores[0].1, seed: seed, tag: "model\(m)-\(found.count)"))
                }
            }
        }
        print("fuzz-models: \(models * perModel) predicates, \(errors) failed the same way everywhere, \(found.count) minimal disagreements")
        #expect(found.isEmpty, "seed \(seed): \(found.count) disagreements, e.g. \(found.keys.sorted().prefix(5))")
    }
}

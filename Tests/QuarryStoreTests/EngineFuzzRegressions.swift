// Minimal cases the random-model fuzzer (EngineFuzzer+Models.swift) found,
// kept on a model made for them: a to-many of rows with an Integer 64 at the
// edges of its range and a date. Each must give the same rows, or the same
// error, on the memory engine and in SQL on every database.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Fuzzer regressions on random models", .serialized)
struct EngineFuzzRegressionTests {
    static let model = Model(entities: [
        Entity(name: "Box", attributes: [Attribute(name: "label", type: .string)], relationships: [
            Relationship(name: "parts", destination: "Part", isToMany: true, inverse: "box"),
        ]),
        Entity(name: "Part", attributes: [Attribute(name: "n", type: .integer64), Attribute(name: "d", type: .date),
                                          Attribute(name: "small", type: .integer16), Attribute(name: "x", type: .double),
                                          Attribute(name: "f", type: .double)], relationships: [
            Relationship(name: "box", destination: "Box", inverse: "parts"),
        ]),
    ])

    static let stores = EngineStores { engine in
        let store = try engine.emptyStore(model: model)
        let boxes = try (0..<3).map { try store.insert("Box", ["label": .string("box \($0)")]) }
        // Box 0: a sum that overflows Int64; box 1: one that fits; box 2: no parts.
        let parts: [(Int, Value, Value)] = [(0, .int(.max), .date(0.5)), (0, .int(.max), .date(-1e9)), (0, .int(-32768), .null),
                                            (1, .int(.max), .date(1e9)), (1, .int(.min), .null), (1, .null, .date(0))]
        let floats: [Value] = [.double(1e300), .double(0.1), .double(-1e300), .double(-0.0), .double(16_777_216), .null]
        for (i, (box, n, d)) in parts.enumerated() {
            _ = try store.insert("Part", ["n": n, "d": d, "small": .int(7), "x": .double(9_007_199_254_740_992), "f": floats[i]],
                                 toOne: ["box": boxes[box]])
        }
        return store
    }

    static let cases: [(String, String, String)] = [
        // SQL summed and averaged dates; the evaluator raises (E001).
        ("Box", "parts.@avg.d != CAST(0.5, 'NSDate')", "E001"),
        ("Box", "parts.@sum.d == nil", "E001"),
        ("Part", "box.parts.@sum.d != CAST(-1000000000, 'NSDate')", "E001"),
        ("Box", "parts.@min.d < CAST(0, 'NSDate')", "rows"),
        ("Part", "box.parts.@max.d > CAST(0, 'NSDate')", "rows"),
        // SQLite's SUM raised "integer overflow"; the evaluator answers the nearest double.
        ("Box", "parts.@sum.n > -32768", "rows"),
        ("Box", "parts.@sum.n != -32768", "rows"),
        ("Part", "box.parts.@sum.n > 0", "rows"),
        ("Box", "sum:(parts.n) > 0", "rows"),
        ("Box", "parts.@sum.small == 21", "rows"),
        // SQLite's TOTAL added Int64.max and Int64.min as doubles.
        ("Part", "box.parts.@avg.n != 0", "rows"),
        ("Box", "parts.@avg.n < 0", "rows"),
        ("Box", "average:(parts.n) > 0", "rows"),
        // A constant set hashed Int64.min apart from the equal double -2^63.
        ("Part", "n IN {1, -9223372036854775808}", "rows"),
        // PostgreSQL compared 2^53 + 1 with a double column as a double.
        ("Part", "x < 9007199254740993", "rows"),
        ("Part", "x == 9007199254740993", "rows"),
        ("Part", "x IN {9007199254740993, 1}", "rows"),
        // Floating-point sums: compensated in the evaluator, not in SQL.
        ("Box", "parts.@sum.f == 0.1", "rows"),
        ("Box", "parts.@sum.f < 16777216", "rows"),
        ("Box", "parts.@avg.f > -0.0", "rows"),
        ("Part", "box.parts.@avg.f > 1.5", "rows"),
        ("Box", "average:(parts.f) > 0", "rows"),
    ]

    @Test(arguments: TestEngine.available, cases.indices)
    func agreesEverywhere(engine: TestEngine, index: Int) throws {
        let (entity, format, expected) = Self.cases[index]
        let store = try Self.stores.store(engine)
        let request = FetchRequest(entity: entity, predicate: try Parser.parsePredicate(format))
        let sql = EngineOutcome { try store.fetch(request, engine: .sql) }
        let memory = EngineOutcome { try store.fetch(request, engine: .memory) }
        #expect(sql == memory, "\(format): sql \(sql), memory \(memory)")
        if expected == "rows" {
            if case .error(let code) = sql { Issue.record("\(format): \(code)") }
        } else {
            #expect(sql == .error(expected), "\(format)")
        }
    }
}

// Integer columns against floating-point constants: the evaluator compares
// an integer with a double exactly, and so must SQL on every database —
// PostgreSQL converts BIGINT to DOUBLE PRECISION, so before the integer
// bounds (PredicateLowering+IntegerBounds.swift) it found Int64.min + 1
// not greater than `-9223372036854775808` (a literal that overflows Int64
// and reads as a double), and `IN {1.5, 9223372036854775807}` matched
// every value that rounds to 2^63. Found by the random-model fuzzer on
// QuarryFixtures' edge-case rows; each case runs SQL and memory on each
// engine and the answers must be equal.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Integer columns against doubles compare exactly", .serialized)
struct IntegerBoundTests {
    static let values: [Int64?] = [.min, .min + 1, -(1 << 53) - 1, -1, 0, 1, 2, (1 << 53) + 1, .max - 1, .max, nil]

    static let stores = EngineStores { engine in
        let model = Model(entities: [Entity(name: "Row", attributes: [Attribute(name: "n", type: .integer64), Attribute(name: "s", type: .integer16)])])
        let store = try engine.emptyStore(model: model)
        for (i, v) in values.enumerated() {
            var row: [String: Value] = ["s": .int(Int64(i) - 5)]
            if let v { row["n"] = .int(v) }
            _ = try store.insert("Row", row)
        }
        return store
    }

    static let cases = [
        "n > -9223372036854775808", "n >= -9223372036854775808", "n < -9223372036854775808", "n <= -9223372036854775808",
        "n == -9223372036854775808", "n != -9223372036854775808",
        "n > 9223372036854775807.0", "n < 9223372036854775807.0", "n == 9223372036854775807.0", "n != 9223372036854775807.0",
        "n IN {1.5, 9223372036854775807}", "n IN {-9223372036854775808, 1}", "n IN {1.0, 2.5}",
        "n > 1e300", "n < 1e300", "n >= -1e300", "n <= -1e300", "n > 0.5", "n >= 0.5", "n < 0.5", "n <= 0.5",
        "n == 1.0", "n == 1.5", "n != 1.5", "1.5 < n", "-0.5 >= n", "n > 9007199254740993.0", "n BETWEEN {0.5, 2.5}",
        "s > 1.5", "s == -2.0", "s IN {0.5, -3.0}", "s < -1e300",
    ]

    @Test(arguments: TestEngine.available, cases)
    func sqlAnswersAsMemoryDoes(engine: TestEngine, format: String) throws {
        let store = try Self.stores.store(engine)
        let request = FetchRequest(entity: "Row", predicate: try Parser.parsePredicate(format))
        let plan = try SQLPlanner.plan(request, mapping: store.mapping)
        #expect(plan.residual == nil, "should run wholly in SQL: \(format)")
        let sql = try store.fetch(request, engine: .sql).map(\.id.primaryKey).sorted()
        let memory = try store.fetch(request, engine: .memory).map(\.id.primaryKey).sorted()
        #expect(sql == memory, "\(format)")
    }
}

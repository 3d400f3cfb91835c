// Long flat AND / OR chains against a store (issue 19): SQLite refuses
// expression trees deeper than 1,000 and compares WHERE terms pairwise, so
// chains are lowered in nested groups and, past 1,000 operands, checked in
// memory; either way the count is the memory engine's.
import Foundation
import Testing
@testable import QuarryStore

@Suite struct LongChainStoreTests {
    static let model = Model(entities: [Entity(name: "E", attributes: [Attribute(name: "n", type: .integer64)])])

    static func store() throws -> SQLStore {
        let store = try SQLStore(path: ":memory:", model: model)
        _ = try store.database.run(#"""
            WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 200)
            INSERT INTO "E" ("_pk", "_entity", "n") SELECT i, 'E', i FROM k
            """#)
        return store
    }

    static let chains: [(String, Int)] = [
        ("AND", 999), ("AND", 1_001), ("AND", 5_000), ("OR", 500), ("OR", 5_000), ("nested OR", 3_000),
    ]

    @Test(arguments: chains)
    func sqlAndMemoryAgree(kind: String, length: Int) throws {
        let store = try Self.store()
        let format: String
        switch kind {
        case "AND": format = (0..<length).map { "n != \($0 * 2)" }.joined(separator: " AND ")
        case "OR": format = (0..<length).map { "n == \($0 * 3)" }.joined(separator: " OR ")
        default: format = "n > 0 AND (" + (0..<length).map { "n == \($0 * 5)" }.joined(separator: " OR ") + ")"
        }
        let request = FetchRequest(entity: "E", predicate: try Parser.parsePredicate(SourceText(format)))
        let sql = try store.count(request)
        let memory = try store.count(request, engine: .memory)
        #expect(sql == memory)
        let expected: Int
        switch kind {
        case "AND": expected = (1...200).filter { !($0 % 2 == 0 && $0 / 2 < length) }.count
        case "OR": expected = (1...200).filter { $0 % 3 == 0 && $0 / 3 < length }.count
        default: expected = (1...200).filter { $0 % 5 == 0 && $0 / 5 < length }.count
        }
        #expect(sql == expected)
    }
}

// Quarry's SQLite matching functions in time linear in the text (issue 19):
// `quarry_like` with a long run after a `*` (the automaton path) and
// `quarry_contains` with a long needle answer as the evaluator does — on
// random inputs, against the evaluator itself — and the pathological inputs
// that made the old loops quadratic finish in milliseconds.
import Foundation
import Testing
@testable import QuarrySQLite
import QuarryEvaluation

@Suite struct LinearMatchingTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func agreesWithTheEvaluator(seed: UInt64) throws {
        let db = try SQLiteConnection.inMemory()
        var state = seed
        func next() -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % 1_000_000)
        }
        for _ in 0..<1_500 {
            let pattern = String((0..<(next() % 40)).map { _ in Array("aAb?*")[next() % 5] })
            let needle = String((0..<(1 + next() % 16)).map { _ in Array("aAb")[next() % 3] })
            let subject = String((0..<(next() % 80)).map { _ in Array("aAbB")[next() % 4] })
            for flags in [Int32(0), 1] {
                let folding = Folding(caseInsensitive: flags == 1, diacriticInsensitive: false)
                let like = try db.scalar("SELECT quarry_like(?, ?, ?)", [.string(subject), .string(pattern), .int(Int64(flags))])
                #expect(like == .int(LikePattern(pattern, folding: folding).matches(subject) ? 1 : 0), "'\(subject)' LIKE '\(pattern)' \(flags)")
                let contains = try db.scalar("SELECT quarry_contains(?, ?, ?)", [.string(subject), .string(needle), .int(Int64(flags))])
                let expected = StringMatcher(folding: folding).contains(subject, folding.prepare(needle))
                #expect(contains == .int(expected ? 1 : 0), "'\(subject)' CONTAINS '\(needle)' \(flags)")
            }
        }
    }

    @Test func pathologicalInputsAreFast() throws {
        let db = try SQLiteConnection.inMemory()
        let text = String(repeating: "a", count: 1_000_000)
        let start = Date()
        let contains = try db.scalar("SELECT quarry_contains(?, ?, 3)", [.string(text), .string(String(repeating: "A", count: 1_000) + "b")])
        let like = try db.scalar("SELECT quarry_like(?, ?, 1)", [.string(text), .string("*" + String(repeating: "?", count: 50) + "b*")])
        let elapsed = Date().timeIntervalSince(start)
        #expect(contains == .int(0))
        #expect(like == .int(0))
        #expect(elapsed < 4, "took \(elapsed) s")
    }
}

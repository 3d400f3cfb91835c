// Evaluation that must not fall off a cliff (issue 19): a flat AND or OR of
// 100,000 parts evaluates (the AND chain used to nest a closure per part and
// overflowed the stack at 4,000), and the string operators run in time
// linear in the subject whatever the needle or pattern — checked for
// correctness against simple reference matchers on random input, and for
// time with inputs that made the old loops quadratic.
import Foundation
import Testing
@testable import QuarryEvaluation

@Suite struct LinearTimeTests {
    static let chainLengths = [1, 63, 64, 65, 4_000, 100_000]

    @Test(arguments: chainLengths)
    func longAndChainsEvaluate(length: Int) throws {
        let chain = (0..<length).map { "a == \($0 % 2 == 0 ? 1 : 1)" }.joined(separator: " AND ")
        #expect(try holds(chain, dict(["a": .int(1)])))
        #expect(try !holds(chain, dict(["a": .int(2)])))
        // A part that fails at the very end, and parts that are not simple tests.
        let mixed = (0..<length).map { $0 % 3 == 0 ? "a + 0 == 1" : "a == 1" }.joined(separator: " AND ")
        #expect(try holds(mixed, dict(["a": .int(1)])))
        #expect(try !holds(mixed + " AND a == 2", dict(["a": .int(1)])))
    }

    @Test(arguments: [4_000, 100_000])
    func longOrChainsEvaluate(length: Int) throws {
        let chain = (0..<length).map { "a == \($0)" }.joined(separator: " OR ")
        #expect(try holds(chain, dict(["a": .int(Int64(length - 1))])))
        #expect(try !holds(chain, dict(["a": .int(-1)])))
    }

    /// LIKE by backtracking over every split: slow but obviously right.
    static func reference(_ pattern: [Character], _ subject: [Character]) -> Bool {
        var memo: [Int: Bool] = [:]
        func go(_ p: Int, _ s: Int) -> Bool {
            let key = p * (subject.count + 1) + s
            if let m = memo[key] { return m }
            let r: Bool
            if p == pattern.count { r = s == subject.count }
            else if pattern[p] == "*" { r = go(p + 1, s) || (s < subject.count && go(p, s + 1)) }
            else if s < subject.count && (pattern[p] == "?" || pattern[p] == subject[s]) { r = go(p + 1, s + 1) }
            else { r = false }
            memo[key] = r
            return r
        }
        return !pattern.isEmpty && go(0, 0)
    }

    @Test(arguments: [1, 2, 3, 4])
    func likeAgreesWithReference(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        for _ in 0..<3_000 {
            // Long runs after a star select the automaton, short ones the greedy matcher.
            let pattern = String((0..<Int(rng.next() % 80)).map { _ in "ab?*é"[Int(rng.next() % 5)] })
            let subject = String((0..<Int(rng.next() % 120)).map { _ in "abé"[Int(rng.next() % 3)] })
            let ascii = String(pattern.map { $0 == "é" ? "a" : $0 }), asciiSubject = String(subject.map { $0 == "é" ? "b" : $0 })
            for (p, s) in [(pattern, subject), (ascii, asciiSubject)] {
                let collapsed = p
                let expected = Self.reference(Array(collapsed), Array(s))
                #expect(LikePattern(p, folding: .none).matches(s) == expected, "'\(s)' LIKE '\(p)'")
            }
        }
    }

    @Test(arguments: [1, 2, 3])
    func containsAgreesWithReference(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        let matcher = StringMatcher(folding: .none)
        for _ in 0..<3_000 {
            let needle = String((0..<(1 + Int(rng.next() % 20))).map { _ in "aab"[Int(rng.next() % 3)] })
            let subject = String((0..<Int(rng.next() % 200)).map { _ in "aabé"[Int(rng.next() % 4)] })
            let expected = Array(subject).indices.contains { i in Array(subject)[i...].starts(with: Array(needle)) }
            #expect(matcher.contains(subject, Folding.none.prepare(needle)) == expected, "'\(subject)' CONTAINS '\(needle)'")
        }
    }

    static func seconds(_ body: () throws -> Void) throws -> Double {
        let start = Date()
        try body()
        return Date().timeIntervalSince(start)
    }

    /// The inputs of the issue, made to defeat the old loops: they took
    /// seconds; linear scans take milliseconds even in a debug build.
    @Test func pathologicalNeedlesAndPatternsAreFast() throws {
        let haystack = String(repeating: "a", count: 1_000_000)
        let needle = String(repeating: "a", count: 1_000) + "b"
        let containsTime = try Self.seconds { () throws in
            #expect(try !holds("SELF CONTAINS[cd] %@", .string(haystack), args: [.string(needle)]))
        }
        let pattern = "*" + String(repeating: "?", count: 50) + "b*"
        let likeTime = try Self.seconds { () throws in
            #expect(try !holds("SELF LIKE %@", .string(haystack), args: [.string(pattern)]))
            #expect(try !holds("SELF LIKE[c] %@", .string(haystack), args: [.string(pattern)]))
        }
        let accented = String(repeating: "é", count: 100_000)
        let accentedTime = try Self.seconds { () throws in
            #expect(try !holds("SELF CONTAINS %@", .string(accented), args: [.string(String(repeating: "é", count: 1_000) + "b")]))
            #expect(try !holds("SELF LIKE %@", .string(accented), args: [.string(pattern)]))
        }
        #expect(containsTime < 2, "CONTAINS[cd] with a 1 kB needle over 1 MB took \(containsTime) s")
        #expect(likeTime < 4, "LIKE with 50 ? over 1 MB took \(likeTime) s")
        #expect(accentedTime < 4, "non-ASCII CONTAINS / LIKE over 100k characters took \(accentedTime) s")
    }
}

/// A small seeded generator, so a failure names its seed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

private extension String {
    subscript(i: Int) -> Character { self[index(startIndex, offsetBy: i)] }
}

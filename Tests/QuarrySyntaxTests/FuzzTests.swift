// Property tests: random bytes and random mutations of valid predicates never
// crash or hang the parser; whatever parses also round-trips through the
// printer. A fixed-seed generator keeps failures reproducible.
import Testing
@testable import QuarrySyntax

/// SplitMix64: small, seedable, good enough for test inputs.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Fuzzing")
struct FuzzTests {
    static let seeds = ParserTests.canonicalForms.map(\.0) + [
        "name BEGINSWITH[cd] %@", "ANY a.b == 1 AND (c < 2 OR NOT d LIKE 'x*')", "SUBQUERY(x, $y, $y.z == 1).@count > 0",
        "a BETWEEN {1, 2}", "{1, 2, 3}[SIZE] == 3", "f:(1, 'a', {2}) == $v",
    ]
    static let alphabet = Array("abcxyz019 ()[]{}.,'\"\\$%@#=!<>&|+-*/^~:?ANDORNOT é🍁\n\t".unicodeScalars)

    /// Parses and, if it parses, checks the round-trip law.
    func check(_ text: String) {
        guard let tree = try? Parser.parsePredicate(text) else { return }
        let printed = Printer.format(tree)
        let again = try? Parser.parsePredicate(printed)
        #expect(again == tree, "round trip failed: \(text) -> \(printed)")
    }

    @Test func randomStrings() {
        var rng = SeededGenerator(state: 1)
        for _ in 0..<5_000 {
            let length = Int.random(in: 0..<40, using: &rng)
            var s = String.UnicodeScalarView()
            for _ in 0..<length { s.append(FuzzTests.alphabet.randomElement(using: &rng)!) }
            check(String(s))
        }
    }

    @Test func randomBytes() {
        var rng = SeededGenerator(state: 2)
        for _ in 0..<3_000 {
            let bytes = (0..<Int.random(in: 0..<30, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            check(String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test func mutationsOfValidPredicates() {
        var rng = SeededGenerator(state: 3)
        for _ in 0..<20_000 {
            var chars = Array(FuzzTests.seeds.randomElement(using: &rng)!.unicodeScalars)
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let position = chars.isEmpty ? 0 : Int.random(in: 0..<chars.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0 where !chars.isEmpty: chars.remove(at: position)
                case 1: chars.insert(FuzzTests.alphabet.randomElement(using: &rng)!, at: position)
                default:
                    if !chars.isEmpty { chars[position] = FuzzTests.alphabet.randomElement(using: &rng)! }
                }
            }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: chars)
            check(String(view))
        }
    }
}

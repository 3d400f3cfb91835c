// The per-scalar folding table must agree with Foundation's whole-string
// folding on every text it accepts: random strings built from Latin, Greek,
// Cyrillic, combining marks and CJK are folded both ways and compared.
import Foundation
import Testing
@testable import QuarryEvaluation

@Suite("Folding table")
struct FoldingTableTests {
    static let variants: [(String, Bool, Bool)] = [("c", true, false), ("d", false, true), ("cd", true, true)]

    static let pools: [ClosedRange<UInt32>] = [
        0x41...0x7A, 0xC0...0x17F, 0x300...0x36F, 0x370...0x3FF, 0x400...0x4FF, 0x1E00...0x1EFF, 0x4E00...0x4E20, 0x590...0x5FF,
    ]

    @Test(arguments: variants)
    func tableAgreesWithFoundation(name: String, c: Bool, d: Bool) {
        let folding = Folding(caseInsensitive: c, diacriticInsensitive: d)
        var options: String.CompareOptions = []
        if c { options.insert(.caseInsensitive) }
        if d { options.insert(.diacriticInsensitive) }
        var state: UInt64 = 0x5EED
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        var checked = 0
        for _ in 0..<20_000 {
            var view = String.UnicodeScalarView()
            for _ in 0..<(1 + Int(next() % 6)) {
                let pool = Self.pools[Int(next() % UInt64(Self.pools.count))]
                let v = pool.lowerBound + UInt32(next() % UInt64(pool.count))
                if let u = Unicode.Scalar(v) { view.append(u) }
            }
            let s = String(view)
            let expected = s.folding(options: options, locale: nil)
            #expect(folding.fold(s) == expected, "\(name): \(s.unicodeScalars.map { String($0.value, radix: 16) })")
            checked += 1
        }
        #expect(checked == 20_000)
    }

    @Test(arguments: [("José", "jose"), ("Zoë", "zoe"), ("MÜLLER", "muller"), ("Straße", "strasse"), ("İstanbul", "istanbul"),
                      ("e\u{301}", "e"), ("Łukasz", "łukasz"), ("佐藤", "佐藤"), ("ǅ", "ǆ")])
    func knownFolds(input: String, expected: String) {
        #expect(Folding(caseInsensitive: true, diacriticInsensitive: true).fold(input) == expected)
    }
}

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

@Suite("Folded prefix")
struct FoldedPrefixTests {
    /// BEGINSWITH through the scalar walk must answer what folding the whole
    /// subject and asking hasPrefix answers, whenever it answers at all.
    @Test(arguments: FoldingTableTests.variants)
    func agreesWithWholeStringFolding(name: String, c: Bool, d: Bool) {
        let folding = Folding(caseInsensitive: c, diacriticInsensitive: d)
        let needles = ["jo", "mu", "s", "ss", "i", "e", "ab", "k", "a", "zoe", "lu"]
        var state: UInt64 = 0xFEED
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        let pool: [UInt32] = [0x4A, 0x6A, 0x6F, 0xF6, 0xD6, 0x4D, 0xFC, 0xDF, 0x73, 0x130, 0x131, 0x69, 0x301, 0x308, 0x65, 0xE9,
                              0x4B, 0x212A, 0x141, 0x142, 0x75, 0x4F50, 0x5D0, 0x0A, 0x0D, 0x41, 0xC5, 0x62, 0x7A, 0xEB, 0xFB01, 0x1E9E]
        var answered = 0
        for _ in 0..<30_000 {
            var view = String.UnicodeScalarView()
            for _ in 0..<(Int(next() % 6)) { view.append(Unicode.Scalar(pool[Int(next() % UInt64(pool.count))])!) }
            let s = String(view)
            for needle in needles {
                let folded = folding.fold(needle)
                guard let fast = folding.table.hasFoldedPrefix(s, asciiNeedle: Array(folded.utf8), lowercases: c, dropsDiacritics: d) else { continue }
                answered += 1
                #expect(fast == folding.fold(s).hasPrefix(folded), "\(name): \(s.unicodeScalars.map { String($0.value, radix: 16) }) BEGINSWITH \(needle)")
            }
        }
        #expect(answered > 10_000)
    }
}

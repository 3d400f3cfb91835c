// A per-scalar folding table, so that non-ASCII text (José, Zoë, Müller,
// Łukasz) folds without a trip through Foundation for every string.
//
// Each variant ([c], [d], [cd]) is built once, on first use, by asking
// Foundation to fold every scalar below U+2500 on its own; folding a string
// is then a table walk. Two things make per-scalar folding differ from
// folding the whole string, and both are handled here:
//   - under [d], a combining diacritic (U+0300–U+036F) after another scalar is
//     removed or kept depending on whether it composes with that scalar
//     ("e\u{301}" folds to "e", "丛\u{335}" keeps its mark), so such text goes
//     to Foundation; alone it is kept, as the table says;
//   - other combining marks (Hebrew, Arabic, Indic ...) may interact with their
//     base in ways one scalar cannot show, so text holding one, or any scalar
//     beyond the table (Hangul, emoji), goes to Foundation as before.
// CJK unified ideographs have neither case nor diacritics and fold to themselves.
import Foundation

final class ScalarFoldTable: Sendable {
    static let limit: UInt32 = 0x2500

    /// Folded scalars of scalar v are `scalars[offsets[v] ..< offsets[v + 1]]`.
    private let offsets: [UInt32]
    private let scalars: [UInt32]
    /// Combining marks outside U+0300–U+036F: the table cannot fold them safely.
    private let unsafeMark: [Bool]

    static let caseInsensitive = ScalarFoldTable(.caseInsensitive)
    static let diacriticInsensitive = ScalarFoldTable(.diacriticInsensitive)
    static let both = ScalarFoldTable([.caseInsensitive, .diacriticInsensitive])

    private init(_ options: String.CompareOptions) {
        var offsets: [UInt32] = [0]
        var scalars: [UInt32] = []
        var unsafeMark: [Bool] = []
        offsets.reserveCapacity(Int(ScalarFoldTable.limit) + 1)
        for v in 0..<ScalarFoldTable.limit {
            guard let u = Unicode.Scalar(v) else {
                offsets.append(UInt32(scalars.count))
                unsafeMark.append(true)
                continue
            }
            let folded = String(Character(u)).folding(options: options, locale: nil)
            scalars.append(contentsOf: folded.unicodeScalars.map(\.value))
            offsets.append(UInt32(scalars.count))
            let category = u.properties.generalCategory
            let isMark = category == .nonspacingMark || category == .spacingMark || category == .enclosingMark
            unsafeMark.append(isMark && !(0x300...0x36F).contains(v))
        }
        self.offsets = offsets
        self.scalars = scalars
        self.unsafeMark = unsafeMark
    }

    /// The folded string, or nil when some scalar needs Foundation.
    func fold(_ s: String, dropsDiacritics: Bool) -> String? {
        var out = String.UnicodeScalarView()
        var sawBase = false
        for u in s.unicodeScalars {
            let v = u.value
            if v >= 0x4E00 && v <= 0x9FFF {
                out.append(u)
            } else if v < ScalarFoldTable.limit {
                if unsafeMark[Int(v)] { return nil }
                if dropsDiacritics && sawBase && v >= 0x300 && v <= 0x36F { return nil }
                for i in Int(offsets[Int(v)])..<Int(offsets[Int(v) + 1]) {
                    out.append(Unicode.Scalar(scalars[i])!)
                }
            } else {
                return nil
            }
            sawBase = true
        }
        return String(out)
    }
}

extension ScalarFoldTable {
    /// BEGINSWITH for an ASCII needle without building the folded string:
    /// folds the subject scalar by scalar and stops as soon as it can answer.
    /// nil means "ask the full folding" (a mark, a scalar beyond the table, or
    /// a non-ASCII difference that canonical equivalence might still excuse).
    func hasFoldedPrefix(_ s: String, asciiNeedle needle: [UInt8], lowercases: Bool, dropsDiacritics: Bool) -> Bool? {
        var k = 0
        var iterator = s.unicodeScalars.makeIterator()
        var sawBase = false
        while let u = iterator.next() {
            let v = u.value
            if k == needle.count {
                // The needle ended at a character boundary only if what follows
                // cannot join the last character.
                return (v < 0x80 && v != 0x0A) ? true : nil
            }
            if v < 0x80 {
                let f = lowercases && v >= 0x41 && v <= 0x5A ? v | 0x20 : v
                if UInt8(f) != needle[k] { return false }
                k += 1
            } else if v >= 0x4E00 && v <= 0x9FFF {
                // An ideograph folds to itself and has no decomposition: it can
                // never equal an ASCII needle character.
                return false
            } else if v < ScalarFoldTable.limit {
                if unsafeMark[Int(v)] { return nil }
                if dropsDiacritics && sawBase && v >= 0x300 && v <= 0x36F { return nil }
                for i in Int(offsets[Int(v)])..<Int(offsets[Int(v) + 1]) {
                    let f = scalars[i]
                    if k == needle.count { return f < 0x80 ? true : nil }
                    // A non-ASCII scalar never equals ASCII text, except the three
                    // whose canonical decomposition is ASCII (KELVIN SIGN, GREEK
                    // QUESTION MARK, GREEK VARIA): those go the long way.
                    if f >= 0x80 { return (f == 0x212A || f == 0x37E || f == 0x1FEF) ? nil : false }
                    if UInt8(f) != needle[k] { return false }
                    k += 1
                }
            } else {
                return nil
            }
            sawBase = true
        }
        return k == needle.count ? true : false
    }
}

extension Folding {
    var table: ScalarFoldTable {
        switch (caseInsensitive, diacriticInsensitive) {
        case (true, true): return .both
        case (true, false): return .caseInsensitive
        default: return .diacriticInsensitive
        }
    }

    /// Folding through the table when the text allows, else through Foundation.
    func foldNonASCII(_ s: String, options: String.CompareOptions) -> String {
        return table.fold(s, dropsDiacritics: diacriticInsensitive) ?? s.folding(options: options, locale: nil)
    }
}

// Case-insensitive recognition of reserved words, for the lexer (is this
// word a keyword?) and the printer (does this key need a `#`?). It runs once
// per word of every predicate, so it neither allocates nor touches a lazily
// initialised global: the word is packed, upper-cased, into two integers and
// compared against constants that the optimiser folds from the spellings.

enum KeywordTable {
    /// The keyword spelled by `bytes[start..<end]` (any case), if any.
    /// UTI-CONFORMS-TO and UTI-EQUALS contain hyphens, which end a word, so
    /// the lexer recognises them itself.
    @inline(__always)
    static func lookup(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Keyword? {
        let length = end - start
        guard length >= 2 && length <= 15 else { return nil }
        let (low, high) = pack(bytes, start, end)
        return lookup(length: length, low: low, high: high)
    }

    /// Up to 16 bytes, ASCII letters upper-cased, packed little-endian.
    @inline(__always)
    static func pack(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (UInt64, UInt64) {
        let length = end &- start
        // Away from the end of the input, read eight bytes at a time and
        // clear the ones past the word; near the end, go byte by byte.
        if start &+ 8 <= bytes.count {
            let p = UnsafeRawPointer(bytes.baseAddress! + start)
            let low = UInt64(littleEndian: p.loadUnaligned(as: UInt64.self))
            if length <= 8 { return (upperCased(low & firstBytes(length)), 0) }
            if start &+ 16 <= bytes.count {
                let high = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                return (upperCased(low), upperCased(high & firstBytes(length &- 8)))
            }
        }
        var low: UInt64 = 0
        var high: UInt64 = 0
        var i = 0
        while i < Swift.min(length, 8) {
            low |= UInt64(bytes[start &+ i]) &<< UInt64(i &* 8)
            i &+= 1
        }
        while i < Swift.min(length, 16) {
            high |= UInt64(bytes[start &+ i]) &<< UInt64((i &- 8) &* 8)
            i &+= 1
        }
        return (upperCased(low), upperCased(high))
    }

    /// A mask keeping the first `count` (at most 8) bytes of a packed word.
    @inline(__always)
    static func firstBytes(_ count: Int) -> UInt64 {
        count >= 8 ? ~0 : (1 &<< UInt64(count &* 8)) &- 1
    }

    /// The eight bytes of `word` with ASCII `a`-`z` turned into `A`-`Z`, all
    /// at once: a byte's top bit marks it as a lower-case letter (at least
    /// `a`, below `{`, itself ASCII), and that bit shifted down to 0x20 is
    /// what upper-casing subtracts. Masking to seven bits first keeps the
    /// additions from carrying into the next byte.
    @inline(__always)
    static func upperCased(_ word: UInt64) -> UInt64 {
        let sevenBits = word & 0x7F7F_7F7F_7F7F_7F7F
        let atLeastA = sevenBits &+ 0x1F1F_1F1F_1F1F_1F1F      // 0x61 + 0x1F = 0x80
        let pastZ = sevenBits &+ 0x0505_0505_0505_0505         // 0x7B + 0x05 = 0x80
        let lower = atLeastA & ~pastZ & ~word & 0x8080_8080_8080_8080
        return word &- (lower &>> 2)
    }

    /// The packed form of a keyword spelling; constant-folded at each use.
    @inline(__always)
    static func w(_ s: StaticString) -> UInt64 {
        var v: UInt64 = 0
        let p = s.utf8Start
        for i in 0..<Swift.min(8, s.utf8CodeUnitCount) { v |= UInt64(p[i]) << UInt64(i * 8) }
        return v
    }

    /// The packed bytes 8... of a spelling longer than 8.
    @inline(__always)
    static func w2(_ s: StaticString) -> UInt64 {
        var v: UInt64 = 0
        let p = s.utf8Start
        for i in 8..<Swift.max(8, s.utf8CodeUnitCount) { v |= UInt64(p[i]) << UInt64((i - 8) * 8) }
        return v
    }

    // The table itself; a test checks that it covers `Keyword.allCases`.
    static func lookup(length: Int, low: UInt64, high: UInt64) -> Keyword? {
        switch length {
        case 2:
            switch low {
            case w("OR"): return .or
            case w("IN"): return .in
            case w("CI"): return .ci
            case w("NO"): return .no
            default: return nil
            }
        case 3:
            switch low {
            case w("AND"): return .and
            case w("NOT"): return .not
            case w("ALL"): return .all
            case w("ANY"): return .any
            case w("NIL"): return Keyword.nil
            case w("YES"): return .yes
            default: return nil
            }
        case 4:
            switch low {
            case w("SOME"): return Keyword.some
            case w("NONE"): return Keyword.none
            case w("LIKE"): return .like
            case w("NULL"): return .null
            case w("SELF"): return Keyword.`self`
            case w("TRUE"): return .true
            case w("LAST"): return .last
            case w("SIZE"): return .size
            case w("CAST"): return .cast
            default: return nil
            }
        case 5:
            switch low {
            case w("FALSE"): return .false
            case w("FIRST"): return .first
            default: return nil
            }
        case 6:
            return low == w("ANYKEY") ? .anyKey : nil
        case 7:
            switch low {
            case w("MATCHES"): return .matches
            case w("BETWEEN"): return .between
            default: return nil
            }
        case 8:
            switch low {
            case w("CONTAINS"): return .contains
            case w("ENDSWITH"): return .endsWith
            case w("SUBQUERY"): return .subquery
            default: return nil
            }
        case 10:
            return low == w("BEGINSWITH") && high == w2("BEGINSWITH") ? .beginsWith : nil
        case 13:
            if low == w("TRUEPREDICATE") && high == w2("TRUEPREDICATE") { return .truePredicate }
            return nil
        case 14:
            if low == w("FALSEPREDICATE") && high == w2("FALSEPREDICATE") { return .falsePredicate }
            return nil
        case 15:
            if low == w("CASEINSENSITIVE") && high == w2("CASEINSENSITIVE") { return .caseInsensitive }
            return nil
        default:
            return nil
        }
    }
}

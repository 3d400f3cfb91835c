// Apple's LIKE for `quarry_like`, mirroring the evaluator's `LikePattern`:
// `*` matches any run of characters (possibly empty), `?` exactly one, a
// backslash makes the next character literal (a trailing backslash is itself
// literal), everything else — SQL's `%` and `_` included — is literal; the
// pattern must cover the whole string, and an empty pattern matches nothing.
//
// Not SQLite's LIKE, which has `%`/`_`, is ASCII-only case-insensitive and
// knows nothing of diacritics. The matcher is the greedy wildcard algorithm
// with one backtrack point (the most recent `*`): O(n·m) at worst, never
// exponential. An ASCII pattern against an ASCII subject is matched over the
// raw SQLite bytes; anything else over Characters after folding both sides,
// exactly where the evaluator does the same.

/// A LIKE pattern compiled once per statement (cached with `sqlite3_set_auxdata`).
final class LikeMatcher {
    enum Token: Equatable {
        case literal(Character)
        case one
        case any
    }

    /// The raw pattern bytes and flags, to check a cached entry.
    let key: [UInt8]
    let flags: Int32
    let folding: TextFolding
    let tokens: [Token]
    /// The same pattern over bytes when it is pure ASCII: 0 = any run,
    /// 1 = one character, otherwise `byte | 0x100` for a literal.
    let asciiTokens: [UInt16]?

    init(raw: UnsafeBufferPointer<UInt8>, flags: Int32) {
        key = Array(raw)
        self.flags = flags
        folding = TextFolding(flags: flags)
        let text = folding.fold(String(decoding: raw, as: UTF8.self))
        var tokens: [Token] = []
        var escaped = false
        for ch in text {
            if escaped { tokens.append(.literal(ch)); escaped = false; continue }
            switch ch {
            case "\\": escaped = true
            case "*": if tokens.last != .any { tokens.append(.any) }
            case "?": tokens.append(.one)
            default: tokens.append(.literal(ch))
            }
        }
        if escaped { tokens.append(.literal("\\")) }
        self.tokens = tokens
        var ascii: [UInt16] = []
        for t in tokens {
            switch t {
            case .any: ascii.append(0)
            case .one: ascii.append(1)
            case .literal(let c):
                guard c.utf8.count == 1, let b = c.utf8.first, b < 0x80 else { break }
                ascii.append(UInt16(b) | 0x100)
            }
        }
        asciiTokens = ascii.count == tokens.count ? ascii : nil
    }

    func isFor(_ raw: UnsafeBufferPointer<UInt8>, flags: Int32) -> Bool {
        flags == self.flags && raw.elementsEqual(key)
    }

    func matches(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        if tokens.isEmpty { return false }
        if let asciiTokens, Bytes.isASCII(b) {
            let lower = folding.caseInsensitive
            return LikeMatcher.match(count: b.count, patternCount: asciiTokens.count,
                                     isAny: { asciiTokens[$0] == 0 },
                                     matchesAt: { p, s in
                                         let t = asciiTokens[p]
                                         if t == 1 { return true }
                                         let c = lower ? Bytes.lower(b[s]) : b[s]
                                         return UInt16(c) | 0x100 == t
                                     })
        }
        let chars = Array(folding.fold(String(decoding: b, as: UTF8.self)))
        let tokens = self.tokens
        return LikeMatcher.match(count: chars.count, patternCount: tokens.count,
                                 isAny: { tokens[$0] == .any },
                                 matchesAt: { p, s in
                                     switch tokens[p] {
                                     case .one: return true
                                     case .literal(let c): return chars[s] == c
                                     case .any: return false
                                     }
                                 })
    }

    /// Greedy wildcard matching with one backtrack point.
    @inline(__always)
    static func match(count n: Int, patternCount m: Int,
                      isAny: (Int) -> Bool, matchesAt: (Int, Int) -> Bool) -> Bool {
        var p = 0, s = 0
        var starP = -1, starS = 0
        while s < n {
            if p < m && !isAny(p) && matchesAt(p, s) {
                p += 1; s += 1
            } else if p < m && isAny(p) {
                starP = p; starS = s; p += 1
            } else if starP >= 0 {
                p = starP + 1; starS += 1; s = starS
            } else {
                return false
            }
        }
        while p < m && isAny(p) { p += 1 }
        return p == m
    }
}

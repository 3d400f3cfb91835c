// Apple's LIKE for `quarry_like`: `*` matches any run of characters
// (possibly empty), `?` exactly one, a backslash makes the next character
// literal (a trailing backslash is itself literal), everything else — SQL's
// `%` and `_` included — is literal; the pattern must cover the whole string,
// and an empty pattern matches nothing.
//
// Not SQLite's LIKE, which has `%`/`_`, is ASCII-only case-insensitive and
// knows nothing of diacritics. An ASCII pattern against an ASCII subject is
// matched here over the raw SQLite bytes, with the evaluator's own byte
// algorithms: greedy with one backtrack point at the last `*` when the runs
// after a `*` are short, otherwise the bit-parallel automaton, so the time is
// linear in the subject whatever the pattern (WildcardAutomaton.swift).
// Anything else goes to the evaluator's LIKE itself (EvaluatorBridge.swift),
// which folds and matches over Characters the same way.
import QuarryEvaluation

/// A LIKE pattern compiled once per statement (cached with `sqlite3_set_auxdata`).
final class LikeMatcher {
    /// The raw pattern bytes and flags, to check a cached entry.
    let key: [UInt8]
    let flags: Int32
    private let caseInsensitive: Bool
    /// The folded pattern over bytes when it is pure ASCII: 0 = any run,
    /// 1 = one character, otherwise `byte | 0x100` for a literal.
    private let asciiTokens: [UInt16]?
    private var predicate: CompiledPredicateBox?
    /// The automaton and its byte rows, for patterns with a long run after a `*`.
    private let automaton: WildcardAutomaton<UInt8>?
    private let byteRows: [Int]

    init(raw: UnsafeBufferPointer<UInt8>, flags: Int32) {
        key = Array(raw)
        self.flags = flags
        let folding = TextFolding(flags: flags)
        caseInsensitive = folding.caseInsensitive
        // ASCII folds to ASCII (lower-cased under [c]); a non-ASCII pattern
        // is left to the evaluator whole.
        guard Bytes.isASCII(raw) else { asciiTokens = nil; automaton = nil; byteRows = []; return }
        var tokens: [UInt16] = []
        var escaped = false
        for b in raw {
            let c = caseInsensitive ? Bytes.lower(b) : b
            if escaped { tokens.append(UInt16(c) | 0x100); escaped = false; continue }
            switch c {
            case UInt8(ascii: "\\"): escaped = true
            case UInt8(ascii: "*"): if tokens.last != 0 { tokens.append(0) }
            case UInt8(ascii: "?"): tokens.append(1)
            default: tokens.append(UInt16(c) | 0x100)
            }
        }
        if escaped { tokens.append(UInt16(UInt8(ascii: "\\")) | 0x100) }
        // "\r\n" is one Character to the evaluator: leave such patterns to it.
        asciiTokens = raw.contains(0x0D) ? nil : tokens
        if asciiTokens != nil, WildcardStrategy.prefersAutomaton(count: tokens.count, isAny: { tokens[$0] == 0 }) {
            let machine = WildcardAutomaton<UInt8>(tokens.map { $0 == 0 ? .any : $0 == 1 ? .one : .literal(UInt8($0 & 0xFF)) })
            automaton = machine
            byteRows = machine.byteRows
        } else {
            automaton = nil
            byteRows = []
        }
    }

    func isFor(_ raw: UnsafeBufferPointer<UInt8>, flags: Int32) -> Bool {
        flags == self.flags && SQLiteFunctions.equal(raw, key)
    }

    func matches(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        if key.isEmpty { return false }
        if let asciiTokens, Bytes.isASCII(b) {
            let lower = caseInsensitive
            if let automaton {
                let rows = byteRows
                return lower ? automaton.matches(count: b.count) { rows[Int(Bytes.lower(b[$0]))] }
                             : automaton.matches(count: b.count) { rows[Int(b[$0])] }
            }
            return LikeMatcher.match(count: b.count, patternCount: asciiTokens.count,
                                     isAny: { asciiTokens[$0] == 0 },
                                     matchesAt: { p, s in
                                         let t = asciiTokens[p]
                                         if t == 1 { return true }
                                         let c = lower ? Bytes.lower(b[s]) : b[s]
                                         return UInt16(c) | 0x100 == t
                                     })
        }
        if let predicate { return predicate.test(b) }
        let box = CompiledPredicateBox("LIKE", flags: flags, argument: String(decoding: key, as: UTF8.self))
        predicate = box
        return box.test(b)
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

// LIKE: `*` matches any run of characters (possibly empty), `?` exactly one,
// a backslash makes the next character literal, everything else is literal;
// the pattern must cover the whole string. An empty pattern matches nothing.
//
// The matcher is the classic greedy wildcard algorithm with a single
// backtrack point (the most recent `*`), never exponential; it costs n times
// the run of tokens after the last `*`, so a pattern with a long run there
// (`*` and 50 `?`) runs as a bit-parallel automaton instead, linear in the
// subject (WildcardAutomaton.swift). Pure-ASCII subjects and patterns are
// matched over bytes; anything else over Characters, after [c]/[d] folding
// of both sides.

public struct LikePattern: Sendable {
    enum Token: Sendable, Equatable {
        case literal(Character)
        case one
        case any
    }

    let tokens: [Token]
    /// The same pattern over bytes when it is pure ASCII: 0 = any run,
    /// 1 = one character, otherwise `byte | 0x100` for a literal.
    let asciiTokens: [UInt16]?
    let folding: Folding
    /// The automata, when the pattern has a long run after a `*`.
    let characterAutomaton: WildcardAutomaton<Character>?
    let byteAutomaton: WildcardAutomaton<UInt8>?
    let byteRows: [Int]

    /// `pattern` is the unfolded pattern text.
    public init(_ pattern: String, folding: Folding) {
        self.folding = folding
        let text = folding.fold(pattern)
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
        scan: for t in tokens {
            switch t {
            case .any: ascii.append(0)
            case .one: ascii.append(1)
            case .literal(let c):
                guard c.utf8.count == 1, let b = c.utf8.first, b < 0x80 else { ascii = []; break scan }
                ascii.append(UInt16(b) | 0x100)
            }
        }
        asciiTokens = ascii.count == tokens.count ? ascii : nil
        if WildcardStrategy.prefersAutomaton(count: tokens.count, isAny: { tokens[$0] == .any }) {
            characterAutomaton = WildcardAutomaton(tokens.map(LikePattern.wildcard))
            let bytes = asciiTokens.map { WildcardAutomaton<UInt8>($0.map(LikePattern.wildcard)) }
            byteAutomaton = bytes
            byteRows = bytes?.byteRows ?? []
        } else {
            characterAutomaton = nil
            byteAutomaton = nil
            byteRows = []
        }
    }

    static func wildcard(_ t: Token) -> WildcardToken<Character> {
        switch t {
        case .literal(let c): return .literal(c)
        case .one: return .one
        case .any: return .any
        }
    }

    static func wildcard(_ t: UInt16) -> WildcardToken<UInt8> {
        t == 0 ? .any : t == 1 ? .one : .literal(UInt8(t & 0xFF))
    }

    var isEmpty: Bool { tokens.isEmpty }

    public func matches(_ subject: String) -> Bool {
        if tokens.isEmpty { return false }
        if let asciiTokens {
            let lower = folding.caseInsensitive
            let r = StringBytes.withBytes(subject) { (b: UnsafeBufferPointer<UInt8>) -> Bool? in
                guard StringBytes.isASCII(b) else { return nil }
                if let automaton = byteAutomaton {
                    let rows = byteRows
                    return lower ? automaton.matches(count: b.count) { rows[Int(StringBytes.lower(b[$0]))] }
                                 : automaton.matches(count: b.count) { rows[Int(b[$0])] }
                }
                return LikePattern.match(count: b.count, patternCount: asciiTokens.count,
                                         isAny: { asciiTokens[$0] == 0 },
                                         matchesAt: { p, s in
                                             let t = asciiTokens[p]
                                             if t == 1 { return true }
                                             let c = lower ? StringBytes.lower(b[s]) : b[s]
                                             return UInt16(c) | 0x100 == t
                                         })
            }
            if let r { return r }
        }
        let chars = Array(folding.fold(subject))
        if let automaton = characterAutomaton {
            return automaton.matches(count: chars.count) { automaton.rows[chars[$0]] ?? 0 }
        }
        return LikePattern.match(count: chars.count, patternCount: tokens.count,
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

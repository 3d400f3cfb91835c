// LIKE in time linear in the subject, whatever the pattern.
//
// The greedy matcher with one backtrack point (Like.swift) retries the
// segment after the last `*` at every position, so `*` followed by 50 `?`
// costs 50 steps per character of a megabyte. This runs the pattern as a
// nondeterministic automaton instead, all its states at once as bits (the
// Shift-And method): bit i set means "the first i tokens match what has been
// read". Each subject character costs one table lookup and a few word
// operations per 64 tokens, so a pattern of m tokens runs in n·⌈(m+1)/64⌉.
//
// Reading a character: a bit before a literal or `?` that accepts it moves
// one on, a bit before a `*` stays (the star eats it), and a bit before a `*`
// also lights the bit after it (the star matching nothing). Runs of `*` are
// collapsed by the pattern compilers, so one pass of that closure suffices.
// Used by the evaluator's LIKE and by `quarry_like` in SQLite.

/// One token of a compiled LIKE pattern.
public enum WildcardToken<Symbol: Hashable & Sendable>: Sendable, Equatable {
    case literal(Symbol)
    /// `?`
    case one
    /// `*` (never two in a row)
    case any
}

/// A LIKE pattern as a bit-parallel automaton.
public struct WildcardAutomaton<Symbol: Hashable & Sendable>: Sendable {
    /// 64-bit words per state set (positions 0...m).
    let words: Int
    let star: [UInt64]
    let start: [UInt64]
    let acceptWord: Int
    let acceptBit: UInt64
    /// The advance masks, `words` per row: row 0 for a character no literal
    /// of the pattern names (only `?` accepts it), then one per literal.
    let table: [UInt64]
    /// The row of each literal character.
    public let rows: [Symbol: Int]

    public init(_ tokens: [WildcardToken<Symbol>]) {
        let m = tokens.count
        let words = (m + 1 + 63) / 64
        var rows: [Symbol: Int] = [:]
        for t in tokens { if case .literal(let c) = t, rows[c] == nil { rows[c] = rows.count + 1 } }
        var star = [UInt64](repeating: 0, count: words)
        var table = [UInt64](repeating: 0, count: words * (rows.count + 1))
        for (i, t) in tokens.enumerated() {
            let w = i >> 6, bit = UInt64(1) << UInt64(i & 63)
            switch t {
            case .any: star[w] |= bit
            case .one: for r in 0...rows.count { table[r * words + w] |= bit }
            case .literal(let c): table[rows[c]! * words + w] |= bit
            }
        }
        var start = [UInt64](repeating: 0, count: words)
        start[0] = 1
        WildcardAutomaton.close(&start, star)
        self.words = words
        self.star = star
        self.start = start
        self.table = table
        self.rows = rows
        acceptWord = m >> 6
        acceptBit = UInt64(1) << UInt64(m & 63)
    }

    /// Whether the pattern matches the whole of `n` characters, where
    /// `row(i)` is the table row of character i (`rows[c] ?? 0`).
    @inline(__always)
    public func matches(count n: Int, row: (Int) -> Int) -> Bool {
        if words == 1 {
            // The common case (patterns up to 63 tokens) in registers.
            let star = self.star[0]
            var state = start[0]
            for i in 0..<n {
                let advanced = (state & table[row(i)]) << 1
                let next = advanced | (state & star)
                state = next | ((next & star) << 1)
                if state == 0 { return false }
            }
            return state & acceptBit != 0
        }
        var state = start
        for i in 0..<n {
            let base = row(i) * words
            var carry: UInt64 = 0
            var any: UInt64 = 0
            for w in 0..<words {
                let d = state[w]
                let advanced = d & table[base + w]
                state[w] = (advanced << 1) | carry | (d & star[w])
                carry = advanced >> 63
            }
            WildcardAutomaton.close(&state, star)
            for w in 0..<words { any |= state[w] }
            if any == 0 { return false }
        }
        return state[acceptWord] & acceptBit != 0
    }

    /// Lights the position after each lit `*` (the star matching nothing).
    static func close(_ state: inout [UInt64], _ star: [UInt64]) {
        var carry: UInt64 = 0
        for w in 0..<state.count {
            let lit = state[w] & star[w]
            state[w] |= (lit << 1) | carry
            carry = lit >> 63
        }
    }
}

extension WildcardAutomaton where Symbol == UInt8 {
    /// The table row of every byte, for byte subjects.
    public var byteRows: [Int] {
        (0..<256).map { rows[UInt8($0)] ?? 0 }
    }
}

/// When the greedy matcher is fast enough: it costs at most n times the
/// longest run of non-`*` tokens after a `*` (a failed run is retried from
/// one character later), so short runs stay with it and long ones go to
/// the automaton.
public enum WildcardStrategy {
    public static let greedyRunLimit = 4

    /// `isAny(i)` tells whether token i is `*`.
    public static func prefersAutomaton(count m: Int, isAny: (Int) -> Bool) -> Bool {
        var seenStar = false, run = 0
        for i in 0..<m {
            if isAny(i) { seenStar = true; run = 0; continue }
            guard seenStar else { continue }
            run += 1
            if run > greedyRunLimit { return true }
        }
        return false
    }
}

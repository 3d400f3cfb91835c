// Regular expressions both ways: generate strings that match one (the
// `pattern` generator, and attributes whose model has a `regex` and no
// factory), and check a candidate against one fast enough to run on every
// generated value (a Thompson automaton; NSRegularExpression costs
// microseconds a call, which a million rows cannot afford).
//
// The subset is what validation patterns use: literals and escapes, `.`,
// classes with ranges and negation, `\d \w \s` (and `\D \W \S`), groups
// (plain, `(?:`, named), alternation, and `? * + {n} {n,} {n,m}` (lazy and
// possessive suffixes are read and ignored: whole-string matching makes them
// irrelevant). `^` and `$` are accepted at the ends. Anything else (`\b`,
// look-around, `\p{..}`, back-references) is `unsupported`: callers then fall
// back to NSRegularExpression for checking, and cannot generate from it.
//
// Unbounded repeats generate at most 8 more than their minimum, so `.+`
// gives short strings rather than megabytes.

struct RegexPattern: Sendable {
    indirect enum Node: Sendable {
        case literal(Unicode.Scalar)
        case set(CharacterSet)
        case sequence([Node])
        case alternation([Node])
        case repeated(Node, min: Int, max: Int?)
    }

    /// A set of scalars: ranges, possibly negated.
    struct CharacterSet: Sendable {
        var ranges: [ClosedRange<UInt32>]
        var negated: Bool

        func contains(_ s: Unicode.Scalar) -> Bool {
            ranges.contains { $0.contains(s.value) } != negated
        }

        /// What to draw from: the ranges, or for a negated set the printable
        /// ASCII characters it allows (realistic, and never a control code).
        var choices: [ClosedRange<UInt32>] {
            guard negated else { return ranges }
            var result: [ClosedRange<UInt32>] = []
            var start: UInt32?
            for v in UInt32(0x21)...0x7E {
                let allowed = !ranges.contains { $0.contains(v) }
                if allowed, start == nil { start = v }
                if !allowed, let s = start { result.append(s...v - 1); start = nil }
            }
            if let s = start { result.append(s...0x7E) }
            return result
        }
    }

    struct Unsupported: Error { let message: String }

    let source: String
    let root: Node

    init(_ pattern: String) throws(Unsupported) {
        source = pattern
        var parser = Parser(scalars: Array(pattern.unicodeScalars))
        root = try parser.parseAlternation()
        if parser.position < parser.scalars.count {
            throw Unsupported(message: "unbalanced ')' at offset \(parser.position)")
        }
    }

    // MARK: - Generating

    func generate(_ random: inout FixtureRandom) -> String {
        var out = String.UnicodeScalarView()
        Self.generate(root, &random, &out)
        return String(out)
    }

    private static func generate(_ node: Node, _ random: inout FixtureRandom, _ out: inout String.UnicodeScalarView) {
        switch node {
        case .literal(let s): out.append(s)
        case .set(let set):
            let choices = set.choices
            let total = choices.reduce(0) { $0 + UInt64($1.count) }
            guard total > 0 else { return }
            var pick = random.below(total)
            for r in choices {
                if pick < UInt64(r.count) {
                    if let s = Unicode.Scalar(r.lowerBound + UInt32(pick)) { out.append(s) }
                    return
                }
                pick -= UInt64(r.count)
            }
        case .sequence(let nodes): for n in nodes { generate(n, &random, &out) }
        case .alternation(let nodes): generate(nodes[random.index(nodes.count)], &random, &out)
        case .repeated(let n, let lo, let hi):
            let count = lo + random.index((hi ?? lo + 8) - lo + 1)
            for _ in 0..<count { generate(n, &random, &out) }
        }
    }

    /// How many distinct strings the pattern can produce (saturating; nil = unbounded).
    var capacity: Double? { Self.capacity(root) }

    private static func capacity(_ node: Node) -> Double? {
        switch node {
        case .literal: return 1
        case .set(let s): return Double(s.choices.reduce(0) { $0 + $1.count })
        case .sequence(let nodes):
            var product = 1.0
            for n in nodes { guard let c = capacity(n) else { return nil }; product *= c }
            return product
        case .alternation(let nodes):
            var sum = 0.0
            for n in nodes { guard let c = capacity(n) else { return nil }; sum += c }
            return sum
        case .repeated(let n, let lo, let hi):
            guard let hi, let c = capacity(n) else { return nil }
            return (lo...hi).reduce(0.0) { $0 + pow(c, Double($1)) }
        }
    }

    // MARK: - Matching (whole string)

    /// Thompson's construction, run as a set of states over the text: no
    /// recursion and no backtracking, so neither the text's length nor a
    /// pattern like `(a+)+b` can exhaust a thread's stack or time.
    enum Instruction: Sendable {
        case scalar(Unicode.Scalar)
        case set(CharacterSet)
        case split(Int, Int)
        case jump(Int)
        case match
    }

    /// The program, or nil when counted repeats would make it too large
    /// (callers then use NSRegularExpression).
    var program: [Instruction]? {
        var code: [Instruction] = []
        guard Self.emit(root, into: &code) else { return nil }
        code.append(.match)
        return code
    }

    private static func emit(_ node: Node, into code: inout [Instruction]) -> Bool {
        guard code.count < 20_000 else { return false }
        switch node {
        case .literal(let c): code.append(.scalar(c))
        case .set(let set): code.append(.set(set))
        case .sequence(let nodes):
            for n in nodes where !emit(n, into: &code) { return false }
        case .alternation(let nodes):
            var jumps: [Int] = []
            for (i, n) in nodes.enumerated() {
                if i < nodes.count - 1 {
                    let split = code.count
                    code.append(.split(split + 1, 0))
                    guard emit(n, into: &code) else { return false }
                    jumps.append(code.count)
                    code.append(.jump(0))
                    code[split] = .split(split + 1, code.count)
                } else if !emit(n, into: &code) { return false }
            }
            for j in jumps { code[j] = .jump(code.count) }
        case .repeated(let n, let lo, let hi):
            for _ in 0..<lo where !emit(n, into: &code) { return false }
            if let hi {
                var splits: [Int] = []
                for _ in lo..<hi {
                    splits.append(code.count)
                    code.append(.split(code.count + 1, 0))
                    guard emit(n, into: &code) else { return false }
                }
                for sp in splits { code[sp] = .split(sp + 1, code.count) }
            } else {
                let loop = code.count
                code.append(.split(loop + 1, 0))
                guard emit(n, into: &code) else { return false }
                code.append(.jump(loop))
                code[loop] = .split(loop + 1, code.count)
            }
        }
        return true
    }

    func matches(_ text: String) -> Bool {
        guard let program else { return false }
        return RegexRunner(program).matches(text)
    }
}

/// Runs a program over texts, reusing its state lists between calls (a
/// million e-mail addresses should not mean four million allocations).
/// One runner per attribute generator: not for use from two threads.
final class RegexRunner {
    private let program: [RegexPattern.Instruction]
    private var current: [Int] = []
    private var next: [Int] = []
    private var stack: [Int] = []
    private var mark: [Int]
    private var generation = 0

    init(_ program: [RegexPattern.Instruction]) {
        self.program = program
        mark = [Int](repeating: -1, count: program.count)
    }

    func matches(_ text: String) -> Bool {
        // The lists move into locals for the run: a class's stored arrays
        // would pay a dynamic exclusivity check on every push and pop.
        var state = State()
        swap(&state.current, &current)
        swap(&state.next, &next)
        swap(&state.stack, &stack)
        swap(&state.mark, &mark)
        state.generation = generation
        let result = Self.run(program, text, &state)
        swap(&state.current, &current)
        swap(&state.next, &next)
        swap(&state.stack, &stack)
        swap(&state.mark, &mark)
        generation = state.generation
        return result
    }

    private struct State {
        var current: [Int] = [], next: [Int] = [], stack: [Int] = [], mark: [Int] = []
        var generation = 0
    }

    /// Adds `pc` and every state reachable from it without reading a character.
    private static func add(_ program: [RegexPattern.Instruction], _ pc: Int, _ list: inout [Int], _ s: inout State) {
        s.stack.append(pc)
        while let p = s.stack.popLast() {
            guard s.mark[p] != s.generation else { continue }
            s.mark[p] = s.generation
            switch program[p] {
            case .split(let a, let b): s.stack.append(b); s.stack.append(a)
            case .jump(let a): s.stack.append(a)
            default: list.append(p)
            }
        }
    }

    private static func run(_ program: [RegexPattern.Instruction], _ text: String, _ s: inout State) -> Bool {
        var current = s.current, next = s.next
        s.current = []
        s.next = []
        defer { s.current = current; s.next = next }
        s.generation += 1
        current.removeAll(keepingCapacity: true)
        add(program, 0, &current, &s)
        for c in text.unicodeScalars {
            s.generation += 1
            next.removeAll(keepingCapacity: true)
            for pc in current {
                switch program[pc] {
                case .scalar(let x) where x == c: add(program, pc + 1, &next, &s)
                case .set(let set) where set.contains(c): add(program, pc + 1, &next, &s)
                default: break
                }
            }
            swap(&current, &next)
            if current.isEmpty { return false }
        }
        return current.contains { if case .match = program[$0] { return true } else { return false } }
    }
}

import Foundation

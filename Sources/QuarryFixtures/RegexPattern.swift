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

extension RegexPattern {
    struct Parser {
        let scalars: [Unicode.Scalar]
        var position = 0

        var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        mutating func parseAlternation() throws(Unsupported) -> Node {
            var branches = [try parseSequence()]
            while peek == "|" {
                position += 1
                branches.append(try parseSequence())
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        mutating func parseSequence() throws(Unsupported) -> Node {
            var items: [Node] = []
            while let c = peek, c != "|", c != ")" {
                var atom: Node
                switch c {
                case "^", "$":
                    // Whole-string semantics: anchors at the ends add nothing.
                    position += 1
                    continue
                case "(": atom = try parseGroup()
                case "[": atom = try parseClass()
                case ".":
                    position += 1
                    atom = .set(CharacterSet(ranges: [0x0A...0x0A], negated: true))
                case "\\": atom = try parseEscape(inClass: false).node
                case "*", "+", "?", "{":
                    throw Unsupported(message: "nothing to repeat at offset \(position)")
                default:
                    position += 1
                    atom = .literal(c)
                }
                items.append(try parseQuantifiers(atom))
            }
            return items.count == 1 ? items[0] : .sequence(items)
        }

        mutating func parseQuantifiers(_ atom: Node) throws(Unsupported) -> Node {
            var node = atom
            while let c = peek {
                let bounds: (Int, Int?)
                switch c {
                case "*": bounds = (0, nil); position += 1
                case "+": bounds = (1, nil); position += 1
                case "?": bounds = (0, 1); position += 1
                case "{":
                    guard let b = try parseBraces() else { return node }
                    bounds = b
                default: return node
                }
                node = .repeated(node, min: bounds.0, max: bounds.1)
                if peek == "?" || peek == "+" { position += 1 } // lazy / possessive
            }
            return node
        }

        /// `{n}`, `{n,}`, `{n,m}`; nil (and a literal `{`) when not a quantifier.
        mutating func parseBraces() throws(Unsupported) -> (Int, Int?)? {
            var j = position + 1
            func number() -> Int? {
                var n: Int?
                while j < scalars.count, let d = Int(String(scalars[j])), scalars[j].isASCII {
                    n = (n ?? 0) * 10 + d
                    j += 1
                }
                return n
            }
            guard let lo = number() else { return nil }
            var hi: Int? = lo
            if j < scalars.count, scalars[j] == "," {
                j += 1
                hi = number()
            }
            guard j < scalars.count, scalars[j] == "}" else { return nil }
            if let hi, hi < lo { throw Unsupported(message: "{\(lo),\(hi)}: the maximum is below the minimum") }
            position = j + 1
            return (lo, hi)
        }

        mutating func parseGroup() throws(Unsupported) -> Node {
            position += 1
            if peek == "?" {
                let next = position + 1 < scalars.count ? scalars[position + 1] : " "
                if next == ":" {
                    position += 2
                } else if next == "<", position + 2 < scalars.count, scalars[position + 2] != "=", scalars[position + 2] != "!" {
                    while let c = peek, c != ">" { position += 1 }
                    position += 1
                } else {
                    throw Unsupported(message: "group flags or look-around '(?\(next)' are not supported")
                }
            }
            let inner = try parseAlternation()
            guard peek == ")" else { throw Unsupported(message: "missing ')'") }
            position += 1
            return inner
        }

        mutating func parseClass() throws(Unsupported) -> Node {
            position += 1
            var set = CharacterSet(ranges: [], negated: false)
            if peek == "^" { set.negated = true; position += 1 }
            var first = true
            while let c = peek, c != "]" || first {
                first = false
                var low: UInt32
                if c == "\\" {
                    let escape = try parseEscape(inClass: true)
                    if case .set(let inner) = escape.node {
                        guard !inner.negated else { throw Unsupported(message: "negated escapes inside a class") }
                        set.ranges += inner.ranges
                        continue
                    }
                    low = escape.scalar!.value
                } else {
                    if c == "[" { throw Unsupported(message: "nested classes are not supported") }
                    low = c.value
                    position += 1
                }
                if peek == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                    position += 1
                    var high: UInt32
                    if peek == "\\" {
                        guard let s = try parseEscape(inClass: true).scalar else { throw Unsupported(message: "a class cannot end a range") }
                        high = s.value
                    } else {
                        high = peek!.value
                        position += 1
                    }
                    guard low <= high else { throw Unsupported(message: "range out of order in a class") }
                    set.ranges.append(low...high)
                } else {
                    set.ranges.append(low...low)
                }
            }
            guard peek == "]" else { throw Unsupported(message: "missing ']'") }
            position += 1
            return .set(set)
        }

        static let digits: [ClosedRange<UInt32>] = [0x30...0x39]
        static let word: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
        static let space: [ClosedRange<UInt32>] = [0x09...0x0D, 0x20...0x20]

        /// An escape: a literal scalar, or a class (`\d`...).
        mutating func parseEscape(inClass: Bool) throws(Unsupported) -> (node: Node, scalar: Unicode.Scalar?) {
            position += 1
            guard let c = peek else { throw Unsupported(message: "a trailing backslash") }
            position += 1
            func set(_ r: [ClosedRange<UInt32>], _ negated: Bool) -> (Node, Unicode.Scalar?) {
                (.set(CharacterSet(ranges: r, negated: negated)), nil)
            }
            switch c {
            case "d": return set(Self.digits, false)
            case "D": return set(Self.digits, true)
            case "w": return set(Self.word, false)
            case "W": return set(Self.word, true)
            case "s": return set(Self.space, false)
            case "S": return set(Self.space, true)
            case "n": return (.literal("\n"), "\n")
            case "t": return (.literal("\t"), "\t")
            case "r": return (.literal("\r"), "\r")
            default:
                if c.properties.isAlphabetic || (c.isASCII && c.properties.numericType != nil) {
                    throw Unsupported(message: "the escape '\\\(c)' is not supported")
                }
                return (.literal(c), c)
            }
        }
    }
}

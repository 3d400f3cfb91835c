// MATCHES for PostgreSQL: translates the safe subset of an ICU regular
// expression (the evaluator's dialect, whole-string match) into a PostgreSQL
// ARE matched with `~` against `quarry_fold(subject, flags)` — or against the
// raw subject when the folding is none. nil means "cannot be sure": the
// planner must then filter in memory.
//
// Translated: literals (ASCII metacharacters escaped, `\n \t \r \f`), `.`
// (ICU's: anything but a line terminator), `[...]` classes of ASCII members
// and ranges (negated too), `\d \D \s \S \w \W` as explicit code-point sets
// taken from ICU itself (PostgreSQL's are locale-bound and ASCII-only under
// "C"), groups `(...)` `(?:...)`, `|`, `* + ? {n} {n,} {n,m}` and their lazy
// forms (laziness never changes whether a whole-string match exists), `^`
// first and `$` last. The result is `^(?:...)$`.
// Refused (nil): lookaround, possessive and atomic forms, backreferences,
// named groups, inline flags, `\p{…}`, `\b`, `\A \z \Z \G \Q \E`, `\x \u \N`
// escapes, nested or POSIX classes, bounds over 255, `^`/`$` elsewhere, the
// empty pattern (it matches nothing), non-ASCII patterns under [c]/[d].
// [d]: ICU sees the [d]-folded subject too, so an ASCII pattern is exact
// against `quarry_fold(subject, 2)`. [c]: ICU folds while matching (full
// folding for literal strings: "ss" matches "ß") but counts code points of the
// raw subject, while PostgreSQL sees the folded, possibly longer subject; so
// under [c] an atom that can match a letter is allowed only unquantified if
// it is a literal letter, or as `.` `\w` `\W` `\S` `\D` under `*` or `+`;
// classes holding letters, and negated classes, are refused.
import Foundation
import QuarryEvaluation

public enum PostgresRegex {
    public static func translate(_ icuPattern: String, folding: Folding) -> String? {
        if icuPattern.isEmpty { return nil }
        if !folding.isNone && !icuPattern.unicodeScalars.allSatisfy({ $0.isASCII }) { return nil }
        var parser = Parser(scalars: Array(icuPattern.unicodeScalars), caseInsensitive: folding.caseInsensitive)
        guard let body = parser.alternation(depth: 0), parser.position == parser.scalars.count,
              body.weight <= maximumWeight, parser.optionalQuantifiers <= maximumOptionalQuantifiers else { return nil }
        return "^(?:" + body.text + ")$"
    }

    /// PostgreSQL compiles a regular expression into an automaton whose
    /// build time grows much faster than the pattern (measured, PostgreSQL 15:
    /// 200 `a*` in a row 0.2 s, 500 0.6 s, 1,000 51 s; `(a{1,255}){1,255}`
    /// "regular expression is too complex", an error where memory answers).
    /// Patterns past these bounds run in memory, where ICU takes them in
    /// linear time: the weight counts atoms with bounded repetitions
    /// expanded, the other the quantifiers that make a state optional.
    static let maximumWeight = 10_000
    static let maximumOptionalQuantifiers = 64

    /// ICU's `\d`, `\s`, `\w` as PostgreSQL bracket bodies, asked of ICU.
    static let digitClass = icuClass("\\d") { $0.properties.generalCategory == .decimalNumber }
    static let spaceClass = icuClass("\\s") { u in
        u.properties.isWhitespace || [.spaceSeparator, .lineSeparator, .paragraphSeparator].contains(u.properties.generalCategory)
            || (0x09...0x0D).contains(u.value) || (0x1C...0x1F).contains(u.value) || u.value == 0x85
    }
    static let wordClass = icuClass("\\w") { u in
        let c = u.properties.generalCategory
        return u.properties.isAlphabetic || c == .nonspacingMark || c == .spacingMark || c == .enclosingMark
            || c == .decimalNumber || c == .connectorPunctuation || u.value == 0x200C || u.value == 0x200D
    }

    static func icuClass(_ pattern: String, candidate: (Unicode.Scalar) -> Bool) -> String {
        let regex = try! NSRegularExpression(pattern: "\\A" + pattern + "\\z")
        var members = Set<UInt32>()
        for v in UInt32(0)...0x10FFFF {
            guard let u = Unicode.Scalar(v), candidate(u) else { continue }
            let s = String(Character(u))
            if regex.firstMatch(in: s, range: NSRange(location: 0, length: s.utf16.count)) != nil { members.insert(v) }
        }
        return PostgresFoldTable.ranges(of: members).map { r in
            r.lowerBound == r.upperBound ? escape(r.lowerBound) : escape(r.lowerBound) + "-" + escape(r.upperBound)
        }.joined()
    }

    static func escape(_ v: UInt32) -> String {
        let h = String(v, radix: 16, uppercase: true)
        return v <= 0xFFFF ? "\\u" + String(repeating: "0", count: 4 - h.count) + h
            : "\\U" + String(repeating: "0", count: 8 - h.count) + h
    }

    /// ICU's `.`: anything but a line terminator.
    static let dot = "[^\\u000A-\\u000D\\u0085\\u2028\\u2029]"

    struct Atom {
        var text: String
        /// Can match a letter (matters under [c]).
        var letters: Bool
        /// `.`, `\w`, `\W`, `\S`, `\D`: closed under folding, safe under `*`/`+` with [c].
        var broad: Bool = false
        var quantifiable = true
        /// Atoms once bounded repetitions inside are expanded (see `maximumWeight`).
        var weight = 1
    }

    struct Parser {
        let scalars: [Unicode.Scalar]
        let caseInsensitive: Bool
        var position = 0
        var optionalQuantifiers = 0

        init(scalars: [Unicode.Scalar], caseInsensitive: Bool) {
            self.scalars = scalars
            self.caseInsensitive = caseInsensitive
        }

        var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        mutating func alternation(depth: Int) -> (text: String, weight: Int)? {
            guard depth < 50 else { return nil }
            var branches: [String] = []
            var weight = 0
            while true {
                guard let seq = sequence(depth: depth) else { return nil }
                branches.append(seq.text)
                weight += seq.weight
                if peek == "|" { position += 1; continue }
                return (branches.joined(separator: "|"), weight)
            }
        }

        mutating func sequence(depth: Int) -> (text: String, weight: Int)? {
            var out = ""
            var weight = 0
            while let c = peek, c != "|", c != ")" {
                if c == "^" {
                    guard position == 0 else { return nil }
                    position += 1; continue
                }
                if c == "$" {
                    guard position == scalars.count - 1 else { return nil }
                    position += 1; continue
                }
                guard var atom = atom(depth: depth) else { return nil }
                guard let q = quantifier() else { return nil }
                // Under [c] only literal letters may stand alone; other letter-matching
                // atoms need `*` or `+` (code-point counts differ after folding).
                if caseInsensitive && atom.letters && q.isEmpty && atom.broad { return nil }
                if caseInsensitive && atom.letters && q.isEmpty && atom.text.unicodeScalars.count > 1 { return nil }
                if !q.isEmpty {
                    guard atom.quantifiable else { return nil }
                    if caseInsensitive && atom.letters && !(atom.broad && (q == "*" || q == "+")) { return nil }
                    atom.text += q
                    let (repeats, optional) = Parser.repetition(q)
                    atom.weight = min(atom.weight, PostgresRegex.maximumWeight + 1) * repeats   // ≤ 10,001 × 256: no overflow
                    if optional { optionalQuantifiers += 1 }
                }
                out += atom.text
                weight = min(weight + atom.weight, PostgresRegex.maximumWeight + 1)
            }
            return (out, weight)
        }

        /// How many copies of its atom a translated quantifier makes, and
        /// whether it makes the atom optional or repeatable at will.
        static func repetition(_ q: String) -> (repeats: Int, optional: Bool) {
            // `+` loops without making the atom optional: 2,000 in a row compile in 19 ms.
            guard q.hasPrefix("{") else { return (1, q != "+") }
            let parts = q.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false)
            let lo = Int(parts[0]) ?? 0
            guard parts.count == 2 else { return (max(lo, 1), false) }
            guard let hi = Int(parts[1]) else { return (lo + 1, true) }
            return (max(hi, 1), hi != lo)
        }

        /// "" for none, nil for a quantifier that cannot be translated.
        mutating func quantifier() -> String? {
            guard let c = peek else { return "" }
            var q: String
            switch c {
            case "*", "+", "?": q = String(c); position += 1
            case "{":
                var j = position + 1
                var text = ""
                while j < scalars.count, scalars[j] != "}" { text.unicodeScalars.append(scalars[j]); j += 1 }
                guard j < scalars.count else { return nil }
                let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                guard parts.count <= 2, let lo = Int(parts[0]), lo <= 255 else { return nil }
                if parts.count == 2 && !parts[1].isEmpty {
                    guard let hi = Int(parts[1]), hi <= 255, hi >= lo else { return nil }
                }
                q = "{" + text + "}"
                position = j + 1
            default: return ""
            }
            if peek == "?" { position += 1 }          // lazy: same whole-string answer
            else if peek == "+" { return nil }        // possessive
            if let n = peek, "*+?{".unicodeScalars.contains(n) { return nil }
            return q
        }

        mutating func atom(depth: Int) -> Atom? {
            guard let c = peek else { return nil }
            position += 1
            switch c {
            case "(":
                if peek == "?" {
                    guard position + 1 < scalars.count, scalars[position + 1] == ":" else { return nil }
                    position += 2
                }
                guard let (inner, weight) = alternation(depth: depth + 1), peek == ")" else { return nil }
                position += 1
                // Under [c] a group is refused if quantified and it can match letters:
                // mark it as letters unless it is made of non-letters only.
                let letters = inner.unicodeScalars.contains { ($0.properties.isAlphabetic) } || inner.contains("\\u") || inner.contains("[")
                return Atom(text: "(?:" + inner + ")", letters: letters, weight: weight)
            case ".":
                return Atom(text: PostgresRegex.dot, letters: true, broad: true)
            case "[":
                return bracket()
            case "\\":
                return escapeAtom()
            case "*", "+", "?", "{", ")", "}":
                return nil
            default:
                return literal(c)
            }
        }

        func literal(_ c: Unicode.Scalar) -> Atom? {
            if c.isASCII {
                let isLetter = (c >= "a" && c <= "z") || (c >= "A" && c <= "Z")
                if isLetter || (c >= "0" && c <= "9") {
                    let ch = caseInsensitive ? String(Character(c)).lowercased() : String(Character(c))
                    return Atom(text: ch, letters: isLetter)
                }
                if c.value < 0x20 || c.value == 0x7F { return Atom(text: PostgresRegex.escape(c.value), letters: false) }
                return Atom(text: "\\" + String(Character(c)), letters: false)
            }
            return Atom(text: String(Character(c)), letters: true)
        }

        mutating func escapeAtom() -> Atom? {
            guard let e = peek else { return nil }
            position += 1
            switch e {
            case "d": return Atom(text: "[" + PostgresRegex.digitClass + "]", letters: false)
            case "D": return Atom(text: "[^" + PostgresRegex.digitClass + "]", letters: true, broad: true)
            case "s": return Atom(text: "[" + PostgresRegex.spaceClass + "]", letters: false)
            case "S": return Atom(text: "[^" + PostgresRegex.spaceClass + "]", letters: true, broad: true)
            case "w": return Atom(text: "[" + PostgresRegex.wordClass + "]", letters: true, broad: true)
            case "W": return Atom(text: "[^" + PostgresRegex.wordClass + "]", letters: true, broad: true)
            case "n": return Atom(text: "\\u000A", letters: false)
            case "t": return Atom(text: "\\u0009", letters: false)
            case "r": return Atom(text: "\\u000D", letters: false)
            case "f": return Atom(text: "\\u000C", letters: false)
            default:
                // Any other escaped ASCII punctuation is that character.
                guard e.isASCII, !e.properties.isAlphabetic, !(e >= "0" && e <= "9"), e.value > 0x20, e.value < 0x7F else { return nil }
                return Atom(text: "\\" + String(Character(e)), letters: false)
            }
        }

        /// `[...]` with ASCII members, ranges and escaped punctuation only.
        mutating func bracket() -> Atom? {
            var negated = false
            if peek == "^" { negated = true; position += 1 }
            var members: [(UInt32, UInt32)] = []
            var first = true
            while true {
                guard let c = peek else { return nil }
                if c == "]" && !first { position += 1; break }
                first = false
                guard let lo = classMember() else { return nil }
                if peek == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                    position += 1
                    guard let hi = classMember(), hi >= lo else { return nil }
                    members.append((lo, hi))
                } else {
                    members.append((lo, lo))
                }
            }
            let letters = members.contains { m in
                (m.0...m.1).contains { v in (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) }
            }
            if caseInsensitive && (letters || negated) { return nil }
            let body = members.map { $0.0 == $0.1 ? PostgresRegex.escape($0.0) : PostgresRegex.escape($0.0) + "-" + PostgresRegex.escape($0.1) }.joined()
            return Atom(text: "[" + (negated ? "^" : "") + body + "]", letters: letters || negated)
        }

        mutating func classMember() -> UInt32? {
            guard let c = peek, c.isASCII else { return nil }
            position += 1
            switch c {
            case "[", "&": return nil                   // nested classes, POSIX names, set operations
            case "\\":
                guard let e = peek, e.isASCII else { return nil }
                position += 1
                switch e {
                case "n": return 0x0A
                case "t": return 0x09
                case "r": return 0x0D
                case "f": return 0x0C
                default:
                    guard !e.properties.isAlphabetic, !(e >= "0" && e <= "9"), e.value > 0x20, e.value < 0x7F else { return nil }
                    return e.value
                }
            default:
                if c == "-" , peek == "-" { return nil }     // ICU's "--" set difference
                return c.value
            }
        }
    }
}

// Reading a regular expression into RegexPattern's tree: the subset listed
// in RegexPattern.swift, one recursive-descent function per construct
// (alternation, sequence, quantifiers, groups, classes, escapes). Anything
// outside the subset throws `Unsupported` with what was found, so a
// factory's `pattern` error can say why.
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

// A look at YAML (or JSON) text before Yams reads it, to refuse nesting deep
// enough to exhaust the stack. Yams composes and frees its node tree
// recursively, so 10,000 nested `[` in a model or factories file crash the
// process; no model needs more than a dozen levels, so anything past the
// limits below is refused with the line and column where it went too deep.
//
// The scan is deliberately rough, and errs one way only: it may overcount,
// never undercount. It follows quoted scalars (with `\\` escapes in double
// quotes and `''` in single quotes) and comments, but its guess where a
// quote starts can be wrong (`it 'is` in a plain scalar is no quote), and a
// wrong guess must never hide real nesting: brackets inside what it takes
// for a quoted scalar are counted too, and whatever they leave open when the
// quote closes is added to the depth. A real quoted pattern (`'[A-Z]{3}'`)
// balances its brackets and adds nothing. For block structure it counts the
// indentation and the `- ` entries a line opens at once (`- - - x`). The
// limits leave ample room.

/// Where a YAML text nests too deep, if it does.
public struct YAMLNesting: Sendable, Equatable {
    public var line: Int
    public var column: Int
    public var message: String

    /// Flow collections (`[`, `{`) and compact `- ` entries open at once.
    public static let maximumDepth = 100
    /// Indentation, in columns: each block level needs at least one.
    public static let maximumIndentation = 1_000

    /// The first place `text` nests deeper than the limits, or nil.
    public static func check(_ text: String) -> YAMLNesting? {
        let b = Array(text.utf8)
        var line = 1, column = 0
        var depth = 0
        var atLineStart = true, indentation = 0, dashes = 0
        var quote: UInt8? = nil
        /// Brackets left open inside the current quote (see above).
        var quoted = 0
        var previous: UInt8 = 0x0A
        var inComment = false
        var i = 0
        while i < b.count {
            let c = b[i]
            i += 1
            column += 1
            defer { previous = c }
            if c == 0x0A {
                line += 1; column = 0
                atLineStart = true; indentation = 0; dashes = 0
                inComment = false
                // A quoted scalar may span lines; the quote stays open.
                continue
            }
            if inComment { continue }
            if let q = quote {
                if q == UInt8(ascii: "\"") && c == UInt8(ascii: "\\") {
                    i += 1; column += 1   // the escaped byte, whatever it is
                } else if q == UInt8(ascii: "'") && c == q && i < b.count && b[i] == q {
                    i += 1; column += 1   // '' is a quote inside single quotes
                } else if c == q {
                    quote = nil
                    depth += quoted
                    quoted = 0
                } else if c == UInt8(ascii: "[") || c == UInt8(ascii: "{") {
                    // Counted anyway: the quote may be a wrong guess.
                    quoted += 1
                    if depth + quoted + dashes > maximumDepth { return tooDeep(line, column) }
                } else if c == UInt8(ascii: "]") || c == UInt8(ascii: "}") {
                    quoted = max(0, quoted - 1)
                }
                continue
            }
            if atLineStart {
                if c == 0x20 {
                    indentation += 1
                    if indentation > maximumIndentation {
                        return YAMLNesting(line: line, column: column,
                                           message: "indented deeper than \(maximumIndentation) columns")
                    }
                    continue
                }
                if c == UInt8(ascii: "-") || c == UInt8(ascii: "?") {
                    dashes += 1
                    if depth + dashes > maximumDepth { return tooDeep(line, column) }
                    continue
                }
                atLineStart = false
            }
            switch c {
            case UInt8(ascii: "#") where previous == 0x20 || previous == 0x09 || previous == 0x0A:
                inComment = true
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                // A quote opens a scalar only where a token starts.
                if [0x20, 0x09, 0x0A, UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ","), UInt8(ascii: ":"),
                    UInt8(ascii: "-")].contains(previous) {
                    quote = c
                }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth + dashes > maximumDepth { return tooDeep(line, column) }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth = max(0, depth - 1)
            default:
                break
            }
        }
        return nil
    }

    static func tooDeep(_ line: Int, _ column: Int) -> YAMLNesting {
        YAMLNesting(line: line, column: column, message: "nested deeper than \(maximumDepth) levels")
    }
}

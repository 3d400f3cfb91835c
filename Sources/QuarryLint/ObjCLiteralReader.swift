// Reads an Objective-C (or C) string literal: `@"…"` or `"…"` with C escapes
// (`\n \t \r \\ \" \' \a \b \f \v \e`, octal `\0…`, `\xHH`, `\uXXXX`,
// `\UXXXXXXXX`) and backslash-newline continuations, then joins the adjacent
// literals the compiler would join (`@"a" "b"`, `@"a" @"b"`, across lines and
// comments). A literal that reaches the end of its line is unterminated.

enum ObjCLiteralReader {
    private static let quote = UInt8(ascii: "\""), at = UInt8(ascii: "@"), backslash = UInt8(ascii: "\\")
    private static let newline = UInt8(ascii: "\n")

    /// Reads the literal (and the ones adjacent to it) starting at `start`
    /// (`@` or `"`); returns it and the offset just past the last one.
    static func read(_ b: [UInt8], at start: Int) -> (DecodedLiteral, Int) {
        var (literal, end) = readOne(b, at: start)
        while literal.problem == nil {
            let next = Scanner.skipTrivia(b, from: end, nestedComments: false)
            guard next < b.count else { break }
            let opens = b[next] == quote || (b[next] == at && next + 1 < b.count && b[next + 1] == quote)
            guard opens else { break }
            let (more, moreEnd) = readOne(b, at: next)
            literal.join(more)
            end = moreEnd
        }
        return (literal, end)
    }

    private static func readOne(_ b: [UInt8], at start: Int) -> (DecodedLiteral, Int) {
        var literal = DecodedLiteral(start: start)
        var p = start
        if p < b.count && b[p] == at { p += 1 }
        p += 1  // the opening quote
        while true {
            if p >= b.count || b[p] == newline {
                literal.problem = "unterminated string literal"
                literal.offsets.append(p)
                return (literal, p)
            }
            if b[p] == quote {
                literal.offsets.append(p)
                return (literal, p + 1)
            }
            if b[p] == backslash {
                p = escape(b, at: p, into: &literal)
                continue
            }
            literal.append(b[p], from: p)
            p += 1
        }
    }

    private static func escape(_ b: [UInt8], at p: Int, into literal: inout DecodedLiteral) -> Int {
        let q = p + 1
        guard q < b.count else { literal.problem = "unterminated string literal"; return q }
        let simple: [UInt8: UInt8] = [UInt8(ascii: "n"): 0x0A, UInt8(ascii: "t"): 0x09, UInt8(ascii: "r"): 0x0D,
                                      UInt8(ascii: "a"): 0x07, UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C,
                                      UInt8(ascii: "v"): 0x0B, UInt8(ascii: "e"): 0x1B, backslash: backslash,
                                      quote: quote, UInt8(ascii: "'"): UInt8(ascii: "'"), UInt8(ascii: "?"): UInt8(ascii: "?")]
        if b[q] == newline { return q + 1 }  // line continuation
        if b[q] == 0x0D, q + 1 < b.count, b[q + 1] == newline { return q + 2 }
        if let decoded = simple[b[q]] {
            literal.append(decoded, from: p)
            return q + 1
        }
        if b[q] >= UInt8(ascii: "0") && b[q] <= UInt8(ascii: "7") {
            var e = q, value: UInt32 = 0
            while e < b.count, e < q + 3, b[e] >= UInt8(ascii: "0"), b[e] <= UInt8(ascii: "7") {
                value = value * 8 + UInt32(b[e] - UInt8(ascii: "0")); e += 1
            }
            literal.append(scalar: Unicode.Scalar(UInt8(truncatingIfNeeded: value)), from: p)
            return e
        }
        let digits: Int? = b[q] == UInt8(ascii: "x") ? 2 : b[q] == UInt8(ascii: "u") ? 4 : b[q] == UInt8(ascii: "U") ? 8 : nil
        if let digits {
            var e = q + 1, value: UInt32 = 0
            while e < b.count, e < q + 1 + digits, let d = SwiftLiteralReader.hexValue(b[e]) { value = value &* 16 &+ d; e += 1 }
            if e > q + 1, let scalar = Unicode.Scalar(value) {
                literal.append(scalar: scalar, from: p)
            } else {
                literal.problem = literal.problem ?? "malformed \\\(Character(Unicode.Scalar(b[q]))) escape"
            }
            return e
        }
        literal.problem = literal.problem ?? "unknown escape sequence"
        literal.append(b[q], from: p)
        return q + 1
    }
}

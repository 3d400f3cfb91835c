// Reads a Swift string literal as the compiler does: `"…"` with its escapes
// (`\" \\ \n \t \r \0 \' \u{…}`), raw `#"…"#` (escapes need the same number
// of `#`), and multi-line `"""…"""`, de-indented by the closing delimiter's
// indentation, with `\` line continuations. `\(…)` interpolation is skipped
// and marks the literal as not constant. Never reads past the buffer and
// never loops without advancing: unterminated literals end at the line
// (single-line) or the file (multi-line) with a `problem`.

enum SwiftLiteralReader {
    private static let quote = UInt8(ascii: "\""), hash = UInt8(ascii: "#"), backslash = UInt8(ascii: "\\")
    private static let newline = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")

    /// Reads the literal starting at `start` (a `"` or the first `#` of a raw
    /// string); returns it and the offset just past it.
    static func read(_ b: [UInt8], at start: Int) -> (DecodedLiteral, Int) {
        var literal = DecodedLiteral(start: start)
        var p = start
        var hashes = 0
        while p < b.count && b[p] == hash { hashes += 1; p += 1 }
        guard p < b.count, b[p] == quote else {
            literal.problem = "not a string literal"
            return (literal, max(p, start + 1))
        }
        if p + 2 < b.count && b[p + 1] == quote && b[p + 2] == quote {
            return readMultiLine(b, literal: literal, openingQuotes: p, hashes: hashes)
        }
        p += 1
        while true {
            if p >= b.count || b[p] == newline || b[p] == cr {
                literal.problem = "unterminated string literal"
                literal.offsets.append(p)
                return (literal, p)
            }
            if b[p] == quote && closes(b, p + 1, hashes) {
                literal.offsets.append(p)
                return (literal, p + 1 + hashes)
            }
            if b[p] == backslash && closes(b, p + 1, hashes) {
                p = escape(b, at: p, hashes: hashes, into: &literal, lineEnd: lineEnd(b, p))
                continue
            }
            literal.append(b[p], from: p)
            p += 1
        }
    }

    /// True when `count` `#` follow at `p`.
    private static func closes(_ b: [UInt8], _ p: Int, _ count: Int) -> Bool {
        guard p + count <= b.count else { return false }
        for i in 0..<count where b[p + i] != hash { return false }
        return true
    }

    private static func lineEnd(_ b: [UInt8], _ p: Int) -> Int {
        var e = p
        while e < b.count && b[e] != newline { e += 1 }
        return e
    }

    /// Decodes the escape whose backslash is at `p`; returns the offset after it.
    private static func escape(_ b: [UInt8], at p: Int, hashes: Int, into literal: inout DecodedLiteral,
                               lineEnd: Int) -> Int {
        let q = p + 1 + hashes
        guard q < lineEnd else {
            literal.problem = literal.problem ?? "backslash at the end of a line"
            return q
        }
        let simple: [UInt8: UInt8] = [UInt8(ascii: "n"): 0x0A, UInt8(ascii: "t"): 0x09, UInt8(ascii: "r"): 0x0D,
                                      UInt8(ascii: "0"): 0x00, backslash: backslash, quote: quote,
                                      UInt8(ascii: "'"): UInt8(ascii: "'")]
        if let decoded = simple[b[q]] {
            literal.append(decoded, from: p)
            return q + 1
        }
        if b[q] == UInt8(ascii: "u"), q + 1 < lineEnd, b[q + 1] == UInt8(ascii: "{") {
            var e = q + 2
            var value: UInt32 = 0
            while e < lineEnd, e < q + 12, let digit = hexValue(b[e]) { value = value &* 16 &+ digit; e += 1 }
            if e < lineEnd, b[e] == UInt8(ascii: "}"), e > q + 2, let scalar = Unicode.Scalar(value) {
                literal.append(scalar: scalar, from: p)
                return e + 1
            }
            literal.problem = literal.problem ?? "malformed \\u{…} escape"
            return min(e + 1, lineEnd)
        }
        if b[q] == UInt8(ascii: "(") {
            literal.notConstant = literal.notConstant ?? "string interpolation \\(…)"
            return skipInterpolation(b, from: q + 1, lineEnd: lineEnd)
        }
        literal.problem = literal.problem ?? "invalid escape sequence"
        literal.append(b[q], from: p)
        return q + 1
    }

    static func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(c - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// Skips `…)` of an interpolation, counting parentheses and stepping over
    /// nested string literals; stops at the end of the line at the latest.
    private static func skipInterpolation(_ b: [UInt8], from start: Int, lineEnd: Int) -> Int {
        var depth = 1
        var p = start
        while p < lineEnd {
            switch b[p] {
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"):
                depth -= 1
                if depth == 0 { return p + 1 }
            case quote:
                p += 1
                while p < lineEnd && b[p] != quote { p += b[p] == backslash ? 2 : 1 }
            default: break
            }
            p += 1
        }
        return lineEnd
    }

    // MARK: - Multi-line

    private static func readMultiLine(_ b: [UInt8], literal: DecodedLiteral, openingQuotes: Int,
                                      hashes: Int) -> (DecodedLiteral, Int) {
        var literal = literal
        var p = openingQuotes + 3
        // Only whitespace may follow the opening delimiter on its line.
        while p < b.count && b[p] != newline {
            if b[p] != 0x20 && b[p] != 0x09 && b[p] != cr { literal.problem = "multi-line string literal content must begin on a new line" }
            p += 1
        }
        let contentStart = min(p + 1, b.count)
        // The closing delimiter: the first line whose first non-blank text is `"""` and the hashes.
        var lines: [(start: Int, end: Int)] = []
        var lineStart = contentStart
        var closing: (indentEnd: Int, end: Int)?
        while lineStart < b.count {
            let end = lineEnd(b, lineStart)
            var w = lineStart
            while w < end && (b[w] == 0x20 || b[w] == 0x09) { w += 1 }
            if w + 2 < b.count, b[w] == quote, b[w + 1] == quote, b[w + 2] == quote, closes(b, w + 3, hashes) {
                closing = (w, w + 3 + hashes)
                break
            }
            lines.append((lineStart, end))
            lineStart = end + 1
        }
        guard let closing else {
            literal.problem = "unterminated multi-line string literal"
            literal.offsets.append(b.count)
            return (literal, b.count)
        }
        let indentStart = lineStart
        let indent = Array(b[indentStart..<closing.indentEnd])
        for (n, line) in lines.enumerated() {
            var p = line.start
            var end = line.end
            if end > p && b[end - 1] == cr { end -= 1 }
            let blank = b[p..<end].allSatisfy { $0 == 0x20 || $0 == 0x09 }
            if !blank {
                if end - p >= indent.count && Array(b[p..<p + indent.count]) == indent {
                    p += indent.count
                } else {
                    literal.problem = literal.problem ?? "insufficient indentation of a line in a multi-line string literal"
                }
            } else {
                p = end
            }
            var continues = false
            while p < end {
                if b[p] == backslash && closes(b, p + 1, hashes) {
                    // `\` then only blanks up to the line break: a line continuation.
                    var r = p + 1 + hashes
                    while r < end && (b[r] == 0x20 || b[r] == 0x09) { r += 1 }
                    if r == end { continues = true; break }
                    p = escape(b, at: p, hashes: hashes, into: &literal, lineEnd: end)
                    continue
                }
                literal.append(b[p], from: p)
                p += 1
            }
            if n < lines.count - 1 && !continues { literal.append(newline, from: line.end) }
        }
        literal.offsets.append(closing.indentEnd)
        return (literal, closing.end)
    }
}

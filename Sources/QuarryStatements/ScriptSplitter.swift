// Splits script text into items: statements (ended by `;` or the end of the
// text) and dot-commands (a line starting with `.` where a statement could
// start). `--` comments are replaced by spaces, byte for byte, so every
// offset in an item's text is still its offset in the file (plus the item's
// start): diagnostics then point at the right line and column of the file.
// Quotes are tracked so that `;` and `--` inside strings are text.

/// One statement or dot-command of a script.
public struct ScriptItem: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case statement, dotCommand }
    public var kind: Kind
    /// The text with comments blanked; for a statement, without its `;`.
    public var text: String
    /// Byte offset of `text` in the whole script.
    public var offset: Int
    /// True when a `;` ended the statement (always true for dot-commands).
    public var terminated: Bool
}

public enum ScriptSplitter {
    /// The items of `source`, in order; blank statements (`;;`) are skipped.
    public static func split(_ source: SourceText) -> [ScriptItem] {
        let b = source.utf8
        var items: [ScriptItem] = []
        var i = 0
        while i < b.count {
            // Skip whitespace and comments between items.
            if b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x3B { i += 1; continue }
            if b[i] == 0x2D && i + 1 < b.count && b[i + 1] == 0x2D {
                while i < b.count && b[i] != 0x0A { i += 1 }
                continue
            }
            let start = i
            if b[i] == 0x2E { // '.': a dot-command, to the end of the line
                while i < b.count && b[i] != 0x0A { i += 1 }
                var end = i
                if end > start && b[end - 1] == 0x0D { end -= 1 }
                items.append(ScriptItem(kind: .dotCommand, text: String(decoding: b[start..<end], as: UTF8.self),
                                        offset: start, terminated: true))
                continue
            }
            var masked: [UInt8] = []
            var quote: UInt8 = 0
            var terminated = false
            while i < b.count {
                let c = b[i]
                if quote != 0 {
                    masked.append(c)
                    if c == 0x5C && i + 1 < b.count { masked.append(b[i + 1]); i += 2; continue }
                    if c == quote { quote = 0 }
                    i += 1
                    continue
                }
                if c == 0x27 || c == 0x22 { quote = c; masked.append(c); i += 1; continue }
                if c == 0x3B { terminated = true; i += 1; break }
                if c == 0x2D && i + 1 < b.count && b[i + 1] == 0x2D {
                    while i < b.count && b[i] != 0x0A { masked.append(0x20); i += 1 }
                    continue
                }
                masked.append(c)
                i += 1
            }
            let text = String(decoding: masked, as: UTF8.self)
            if !text.allSatisfy(\.isWhitespace) {
                items.append(ScriptItem(kind: .statement, text: text, offset: start, terminated: terminated))
            }
        }
        return items
    }

    /// What the REPL can run of what was typed so far: every item up to an
    /// unfinished last statement (one without its `;`), which stays behind
    /// to be continued on the next line, as in sqlite3 and psql. A
    /// dot-command is complete at the end of its line. Pasting several
    /// statements at once runs them in order; a statement pasted over
    /// several lines waits for its `;`.
    public static func ready(_ text: String) -> (run: String, rest: String) {
        let items = split(SourceText(text))
        guard let last = items.last else { return ("", "") } // blank or only comments
        guard last.kind == .statement, !last.terminated else { return (text, "") }
        let bytes = Array(text.utf8)
        return (String(decoding: bytes[..<last.offset], as: UTF8.self), String(decoding: bytes[last.offset...], as: UTF8.self))
    }

    /// Words after which a statement cannot end (used by `needsMoreInput`).
    static let continuingWords: Set<String> = [
        "FETCH", "COUNT", "EVAL", "INSERT", "UPDATE", "DELETE", "SECTIONS", "SET", "EXPLAIN", "DISTINCT",
        "PROPERTIES", "WHERE", "GROUP", "BY", "HAVING", "SORT", "ORDER", "LIMIT", "OFFSET", "BATCH", "AS",
        "AND", "OR", "NOT", "ANY", "ALL", "NONE", "SOME", "LIKE", "MATCHES", "CONTAINS", "BEGINSWITH",
        "ENDSWITH", "IN", "BETWEEN",
    ]

    /// Whether `text` is visibly unfinished: an open quote, an unclosed
    /// bracket, or a last word or operator that needs something after it
    /// (`WHERE`, `AND`, `>`, `,`). The REPL no longer runs a line when this
    /// says it is complete — statements end at `;` (see `ready`) — but the
    /// check stays for tools that want the old line-at-a-time reading.
    public static func needsMoreInput(_ text: String) -> Bool {
        let items = split(SourceText(text))
        guard let last = items.last, last.kind == .statement, !last.terminated else { return false }
        let source = SourceText(last.text)
        let tokens: ContiguousArray<Token>
        do { tokens = try Lexer.tokenize(source).tokens } catch {
            return error.code == .unterminatedString
        }
        var depth = 0
        for t in tokens {
            if case .punctuation(let p) = t.kind {
                switch p {
                case .leftParen, .leftBrace, .leftBracket: depth += 1
                case .rightParen, .rightBrace, .rightBracket: depth -= 1
                default: break
                }
            }
        }
        if depth > 0 { return true }
        guard tokens.count >= 2 else { return false }
        let lastToken = tokens[tokens.count - 2]
        switch lastToken.kind {
        case .identifier, .keyword:
            let word = String(decoding: source.utf8[lastToken.span.start..<lastToken.span.end], as: UTF8.self).uppercased()
            return continuingWords.contains(word)
        case .punctuation(let p):
            switch p {
            case .rightParen, .rightBrace, .rightBracket: return false
            default: return true
            }
        default:
            return false
        }
    }
}

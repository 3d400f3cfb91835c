// The lexer: UTF-8 bytes in, tokens out, in one linear pass with no
// backtracking. It knows every spelling of LANGUAGE.md: case-insensitive
// keywords, `#keyword` escapes, both quote styles with all escapes, integer
// prefixes, decimals and exponents, operator synonyms, `%` specifiers and
// `$variables`. Specifiers inside quotes are literal text, as in Apple.

/// Turns source text into tokens. Throws the first lexical error.
public struct Lexer {
    /// Inputs above this size are refused (P009) instead of being parsed.
    public static let maximumInputBytes = 64 << 20

    let bytes: [UInt8]
    var index = 0
    public internal(set) var tokens: ContiguousArray<Token> = []
    /// Decoded string literals, indexed by `TokenKind.string`.
    public internal(set) var strings: [String] = []

    public init(_ source: SourceText) {
        self.bytes = source.utf8
    }

    /// Lexes the whole input; the last token is `.end`.
    public static func tokenize(_ source: SourceText) throws(Diagnostic) -> (tokens: ContiguousArray<Token>, strings: [String]) {
        var lexer = Lexer(source)
        try lexer.run()
        return (lexer.tokens, lexer.strings)
    }

    public mutating func run() throws(Diagnostic) {
        if bytes.count > Lexer.maximumInputBytes {
            throw Diagnostic(.inputTooLarge, "input is \(bytes.count) bytes; the limit is \(Lexer.maximumInputBytes)",
                             at: SourceSpan(start: 0, end: 0))
        }
        tokens.reserveCapacity(bytes.count / 3 + 2)
        var sawSpace = true
        while true {
            let before = index
            skipWhitespace()
            sawSpace = sawSpace || index > before
            guard index < bytes.count else {
                tokens.append(Token(kind: .end, span: SourceSpan(start: index, end: index), followsSpace: true))
                return
            }
            let start = index
            let kind = try scanToken()
            tokens.append(Token(kind: kind, span: SourceSpan(start: start, end: index), followsSpace: sawSpace))
            sawSpace = false
        }
    }

    // MARK: - Dispatch

    private mutating func scanToken() throws(Diagnostic) -> TokenKind {
        let c = bytes[index]
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try scanNumber()
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return try scanString(quote: c)
        case UInt8(ascii: "$"):
            return try scanVariable()
        case UInt8(ascii: "%"):
            return try scanSpecifier()
        case UInt8(ascii: "#"):
            return try scanEscapedKeyword()
        case _ where Lexer.isIdentifierStart(c):
            return scanWord()
        default:
            return try scanPunctuation(c)
        }
    }

    @inline(__always)
    func peek(_ offset: Int = 0) -> UInt8 {
        let i = index + offset
        return i < bytes.count ? bytes[i] : 0
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C: index += 1
            case 0xC2 where peek(1) == 0xA0: index += 2 // no-break space, common in pasted text
            default: return
            }
        }
    }

    @inline(__always)
    static func isIdentifierStart(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || c == 0x5F || c == 0x40 || c >= 0x80
    }

    @inline(__always)
    static func isIdentifierContinue(_ c: UInt8) -> Bool {
        isIdentifierStart(c) || (c >= 0x30 && c <= 0x39)
    }

    // MARK: - Words

    private mutating func scanWord() -> TokenKind {
        let start = index
        while index < bytes.count && Lexer.isIdentifierContinue(bytes[index]) { index += 1 }
        // UTI-CONFORMS-TO and UTI-EQUALS are the only keywords with hyphens.
        if index - start == 3 && peek() == UInt8(ascii: "-") && Lexer.equalsIgnoringCase(bytes[start..<index], "UTI") {
            for (spelling, keyword) in [("-CONFORMS-TO", Keyword.utiConformsTo), ("-EQUALS", .utiEquals)] {
                let end = index + spelling.utf8.count
                if end <= bytes.count && Lexer.equalsIgnoringCase(bytes[index..<end], spelling)
                    && (end == bytes.count || !Lexer.isIdentifierContinue(bytes[end])) {
                    index = end
                    return .keyword(keyword)
                }
            }
        }
        if let keyword = KeywordTable.lookup(bytes, start, index) { return .keyword(keyword) }
        return .identifier
    }

    private mutating func scanEscapedKeyword() throws(Diagnostic) -> TokenKind {
        let start = index
        index += 1
        guard index < bytes.count && Lexer.isIdentifierStart(bytes[index]) else {
            throw Diagnostic(.malformedKeywordEscape, "'#' must be followed by a word, as in #size",
                             at: SourceSpan(start: start, end: start + 1))
        }
        while index < bytes.count && Lexer.isIdentifierContinue(bytes[index]) { index += 1 }
        return .escapedIdentifier
    }

    private mutating func scanVariable() throws(Diagnostic) -> TokenKind {
        let start = index
        index += 1
        guard index < bytes.count && Lexer.isIdentifierStart(bytes[index]) && bytes[index] != UInt8(ascii: "@") else {
            throw Diagnostic(.emptyVariableName, "'$' must be followed by a variable name, as in $NAME",
                             at: SourceSpan(start: start, end: start + 1))
        }
        while index < bytes.count && Lexer.isIdentifierContinue(bytes[index]) && bytes[index] != UInt8(ascii: "@") {
            index += 1
        }
        return .variable
    }

    static func equalsIgnoringCase(_ slice: ArraySlice<UInt8>, _ word: String) -> Bool {
        guard slice.count == word.utf8.count else { return false }
        var i = slice.startIndex
        for w in word.utf8 {
            var b = slice[i]
            if b >= 0x61 && b <= 0x7A { b -= 0x20 }
            var u = w
            if u >= 0x61 && u <= 0x7A { u -= 0x20 }
            if b != u { return false }
            i += 1
        }
        return true
    }
}

/// Case-insensitive keyword lookup without allocating or reference counting:
/// each keyword is packed, upper-cased, into two integers, and candidates
/// are bucketed by length, so a lookup is a handful of integer compares.
enum KeywordTable {
    struct Entry {
        var low: UInt64
        var high: UInt64
        var keyword: Keyword
    }

    /// Entries sorted by length; `starts[n]..<starts[n + 1]` holds words of length n.
    static let entries = table.entries
    static let starts = table.starts
    private static var table: (entries: ContiguousArray<Entry>, starts: ContiguousArray<Int>) {
        let words = Keyword.allCases.filter { !$0.rawValue.contains("-") }
            .sorted { $0.rawValue.utf8.count < $1.rawValue.utf8.count }
        var entries = ContiguousArray<Entry>()
        var starts = ContiguousArray<Int>(repeating: 0, count: 18)
        for k in words {
            let bytes = Array(k.rawValue.utf8)
            let (low, high) = pack(bytes, 0, bytes.count)
            entries.append(Entry(low: low, high: high, keyword: k))
        }
        for length in 0..<18 {
            starts[length] = words.firstIndex { $0.rawValue.utf8.count >= length } ?? words.count
        }
        return (entries, starts)
    }

    /// Up to 16 bytes, ASCII letters upper-cased, packed little-endian.
    @inline(__always)
    static func pack(_ bytes: [UInt8], _ start: Int, _ end: Int) -> (UInt64, UInt64) {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var i = start
        while i < end {
            var b = bytes[i]
            if b >= 0x61 && b <= 0x7A { b -= 0x20 }
            let shift = UInt64((i - start) & 7) * 8
            if i - start < 8 { low |= UInt64(b) << shift } else { high |= UInt64(b) << shift }
            i += 1
        }
        return (low, high)
    }

    @inline(__always)
    static func lookup(_ bytes: [UInt8], _ start: Int, _ end: Int) -> Keyword? {
        let length = end - start
        guard length >= 2 && length <= 16 else { return nil }
        let (low, high) = pack(bytes, start, end)
        var i = starts[length]
        let stop = starts[length + 1]
        while i < stop {
            let e = entries[i]
            if e.low == low && e.high == high { return e.keyword }
            i += 1
        }
        return nil
    }
}

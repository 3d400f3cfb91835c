// The lexer proper: UTF-8 bytes in, one token per call to `next()`, in one
// linear pass with no backtracking. It knows every spelling of LANGUAGE.md:
// case-insensitive keywords, `#keyword` escapes, both quote styles with all
// escapes, integer prefixes, decimals and exponents, operator synonyms, `%`
// specifiers and `$variables`. Specifiers inside quotes are literal text, as
// in Apple.
//
// It reads the caller's bytes in place through an unsafe buffer (the parser
// lends it the string's own UTF-8 storage for the length of one parse), so
// lexing copies nothing and allocates nothing except the decoded value of a
// string literal that has escapes. Every read is guarded by `index < count`
// first, so the unchecked buffer never reads out of range.

struct TokenScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// Decoded string literals, indexed by `TokenKind.string`. The public
    /// `Lexer` keeps every literal here; the parser only the ones with
    /// escapes, and reads an escape-free literal straight from its span,
    /// which its token marks with the index `TokenScanner.plainString`.
    var strings: [String] = []
    let keepsAllStrings: Bool

    /// `TokenKind.string` payload for a literal without escapes that was not
    /// stored: its value is the text between the quotes.
    static let plainString = -1

    init(_ bytes: UnsafeBufferPointer<UInt8>, keepsAllStrings: Bool) {
        self.bytes = bytes
        self.keepsAllStrings = keepsAllStrings
    }

    /// The next token; `.end` at the end of the input, and again on every later call.
    mutating func next() throws(Diagnostic) -> Token {
        let before = index
        skipWhitespace()
        // The first token counts as following space, as if the input began with some.
        let followsSpace = before == 0 || index > before
        guard index < bytes.count else {
            return Token(kind: .end, span: SourceSpan(start: index, end: index), followsSpace: true)
        }
        let start = index
        let kind = try scanToken()
        return Token(kind: kind, span: SourceSpan(start: start, end: index), followsSpace: followsSpace)
    }

    // MARK: - Dispatch

    @inline(__always)
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
        case _ where TokenScanner.isIdentifierStart(c):
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

    @inline(__always)
    private mutating func skipWhitespace() {
        var i = index
        defer { index = i }
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C: i &+= 1
            case 0xC2 where i &+ 1 < bytes.count && bytes[i &+ 1] == 0xA0: i &+= 2 // no-break space, common in pasted text
            default: return
            }
        }
    }

    // Word characters as two 64-bit sets, one bit per ASCII byte, so that a
    // test is a shift and a mask: letters, `_` and `@` start a word, digits
    // continue it, and every byte of a non-ASCII character belongs to it.
    /// Bytes 0x40...0x7F that start a word: `@`, `A`-`Z`, `_`, `a`-`z`.
    static let wordStartHigh: UInt64 = 0x07FF_FFFE_87FF_FFFF
    /// Bytes 0x00...0x3F that continue a word: `0`-`9`.
    static let wordDigitsLow: UInt64 = 0x03FF_0000_0000_0000

    @inline(__always)
    static func isIdentifierStart(_ c: UInt8) -> Bool {
        c >= 0x80 || (c >= 0x40 && wordStartHigh & (1 &<< UInt64(c & 63)) != 0)
    }

    @inline(__always)
    static func isIdentifierContinue(_ c: UInt8) -> Bool {
        c >= 0x80 || (c >= 0x40 ? wordStartHigh : wordDigitsLow) & (1 &<< UInt64(c & 63)) != 0
    }

    // MARK: - Words

    private mutating func scanWord() -> TokenKind {
        let start = index
        // A local cursor keeps the loop in registers, off the scanner in memory.
        var end = index &+ 1
        while end < bytes.count && TokenScanner.isIdentifierContinue(bytes[end]) { end &+= 1 }
        index = end
        // UTI-CONFORMS-TO and UTI-EQUALS are the only keywords with hyphens.
        if index - start == 3 && peek() == UInt8(ascii: "-") && TokenScanner.equalsIgnoringCase(bytes, start, index, "UTI") {
            for (spelling, keyword) in [("-CONFORMS-TO" as StaticString, Keyword.utiConformsTo), ("-EQUALS", .utiEquals)] {
                let end = index + spelling.utf8CodeUnitCount
                if end <= bytes.count && TokenScanner.equalsIgnoringCase(bytes, index, end, spelling)
                    && (end == bytes.count || !TokenScanner.isIdentifierContinue(bytes[end])) {
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
        // A digit may follow `#` too: `#0` is the key "0", which the printer
        // writes for a `%K` key that would otherwise lex as a number; and a
        // double-quoted string, `#"first name"`, is a key of any text, which
        // it writes for a `%K` key that is not a word at all.
        if index < bytes.count && bytes[index] == UInt8(ascii: "\"") {
            _ = try scanString(quote: UInt8(ascii: "\""))
            return .escapedIdentifier
        }
        guard index < bytes.count && TokenScanner.isIdentifierContinue(bytes[index]) else {
            throw Diagnostic(.malformedKeywordEscape, "'#' must be followed by a word, as in #size",
                             at: SourceSpan(start: start, end: start + 1))
        }
        while index < bytes.count && TokenScanner.isIdentifierContinue(bytes[index]) { index += 1 }
        return .escapedIdentifier
    }

    private mutating func scanVariable() throws(Diagnostic) -> TokenKind {
        let start = index
        index += 1
        guard index < bytes.count && TokenScanner.isIdentifierStart(bytes[index]) && bytes[index] != UInt8(ascii: "@") else {
            throw Diagnostic(.emptyVariableName, "'$' must be followed by a variable name, as in $NAME",
                             at: SourceSpan(start: start, end: start + 1))
        }
        while index < bytes.count && TokenScanner.isIdentifierContinue(bytes[index]) && bytes[index] != UInt8(ascii: "@") {
            index += 1
        }
        return .variable
    }

    // MARK: - Comparing words

    /// `bytes[start..<end]` spells `word`, ASCII letters compared case-insensitively.
    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ word: StaticString) -> Bool {
        equalsIgnoringCase(bytes, start, end, UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
    }

    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ word: String) -> Bool {
        var word = word
        return word.withUTF8 { equalsIgnoringCase(bytes, start, end, $0) }
    }

    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
                                   _ word: UnsafeBufferPointer<UInt8>) -> Bool {
        guard end - start == word.count else { return false }
        var i = 0
        while i < word.count {
            var b = bytes[start + i]
            if b >= 0x61 && b <= 0x7A { b -= 0x20 }
            var u = word[i]
            if u >= 0x61 && u <= 0x7A { u -= 0x20 }
            if b != u { return false }
            i += 1
        }
        return true
    }
}

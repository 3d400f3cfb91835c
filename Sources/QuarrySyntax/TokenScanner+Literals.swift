// Numbers, strings, specifiers and operators for the lexer (`TokenScanner`).

extension TokenScanner {
    // MARK: - Numbers

    /// `42`, `0x2A`, `0o52`, `0b101010`, `4.2`, `4.2e1`, `9.2e-5`. A value too
    /// large for a signed 64-bit integer becomes a double, in every radix.
    mutating func scanNumber() throws(Diagnostic) -> TokenKind {
        let start = index
        if peek() == UInt8(ascii: "0") {
            let radix: Int?
            switch peek(1) | 0x20 {
            case UInt8(ascii: "x"): radix = 16
            case UInt8(ascii: "o"): radix = 8
            case UInt8(ascii: "b"): radix = 2
            default: radix = nil
            }
            if let radix {
                index += 2
                let digitsStart = index
                while index < bytes.count, TokenScanner.digitValue(bytes[index]).map({ $0 < radix }) == true { index += 1 }
                try checkNumberEnd(start)
                let digits = String(decoding: bytes[digitsStart..<index], as: UTF8.self)
                guard !digits.isEmpty else {
                    throw Diagnostic(.malformedNumber, "expected digits after '\(String(decoding: bytes[start..<digitsStart], as: UTF8.self))'",
                                     at: SourceSpan(start: start, end: index))
                }
                // Like decimals, a value beyond Int64 becomes a double (0xFFFFFFFFFFFFFFFF is
                // 1.8e19, not -1), so every literal prints back to the same value.
                if let v = Int64(digits, radix: radix) { return .integer(v) }
                return .double(Double(digits.reduce(0.0) { $0 * Double(radix) + Double(TokenScanner.digitValue(UInt8($1.asciiValue!))!) }))
            }
        }
        var isDouble = false
        var value: Int64 = 0
        var overflow = false
        while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 {
            if !overflow {
                let (m, o1) = value.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(Int64(bytes[index] - 0x30))
                if o1 || o2 { overflow = true } else { value = a }
            }
            index += 1
        }
        if peek() == UInt8(ascii: "."), TokenScanner.isDigit(peek(1)) {
            isDouble = true
            index += 1
            while index < bytes.count, TokenScanner.isDigit(bytes[index]) { index += 1 }
        }
        if peek() | 0x20 == UInt8(ascii: "e") {
            let signOffset = (peek(1) == UInt8(ascii: "+") || peek(1) == UInt8(ascii: "-")) ? 1 : 0
            if TokenScanner.isDigit(peek(1 + signOffset)) {
                isDouble = true
                index += 1 + signOffset
                while index < bytes.count, TokenScanner.isDigit(bytes[index]) { index += 1 }
            }
        }
        try checkNumberEnd(start)
        if !isDouble && !overflow { return .integer(value) }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let d = Double(text) else {
            throw Diagnostic(.malformedNumber, "'\(text)' is not a number", at: SourceSpan(start: start, end: index))
        }
        return .double(d)
    }

    /// A number may not run straight into a word: `12abc` is one bad token, not two.
    private mutating func checkNumberEnd(_ start: Int) throws(Diagnostic) {
        guard index < bytes.count, TokenScanner.isIdentifierContinue(bytes[index]) else { return }
        var end = index
        while end < bytes.count, TokenScanner.isIdentifierContinue(bytes[end]) { end += 1 }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        throw Diagnostic(.malformedNumber, "'\(text)' is not a number", at: SourceSpan(start: start, end: end),
                         hints: ["a key may not start with a digit"])
    }

    @inline(__always)
    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    static func digitValue(_ c: UInt8) -> Int? {
        switch c {
        case 0x30...0x39: return Int(c - 0x30)
        case 0x61...0x66: return Int(c - 0x61 + 10)
        case 0x41...0x46: return Int(c - 0x41 + 10)
        default: return nil
        }
    }

    // MARK: - Strings

    /// `'text'` or `"text"`; the other quote needs no escape inside. Escapes:
    /// `\n \t \r \0 \\ \' \"`, octal `\ddd`, hex `\xHH`, `\uHHHH` (surrogate
    /// pairs combine). Any other escape is an error.
    mutating func scanString(quote: UInt8) throws(Diagnostic) -> TokenKind {
        let start = index
        index += 1
        // Fast path: no escapes, take the bytes as they are.
        var scan = index
        while scan < bytes.count && bytes[scan] != quote && bytes[scan] != UInt8(ascii: "\\") { scan += 1 }
        if scan < bytes.count && bytes[scan] == quote {
            let contents = index..<scan
            index = scan + 1
            // The parser reads an escape-free literal from its span when it needs it.
            guard keepsAllStrings else { return .string(TokenScanner.plainString) }
            strings.append(String(decoding: bytes[contents], as: UTF8.self))
            return .string(strings.count - 1)
        }
        var out: [UInt8] = []
        out.reserveCapacity(scan - index + 16)
        out.append(contentsOf: bytes[index..<scan])
        index = scan
        var pendingHighSurrogate: UInt32?
        while true {
            guard index < bytes.count else {
                throw Diagnostic(.unterminatedString, "unterminated string", at: SourceSpan(start: start, end: index),
                                 hints: ["add the closing \(quote == UInt8(ascii: "'") ? "'" : "\"")"])
            }
            let c = bytes[index]
            if c == quote { index += 1; break }
            if c != UInt8(ascii: "\\") {
                if pendingHighSurrogate != nil { pendingHighSurrogate = nil; TokenScanner.appendScalar(0xFFFD, to: &out) }
                out.append(c)
                index += 1
                continue
            }
            let escapeStart = index
            index += 1
            guard index < bytes.count else { continue }
            let e = bytes[index]
            index += 1
            var scalar: UInt32
            switch e {
            case UInt8(ascii: "n"): scalar = 0x0A
            case UInt8(ascii: "t"): scalar = 0x09
            case UInt8(ascii: "r"): scalar = 0x0D
            case UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "\""): scalar = UInt32(e)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var v = UInt32(e - 0x30)
                var n = 1
                while n < 3, index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x37 {
                    v = v * 8 + UInt32(bytes[index] - 0x30)
                    index += 1
                    n += 1
                }
                scalar = v
            case UInt8(ascii: "x"):
                scalar = try hexDigits(count: 2, escapeStart: escapeStart)
            case UInt8(ascii: "u"):
                scalar = try hexDigits(count: 4, escapeStart: escapeStart)
            default:
                let end = index + TokenScanner.utf8Length(e) - 1
                throw Diagnostic(.unknownEscape, "unknown escape sequence '\\\(String(decoding: bytes[(index - 1)..<Swift.min(end, bytes.count)], as: UTF8.self))'",
                                 at: SourceSpan(start: escapeStart, end: Swift.min(end, bytes.count)),
                                 hints: ["write \\\\ for a backslash; escapes are \\n \\t \\r \\\\ \\' \\\" \\ddd \\xHH \\uHHHH"])
            }
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                if pendingHighSurrogate != nil { TokenScanner.appendScalar(0xFFFD, to: &out) }
                pendingHighSurrogate = scalar
                continue
            }
            if scalar >= 0xDC00 && scalar <= 0xDFFF {
                if let high = pendingHighSurrogate {
                    scalar = 0x10000 + ((high - 0xD800) << 10) + (scalar - 0xDC00)
                    pendingHighSurrogate = nil
                } else {
                    scalar = 0xFFFD
                }
            } else if pendingHighSurrogate != nil {
                pendingHighSurrogate = nil
                TokenScanner.appendScalar(0xFFFD, to: &out)
            }
            TokenScanner.appendScalar(scalar, to: &out)
        }
        if pendingHighSurrogate != nil { TokenScanner.appendScalar(0xFFFD, to: &out) }
        strings.append(String(decoding: out, as: UTF8.self))
        return .string(strings.count - 1)
    }

    private mutating func hexDigits(count: Int, escapeStart: Int) throws(Diagnostic) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<count {
            guard index < bytes.count, let d = TokenScanner.digitValue(bytes[index]) else {
                throw Diagnostic(.unknownEscape, "expected \(count) hexadecimal digits in this escape",
                                 at: SourceSpan(start: escapeStart, end: Swift.min(index + 1, bytes.count)))
            }
            v = v * 16 + UInt32(d)
            index += 1
        }
        return v
    }

    static func utf8Length(_ lead: UInt8) -> Int {
        switch lead {
        case 0..<0x80: return 1
        case 0xC0..<0xE0: return 2
        case 0xE0..<0xF0: return 3
        default: return 4
        }
    }

    static func appendScalar(_ value: UInt32, to out: inout [UInt8]) {
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        out.append(contentsOf: UTF8.encode(scalar)!)
    }

    // MARK: - Specifiers

    /// `%@ %K %d %1$@ %lld %.2f ...`. `%%` outside quotes is an error: a
    /// literal percent sign only means something inside a string.
    mutating func scanSpecifier() throws(Diagnostic) -> TokenKind {
        let start = index
        index += 1
        var position: Int?
        // Positional `%2$@`.
        var look = index
        while look < bytes.count, TokenScanner.isDigit(bytes[look]) { look += 1 }
        if look > index, look < bytes.count, bytes[look] == UInt8(ascii: "$") {
            position = Int(String(decoding: bytes[index..<look], as: UTF8.self))
            index = look + 1
            if position == 0 || position == nil {
                throw Diagnostic(.malformedSpecifier, "argument positions start at 1",
                                 at: SourceSpan(start: start, end: index))
            }
        }
        // Flags, width and precision are accepted and ignored: a value is inserted, not formatted.
        while index < bytes.count, "-+ #0'".utf8.contains(bytes[index]) { index += 1 }
        while index < bytes.count, TokenScanner.isDigit(bytes[index]) { index += 1 }
        if peek() == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, TokenScanner.isDigit(bytes[index]) { index += 1 }
        }
        // Length modifiers.
        while index < bytes.count, "hlqLzjt".utf8.contains(bytes[index]) { index += 1 }
        guard index < bytes.count else {
            throw Diagnostic(.malformedSpecifier, "incomplete format specifier", at: SourceSpan(start: start, end: index),
                             hints: ["use %@ for a value or %K for a key path"])
        }
        let c = bytes[index]
        index += 1
        let category: SpecifierCategory
        switch c {
        case UInt8(ascii: "@"): category = .object
        case UInt8(ascii: "K"): category = .keyPath
        case UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "o"),
             UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: "D"), UInt8(ascii: "U"), UInt8(ascii: "O"):
            category = .integer
        case UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "e"), UInt8(ascii: "E"),
             UInt8(ascii: "g"), UInt8(ascii: "G"), UInt8(ascii: "a"), UInt8(ascii: "A"):
            category = .floatingPoint
        case UInt8(ascii: "c"), UInt8(ascii: "C"): category = .character
        case UInt8(ascii: "s"), UInt8(ascii: "S"): category = .string
        case UInt8(ascii: "p"): category = .pointer
        case UInt8(ascii: "%") where index - start == 2:
            throw Diagnostic(.malformedSpecifier, "'%%' (a literal percent sign) is only meaningful inside a quoted string",
                             at: SourceSpan(start: start, end: index), hints: ["write '%' inside quotes"])
        default:
            let end = Swift.min(index - 1 + TokenScanner.utf8Length(c), bytes.count)
            var hints = ["use %@ for a value or %K for a key path"]
            if c == UInt8(ascii: "k") { hints = ["did you mean %K? specifiers are case-sensitive"] }
            throw Diagnostic(.malformedSpecifier, "unknown format specifier '\(String(decoding: bytes[start..<end], as: UTF8.self))'",
                             at: SourceSpan(start: start, end: end), hints: hints)
        }
        return .specifier(FormatSpecifier(position: position, category: category))
    }

    // MARK: - Operators and punctuation

    mutating func scanPunctuation(_ c: UInt8) throws(Diagnostic) -> TokenKind {
        let next = peek(1)
        func take(_ n: Int, _ p: Punctuation) -> TokenKind { index += n; return .punctuation(p) }
        switch c {
        case UInt8(ascii: "("): return take(1, .leftParen)
        case UInt8(ascii: ")"): return take(1, .rightParen)
        case UInt8(ascii: "{"): return take(1, .leftBrace)
        case UInt8(ascii: "}"): return take(1, .rightBrace)
        case UInt8(ascii: "["): return take(1, .leftBracket)
        case UInt8(ascii: "]"): return take(1, .rightBracket)
        case UInt8(ascii: ","): return take(1, .comma)
        case UInt8(ascii: "."): return take(1, .dot)
        case UInt8(ascii: ":"): return next == UInt8(ascii: "=") ? take(2, .assign) : take(1, .colon)
        case UInt8(ascii: "="):
            switch next {
            case UInt8(ascii: "="): return take(2, .equal)
            case UInt8(ascii: "<"): return take(2, .lessOrEqual)
            case UInt8(ascii: ">"): return take(2, .greaterOrEqual)
            default: return take(1, .equal)
            }
        case UInt8(ascii: "!"): return next == UInt8(ascii: "=") ? take(2, .notEqual) : take(1, .not)
        case UInt8(ascii: "<"):
            switch next {
            case UInt8(ascii: "="): return take(2, .lessOrEqual)
            case UInt8(ascii: ">"): return take(2, .notEqual)
            case UInt8(ascii: "<"): return take(2, .shiftLeft)
            default: return take(1, .less)
            }
        case UInt8(ascii: ">"):
            switch next {
            case UInt8(ascii: "="): return take(2, .greaterOrEqual)
            case UInt8(ascii: ">"): return take(2, .shiftRight)
            default: return take(1, .greater)
            }
        case UInt8(ascii: "&"): return next == UInt8(ascii: "&") ? take(2, .and) : take(1, .ampersand)
        case UInt8(ascii: "|"): return next == UInt8(ascii: "|") ? take(2, .or) : take(1, .pipe)
        case UInt8(ascii: "+"): return take(1, .plus)
        case UInt8(ascii: "-"): return take(1, .minus)
        case UInt8(ascii: "*"): return next == UInt8(ascii: "*") ? take(2, .starStar) : take(1, .star)
        case UInt8(ascii: "/"):
            if next == UInt8(ascii: "/") || next == UInt8(ascii: "*") {
                throw Diagnostic(.unsupportedComment, "comments are not part of the predicate language",
                                 at: SourceSpan(start: index, end: index + 2))
            }
            return take(1, .slash)
        case UInt8(ascii: "^"): return take(1, .caret)
        case UInt8(ascii: "~"): return take(1, .tilde)
        default:
            let end = Swift.min(index + TokenScanner.utf8Length(c), bytes.count)
            let text = String(decoding: bytes[index..<end], as: UTF8.self)
            var hints: [String] = []
            if c == UInt8(ascii: "?") { hints.append("'?' is a LIKE wildcard only inside a quoted pattern, as in name LIKE 'a?c'") }
            if c == UInt8(ascii: "\\") { hints.append("backslash escapes work only inside quoted strings") }
            if c == UInt8(ascii: ";") { hints.append("a predicate does not end with ';'") }
            throw Diagnostic(.unexpectedCharacter, "unexpected character '\(text)'",
                             at: SourceSpan(start: index, end: end), hints: hints)
        }
    }
}

// The public lexer: source text in, the whole token list out. Tools that show
// or inspect tokens (the shell's `.tokens`, its statement splitter) use it;
// the parser does not — it pulls tokens one at a time from the same
// `TokenScanner`, so that parsing stores no token list at all.

/// Turns source text into tokens. Throws the first lexical error.
public struct Lexer {
    /// Inputs above this size are refused (P009) instead of being parsed.
    public static let maximumInputBytes = 64 << 20

    let bytes: [UInt8]
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
        try Lexer.checkSize(bytes.count)
        tokens.reserveCapacity(bytes.count / 3 + 2)
        let result = bytes.withUnsafeBufferPointer { buffer in
            var scanner = TokenScanner(buffer, keepsAllStrings: true)
            return Result { () throws(Diagnostic) in
                defer { strings = scanner.strings }
                while true {
                    let token = try scanner.next()
                    tokens.append(token)
                    if case .end = token.kind { return }
                }
            }
        }
        try result.get()
    }

    /// P009 for inputs beyond `maximumInputBytes`, before any work is done.
    static func checkSize(_ count: Int) throws(Diagnostic) {
        if count > maximumInputBytes {
            throw Diagnostic(.inputTooLarge, "input is \(count) bytes; the limit is \(maximumInputBytes)",
                             at: SourceSpan(start: 0, end: 0))
        }
    }
}

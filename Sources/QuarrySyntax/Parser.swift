// The parser: tokens → AST, by recursive descent with one token of lookahead
// (two for options and selectors). Each grammar rule is written as a comment
// on its function; Grammar/predicate.ebnf is the full grammar.
//
// The hard part of this language is that `(` can open a predicate
// (`(a > 1 OR b < 2)`) or an expression (`(a + 1) * 2 > 3`). Rather than
// backtracking (exponential on nested parentheses), the predicate rules can
// return "just an expression" upward while they are inside parentheses, and
// the caller continues the expression from there.
//
// Arguments (`%@`, `%K`, `%d`...) are substituted while parsing; when the
// caller gives no argument list at all, specifiers stay as placeholders
// (parse-only mode, used by tools that only check syntax).

/// Parses predicate and expression format strings.
///
/// ```swift
/// let p = try Parser.parsePredicate("name BEGINSWITH[cd] %@", arguments: [.string("jo")])
/// print(Printer.format(p))   // name BEGINSWITH[cd] "jo"
/// ```
public struct Parser {
    /// Deepest nesting accepted (parentheses, NOT, unary operators, operator
    /// chains, aggregates, calls). Deeper input gets P008, never a stack overflow.
    public static let maximumDepth = 400

    // The parser's state is kept small — spans rather than tokens where a
    // span is enough, no room for a lexical error (see `run`) — because a
    // rule that calls a non-mutating helper may hand it a copy of the whole
    // state; for the same reason the helpers on the hot path are
    // `@inline(__always)`.

    /// Where tokens come from, one at a time, read from the source bytes in place.
    var scanner: TokenScanner
    /// The token being looked at.
    var current: Token
    /// The span of the token consumed before it: finished constructs end there.
    var previousSpan = SourceSpan(start: 0, end: 0)
    /// The token after `current`, once a rule has peeked at it (`hasLookahead`).
    var lookahead = Token(kind: .end, span: SourceSpan(start: 0, end: 0), followsSpace: true)
    var hasLookahead = false
    /// The lexer met an error; it then hands out `.end`, and `run` reports
    /// that error instead of whatever the parser made of the early end.
    var sawLexicalError = false
    var depth = 0
    let arguments: [Value]?
    var nextArgument = 0
    var highestPositional = 0
    let allowsExtraArguments: Bool

    /// The source text's UTF-8 bytes, valid for the parser's lifetime (one `run`).
    @inline(__always) var bytes: UnsafeBufferPointer<UInt8> { scanner.bytes }

    private init(_ bytes: UnsafeBufferPointer<UInt8>, arguments: [Value]?, allowsExtraArguments: Bool) {
        self.scanner = TokenScanner(bytes, keepsAllStrings: false)
        self.allowsExtraArguments = allowsExtraArguments
        self.arguments = arguments
        self.current = lookahead   // a placeholder: `scanNext` needs every property set
        self.current = scanNext()
    }

    // The result and the error of a parse travel through the closures below
    // in captured variables rather than as return values, so that nothing
    // of the tree passes through the standard library's unspecialised
    // generic code, which would copy it through value witnesses.

    /// Lends `body` a parser over `text`'s own UTF-8 storage, without copying it.
    static func run<R>(_ text: String, arguments: [Value]?, allowsExtraArguments: Bool,
                       _ body: (inout Parser) throws(Diagnostic) -> R) throws(Diagnostic) -> R {
        var result: R?
        var failure: Diagnostic?
        let lent: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            do throws(Diagnostic) {
                result = try run(bytes, arguments: arguments, allowsExtraArguments: allowsExtraArguments, body)
            } catch {
                failure = error
            }
        }
        // A string without contiguous UTF-8 (bridged from elsewhere) is copied once.
        if lent == nil {
            return try run(SourceText(text), arguments: arguments, allowsExtraArguments: allowsExtraArguments, body)
        }
        if let failure { throw failure }
        return result.take()!
    }

    static func run<R>(_ source: SourceText, arguments: [Value]?, allowsExtraArguments: Bool,
                       _ body: (inout Parser) throws(Diagnostic) -> R) throws(Diagnostic) -> R {
        var result: R?
        var failure: Diagnostic?
        source.utf8.withUnsafeBufferPointer { bytes in
            do throws(Diagnostic) {
                result = try run(bytes, arguments: arguments, allowsExtraArguments: allowsExtraArguments, body)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return result.take()!
    }

    /// Runs `body` on a fresh parser. Lexing happens as the parser goes, yet
    /// errors come out as if the whole input had been lexed first: a lexical
    /// error anywhere wins over a grammar or argument error before it. So
    /// when the parser has something else to report, or the lexer stopped
    /// it, the text is lexed again from the start to find its first lexical
    /// error — on error paths only, and in linear time.
    private static func run<R>(_ bytes: UnsafeBufferPointer<UInt8>, arguments: [Value]?, allowsExtraArguments: Bool,
                               _ body: (inout Parser) throws(Diagnostic) -> R) throws(Diagnostic) -> R {
        try Lexer.checkSize(bytes.count)
        var parser = Parser(bytes, arguments: arguments, allowsExtraArguments: allowsExtraArguments)
        let result: R
        do {
            result = try body(&parser)
        } catch {
            throw firstLexicalError(in: bytes) ?? error
        }
        if parser.sawLexicalError, let error = firstLexicalError(in: bytes) { throw error }
        return result
    }

    /// The first lexical error in `bytes`, if any.
    static func firstLexicalError(in bytes: UnsafeBufferPointer<UInt8>) -> Diagnostic? {
        var scanner = TokenScanner(bytes, keepsAllStrings: false)
        while true {
            do {
                if case .end = try scanner.next().kind { return nil }
            } catch {
                return error
            }
        }
    }

    // MARK: - Entry points

    /// Parses a whole predicate. `arguments` nil means parse-only: specifiers
    /// stay in the tree as placeholders. More arguments than specifiers is an
    /// error (A002) unless `allowsExtraArguments`, which mirrors Apple, whose
    /// C varargs cannot notice extras.
    public static func parsePredicate(_ text: String, arguments: [Value]? = nil,
                                      allowsExtraArguments: Bool = false) throws(Diagnostic) -> QueryPredicate {
        try run(text, arguments: arguments, allowsExtraArguments: allowsExtraArguments) { (parser) throws(Diagnostic) in
            try parser.parseWholePredicate()
        }
    }

    public static func parsePredicate(_ source: SourceText, arguments: [Value]? = nil,
                                      allowsExtraArguments: Bool = false) throws(Diagnostic) -> QueryPredicate {
        try run(source, arguments: arguments, allowsExtraArguments: allowsExtraArguments) { (parser) throws(Diagnostic) in
            try parser.parseWholePredicate()
        }
    }

    /// Parses a standalone expression (what `NSExpression(format:)` accepts).
    public static func parseExpression(_ text: String, arguments: [Value]? = nil,
                                       allowsExtraArguments: Bool = false) throws(Diagnostic) -> QueryExpression {
        try run(text, arguments: arguments, allowsExtraArguments: allowsExtraArguments) { (parser) throws(Diagnostic) in
            try parser.parseWholeExpression()
        }
    }

    public static func parseExpression(_ source: SourceText, arguments: [Value]? = nil,
                                       allowsExtraArguments: Bool = false) throws(Diagnostic) -> QueryExpression {
        try run(source, arguments: arguments, allowsExtraArguments: allowsExtraArguments) { (parser) throws(Diagnostic) in
            try parser.parseWholeExpression()
        }
    }

    mutating func parseWholePredicate() throws(Diagnostic) -> QueryPredicate {
        if case .end = current.kind {
            throw Diagnostic(.emptyInput, "empty predicate", at: current.span,
                             hints: ["TRUEPREDICATE matches everything"])
        }
        let predicate = try parsePredicateRoot()
        try expectEnd()
        try checkArgumentCount()
        return predicate
    }

    mutating func parseWholeExpression() throws(Diagnostic) -> QueryExpression {
        if case .end = current.kind {
            throw Diagnostic(.emptyInput, "empty expression", at: current.span)
        }
        let expression = try parseExpression()
        try expectEnd(after: "expression")
        try checkArgumentCount()
        return expression
    }

    // MARK: - Token helpers

    /// The next token from the scanner; `.end` after a lexical error, which
    /// `run` reports.
    @inline(__always)
    mutating func scanNext() -> Token {
        do {
            return try scanner.next()
        } catch {
            sawLexicalError = true
            return Token(kind: .end, span: SourceSpan(start: scanner.index, end: scanner.index), followsSpace: true)
        }
    }

    /// The kind of the token after the current one.
    @inline(__always) mutating func peekKind() -> TokenKind {
        if hasLookahead { return lookahead.kind }
        if case .end = current.kind { return .end }
        lookahead = scanNext()
        hasLookahead = true
        return lookahead.kind
    }

    @inline(__always) mutating func advance() {
        if case .end = current.kind { return }
        previousSpan = current.span
        if hasLookahead {
            current = lookahead
            hasLookahead = false
        } else {
            current = scanNext()
        }
    }

    @inline(__always) func isPunctuation(_ p: Punctuation) -> Bool {
        if case .punctuation(let q) = current.kind { return q == p }
        return false
    }

    @inline(__always) func isKeyword(_ k: Keyword) -> Bool {
        if case .keyword(let q) = current.kind { return q == k }
        return false
    }

    /// The source text of a token.
    @inline(__always) func text(_ token: Token) -> String {
        text(token.span)
    }

    @inline(__always) func text(_ span: SourceSpan) -> String {
        Parser.string(bytes, span.start, span.end)
    }

    /// A string of source bytes. Through `String(unsafeUninitializedCapacity:)`
    /// rather than `String(decoding:)`, because for short ASCII text (most
    /// keys) the former copies the bytes straight into a small string,
    /// where the latter runs its general validating decoder first.
    @inline(__always)
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        let count = end - start
        guard count > 0 else { return "" }
        return String(unsafeUninitializedCapacity: count) { buffer in
            buffer.baseAddress!.initialize(from: bytes.baseAddress! + start, count: count)
            return count
        }
    }

    /// The source text of a token without its sigil (`$` or `#`): its first
    /// byte, not its first character. A combining mark after the sigil forms
    /// one character with it, but the lexer read the mark as part of the
    /// name, so the name keeps it (`$` U+0301 `x` names the variable
    /// U+0301 `x`, which prints back as the same bytes: libFuzzer's parser
    /// target found the name losing its mark and the printed `$0…` failing).
    @inline(__always) func textAfterSigil(_ token: Token) -> String {
        let raw = text(token)
        if raw.utf8.dropFirst().first == UInt8(ascii: "\"") {
            return Parser.quotedKey(Substring(String(decoding: raw.utf8.dropFirst(), as: UTF8.self)))
        }
        return String(decoding: raw.utf8.dropFirst(), as: UTF8.self)
    }

    /// The key an escaped-key token (`#size`, `#"first name"`) names. A key
    /// path component that starts with `$` is a variable and one that starts
    /// with `%` a specifier kept in parse-only mode (the tree has no other way
    /// to say so), so a key spelled that way (`#"$ab"`, `#"%K"`) could only be
    /// read back as the variable or the specifier: refused rather than
    /// evaluated as something the writer did not mean (deviations.md).
    func escapedKey(_ token: Token) throws(Diagnostic) -> String {
        let key = textAfterSigil(token)
        if let first = key.utf8.first, first == UInt8(ascii: "$") || first == UInt8(ascii: "%") {
            throw Diagnostic(.malformedKeywordEscape,
                             "the key \(text(token)) starts with '\(Character(Unicode.Scalar(first)))', which marks a \(first == UInt8(ascii: "$") ? "variable" : "format specifier")",
                             at: token.span, hints: ["a key cannot start with '$' or '%'; rename the key"])
        }
        return key
    }

    /// The key a `#"..."` escape names: its string literal, decoded as any
    /// double-quoted string is.
    static func quotedKey(_ literal: Substring) -> String {
        let bytes = Array(literal.utf8)
        return bytes.withUnsafeBufferPointer { b -> String in
            var scanner = TokenScanner(b, keepsAllStrings: true)
            guard case .string(let i)? = try? scanner.scanString(quote: UInt8(ascii: "\"")), i >= 0 else {
                return String(literal)
            }
            return scanner.strings[i]
        }
    }

    /// The value of a string literal token.
    @inline(__always) func stringValue(_ token: Token, index: Int) -> String {
        if index == TokenScanner.plainString {
            return Parser.string(bytes, token.span.start + 1, token.span.end - 1)
        }
        return scanner.strings[index]
    }

    /// The source text as a whole, for diagnostics that need lines and columns.
    var sourceText: SourceText { SourceText(String(decoding: bytes, as: UTF8.self)) }

    /// A word token's text compared case-insensitively (contextual keywords
    /// FUNCTION, TERNARY, UNION, INTERSECT, MINUS are not reserved).
    @inline(__always) func isContextualWord(_ token: Token, _ word: StaticString) -> Bool {
        guard case .identifier = token.kind else { return false }
        return TokenScanner.equalsIgnoringCase(bytes, token.span.start, token.span.end, word)
    }

    /// How the current token reads in a message.
    func describeCurrent() -> String {
        if case .end = current.kind { return "the end of the input" }
        let t = text(current)
        return "'" + (t.count > 40 ? String(t.prefix(40)) + "…" : t) + "'"
    }

    mutating func expect(_ p: Punctuation, _ code: DiagnosticCode, _ what: String, opening: SourceSpan? = nil) throws(Diagnostic) {
        guard isPunctuation(p) else {
            var hints: [String] = []
            if let opening {
                let loc = sourceText.location(of: opening.start)
                hints.append("to match the opening at column \(loc.column)\(loc.line > 1 ? " of line \(loc.line)" : "")")
            }
            throw Diagnostic(code, "expected \(what), found \(describeCurrent())", at: current.span, hints: hints)
        }
        advance()
    }

    mutating func expectEnd(after what: String = "predicate") throws(Diagnostic) {
        guard case .end = current.kind else {
            var hints: [String] = []
            if case .identifier = current.kind, let suggestion = Suggestions.keyword(near: text(current)) {
                hints.append("did you mean \(suggestion)?")
            } else if case .keyword(let k) = current.kind, k == .and || k == .or {
                hints.append("\(k.rawValue) joins two comparisons")
            }
            throw Diagnostic(.unexpectedTrailingInput, "unexpected \(describeCurrent()) after a complete \(what)",
                             at: current.span, hints: hints)
        }
    }

    /// Runs `body` one nesting level deeper, refusing input nested beyond the limit.
    @inline(__always)
    mutating func nested<T>(_ body: (inout Parser) throws(Diagnostic) -> T) throws(Diagnostic) -> T {
        depth += 1
        defer { depth -= 1 }
        if depth > Parser.maximumDepth {
            throw Diagnostic(.nestingTooDeep, "nesting deeper than \(Parser.maximumDepth) levels", at: current.span,
                             hints: ["split the predicate, or flatten chains with IN {…}"])
        }
        return try body(&self)
    }
}

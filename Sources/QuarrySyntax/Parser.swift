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

    let source: SourceText
    var tokens: ContiguousArray<Token>
    let strings: [String]
    var position = 0
    var depth = 0
    let arguments: [Value]?
    var nextArgument = 0
    var highestPositional = 0
    let allowsExtraArguments: Bool

    init(_ source: SourceText, arguments: [Value]?, allowsExtraArguments: Bool = false) throws(Diagnostic) {
        self.source = source
        self.allowsExtraArguments = allowsExtraArguments
        let lexed = try Lexer.tokenize(source)
        self.tokens = lexed.tokens
        self.strings = lexed.strings
        self.arguments = arguments
    }

    // MARK: - Entry points

    /// Parses a whole predicate. `arguments` nil means parse-only: specifiers
    /// stay in the tree as placeholders. More arguments than specifiers is an
    /// error (A002) unless `allowsExtraArguments`, which mirrors Apple, whose
    /// C varargs cannot notice extras.
    public static func parsePredicate(_ text: String, arguments: [Value]? = nil,
                                      allowsExtraArguments: Bool = false) throws(Diagnostic) -> Predicate {
        try parsePredicate(SourceText(text), arguments: arguments, allowsExtraArguments: allowsExtraArguments)
    }

    public static func parsePredicate(_ source: SourceText, arguments: [Value]? = nil,
                                      allowsExtraArguments: Bool = false) throws(Diagnostic) -> Predicate {
        var parser = try Parser(source, arguments: arguments, allowsExtraArguments: allowsExtraArguments)
        if case .end = parser.current.kind {
            throw Diagnostic(.emptyInput, "empty predicate", at: parser.current.span,
                             hints: ["TRUEPREDICATE matches everything"])
        }
        let predicate = try parser.parsePredicateRoot()
        try parser.expectEnd()
        try parser.checkArgumentCount()
        return predicate
    }

    /// Parses a standalone expression (what `NSExpression(format:)` accepts).
    public static func parseExpression(_ text: String, arguments: [Value]? = nil,
                                       allowsExtraArguments: Bool = false) throws(Diagnostic) -> Expression {
        try parseExpression(SourceText(text), arguments: arguments, allowsExtraArguments: allowsExtraArguments)
    }

    public static func parseExpression(_ source: SourceText, arguments: [Value]? = nil,
                                       allowsExtraArguments: Bool = false) throws(Diagnostic) -> Expression {
        var parser = try Parser(source, arguments: arguments, allowsExtraArguments: allowsExtraArguments)
        if case .end = parser.current.kind {
            throw Diagnostic(.emptyInput, "empty expression", at: parser.current.span)
        }
        let expression = try parser.parseExpression()
        try parser.expectEnd(after: "expression")
        try parser.checkArgumentCount()
        return expression
    }

    // MARK: - Token helpers

    @inline(__always) var current: Token { tokens[position] }

    @inline(__always) func peekKind(_ offset: Int = 1) -> TokenKind {
        let i = position + offset
        return i < tokens.count ? tokens[i].kind : .end
    }

    @inline(__always) mutating func advance() {
        if position < tokens.count - 1 { position += 1 }
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
    func text(_ token: Token) -> String {
        String(decoding: source.utf8[token.span.start..<token.span.end], as: UTF8.self)
    }

    /// A word token's text compared case-insensitively (contextual keywords
    /// FUNCTION, TERNARY, UNION, INTERSECT, MINUS are not reserved).
    func isContextualWord(_ token: Token, _ word: String) -> Bool {
        guard case .identifier = token.kind else { return false }
        return Lexer.equalsIgnoringCase(source.utf8[token.span.start..<token.span.end], word)
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
                let loc = source.location(of: opening.start)
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

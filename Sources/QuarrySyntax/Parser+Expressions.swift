// Expression rules: binary operators by precedence climbing, unary operators,
// postfix key paths and subscripts, and primaries (literals, key paths,
// variables, aggregates, function calls, SUBQUERY, CAST, TERNARY, FUNCTION).

extension Parser {
    // expression ::= binary
    @inline(__always) mutating func parseExpression() throws(Diagnostic) -> QueryExpression {
        try nested { (p: inout Parser) throws(Diagnostic) in try p.parseBinary(minimumPrecedence: 0) }
    }

    /// Continues an expression whose first primary (a parenthesised
    /// expression) the predicate rules already consumed.
    mutating func parseExpression(continuingFrom primary: QueryExpression, parenthesized: Bool) throws(Diagnostic) -> QueryExpression {
        let postfixed = try parsePostfix(primary)
        return try parseBinary(minimumPrecedence: 0, continuing: postfixed)
    }

    /// True when the current token can begin an expression.
    @inline(__always) var startsExpression: Bool {
        switch current.kind {
        case .identifier, .escapedIdentifier, .integer, .double, .string, .variable, .specifier: return true
        case .keyword(let k):
            switch k {
            case .null, .nil, .self, .true, .yes, .false, .no, .anyKey, .subquery, .cast, .first, .last, .size: return true
            default: return false
            }
        case .punctuation(let p): return p == .leftParen || p == .leftBrace || p == .minus || p == .tilde
        case .end: return false
        }
    }

    // binary ::= unary ( binary_operator unary )*    -- by precedence, all left-associative:
    //   UNION INTERSECT MINUS  <  |  <  ^  <  &  <  << >>  <  + -  <  * /  <  **
    @inline(__always) mutating func parseBinary(minimumPrecedence: Int) throws(Diagnostic) -> QueryExpression {
        try parseBinary(minimumPrecedence: minimumPrecedence, continuing: parseUnary())
    }

    /// The rest of a binary chain whose first operand is `first`.
    mutating func parseBinary(minimumPrecedence: Int, continuing first: consuming QueryExpression) throws(Diagnostic) -> QueryExpression {
        var lhs = first
        var links = 0
        while let (op, precedence) = binaryOperator(), precedence >= minimumPrecedence {
            advance()
            links += 1
            // Each link of a left-associative chain nests the tree one level deeper.
            if depth + links > Parser.maximumDepth {
                throw Diagnostic(.nestingTooDeep, "operator chain longer than \(Parser.maximumDepth) operands",
                                 at: current.span, hints: ["use sum:({…}) or split the expression"])
            }
            let rhs = try nested { (p: inout Parser) throws(Diagnostic) in
                try p.parseBinary(minimumPrecedence: precedence + 1)
            }
            let span = lhs.span.union(rhs.span)
            switch op {
            case .left(let b): lhs = QueryExpression(.binary(b, lhs, rhs), span: span)
            case .right(let s): lhs = QueryExpression(.setOperation(s, lhs, rhs), span: span)
            }
        }
        return lhs
    }

    enum AnyBinaryOperator { case left(BinaryOperator), right(SetOperator) }

    /// The binary operator at the current token and its precedence (not consumed).
    @inline(__always) func binaryOperator() -> (AnyBinaryOperator, Int)? {
        switch current.kind {
        case .punctuation(let p):
            let op: BinaryOperator
            switch p {
            case .plus: op = .add
            case .minus: op = .subtract
            case .star: op = .multiply
            case .slash: op = .divide
            case .starStar: op = .power
            case .ampersand: op = .bitwiseAnd
            case .pipe: op = .bitwiseOr
            case .caret: op = .bitwiseXor
            case .shiftLeft: op = .leftShift
            case .shiftRight: op = .rightShift
            default: return nil
            }
            return (.left(op), op.precedence)
        case .identifier:
            if isContextualWord(current, "UNION") { return (.right(.union), 0) }
            if isContextualWord(current, "INTERSECT") { return (.right(.intersect), 0) }
            if isContextualWord(current, "MINUS") { return (.right(.minus), 0) }
            return nil
        default:
            return nil
        }
    }

    // unary ::= ( "-" | "~" ) unary | postfix
    mutating func parseUnary() throws(Diagnostic) -> QueryExpression {
        if isPunctuation(.minus) || isPunctuation(.tilde) {
            let start = current.span
            let op: UnaryOperator = isPunctuation(.minus) ? .negate : .bitwiseNot
            advance()
            let operand = try nested { (p: inout Parser) throws(Diagnostic) in try p.parseUnary() }
            let span = start.union(operand.span)
            // `-5` is the constant -5, so that printing -5 and re-parsing it agree.
            if op == .negate, case .constant(let v) = operand.kind {
                switch v {
                case .int(let i):
                    return QueryExpression(.constant(i == .min ? .double(-Double(i)) : .int(-i)), span: span)
                case .double(let d): return QueryExpression(.constant(.double(-d)), span: span)
                default: break
                }
            }
            return QueryExpression(.unary(op, operand), span: span)
        }
        // `a.b.c`, the commonest operand, is built here in one go: one path
        // array, no intermediate one-component key path to copy from.
        if case .identifier = current.kind, case .punctuation(.dot) = peekKind() {
            let first = current
            advance()
            var path: [String] = []
            path.reserveCapacity(4)
            path.append(text(first))
            while isPunctuation(.dot) {
                advance()
                try parseKeyComponents(into: &path)
            }
            let e = QueryExpression(.keyPath(base: nil, path: path), span: first.span.union(previousSpan))
            // The dotted run is the first postfix link, as in `parsePostfix`.
            if depth + 1 > Parser.maximumDepth {
                throw Diagnostic(.nestingTooDeep, "key path nests deeper than \(Parser.maximumDepth) levels", at: current.span)
            }
            return try parsePostfix(e, links: 1)
        }
        return try parsePostfix(parsePrimary())
    }

    // postfix ::= primary ( "." key | "[" subscript "]" )*
    mutating func parsePostfix(_ base: consuming QueryExpression, links: Int = 0) throws(Diagnostic) -> QueryExpression {
        var e = base
        var links = links
        while true {
            if isPunctuation(.dot) {
                // Gather the whole dotted run first, so the path is built once.
                var base: QueryExpression? = e
                var path: [String] = []
                if case .keyPath(let b, let existing) = e.kind { base = b; path = existing }
                while isPunctuation(.dot) {
                    advance()
                    try parseKeyComponents(into: &path)
                }
                e = QueryExpression(.keyPath(base: base, path: path), span: e.span.union(previousSpan))
            } else if isPunctuation(.leftBracket) {
                let open = current.span
                advance()
                let sub = try parseSubscript()
                try expect(.rightBracket, .expectedClosingBracket, "']'", opening: open)
                e = QueryExpression(.index(e, sub), span: e.span.union(previousSpan))
            } else {
                return e
            }
            links += 1
            if depth + links > Parser.maximumDepth {
                throw Diagnostic(.nestingTooDeep, "key path nests deeper than \(Parser.maximumDepth) levels", at: current.span)
            }
        }
    }

    // key ::= identifier | "#" word | "%K" | variable
    mutating func parseKeyComponents(into path: inout [String]) throws(Diagnostic) {
        let token = current
        switch token.kind {
        case .identifier:
            advance()
            path.append(text(token))
        case .escapedIdentifier:
            advance()
            path.append(try escapedKey(token))
        case .variable:
            // `$a.$b`: Apple reads the key from the variable at evaluation time.
            // The component keeps its `$`, which no plain key can start with.
            advance()
            path.append(text(token))
        case .specifier(let spec) where spec.category == .keyPath:
            advance()
            path.append(contentsOf: try keyPathArgument(spec, token: token))
        case .keyword(let k):
            throw Diagnostic(.reservedWordAsKey, "'\(text(token))' is a reserved word and cannot be a key as written",
                             at: token.span, hints: ["write #\(text(token)) to use \(k.rawValue) as a key"])
        default:
            throw Diagnostic(.expectedKey, "expected a key after '.', found \(describeCurrent())", at: token.span)
        }
    }

    // subscript ::= FIRST | LAST | SIZE | expression
    mutating func parseSubscript() throws(Diagnostic) -> Subscript {
        if case .keyword(let k) = current.kind {
            switch k {
            case .first: advance(); return .first
            case .last: advance(); return .last
            case .size: advance(); return .size
            default: break
            }
        }
        guard startsExpression else {
            throw Diagnostic(.expectedIndex, "expected an index, FIRST, LAST or SIZE, found \(describeCurrent())", at: current.span)
        }
        return .expression(try parseExpression())
    }
}

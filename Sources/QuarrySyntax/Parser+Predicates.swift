// Predicate rules: OR, AND, NOT, comparisons and their operators and options.

/// A parenthesised construct turned out to be a predicate or an expression.
enum PredicateOrExpression {
    case predicate(QueryPredicate)
    case expression(QueryExpression)
}

extension Parser {
    // predicate ::= or_predicate
    mutating func parsePredicateRoot() throws(Diagnostic) -> QueryPredicate {
        switch try parseOr(allowExpression: false) {
        case .predicate(let p): return p
        case .expression(let e): throw missingOperator(after: e)
        }
    }

    // or_predicate ::= and_predicate ( ("OR" | "||") and_predicate )*
    mutating func parseOr(allowExpression: Bool) throws(Diagnostic) -> PredicateOrExpression {
        let first = try parseAnd(allowExpression: allowExpression)
        guard isOr else { return first }
        var operands: [QueryPredicate] = []
        operands.reserveCapacity(4)
        operands.append(try requirePredicate(first))
        while isOr {
            advance()
            // Two statements: a non-mutating call around a mutating one would copy the parser.
            let next = try parseAnd(allowExpression: false)
            operands.append(try requirePredicate(next))
        }
        return .predicate(QueryPredicate(.or(operands), span: operands[0].span.union(operands[operands.count - 1].span)))
    }

    // and_predicate ::= not_predicate ( ("AND" | "&&") not_predicate )*
    mutating func parseAnd(allowExpression: Bool) throws(Diagnostic) -> PredicateOrExpression {
        let first = try parseNot(allowExpression: allowExpression)
        guard isAnd else { return first }
        var operands: [QueryPredicate] = []
        operands.reserveCapacity(4)
        operands.append(try requirePredicate(first))
        while isAnd {
            advance()
            // Two statements: a non-mutating call around a mutating one would copy the parser.
            let next = try parseNot(allowExpression: false)
            operands.append(try requirePredicate(next))
        }
        return .predicate(QueryPredicate(.and(operands), span: operands[0].span.union(operands[operands.count - 1].span)))
    }

    @inline(__always) var isOr: Bool { isKeyword(.or) || isPunctuation(.or) }
    @inline(__always) var isAnd: Bool { isKeyword(.and) || isPunctuation(.and) }

    // not_predicate ::= ("NOT" | "!") not_predicate | TRUEPREDICATE | FALSEPREDICATE | comparison
    @inline(__always) mutating func parseNot(allowExpression: Bool) throws(Diagnostic) -> PredicateOrExpression {
        if isKeyword(.not) || isPunctuation(.not) {
            let start = current.span
            advance()
            let operand = try nested { (p: inout Parser) throws(Diagnostic) in try p.parseNot(allowExpression: false) }
            let inner = try requirePredicate(operand)
            return .predicate(QueryPredicate(.not(inner), span: start.union(inner.span)))
        }
        if isKeyword(.truePredicate) || isKeyword(.falsePredicate) {
            let value = isKeyword(.truePredicate)
            let span = current.span
            advance()
            return .predicate(QueryPredicate(.constant(value), span: span))
        }
        return try parseComparison(allowExpression: allowExpression)
    }

    // comparison ::= [ ANY | SOME | ALL | NONE ] expression operator [ "[" options "]" ] expression
    //              | "(" predicate ")"
    mutating func parseComparison(allowExpression: Bool) throws(Diagnostic) -> PredicateOrExpression {
        let start = current.span
        var modifier = ComparisonModifier.direct
        if case .keyword(let k) = current.kind {
            switch k {
            case .any, .some: modifier = .any
            case .all: modifier = .all
            case .none: modifier = .none
            default: break
            }
            if modifier != .direct { advance() }
        }
        let lhs: QueryExpression
        if modifier == .direct && isPunctuation(.leftParen) {
            let open = current.span
            advance()
            let inner = try nested { (p: inout Parser) throws(Diagnostic) in try p.parseOr(allowExpression: true) }
            try expect(.rightParen, .expectedClosingParenthesis, "')'", opening: open)
            switch inner {
            case .predicate(var p):
                p.span = open.union(previousSpan)
                return .predicate(p)
            case .expression(var e):
                e.span = open.union(previousSpan)
                lhs = try parseExpression(continuingFrom: e, parenthesized: true)
            }
        } else {
            lhs = try parseExpression()
        }
        guard let (op, opSpan) = comparisonOperator() else {
            if allowExpression && modifier == .direct { return .expression(lhs) }
            throw missingOperator(after: lhs)
        }
        let options = try parseOptions()
        guard startsExpression else {
            throw Diagnostic(.expectedValue, "expected a value after '\(text(previousSpan))', found \(describeCurrent())",
                             at: current.span, hints: valueHints(comparisonStart: lhs.span, operatorSpan: opSpan))
        }
        let rhs = try parseExpression()
        let comparison = Comparison(lhs, op, rhs, modifier: modifier, options: options)
        return .predicate(QueryPredicate(.comparison(comparison), span: start.union(rhs.span)))
    }

    /// The comparison operator at the current token, consumed.
    mutating func comparisonOperator() -> (ComparisonOperator, SourceSpan)? {
        let span = current.span
        let op: ComparisonOperator
        switch current.kind {
        case .punctuation(let p):
            switch p {
            case .equal: op = .equal
            case .notEqual: op = .notEqual
            case .less: op = .less
            case .lessOrEqual: op = .lessOrEqual
            case .greater: op = .greater
            case .greaterOrEqual: op = .greaterOrEqual
            default: return nil
            }
        case .keyword(let k):
            switch k {
            case .like: op = .like
            case .matches: op = .matches
            case .beginsWith: op = .beginsWith
            case .endsWith: op = .endsWith
            case .in: op = .in
            case .contains: op = .contains
            case .between: op = .between
            case .utiConformsTo: op = .utiConformsTo
            case .utiEquals: op = .utiEquals
            default: return nil
            }
        default: return nil
        }
        advance()
        return (op, span)
    }

    // options ::= "[" ( "c" | "d" | "n" | "l" )+ "]"
    mutating func parseOptions() throws(Diagnostic) -> ComparisonOptions {
        guard isPunctuation(.leftBracket) else { return ComparisonOptions(rawValue: 0) }
        // `[` right after an operator is always options: an expression cannot start with `[`.
        guard case .identifier = peekKind() else {
            throw Diagnostic(.malformedOptions, "expected options such as [c], [d] or [cd]", at: current.span,
                             hints: ["a list of values is written in braces: {1, 2}"])
        }
        let open = current.span
        advance()
        let word = current
        var options = ComparisonOptions(rawValue: 0)
        for i in word.span.start..<word.span.end {
            switch bytes[i] | 0x20 {
            case UInt8(ascii: "c"): options.insert(.caseInsensitive)
            case UInt8(ascii: "d"): options.insert(.diacriticInsensitive)
            case UInt8(ascii: "n"): options.insert(.normalized)
            case UInt8(ascii: "l"): options.insert(.localeSensitive)
            default:
                throw Diagnostic(.malformedOptions, "unknown comparison option '\(text(word))'", at: word.span,
                                 hints: ["options are c (case-insensitive), d (diacritic-insensitive), n (normalized), l (locale)"])
            }
        }
        advance()
        try expect(.rightBracket, .malformedOptions, "']' to close the options", opening: open)
        return options
    }

    @inline(__always) func requirePredicate(_ item: consuming PredicateOrExpression) throws(Diagnostic) -> QueryPredicate {
        switch item {
        case .predicate(let p): return p
        case .expression(let e): throw missingOperator(after: e)
        }
    }

    /// The error for an expression standing where a comparison was needed.
    func missingOperator(after lhs: QueryExpression) -> Diagnostic {
        var hints: [String] = []
        if case .keyword(.not) = current.kind {
            hints.append("NOT goes before the comparison: NOT (x IN y)")
        } else if case .identifier = current.kind, let suggestion = Suggestions.keyword(near: text(current)) {
            hints.append("did you mean \(suggestion)?")
        } else if case .end = current.kind {
            hints.append("a predicate compares two values, as in name == 'x'")
        }
        if case .keyword(let k) = current.kind, k == .true || k == .false || k == .yes || k == .no {
            hints.append("use TRUEPREDICATE or FALSEPREDICATE for a constant predicate")
        }
        return Diagnostic(.expectedComparison, "expected a comparison operator after the expression, found \(describeCurrent())",
                          at: current.span, hints: hints)
    }

    func valueHints(comparisonStart: SourceSpan, operatorSpan: SourceSpan) -> [String] {
        let start = Swift.min(comparisonStart.start, operatorSpan.start)
        let written = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<operatorSpan.end]), as: UTF8.self)
        switch current.kind {
        case .keyword(let k) where k == .and || k == .or:
            return ["did you mean `\(written) %@`?"]
        case .end:
            return ["the comparison needs a right-hand side, as in `\(written) %@`"]
        default:
            return []
        }
    }
}

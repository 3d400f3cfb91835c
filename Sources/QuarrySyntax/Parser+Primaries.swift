// Primary expressions: literals, key paths, variables and assignments,
// aggregates, function calls in both spellings, and the special forms
// SUBQUERY, CAST, TERNARY and FUNCTION.
import Foundation

extension Parser {
    // primary ::= number | string | NULL | NIL | TRUE | YES | FALSE | NO | SELF | ANYKEY
    //           | variable [ ":=" expression ] | specifier | key | call | aggregate
    //           | SUBQUERY(...) | CAST(...) | TERNARY(...) | FUNCTION(...) | "(" expression ")"
    mutating func parsePrimary() throws(Diagnostic) -> QueryExpression {
        let token = current
        switch token.kind {
        case .integer(let v): advance(); return QueryExpression(.constant(.int(v)), span: token.span)
        case .double(let v): advance(); return QueryExpression(.constant(.double(v)), span: token.span)
        case .string(let i): advance(); return QueryExpression(.constant(.string(stringValue(token, index: i))), span: token.span)
        case .keyword(let k): return try parseKeywordPrimary(k, token)
        case .variable:
            advance()
            let name = textAfterSigil(token)
            if isPunctuation(.assign) {
                advance()
                let value = try parseExpression()
                return QueryExpression(.assignment(variable: name, value: value), span: token.span.union(value.span))
            }
            return QueryExpression(.variable(name), span: token.span)
        case .specifier(let spec):
            advance()
            return try substitute(spec, token: token)
        case .identifier:
            if case .punctuation(.leftParen) = peekKind() {
                if isContextualWord(token, "FUNCTION") { return try parseFunctionExpression() }
                if isContextualWord(token, "TERNARY") { return try parseTernary() }
                return try parseCall()
            }
            if case .punctuation(.colon) = peekKind() { return try parseSelectorCall() }
            advance()
            return QueryExpression(.keyPath(base: nil, path: [text(token)]), span: token.span)
        case .escapedIdentifier:
            advance()
            return QueryExpression(.keyPath(base: nil, path: [try escapedKey(token)]), span: token.span)
        case .punctuation(.leftParen):
            advance()
            var inner = try parseExpression()
            try expect(.rightParen, .expectedClosingParenthesis, "')'", opening: token.span)
            inner.span = token.span.union(previousSpan)
            return inner
        case .punctuation(.leftBrace):
            return try parseAggregate()
        default:
            throw Diagnostic(.expectedValue, "expected a value, found \(describeCurrent())", at: token.span,
                             hints: primaryHints(token))
        }
    }

    func primaryHints(_ token: Token) -> [String] {
        if case .punctuation(.rightParen) = token.kind { return ["empty parentheses: () holds nothing"] }
        if case .end = token.kind { return ["the input ends too early"] }
        return []
    }

    mutating func parseKeywordPrimary(_ k: Keyword, _ token: Token) throws(Diagnostic) -> QueryExpression {
        switch k {
        case .null, .nil: advance(); return QueryExpression(.constant(.null), span: token.span)
        case .true, .yes: advance(); return QueryExpression(.constant(.bool(true)), span: token.span)
        case .false, .no: advance(); return QueryExpression(.constant(.bool(false)), span: token.span)
        case .self: advance(); return QueryExpression(.evaluatedObject, span: token.span)
        case .anyKey: advance(); return QueryExpression(.anyKey, span: token.span)
        case .subquery: return try parseSubquery()
        case .cast: return try parseCast()
        case .first, .last, .size:
            throw Diagnostic(.reservedWordAsKey, "'\(text(token))' is a reserved word and cannot be a key as written",
                             at: token.span, hints: ["write #\(text(token)) to use it as a key; FIRST, LAST and SIZE work inside [ ]"])
        default:
            var hints: [String] = []
            if k == .and || k == .or { hints.append("a value is missing before \(k.rawValue)") }
            else { hints.append("write #\(text(token)) to use \(k.rawValue) as a key") }
            throw Diagnostic(.expectedValue, "expected a value, found \(describeCurrent())", at: token.span, hints: hints)
        }
    }

    // arguments ::= "(" [ expression ( "," expression )* ] ")"
    mutating func parseArgumentList() throws(Diagnostic) -> [QueryExpression] {
        let open = current.span
        try expect(.leftParen, .expectedClosingParenthesis, "'('")
        var args: [QueryExpression] = []
        if isPunctuation(.rightParen) { advance(); return args }
        while true {
            args.append(try parseExpression())
            if isPunctuation(.comma) { advance(); continue }
            try expect(.rightParen, .expectedClosingParenthesis, "',' or ')'", opening: open)
            return args
        }
    }

    // call ::= identifier arguments          -- now(), random(), any name at all
    mutating func parseCall() throws(Diagnostic) -> QueryExpression {
        let nameToken = current
        advance()
        let args = try nested { (p: inout Parser) throws(Diagnostic) in try p.parseArgumentList() }
        return QueryExpression(.function(name: text(nameToken), arguments: args), span: nameToken.span.union(previousSpan))
    }

    // selector_call ::= ( identifier ":" )+ arguments   -- average:(x), add:to:(1, 2)
    mutating func parseSelectorCall() throws(Diagnostic) -> QueryExpression {
        let start = current.span
        var name = ""
        while case .identifier = current.kind, case .punctuation(.colon) = peekKind() {
            name += text(current) + ":"
            advance()
            advance()
        }
        guard isPunctuation(.leftParen) else {
            throw Diagnostic(.expectedFunctionName, "expected '(' and the arguments of \(name), found \(describeCurrent())",
                             at: current.span, hints: ["a function in selector form is written name:(arguments), as in average:(salaries)"])
        }
        let args = try nested { (p: inout Parser) throws(Diagnostic) in try p.parseArgumentList() }
        return QueryExpression(.function(name: name, arguments: args), span: start.union(previousSpan))
    }

    // aggregate ::= "{" [ expression ( "," expression )* ] "}"
    mutating func parseAggregate() throws(Diagnostic) -> QueryExpression {
        let open = current.span
        advance()
        var elements: [QueryExpression] = []
        try nested { (p: inout Parser) throws(Diagnostic) in
            if p.isPunctuation(.rightBrace) { p.advance(); return }
            while true {
                elements.append(try p.parseExpression())
                if p.isPunctuation(.comma) { p.advance(); continue }
                try p.expect(.rightBrace, .expectedClosingBrace, "',' or '}'", opening: open)
                return
            }
        }
        let span = open.union(previousSpan)
        var constants: [Value] = []
        constants.reserveCapacity(elements.count)
        for e in elements {
            guard case .constant(let v) = e.kind else { return QueryExpression(.aggregate(elements), span: span) }
            constants.append(v)
        }
        return QueryExpression(.constant(.array(constants)), span: span)
    }

    // subquery ::= SUBQUERY "(" expression "," variable "," predicate ")"
    mutating func parseSubquery() throws(Diagnostic) -> QueryExpression {
        let start = current.span
        advance()
        let open = current.span
        try expect(.leftParen, .expectedClosingParenthesis, "'(' after SUBQUERY")
        return try nested { (p: inout Parser) throws(Diagnostic) in
            let collection = try p.parseExpression()
            try p.expect(.comma, .expectedComma, "',' after the SUBQUERY collection")
            guard case .variable = p.current.kind else {
                throw Diagnostic(.expectedVariable, "expected a variable such as $x, found \(p.describeCurrent())",
                                 at: p.current.span, hints: ["SUBQUERY(collection, $x, predicate using $x)"])
            }
            let variable = p.textAfterSigil(p.current)
            p.advance()
            try p.expect(.comma, .expectedComma, "',' after the SUBQUERY variable")
            let predicate = try p.parsePredicateRoot()
            try p.expect(.rightParen, .expectedClosingParenthesis, "')' to close SUBQUERY", opening: open)
            return QueryExpression(.subquery(collection: collection, variable: variable, predicate: predicate),
                              span: start.union(p.previousSpan))
        }
    }

    // ternary ::= TERNARY "(" predicate "," expression "," expression ")"
    mutating func parseTernary() throws(Diagnostic) -> QueryExpression {
        let start = current.span
        advance()
        let open = current.span
        try expect(.leftParen, .expectedClosingParenthesis, "'(' after TERNARY")
        return try nested { (p: inout Parser) throws(Diagnostic) in
            let condition = try p.parsePredicateRoot()
            try p.expect(.comma, .expectedComma, "',' after the TERNARY condition")
            let a = try p.parseExpression()
            try p.expect(.comma, .expectedComma, "',' between the TERNARY values")
            let b = try p.parseExpression()
            try p.expect(.rightParen, .expectedClosingParenthesis, "')' to close TERNARY", opening: open)
            return QueryExpression(.ternary(condition, a, b), span: start.union(p.previousSpan))
        }
    }

    // function_expression ::= FUNCTION "(" expression "," expression ( "," expression )* ")"
    mutating func parseFunctionExpression() throws(Diagnostic) -> QueryExpression {
        let start = current.span
        advance()
        let args = try nested { (p: inout Parser) throws(Diagnostic) in try p.parseArgumentList() }
        guard args.count >= 2 else {
            throw Diagnostic(.wrongArgumentCount, "FUNCTION needs a receiver and a function name",
                             at: start.union(previousSpan), hints: ["FUNCTION(receiver, 'name', arguments...)"])
        }
        return QueryExpression(.functionCall(receiver: args[0], name: args[1], arguments: Array(args.dropFirst(2))),
                          span: start.union(previousSpan))
    }

    // cast ::= CAST "(" expression "," expression ")"
    mutating func parseCast() throws(Diagnostic) -> QueryExpression {
        let start = current.span
        advance()
        let args = try nested { (p: inout Parser) throws(Diagnostic) in try p.parseArgumentList() }
        let span = start.union(previousSpan)
        guard args.count == 2 else {
            throw Diagnostic(.wrongArgumentCount, "CAST takes a value and a type name, as in CAST(0, 'NSDate')", at: span)
        }
        if let folded = Parser.foldCast(args[0], args[1]) { return QueryExpression(.constant(folded), span: span) }
        return QueryExpression(.cast(args[0], type: args[1]), span: span)
    }

    /// CAST of a literal to a type with no literal syntax becomes a constant of
    /// that type, so that dates (and UUIDs, data) print as CAST and re-parse
    /// to the same constant.
    static func foldCast(_ value: QueryExpression, _ type: QueryExpression) -> Value? {
        guard case .constant(let v) = value.kind, case .constant(.string(let t)) = type.kind else { return nil }
        switch (t, v) {
        case ("NSDate", .int(let i)): return .date(Double(i))
        case ("NSDate", .double(let d)): return .date(d)
        case ("NSUUID", .string(let s)): return UUID(uuidString: s).map(Value.uuid)
        case ("NSData", .string(let s)): return Data(base64Encoded: s).map { .data([UInt8]($0)) }
        default: return nil
        }
    }
}

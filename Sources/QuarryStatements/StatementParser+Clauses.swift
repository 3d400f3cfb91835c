// Clause scanning and the small pieces of the statement grammar: names,
// lists, sort keys, integers, and the hand-over of a clause's text to the
// predicate/expression parser.

/// A clause: its keyword's token index (-1 for the text before any keyword)
/// and the token range of its content.
struct Clause {
    var keyword: Int
    var from: Int
    var to: Int
}

extension StatementParser {
    /// Words that start a clause, in the order clauses must come.
    static let clauseWords = ["", "PROPERTIES", "SET", "WHERE", "GROUP", "HAVING", "SORT", "LIMIT", "OFFSET", "BATCH"]

    func word(_ i: Int) -> String? {
        guard i < tokens.count else { return nil }
        switch tokens[i].kind {
        case .identifier, .keyword: return text(i).uppercased()
        default: return nil
        }
    }

    func text(_ i: Int) -> String {
        String(decoding: source.utf8[tokens[i].span.start..<tokens[i].span.end], as: UTF8.self)
    }

    func punctuation(_ i: Int) -> Punctuation? {
        guard i >= 0, i < tokens.count, case .punctuation(let p) = tokens[i].kind else { return nil }
        return p
    }

    /// An empty span just after token `i`, where a missing part belongs.
    func end(of i: Int) -> SourceSpan {
        let e = i >= 0 && i < tokens.count ? tokens[i].span.end : 0
        return SourceSpan(start: e, end: e + 1)
    }

    // entity = identifier ;
    func entityName(_ i: Int, _ b: Int, after previous: Int) throws(StatementError) -> Name {
        guard i < b, case .identifier = tokens[i].kind else {
            throw StatementError(.expectedEntity, "expected an entity name" + (previous >= 0 ? " after \(text(previous).uppercased())" : ""),
                             at: i < b ? tokens[i].span : end(of: previous))
        }
        return Name(text: text(i), span: tokens[i].span)
    }

    // key = identifier | "#" word | string ;
    func keyName(_ i: Int) -> Name? {
        switch tokens[i].kind {
        case .identifier: return Name(text: text(i), span: tokens[i].span)
        case .escapedIdentifier: return Name(text: String(text(i).dropFirst()), span: tokens[i].span)
        case .string:
            let t = text(i)
            return Name(text: String(t.dropFirst().dropLast()), span: tokens[i].span)
        default: return nil
        }
    }

    /// The token closing the bracket opened at `i`.
    func matchingClose(_ i: Int) -> Int? {
        var depth = 0
        for j in i..<tokens.count {
            switch punctuation(j) {
            case .leftParen?, .leftBrace?, .leftBracket?: depth += 1
            case .rightParen?, .rightBrace?, .rightBracket?:
                depth -= 1
                if depth == 0 { return j }
            default: break
            }
        }
        return nil
    }

    /// Splits tokens [a, b) at depth-0 separators.
    func split(_ a: Int, _ b: Int, on separator: Punctuation) -> [(Int, Int)] {
        guard a < b else { return [] }
        var parts: [(Int, Int)] = []
        var depth = 0
        var start = a
        for i in a..<b {
            switch punctuation(i) {
            case .leftParen?, .leftBrace?, .leftBracket?: depth += 1
            case .rightParen?, .rightBrace?, .rightBracket?: depth -= 1
            case separator? where depth == 0:
                parts.append((start, i))
                start = i + 1
            default: break
            }
        }
        parts.append((start, b))
        return parts
    }

    /// The clauses of tokens [a, b), keyed by their first word ("" for the
    /// text before the first one); checks order, duplicates and BY.
    func clauses(from a: Int, to b: Int, allowed: [String], statement: String) throws(StatementError) -> [String: Clause] {
        var found: [(String, Int, Int)] = []   // (word, keyword token, content start)
        var depth = 0
        var i = a
        while i < b {
            switch punctuation(i) {
            case .leftParen?, .leftBrace?, .leftBracket?: depth += 1
            case .rightParen?, .rightBrace?, .rightBracket?: depth -= 1
            default: break
            }
            if depth == 0, var w = word(i), w == "ORDER" || Self.clauseWords.dropFirst().contains(w) {
                if w == "ORDER" { w = "SORT" }
                guard allowed.contains(w) else {
                    let name = w == "GROUP" || w == "SORT" ? w + " BY" : w
                    throw StatementError(.misplacedClause, "\(statement) has no \(name) clause", at: tokens[i].span,
                                     hints: ["\(statement) takes " + allowed.filter { !$0.isEmpty }.map { $0 == "GROUP" || $0 == "SORT" ? $0 + " BY" : $0 }.joined(separator: ", ")])
                }
                var contentStart = i + 1
                if w == "GROUP" || w == "SORT" {
                    guard word(i + 1) == "BY" else {
                        throw StatementError(.expectedBy, "expected BY after \(text(i).uppercased())", at: i + 1 < b ? tokens[i + 1].span : end(of: i))
                    }
                    contentStart += 1
                }
                found.append((w, i, contentStart))
                i = contentStart
                continue
            }
            i += 1
        }
        var result: [String: Clause] = [:]
        let leadEnd = found.first?.1 ?? b
        if a < leadEnd {
            guard allowed.contains("") else {
                let expected = allowed.map { $0 == "GROUP" || $0 == "SORT" ? $0 + " BY" : $0 }.joined(separator: ", ")
                throw StatementError(.unexpectedText, "unexpected '\(text(a))'; expected \(expected) or the end of the statement",
                                 at: tokens[a].span)
            }
        }
        if allowed.contains("") { result[""] = Clause(keyword: a - 1, from: a, to: leadEnd) }
        var lastRank = -1
        for (n, (w, k, start)) in found.enumerated() {
            let rank = allowed.firstIndex(of: w)!
            let name = w == "GROUP" || w == "SORT" ? w + " BY" : w
            if result[w] != nil {
                throw StatementError(.misplacedClause, "\(name) appears twice", at: tokens[k].span)
            }
            if rank < lastRank {
                throw StatementError(.misplacedClause, "\(name) must come before \(found[n - 1].0 == "GROUP" || found[n - 1].0 == "SORT" ? found[n - 1].0 + " BY" : found[n - 1].0)",
                                 at: tokens[k].span,
                                 hints: ["clauses go in the order " + allowed.filter { !$0.isEmpty }.map { $0 == "GROUP" || $0 == "SORT" ? $0 + " BY" : $0 }.joined(separator: ", ")])
            }
            lastRank = rank
            let to = n + 1 < found.count ? found[n + 1].1 : b
            guard start < to else {
                throw StatementError(.emptyClause, "\(name) needs something after it", at: end(of: start - 1))
            }
            result[w] = Clause(keyword: k, from: start, to: to)
        }
        return result
    }

    /// The statement's text with every byte outside tokens [a, b) blanked, so
    /// that the language parser's offsets are offsets into the statement.
    func masked(_ a: Int, _ b: Int) -> String {
        let s = tokens[a].span.start, e = tokens[b - 1].span.end
        var bytes = source.utf8
        for i in 0..<bytes.count where (i < s || i >= e) && bytes[i] != 0x0A { bytes[i] = 0x20 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A clause's predicate; its specifiers go on reading the statement's arguments.
    func predicate(_ c: Clause) throws(StatementError) -> QueryPredicate {
        do { return try Parser.parsePredicate(SourceText(masked(c.from, c.to)), arguments: arguments, continuing: &cursor.use) } catch {
            throw StatementError(error)
        }
    }

    func expression(_ a: Int, _ b: Int) throws(StatementError) -> QueryExpression {
        do { return try Parser.parseExpression(SourceText(masked(a, b)), arguments: arguments, continuing: &cursor.use) } catch {
            throw StatementError(error)
        }
    }

    // items = item {"," item} ; item = expression ["AS" identifier] ;
    func propertyItems(_ c: Clause) throws(StatementError) -> [PropertyItem] {
        var items: [PropertyItem] = []
        for (x, y) in split(c.from, c.to, on: .comma) {
            guard x < y else { throw StatementError(.malformedProperty, "expected a property before ','", at: end(of: x - 1)) }
            var exprEnd = y
            var name: String?
            if y - x >= 3, word(y - 2) == "AS" {
                guard case .identifier = tokens[y - 1].kind else {
                    throw StatementError(.malformedProperty, "expected a name after AS", at: tokens[y - 1].span)
                }
                name = text(y - 1)
                exprEnd = y - 2
            } else if word(y - 1) == "AS" {
                throw StatementError(.malformedProperty, "expected a name after AS", at: end(of: y - 1))
            }
            let e = try expression(x, exprEnd)
            let span = SourceSpan(start: tokens[x].span.start, end: tokens[y - 1].span.end)
            items.append(PropertyItem(expression: e, name: name ?? Printer.format(e), span: span))
        }
        return items
    }

    // keyPath = identifier {"." identifier} ;
    func keyPath(_ a: Int, _ b: Int) throws(StatementError) -> Name {
        let e = try expression(a, b)
        guard case .keyPath(nil, let path) = e.kind, !path.contains(where: { $0.hasPrefix("@") || $0.hasPrefix("$") }) else {
            throw StatementError(.expectedKeyPath, "expected a key path such as department.name", at: SourceSpan(start: tokens[a].span.start, end: tokens[b - 1].span.end))
        }
        return Name(text: path.joined(separator: "."), span: SourceSpan(start: tokens[a].span.start, end: tokens[b - 1].span.end))
    }

    // sortKeys = keyPath ["ASC" | "DESC"] {"," keyPath ["ASC" | "DESC"]} ;
    func sortItems(_ c: Clause) throws(StatementError) -> [SortItem] {
        var items: [SortItem] = []
        for (x, y) in split(c.from, c.to, on: .comma) {
            guard x < y else { throw StatementError(.expectedKeyPath, "expected a key path before ','", at: end(of: x - 1)) }
            var pathEnd = y
            var ascending = true
            if let w = word(y - 1), w == "ASC" || w == "DESC", y - 1 > x {
                ascending = w == "ASC"
                pathEnd = y - 1
            }
            let path = try keyPath(x, pathEnd)
            items.append(SortItem(keyPath: path.text, ascending: ascending, span: path.span))
        }
        return items
    }

    // int = digit {digit} ;
    func integer(_ c: Clause) throws(StatementError) -> Int {
        guard c.to - c.from == 1, case .integer(let n) = tokens[c.from].kind, n >= 0 else {
            let w = text(c.keyword).uppercased()
            throw StatementError(.expectedInteger, "\(w) takes a whole number, as in \(w) 10",
                             at: SourceSpan(start: tokens[c.from].span.start, end: tokens[c.to - 1].span.end))
        }
        return Int(n)
    }
}

// The statement parser: statement text → `Statement`. Statements and
// predicates share one lexer: the whole statement is tokenized by
// QuarrySyntax's `Lexer`; this parser finds the statement's own words
// (FETCH, WHERE, SORT BY ...) among the tokens at bracket depth 0 and hands
// each clause's text to `Parser.parsePredicate` / `parseExpression`. The
// clause is handed over as the statement's text with every byte outside the
// clause blanked (newlines kept), so the language's diagnostics come back
// with offsets into the statement, and from there into the file.
//
// Statement words are not reserved words of the predicate language: they are
// recognised only where a clause can start, at depth 0 (so `SUBQUERY(x, $y,
// $y.limit > 1)` is fine, but a top-level key named `limit` needs `SELF.limit`).
//
// `%@`-style specifiers take the `--arg` values: the statement is one format
// string, so `%@` and `%d` read them in order across its clauses and `%2$@`
// reads the second. A specifier without a value is A001 at the specifier;
// sequential specifiers that leave values unused are A002, as for `quarry
// parse`. A statement that names its values by position takes only those it
// names, and one with no specifiers ignores the values, so the statements of
// one file can use different ones (but `'%@'` in quotes, with values given,
// is A002 with a hint).

public struct StatementParser {
    let source: SourceText
    let tokens: ContiguousArray<Token>
    let arguments: [Value]
    /// How far the clauses parsed so far have read into `arguments`.
    final class Cursor { var use = ArgumentUse() }
    let cursor = Cursor()

    /// Parses one statement (without its `;`). Spans are offsets into `text`.
    public static func parse(_ text: String, arguments: [Value] = []) throws(StatementError) -> Statement {
        let source = SourceText(text)
        let lexed: (tokens: ContiguousArray<Token>, strings: [String])
        do { lexed = try Lexer.tokenize(source) } catch { throw StatementError(error) }
        let tokens = lexed.tokens
        let parser = StatementParser(source: source, tokens: tokens, arguments: arguments)
        let statement = try parser.statement(from: 0, to: tokens.count - 1)
        if !arguments.isEmpty, tokens.count > 1 {
            let hasSpecifiers = tokens.contains { if case .specifier = $0.kind { true } else { false } }
            let span = SourceSpan(start: tokens[0].span.start, end: tokens[tokens.count - 2].span.end)
            let use = parser.cursor.use
            if (hasSpecifiers && use.highestPositional == 0) || (!hasSpecifiers && Parser.containsQuotedSpecifier(lexed.strings)),
               let extra = Parser.extraArguments(given: arguments.count, use: use, span: span, strings: lexed.strings) {
                throw StatementError(extra)
            }
        }
        return statement
    }

    public static let verbs = ["FETCH", "COUNT", "EVAL", "INSERT", "UPDATE", "DELETE", "SECTIONS", "SET", "EXPLAIN"]

    // statement = fetch | count | eval | insert | update | delete | sections | set | explain ;
    func statement(from a: Int, to b: Int) throws(StatementError) -> Statement {
        guard a < b, let verb = word(a) else {
            let span = a < b ? tokens[a].span : SourceSpan(start: 0, end: 0)
            throw StatementError(.unknownStatement, "expected a statement (\(Self.verbs.joined(separator: ", ")))", at: span)
        }
        switch verb {
        case "FETCH":
            if word(a + 1) == "FROM", word(a + 2) == "TEMPLATE", a + 3 < b { return try fetchTemplate(from: a + 3, to: b) }
            return .fetch(try fetch(from: a + 1, to: b))
        case "COUNT":
            let only = isOnly(a + 1, b, clauses: ["WHERE"])
            let start = only ? a + 2 : a + 1
            let entity = try entityName(start, b, after: start - 1)
            let clauses = try clauses(from: start + 1, to: b, allowed: ["WHERE"], statement: "COUNT")
            return .count(entity: entity, predicate: try clauses["WHERE"].map { c throws(StatementError) in try predicate(c) }, only: only)
        case "EVAL":
            guard a + 1 < b else { throw StatementError(.emptyClause, "expected an expression after EVAL", at: end(of: a)) }
            // An expression, or else a predicate; the error shown is the
            // expression's unless only a predicate reading gets further.
            let before = cursor.use
            do throws(StatementError) { return .eval(try expression(a + 1, b)) } catch {
                var use = before
                if error.code == .language(.unexpectedTrailingInput) || error.code == .language(.expectedValue),
                   let p = try? Parser.parsePredicate(SourceText(masked(a + 1, b)), arguments: arguments, continuing: &use) {
                    cursor.use = use
                    return .evalPredicate(p)
                }
                throw error
            }
        case "INSERT": return try insert(from: a + 1, to: b)
        case "UPDATE": return try update(from: a + 1, to: b)
        case "DELETE":
            let start = word(a + 1) == "FROM" ? a + 2 : a + 1
            let entity = try entityName(start, b, after: start - 1)
            let clauses = try clauses(from: start + 1, to: b, allowed: ["WHERE"], statement: "DELETE")
            return .delete(entity: entity, predicate: try clauses["WHERE"].map { c throws(StatementError) in try predicate(c) })
        case "SECTIONS": return try sections(from: a + 1, to: b)
        case "SET": return try set(from: a + 1, to: b)
        case _ where TransactionStatement.verbs.contains(verb):
            return try transaction(verb, from: a, to: b)
        case "EXPLAIN":
            guard a + 1 < b else { throw StatementError(.emptyClause, "expected a statement after EXPLAIN", at: end(of: a)) }
            return .explain(try statement(from: a + 1, to: b))
        default:
            let hint = Suggestions.closest(to: verb, among: Self.verbs + TransactionStatement.verbs).map { ["did you mean \($0)?"] } ?? []
            throw StatementError(.unknownStatement, "unknown statement '\(text(a))'; expected \(Self.verbs.joined(separator: ", "))",
                             at: tokens[a].span, hints: hint)
        }
    }

    // fetch = "FETCH" ["DISTINCT"] ["ONLY"] entity ["PROPERTIES" items] ["WHERE" predicate] ["GROUP" "BY" items]
    //         ["HAVING" predicate] ["SORT" "BY" sortKeys] ["LIMIT" int] ["OFFSET" int] ["BATCH" int] ;
    func fetch(from a: Int, to b: Int) throws(StatementError) -> FetchStatement {
        var start = a
        var distinct = false
        let order = ["PROPERTIES", "WHERE", "GROUP", "HAVING", "SORT", "LIMIT", "OFFSET", "BATCH"]
        if word(a) == "DISTINCT" { distinct = true; start += 1 }
        let only = isOnly(start, b, clauses: order)
        if only { start += 1 }
        var f = FetchStatement(entity: try entityName(start, b, after: start - 1))
        f.distinct = distinct
        f.only = only
        let c = try clauses(from: start + 1, to: b, allowed: order, statement: "FETCH")
        if let p = c["PROPERTIES"] { f.properties = try propertyItems(p) }
        if let w = c["WHERE"] { f.predicate = try predicate(w) }
        if let g = c["GROUP"] { f.groupBy = try propertyItems(g) }
        if let h = c["HAVING"] { f.having = try predicate(h) }
        if let s = c["SORT"] { f.sort = try sortItems(s) }
        if let l = c["LIMIT"] { f.limit = try integer(l) }
        if let o = c["OFFSET"] { f.offset = try integer(o) }
        if let n = c["BATCH"] { f.batchSize = try integer(n) }
        return f
    }

    /// Whether the word at `i` is ONLY before an entity name rather than an
    /// entity named Only: it is when a name follows that does not start
    /// one of the statement's clauses (`FETCH Only WHERE …` still fetches
    /// an entity named Only; statement words are not reserved).
    func isOnly(_ i: Int, _ b: Int, clauses: [String]) -> Bool {
        guard word(i) == "ONLY", i + 1 < b, case .identifier = tokens[i + 1].kind, let next = word(i + 1) else { return false }
        return !clauses.contains(next)
    }

    // fetch-template = "FETCH" "FROM" "TEMPLATE" name [ "WITH" variable "=" expression { "," variable "=" expression } ] ;
    func fetchTemplate(from a: Int, to b: Int) throws(StatementError) -> Statement {
        guard let name = keyName(a) else {
            throw StatementError(.expectedEntity, "expected a fetch request template's name after FETCH FROM TEMPLATE", at: tokens[a].span)
        }
        guard a + 1 < b else { return .fetchTemplate(name: name, bindings: []) }
        guard word(a + 1) == "WITH" else {
            throw StatementError(.unexpectedText, "unexpected '\(text(a + 1))'; expected WITH or the end of the statement", at: tokens[a + 1].span,
                                 hints: ["as in FETCH FROM TEMPLATE wellPaid WITH $minimum = 50000"])
        }
        guard a + 2 < b else { throw StatementError(.emptyClause, "WITH needs $variable = value after it", at: end(of: a + 1)) }
        var bindings: [(variable: Name, value: QueryExpression)] = []
        for (x, y) in split(a + 2, b, on: .comma) {
            guard x < y, case .variable = tokens[x].kind, y - x >= 3, punctuation(x + 1) == .equal || punctuation(x + 1) == .assign else {
                throw StatementError(.malformedAssignment, "expected '$variable = value'", at: x < y ? tokens[x].span : end(of: x - 1),
                                     hints: ["as in WITH $minimum = 50000, $name = 'Ann'"])
            }
            bindings.append((Name(text: String(text(x).dropFirst()), span: tokens[x].span), try expression(x + 2, y)))
        }
        return .fetchTemplate(name: name, bindings: bindings)
    }

    // insert = "INSERT" ["INTO"] entity "{" [key ":" expression {"," key ":" expression}] "}" ;
    func insert(from a: Int, to b: Int) throws(StatementError) -> Statement {
        let start = word(a) == "INTO" ? a + 1 : a
        let entity = try entityName(start, b, after: start - 1)
        let open = start + 1
        guard open < b, punctuation(open) == .leftBrace else {
            throw StatementError(.malformedAssignment, "expected '{' and the new object's values after \(entity.text)",
                             at: open < b ? tokens[open].span : end(of: start), hints: ["as in INSERT Task {task: 'Write', done: NO}"])
        }
        guard punctuation(b - 1) == .rightBrace, matchingClose(open) == b - 1 else {
            throw StatementError(.malformedAssignment, "expected '}' to close the values", at: end(of: b - 1))
        }
        var values: [(key: Name, value: QueryExpression)] = []
        for (x, y) in split(open + 1, b - 1, on: .comma) {
            guard y - x >= 3, punctuation(x + 1) == .colon, let key = try assignmentKey(x) else {
                throw StatementError(.malformedAssignment, "expected 'key: value'", at: x < y ? tokens[x].span : end(of: x - 1))
            }
            values.append((key, try expression(x + 2, y)))
        }
        return .insert(entity: entity, values: values)
    }

    /// The key of `key: value` or `key = value`: a name, or `%K` (`%1$K`)
    /// read from the arguments, named where the specifier stands.
    func assignmentKey(_ i: Int) throws(StatementError) -> Name? {
        if let name = keyName(i) { return name }
        guard text(i).hasPrefix("%") else { return nil }
        let e = try expression(i, i + 1)
        guard case .keyPath(nil, let path) = e.kind, path.count == 1, !path[0].hasPrefix("%") else { return nil }
        return Name(text: path[0], span: tokens[i].span)
    }

    // update = "UPDATE" entity "SET" key "=" expression {"," key "=" expression} ["WHERE" predicate] ;
    func update(from a: Int, to b: Int) throws(StatementError) -> Statement {
        let entity = try entityName(a, b, after: a - 1)
        let c = try clauses(from: a + 1, to: b, allowed: ["SET", "WHERE"], statement: "UPDATE")
        guard let s = c["SET"] else {
            throw StatementError(.malformedAssignment, "expected SET after UPDATE \(entity.text)", at: end(of: a),
                             hints: ["as in UPDATE Task SET done = YES WHERE done == NO"])
        }
        var assignments: [(key: Name, value: QueryExpression)] = []
        for (x, y) in split(s.from, s.to, on: .comma) {
            guard y - x >= 3, punctuation(x + 1) == .equal || punctuation(x + 1) == .assign,
                  let key = try assignmentKey(x) else {
                throw StatementError(.malformedAssignment, "expected 'key = value'", at: x < y ? tokens[x].span : end(of: s.keyword))
            }
            assignments.append((key, try expression(x + 2, y)))
        }
        return .update(entity: entity, assignments: assignments, predicate: try c["WHERE"].map { c throws(StatementError) in try predicate(c) })
    }

    // sections = "SECTIONS" entity "BY" keyPath ["WHERE" predicate] ["SORT" "BY" sortKeys] ;
    func sections(from a: Int, to b: Int) throws(StatementError) -> Statement {
        let entity = try entityName(a, b, after: a - 1)
        guard word(a + 1) == "BY" else {
            throw StatementError(.expectedBy, "expected BY and the section key path after SECTIONS \(entity.text)",
                             at: a + 1 < b ? tokens[a + 1].span : end(of: a), hints: ["as in SECTIONS Employee BY department.name"])
        }
        let c = try clauses(from: a + 2, to: b, allowed: ["", "WHERE", "SORT"], statement: "SECTIONS")
        guard let k = c[""], k.from < k.to else {
            throw StatementError(.expectedKeyPath, "expected a key path after BY", at: end(of: a + 1))
        }
        let keyPath = try self.keyPath(k.from, k.to)
        return .sections(entity: entity, keyPath: keyPath, predicate: try c["WHERE"].map { c throws(StatementError) in try predicate(c) },
                         sort: try c["SORT"].map { c throws(StatementError) in try sortItems(c) } ?? [])
    }

    // set = "SET" variable ("=" | ":=") expression ;
    func set(from a: Int, to b: Int) throws(StatementError) -> Statement {
        guard a < b, case .variable = tokens[a].kind else {
            throw StatementError(.malformedAssignment, "expected a $variable after SET", at: a < b ? tokens[a].span : end(of: a - 1),
                             hints: ["as in SET $minimum = 50000"])
        }
        guard a + 1 < b, punctuation(a + 1) == .equal || punctuation(a + 1) == .assign else {
            throw StatementError(.malformedAssignment, "expected '=' after \(text(a))", at: a + 1 < b ? tokens[a + 1].span : end(of: a))
        }
        guard a + 2 < b else { throw StatementError(.emptyClause, "expected a value after '='", at: end(of: a + 1)) }
        let name = Name(text: String(text(a).dropFirst()), span: tokens[a].span)
        return .set(variable: name, value: try expression(a + 2, b))
    }
}

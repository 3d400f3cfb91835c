// Which entity a predicate is about, read from the code around it — never
// guessed from names alone. In order: a `// quarry-lint:entity Name`
// comment on the call's line or the line before; an enclosing
// `@FetchRequest(entity: T.entity(), …)` / `NSFetchRequest<T>(…)` /
// `FetchRequest<T>(…)` / `…(entityName: "X")`; the fetch request whose
// `.predicate` (or `setPredicate:`) the call is assigned to, when that
// variable was made in the same file from `NSFetchRequest<T>(entityName:)`,
// `NSFetchRequest(entityName:)`, `T.fetchRequest()`,
// `fetchRequestWithEntityName:`, `initWithEntityName:` or
// `entityForName:`.

/// An entity name and how sure the source is about it.
struct EntityHint: Sendable, Equatable {
    var name: String
    /// True when the name is written as an entity name (a string, an
    /// annotation); false when it is a class name (`NSFetchRequest<T>`),
    /// which only counts when the model has an entity of that name.
    var isEntityName: Bool
    /// Source offset of the name, for "no such entity" findings.
    var offset: Int
}

extension CallFinder {
    /// Fetch-request variables and the entity each was made for, in file order.
    func fetchRequestVariables() -> [(token: Int, variable: String, entity: EntityHint)] {
        var out: [(Int, String, EntityHint)] = []
        for i in tokens.indices where tokens[i].kind == .identifier
            && Self.interestingLengths.contains(tokens[i].end - tokens[i].start) {
            guard let hint = entityPattern(at: i), let variable = assignedVariable(before: i) else { continue }
            out.append((i, variable, hint))
        }
        return out
    }

    /// An entity named by the construct starting at token `i`, if it is one.
    func entityPattern(at i: Int) -> EntityHint? {
        switch text(i) {
        case "NSFetchRequest", "FetchRequest":
            if let named = stringAfterLabel("entityName", from: i) { return named }
            if isPunct(i + 1, "<"), tokens.indices.contains(i + 2), tokens[i + 2].kind == .identifier, isPunct(i + 3, ">") {
                return EntityHint(name: String(text(i + 2)), isEntityName: false, offset: tokens[i + 2].start)
            }
        case "fetchRequest":
            // Swift `T.fetchRequest()`, Objective-C `[T fetchRequest]`.
            if isPunct(i - 1, "."), tokens.indices.contains(i - 2), tokens[i - 2].kind == .identifier, isPunct(i + 1, "(") {
                return EntityHint(name: String(text(i - 2)), isEntityName: false, offset: tokens[i - 2].start)
            }
            if isPunct(i + 1, "]"), tokens.indices.contains(i - 1), tokens[i - 1].kind == .identifier, isPunct(i - 2, "[") {
                return EntityHint(name: String(text(i - 1)), isEntityName: false, offset: tokens[i - 1].start)
            }
        case "fetchRequestWithEntityName", "initWithEntityName", "entityForName":
            if isPunct(i + 1, ":"), i + 2 < tokens.count, case .string(let s) = tokens[i + 2].kind,
               scanned.literals[s].notConstant == nil {
                return EntityHint(name: scanned.literals[s].text, isEntityName: true, offset: tokens[i + 2].start)
            }
        default:
            break
        }
        return nil
    }

    /// `entityName: "X"` inside the parentheses right after token `i` (or
    /// after its `<T>`).
    private func stringAfterLabel(_ label: String, from i: Int) -> EntityHint? {
        var open = i + 1
        if isPunct(open, "<") { open += 3 }
        guard isPunct(open, "("), isIdent(open + 1, label), isPunct(open + 2, ":"), open + 3 < tokens.count,
              case .string(let s) = tokens[open + 3].kind, scanned.literals[s].notConstant == nil else { return nil }
        return EntityHint(name: scanned.literals[s].text, isEntityName: true, offset: tokens[open + 3].start)
    }

    /// The variable a value starting near token `i` is assigned to:
    /// `let r = …`, `r = …`, `r.entity = …`, `let r: NSFetchRequest<T> = …`.
    func assignedVariable(before i: Int) -> String? {
        var j = i - 1
        let limit = max(0, i - 16)
        while j >= limit {
            if case .punctuation(let c) = tokens[j].kind {
                if c == UInt8(ascii: "=") && !isPunct(j - 1, "=") && !isPunct(j + 1, "=") && !isPunct(j - 1, "!") {
                    var v = j - 1
                    if isIdent(v, "entity"), isPunct(v - 1, ".") { v -= 2 }
                    // `let r: NSFetchRequest<T> =`: the name is after let/var, and
                    // no other `=` stands between (that would be another statement).
                    for k in stride(from: j - 1, through: max(limit, j - 10), by: -1) where isIdent(k, "let") || isIdent(k, "var") {
                        guard k + 1 < tokens.count, tokens[k + 1].kind == .identifier, isPunct(k + 2, ":"),
                              !(k + 2..<j).contains(where: { isPunct($0, "=") }) else { break }
                        return String(text(k + 1))
                    }
                    if v >= 0, tokens[v].kind == .identifier { return String(text(v)) }
                    return nil
                }
                if c == UInt8(ascii: ";") || c == UInt8(ascii: "{") || c == UInt8(ascii: "}") { return nil }
            }
            j -= 1
        }
        // `let r: NSFetchRequest<T>` with no `=` yet, or a parameter `r: NSFetchRequest<T>`.
        if isPunct(i - 1, ":"), i >= 2, tokens[i - 2].kind == .identifier { return String(text(i - 2)) }
        return nil
    }

    /// The entity for the call at token `k`.
    func entity(for call: FormatCall, variables: [(token: Int, variable: String, entity: EntityHint)]) -> EntityHint? {
        let line = file.line(of: call.start)
        if let d = scanned.directives.last(where: { $0.kind == .entity && ($0.line == line || $0.line == line - 1) }) {
            return EntityHint(name: d.words[0], isEntityName: true, offset: call.start)
        }
        // Walk out of the enclosing groups, to the statement's start.
        var depth = 0
        var j = call.tokenIndex - 1
        let limit = max(0, call.tokenIndex - 400)
        while j >= limit {
            guard case .punctuation(let c) = tokens[j].kind else {
                // `[request setPredicate:` at an enclosing level.
                if depth <= 0, isIdent(j, "setPredicate"), isPunct(j + 1, ":"), j >= 1, tokens[j - 1].kind == .identifier {
                    return variableEntity(String(text(j - 1)), before: j, variables)
                }
                j -= 1
                continue
            }
            switch c {
            case UInt8(ascii: ")"), UInt8(ascii: "]"):
                depth += 1
            case UInt8(ascii: "("), UInt8(ascii: "["):
                if depth > 0 { depth -= 1; break }
                // An enclosing call: is it a fetch request with an entity?
                if let hint = enclosingFetchRequest(opener: j) { return hint }
            case UInt8(ascii: "="):
                guard depth <= 0, !isPunct(j - 1, "="), !isPunct(j + 1, "="), !isPunct(j - 1, "!") else { break }
                if isIdent(j - 1, "predicate"), isPunct(j - 2, "."), j >= 3, tokens[j - 3].kind == .identifier {
                    return variableEntity(String(text(j - 3)), before: j, variables)
                }
                return nil
            case UInt8(ascii: ";"), UInt8(ascii: "{"), UInt8(ascii: "}"):
                if depth <= 0 { return nil }
            default:
                break
            }
            j -= 1
        }
        return nil
    }

    /// The entity of the latest binding of `name` before token `j` that is
    /// still in scope there: no `}` closes the binding's block in between.
    /// A `request` parameter of one function never takes the entity of a
    /// `request` made in the function before it.
    private func variableEntity(_ name: String, before j: Int,
                                _ variables: [(token: Int, variable: String, entity: EntityHint)]) -> EntityHint? {
        guard let binding = variables.last(where: { $0.variable == name && $0.token < j }) else { return nil }
        var depth = 0
        for k in binding.token..<j {
            if isPunct(k, "{") { depth += 1 }
            else if isPunct(k, "}") {
                depth -= 1
                if depth < 0 { return nil }
            }
        }
        return binding.entity
    }

    /// `@FetchRequest(entity: T.entity(), …)`, `FetchRequest<T>(…)`,
    /// `NSFetchRequest(entityName: "X")` whose `(` is at `opener`; for an
    /// `@FetchRequest(…)` without an entity, the `FetchedResults<T>` it declares.
    private func enclosingFetchRequest(opener: Int) -> EntityHint? {
        var callee = opener - 1
        if isPunct(callee, ">"), callee >= 3 { callee -= 3 }
        guard isIdent(callee, "FetchRequest") || isIdent(callee, "NSFetchRequest") else { return nil }
        if let hint = entityPattern(at: callee) { return hint }
        let group = splitArguments(from: opener + 1, closer: ")", leadingComma: false)
        for range in group {
            let a = range.lowerBound
            if isIdent(a, "entity"), isPunct(a + 1, ":"), a + 2 < tokens.count, tokens[a + 2].kind == .identifier,
               isPunct(a + 3, "."), isIdent(a + 4, "entity") {
                return EntityHint(name: String(text(a + 2)), isEntityName: false, offset: tokens[a + 2].start)
            }
        }
        // The declared property after the attribute: `var items: FetchedResults<T>`.
        if let last = group.last {
            var k = last.upperBound + 1
            while k < min(tokens.count, last.upperBound + 12) {
                if isIdent(k, "FetchedResults"), isPunct(k + 1, "<"), k + 2 < tokens.count, tokens[k + 2].kind == .identifier {
                    return EntityHint(name: String(text(k + 2)), isEntityName: false, offset: tokens[k + 2].start)
                }
                k += 1
            }
        }
        return nil
    }
}

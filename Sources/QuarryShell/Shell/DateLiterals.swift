// ISO 8601 text in a predicate, where it stands for a date: compared with a
// date attribute (`startDate >= '2020-01-01'`, `BETWEEN {…}`, `IN {…}`), also
// inside a SUBQUERY (`SUBQUERY(employees, $e, $e.startDate < '2015-01-01')`,
// whose variable ranges over the relationship's destination), in an
// aggregate or function argument beside a date (`max:({startDate,
// '2020-01-01'})`), and on the other side of a comparison whose date side is
// such a function. The text becomes the date, read as fixture factories read
// dates (`DateText`), before the predicate reaches either engine — so SQL
// and memory answer the same. Text that is not a date, and text nowhere
// near a date, is left as written.

struct DateLiterals {
    let model: Model

    /// What key paths start from: the fetched object, and the SUBQUERY variables in force.
    struct Scope {
        var object: Entity
        var variables: [String: Entity] = [:]
    }

    func predicate(_ p: QueryPredicate, scope: Scope) -> QueryPredicate {
        var copy = p
        switch p.kind {
        case .not(let inner): copy.kind = .not(predicate(inner, scope: scope))
        case .and(let items): copy.kind = .and(items.map { predicate($0, scope: scope) })
        case .or(let items): copy.kind = .or(items.map { predicate($0, scope: scope) })
        case .comparison(var c):
            c.lhs = expression(c.lhs, scope: scope)
            c.rhs = expression(c.rhs, scope: scope)
            if isDate(c.lhs, scope) { c.rhs = converted(c.rhs) } else if isDate(c.rhs, scope) { c.lhs = converted(c.lhs) }
            copy.kind = .comparison(c)
        case .constant: break
        }
        return copy
    }

    /// `e` with the predicates and argument lists inside it read the same way.
    func expression(_ e: QueryExpression, scope: Scope) -> QueryExpression {
        var copy = e
        switch e.kind {
        case .subquery(let collection, let variable, let inner):
            var innerScope = scope
            if let destination = entity(at: collection, scope) { innerScope.variables[variable] = destination }
            copy.kind = .subquery(collection: expression(collection, scope: scope), variable: variable, predicate: predicate(inner, scope: innerScope))
        case .aggregate(let items):
            let items = items.map { expression($0, scope: scope) }
            copy.kind = .aggregate(items.contains { isDate($0, scope) } ? items.map(converted) : items)
        case .function(let name, let arguments):
            let arguments = arguments.map { expression($0, scope: scope) }
            copy.kind = .function(name: name, arguments: arguments.contains { isDate($0, scope) } ? arguments.map(converted) : arguments)
        case .keyPath(let base?, let path): copy.kind = .keyPath(base: expression(base, scope: scope), path: path)
        case .index(let base, let item): copy.kind = .index(expression(base, scope: scope), item)
        case .binary(let op, let a, let b): copy.kind = .binary(op, expression(a, scope: scope), expression(b, scope: scope))
        case .unary(let op, let a): copy.kind = .unary(op, expression(a, scope: scope))
        case .ternary(let p, let a, let b): copy.kind = .ternary(predicate(p, scope: scope), expression(a, scope: scope), expression(b, scope: scope))
        default: break
        }
        return copy
    }

    /// Whether `e` is a date: a key path ending at a date attribute, or an
    /// aggregate or function (max:, min: …) over one.
    func isDate(_ e: QueryExpression, _ scope: Scope) -> Bool {
        switch e.kind {
        case .keyPath(let base, let path):
            guard let start = start(of: base, scope), let last = path.last else { return false }
            return entity(following: path.dropLast(), from: start)?.attribute(named: last, in: model)?.type == .date
        case .aggregate(let items): return items.contains { isDate($0, scope) }
        case .function(_, let arguments): return arguments.contains { isDate($0, scope) }
        default: return false
        }
    }

    /// The entity a to-many key path (a SUBQUERY's collection) leads to.
    func entity(at e: QueryExpression, _ scope: Scope) -> Entity? {
        guard case .keyPath(let base, let path) = e.kind, let start = start(of: base, scope) else { return nil }
        return entity(following: path[...], from: start)
    }

    private func start(of base: QueryExpression?, _ scope: Scope) -> Entity? {
        switch base?.kind {
        case nil, .evaluatedObject?: return scope.object
        case .variable(let name)?: return scope.variables[name]
        default: return nil
        }
    }

    private func entity(following path: ArraySlice<String>, from start: Entity) -> Entity? {
        var current = start
        for key in path {
            guard let r = current.relationship(named: key, in: model), let next = model.entity(named: r.destination) else { return nil }
            current = next
        }
        return current
    }

    /// A constant (or the items of a list constant, an aggregate, a
    /// function's arguments) read as a date where it is ISO 8601 text.
    func converted(_ e: QueryExpression) -> QueryExpression {
        func date(_ v: Value) -> Value {
            if case .string(let text) = v, let seconds = DateText.seconds(text) { return .date(seconds) }
            return v
        }
        var copy = e
        switch e.kind {
        case .constant(.string(let text)): copy.kind = .constant(date(.string(text)))
        case .constant(.array(let items)): copy.kind = .constant(.array(items.map(date)))
        case .aggregate(let items): copy.kind = .aggregate(items.map(converted))
        case .function(let name, let arguments): copy.kind = .function(name: name, arguments: arguments.map(converted))
        default: break
        }
        return copy
    }
}

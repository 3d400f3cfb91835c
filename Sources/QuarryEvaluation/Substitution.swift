// Template substitution: `$NAME` variables replaced by constant values, as
// `-[NSPredicate predicateWithSubstitutionVariables:]` does. A variable with
// no binding is error A005 (Apple raises too; it is never silently nil).
// Variables the tree binds itself are left alone: a SUBQUERY's `$x` inside
// its predicate, and any name assigned with `$x := value`.

extension QueryPredicate {
    /// This predicate with every free `$VARIABLE` replaced by its value.
    ///
    /// ```swift
    /// let template = try Parser.parsePredicate("age > $MIN AND SUBQUERY(kids, $k, $k.age < $MIN).@count > 0")
    /// let p = try template.substituting(["MIN": .int(18)])
    /// // age > 18 AND SUBQUERY(kids, $k, $k.age < 18).@count > 0
    /// ```
    public func substituting(_ variables: [String: Value]) throws(Diagnostic) -> QueryPredicate {
        var s = Substitution(variables: variables)
        s.collectAssignments(self)
        return try s.predicate(self)
    }
}

extension QueryExpression {
    /// This expression with every free `$VARIABLE` replaced by its value.
    ///
    /// ```swift
    /// let e = try Parser.parseExpression("$rate * salary").substituting(["rate": .double(1.1)])
    /// ```
    public func substituting(_ variables: [String: Value]) throws(Diagnostic) -> QueryExpression {
        var s = Substitution(variables: variables)
        s.collectAssignments(self)
        return try s.expression(self)
    }
}

struct Substitution {
    let variables: [String: Value]
    var bound: [String: Int] = [:]

    init(variables: [String: Value]) { self.variables = variables }

    mutating func collectAssignments(_ p: QueryPredicate) {
        walk(p) { e in if case .assignment(let name, _) = e.kind { bound[name, default: 0] += 1 } }
    }

    mutating func collectAssignments(_ e: QueryExpression) {
        walk(e) { x in if case .assignment(let name, _) = x.kind { bound[name, default: 0] += 1 } }
    }

    func walk(_ p: QueryPredicate, _ visit: (QueryExpression) -> Void) {
        switch p.kind {
        case .constant: break
        case .not(let q): walk(q, visit)
        case .and(let ps), .or(let ps): for q in ps { walk(q, visit) }
        case .comparison(let c): walk(c.lhs, visit); walk(c.rhs, visit)
        }
    }

    func walk(_ e: QueryExpression, _ visit: (QueryExpression) -> Void) {
        visit(e)
        switch e.kind {
        case .constant, .evaluatedObject, .variable, .anyKey, .placeholder: break
        case .keyPath(let base, _): if let base { walk(base, visit) }
        case .index(let b, let sub):
            walk(b, visit)
            if case .expression(let i) = sub { walk(i, visit) }
        case .aggregate(let items): for i in items { walk(i, visit) }
        case .function(_, let args): for a in args { walk(a, visit) }
        case .binary(_, let a, let b), .setOperation(_, let a, let b): walk(a, visit); walk(b, visit)
        case .unary(_, let a): walk(a, visit)
        case .ternary(let p, let a, let b): walk(p, visit); walk(a, visit); walk(b, visit)
        case .cast(let a, let t): walk(a, visit); walk(t, visit)
        case .functionCall(let r, let n, let args): walk(r, visit); walk(n, visit); for a in args { walk(a, visit) }
        case .subquery(let c, _, let p): walk(c, visit); walk(p, visit)
        case .assignment(_, let v): walk(v, visit)
        }
    }

    mutating func predicate(_ p: QueryPredicate) throws(Diagnostic) -> QueryPredicate {
        var out = p
        switch p.kind {
        case .constant: break
        case .not(let q): out.kind = .not(try predicate(q))
        case .and(let ps): out.kind = .and(try predicates(ps))
        case .or(let ps): out.kind = .or(try predicates(ps))
        case .comparison(var c):
            c.lhs = try expression(c.lhs)
            c.rhs = try expression(c.rhs)
            out.kind = .comparison(c)
        }
        return out
    }

    mutating func predicates(_ ps: [QueryPredicate]) throws(Diagnostic) -> [QueryPredicate] {
        var out: [QueryPredicate] = []
        for p in ps { out.append(try predicate(p)) }
        return out
    }

    mutating func expressions(_ es: [QueryExpression]) throws(Diagnostic) -> [QueryExpression] {
        var out: [QueryExpression] = []
        for e in es { out.append(try expression(e)) }
        return out
    }

    mutating func expression(_ e: QueryExpression) throws(Diagnostic) -> QueryExpression {
        var out = e
        switch e.kind {
        case .constant, .evaluatedObject, .anyKey, .placeholder: break
        case .variable(let name):
            if bound[name, default: 0] > 0 { break }
            guard let v = variables[name] else {
                throw Diagnostic(.missingVariable, "no value for the variable $\(name)", at: e.span,
                                 hints: ["every $VARIABLE of a template needs a binding"], stage: .input)
            }
            out.kind = .constant(v)
        case .keyPath(let base, let path):
            guard let base else { break }
            let b = try expression(base)
            // `$x.name` with $x bound to a value: a key path from that value.
            out.kind = .keyPath(base: b, path: path)
        case .index(let b, let sub):
            var s = sub
            if case .expression(let i) = sub { s = .expression(try expression(i)) }
            out.kind = .index(try expression(b), s)
        case .aggregate(let items): out.kind = .aggregate(try expressions(items))
        case .function(let name, let args): out.kind = .function(name: name, arguments: try expressions(args))
        case .binary(let op, let a, let b): out.kind = .binary(op, try expression(a), try expression(b))
        case .setOperation(let op, let a, let b): out.kind = .setOperation(op, try expression(a), try expression(b))
        case .unary(let op, let a): out.kind = .unary(op, try expression(a))
        case .ternary(let p, let a, let b): out.kind = .ternary(try predicate(p), try expression(a), try expression(b))
        case .cast(let a, let t): out.kind = .cast(try expression(a), type: try expression(t))
        case .functionCall(let r, let n, let args):
            out.kind = .functionCall(receiver: try expression(r), name: try expression(n), arguments: try expressions(args))
        case .subquery(let c, let name, let p):
            let collection = try expression(c)
            bound[name, default: 0] += 1
            let inner = try predicate(p)
            bound[name, default: 0] -= 1
            out.kind = .subquery(collection: collection, variable: name, predicate: inner)
        case .assignment(let name, let v): out.kind = .assignment(variable: name, value: try expression(v))
        }
        return out
    }
}

// Every comparison in a predicate, wherever it sits: inside NOT/AND/OR, and
// inside the predicates that expressions carry (SUBQUERY, TERNARY), at any
// depth. For checks that look at comparisons one at a time and need no scope
// (the linter's style hints); a check that needs to know what a variable
// ranges over walks the tree itself.

extension QueryPredicate {
    /// Calls `body` with each comparison, outer ones before the ones nested
    /// in their operands. Iterative, so a flat chain of any length is fine.
    public func forEachComparison(_ body: (Comparison) -> Void) {
        var predicates: [QueryPredicate] = [self]
        var expressions: [QueryExpression] = []
        while let p = predicates.popLast() {
            switch p.kind {
            case .constant: break
            case .not(let inner): predicates.append(inner)
            case .and(let parts), .or(let parts): predicates.append(contentsOf: parts.reversed())
            case .comparison(let c):
                body(c)
                expressions = [c.lhs, c.rhs]
                while let e = expressions.popLast() { e.appendChildren(predicates: &predicates, expressions: &expressions) }
            }
        }
    }
}

extension QueryExpression {
    /// The predicates and expressions directly inside this expression.
    func appendChildren(predicates: inout [QueryPredicate], expressions: inout [QueryExpression]) {
        switch kind {
        case .constant, .evaluatedObject, .variable, .anyKey, .placeholder: break
        case .keyPath(let base, _): if let base { expressions.append(base) }
        case .index(let base, let sub):
            expressions.append(base)
            if case .expression(let x) = sub { expressions.append(x) }
        case .aggregate(let items): expressions.append(contentsOf: items)
        case .function(_, let arguments): expressions.append(contentsOf: arguments)
        case .binary(_, let a, let b), .setOperation(_, let a, let b): expressions.append(contentsOf: [a, b])
        case .unary(_, let a), .cast(let a, _): expressions.append(a)
        case .ternary(let p, let a, let b): predicates.append(p); expressions.append(contentsOf: [a, b])
        case .functionCall(let receiver, let name, let arguments): expressions.append(contentsOf: [receiver, name] + arguments)
        case .subquery(let collection, _, let predicate): expressions.append(collection); predicates.append(predicate)
        case .assignment(_, let value): expressions.append(value)
        }
    }
}

// The binding pass over a whole predicate: every key path in it resolved
// against the model (KeyPathBinder), wherever it sits — inside functions,
// arithmetic, CAST, TERNARY, SUBQUERY predicates (with the variable bound to
// the collection's elements, bare keys to the evaluated object, as Apple
// evaluates a subquery) — and the first key that does not resolve reported.
//
// This is what makes a misspelt key the same bind error (B002 with its "did
// you mean") on every engine: the SQL lowering binds what it lowers with the
// same KeyPathBinder, and what it cannot lower (the residual, which the
// evaluator runs) goes through this pass, which also refuses a to-many path
// compared as a whole (B003) with the lowering's own error; the memory
// engine plans through the same lowering. A key path this pass cannot place — one after a `$x`
// no SUBQUERY binds (a substitution variable), a dynamic `%K` component, a
// key of a computed value — is left to evaluation, as before.
import QuarrySyntax
import QuarryModel

public struct PredicateBinder {
    private let binder: KeyPathBinder
    /// The entity of the evaluated object (SELF and bare keys).
    private let entity: String
    /// SUBQUERY variables in scope, with the entity of their elements.
    private var variables: [String: String]

    public init(binder: KeyPathBinder, entity: String, variables: [String: String] = [:]) {
        self.binder = binder
        self.entity = entity
        self.variables = variables
    }

    public init(model: Model, entity: String) {
        self.init(binder: KeyPathBinder(model: model), entity: entity)
    }

    /// Throws the first bind error among the key paths of `p`, in reading order.
    public func check(_ p: QueryPredicate) throws(Diagnostic) {
        switch p.kind {
        case .constant: return
        case .not(let x): try check(x)
        case .and(let parts), .or(let parts): for part in parts { try check(part) }
        case .comparison(let c):
            try check(c.lhs)
            try check(c.rhs)
            guard c.modifier == .direct else { return }
            // A to-many path compared as a whole (the lowering's rule, with
            // the same error): only membership (CONTAINS, IN) takes one.
            let l = isToMany(c.lhs), r = isToMany(c.rhs)
            if l && !(c.op == .contains && !r) { throw PredicateBinder.toManyWithoutQuantifier(at: c.lhs.span) }
            if r && !(c.op == .in && !l) { throw PredicateBinder.toManyWithoutQuantifier(at: c.rhs.span) }
        }
    }

    /// The error for a to-many key path compared without ANY, ALL or NONE.
    public static func toManyWithoutQuantifier(at span: SourceSpan) -> Diagnostic {
        Diagnostic(.toManyWithoutQuantifier, "a to-many key path compares the whole collection here", at: span,
                   hints: ["use ANY, ALL or NONE before the comparison, or @count"], stage: .bind)
    }

    /// Whether `e` is a key path to the elements of a to-many relationship
    /// (or their attribute), not an aggregate of them.
    private func isToMany(_ e: QueryExpression) -> Bool {
        guard case .keyPath(let base, let path) = e.kind, let start = start(of: base), !isDynamic(path),
              let bound = try? binder.bind(path, from: start, span: e.span), bound.isToMany else { return false }
        switch bound.terminal {
        case .attribute, .object: return true
        case .count, .aggregate: return false
        }
    }

    /// The entity a key path on `base` starts from; nil when it is not one
    /// of the model's (a computed value, an unbound variable).
    private func start(of base: QueryExpression?) -> String? {
        switch base?.kind {
        case nil, .evaluatedObject?: return entity
        case .variable(let name)?: return variables[name]
        case .some: return nil
        }
    }

    /// `$x` and `%K` inside a path are substituted later.
    private func isDynamic(_ path: [String]) -> Bool {
        path.contains(where: { ($0.utf8.first == UInt8(ascii: "$") && $0.hasPrefix("$")) || ($0.utf8.first == UInt8(ascii: "%") && $0.hasPrefix("%")) })
    }

    /// Throws the first bind error among the key paths of `e`.
    public func check(_ e: QueryExpression) throws(Diagnostic) {
        switch e.kind {
        case .keyPath(let base, let path):
            try keyPath(base, path, span: e.span)
        case .binary(_, let l, let r), .setOperation(_, let l, let r):
            try check(l)
            try check(r)
        case .unary(_, let x), .cast(let x, _), .assignment(_, let x), .index(let x, _):
            try check(x)
        case .function(_, let args), .aggregate(let args):
            for a in args { try check(a) }
        case .functionCall(let receiver, _, let args):
            try check(receiver)
            for a in args { try check(a) }
        case .ternary(let p, let a, let b):
            try check(p)
            try check(a)
            try check(b)
        case .subquery(let collection, let variable, let predicate):
            try subquery(collection, variable, predicate)
        case .constant, .evaluatedObject, .variable, .anyKey, .placeholder:
            return
        }
    }

    private func keyPath(_ base: QueryExpression?, _ path: [String], span: SourceSpan) throws(Diagnostic) {
        let start: String
        switch base?.kind {
        case nil, .evaluatedObject?:
            start = entity
        case .variable(let name)?:
            // A substitution variable is bound when the predicate is; its keys
            // are the value's.
            guard let e = variables[name] else { return }
            start = e
        case .some:
            // SUBQUERY(...).@count, or a key of a computed value: only what
            // the base contains binds.
            return try check(base!)
        }
        if isDynamic(path) { return }
        _ = try binder.bind(path, from: start, span: span)
    }

    /// The collection, then the predicate with the variable bound to the
    /// elements of a to-many relationship (other collections bind nothing
    /// further: their elements have no entity).
    private func subquery(_ collection: QueryExpression, _ variable: String, _ predicate: QueryPredicate) throws(Diagnostic) {
        try check(collection)
        guard let element = elementEntity(of: collection) else { return }
        var inner = self
        inner.variables[variable] = element
        try inner.check(predicate)
    }

    /// The entity of the elements of a to-many key path ending at objects.
    private func elementEntity(of collection: QueryExpression) -> String? {
        guard case .keyPath(let base, let path) = collection.kind, let start = start(of: base) else { return nil }
        guard let bound = try? binder.bind(path, from: start, span: collection.span), bound.isToMany,
              case .object(let e) = bound.terminal else { return nil }
        return e
    }
}

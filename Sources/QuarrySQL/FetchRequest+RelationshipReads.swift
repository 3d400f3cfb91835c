// Whether a fetch request reads through a relationship of its entity: a
// context with unsaved changes then evaluates every object of the entity in
// memory, since a changed object of another entity may change the answer
// (Context+Fetching.swift). Decided on the request's syntax trees — the
// predicate, HAVING, the fetched and grouped properties and the sort keys —
// by the key paths in them, against the relationships the model gives the
// entity and its sub-entities. Conservative: a false "yes" only costs an
// in-memory evaluation, a false "no" a wrong answer, so whatever could name
// a key only at run time (`ANYKEY`, a `$variable` or `%K` key, a FUNCTION
// call on an object) counts as a read.
import QuarryModel

extension FetchRequest {
    /// Whether the request names a relationship of its entity (or of a
    /// sub-entity) anywhere, or a key that may be one.
    public func readsRelationships(in model: Model) -> Bool {
        guard let entity = model.entity(named: self.entity) else { return false }
        let names = Set(([entity] + entity.allSubentities(in: model)).flatMap { $0.allRelationships(in: model).map(\.name) })
        let walker = RelationshipReads(relationships: names)
        for sort in sortDescriptors {
            // A sort key that does not parse fails the fetch elsewhere;
            // here it counts as a read.
            guard let key = try? Parser.parseExpression(sort.keyPath), !walker.reads(key) else { return true }
        }
        if let p = predicate, walker.reads(p) { return true }
        if let p = havingPredicate, walker.reads(p) { return true }
        return (propertiesToFetch + propertiesToGroupBy).contains { walker.reads($0.expression) }
    }
}

/// The walk over a predicate's or expression's tree.
struct RelationshipReads {
    /// Names of the relationships a key path component may reach.
    let relationships: Set<String>

    func reads(_ p: QueryPredicate) -> Bool {
        switch p.kind {
        case .constant: return false
        case .not(let q): return reads(q)
        case .and(let ps), .or(let ps): return ps.contains { reads($0) }
        case .comparison(let c): return reads(c.lhs) || reads(c.rhs)
        }
    }

    func reads(_ e: QueryExpression) -> Bool {
        switch e.kind {
        case .constant, .evaluatedObject, .variable, .placeholder:
            return false
        case .anyKey:
            return true
        case .keyPath(let base, let path):
            if let base, reads(base) { return true }
            // Every component, not only the first: a variable's path
            // (`$e.department`) or one past an operator may reach a
            // relationship too. A `$k` or `%K` component is a key known
            // only at run time.
            return path.contains { relationships.contains($0) || $0.hasPrefix("$") || $0.hasPrefix("%") }
        case .index(let base, let subscriptValue):
            if reads(base) { return true }
            if case .expression(let i) = subscriptValue { return reads(i) }
            return false
        case .aggregate(let items):
            return items.contains { reads($0) }
        case .function(_, let arguments):
            return arguments.contains { reads($0) }
        case .binary(_, let a, let b), .setOperation(_, let a, let b), .cast(let a, type: let b):
            return reads(a) || reads(b)
        case .unary(_, let a), .assignment(_, let a):
            return reads(a)
        case .ternary(let p, let a, let b):
            return reads(p) || reads(a) || reads(b)
        case .functionCall(let receiver, let name, let arguments):
            // A method of an object may read anything of it; on a constant
            // receiver it reads only what its arguments name.
            guard case .constant = receiver.kind else { return true }
            return reads(name) || arguments.contains { reads($0) }
        case .subquery(let collection, _, let predicate):
            return reads(collection) || reads(predicate)
        }
    }
}

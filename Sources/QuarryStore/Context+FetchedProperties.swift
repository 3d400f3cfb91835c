// Fetched properties: a query of the model that reads like a to-many
// property. `object["recentOrders"]` (or `fetchedObjects(forKey:)`) runs the
// fetched property's request the first time it is read — its predicate with
// `$FETCH_SOURCE` bound to the object and `$FETCHED_PROPERTY` to a
// description of the property (`name`, `entity`, an empty `userInfo`) — and
// returns objects of the destination entity.
//
// Binding: `$FETCH_SOURCE.path` (and `$FETCHED_PROPERTY.path`) are read from
// the object when the query is made and become constants, so
// `text == $FETCH_SOURCE.smilieText` runs in SQL like `text == 'x'`; what
// SQL cannot say (`self != $FETCH_SOURCE`, a comparison with an object) is
// judged in memory, as any request's residual is. Any other `$VARIABLE` is
// A005 (no value), as for a template.
//
// As in Core Data, the result is cached, not kept up to date: it is what
// the query found on first access (the context's unsaved changes included),
// until `refresh(_:mergeChanges:)` of the object, `reset()`, `rollback()` or
// a save of the context — any save may change what the query selects, so a
// save forgets every cached result (merges from other contexts do not:
// refresh the object to see them). The model holds no sort descriptors for
// fetched properties, so the objects come in row order (saved objects by
// key, then unsaved ones in insertion order) on every engine.
import Foundation

/// Cached results of fetched properties, by object and property name.
struct FetchedPropertyCache {
    private var results: [ObjectID: [String: [ObjectID]]] = [:]

    subscript(id: ObjectID, name: String) -> [ObjectID]? {
        get { results[id]?[name] }
        set { results[id, default: [:]][name] = newValue }
    }

    mutating func forget(_ id: ObjectID) { results[id] = nil }
    mutating func removeAll() { if !results.isEmpty { results.removeAll() } }
}

extension ManagedObject {
    /// The objects a fetched property of this object selects (evaluated on
    /// first access, then cached; see Context+FetchedProperties.swift).
    /// Throws for a key that is not a fetched property of the entity.
    public func fetchedObjects(forKey key: String) throws -> [ManagedObject] {
        let context = try liveContext()
        guard case .fetchedProperty(let f)? = property(key)?.property else {
            throw ContextError.fetchError("\(entity.name) has no fetched property '\(key)'")
        }
        return try context.fetchedPropertyIDs(f, of: self).map { context.object(with: $0) }
    }
}

extension Context {
    /// The IDs a fetched property of `source` selects: cached, or fetched now.
    func fetchedPropertyIDs(_ f: FetchedProperty, of source: ManagedObject) throws -> [ObjectID] {
        if let known = fetchedPropertyCache[source.objectID, f.name] { return known }
        do {
            let ids = try evaluateFetchedProperty(f, of: source).map(\.objectID)
            fetchedPropertyCache[source.objectID, f.name] = ids
            return ids
        } catch {
            lastFaultError = error
            throw error
        }
    }

    /// Runs a fetched property's query for `source` now (no cache), on `engine`.
    public func evaluateFetchedProperty(_ name: String, of source: ManagedObject, engine: FetchEngine = .sql) throws -> [ManagedObject] {
        guard case .fetchedProperty(let f)? = source.property(name)?.property else {
            throw ContextError.fetchError("\(source.entity.name) has no fetched property '\(name)'")
        }
        return try evaluateFetchedProperty(f, of: source, engine: engine)
    }

    func evaluateFetchedProperty(_ f: FetchedProperty, of source: ManagedObject, engine: FetchEngine = .sql) throws -> [ManagedObject] {
        var request = try fetchedPropertyRequest(f, of: source)
        var selected: [ManagedObject]
        if let p = request.predicate, FetchedPropertyBinding.holdsObject(p) {
            // A comparison with an object (`department == $FETCH_SOURCE`)
            // is judged on the context's objects (uniqued: the same object
            // is the same reference); the store gets the conjuncts that
            // hold none, and the whole predicate runs on what it returns.
            let parts = if case .and(let ps) = p.kind { ps } else { [p] }
            let plain = parts.filter { !FetchedPropertyBinding.holdsObject($0) }
            request.predicate = plain.isEmpty ? nil : plain.count == 1 ? plain[0] : QueryPredicate(.and(plain))
            let judge = try Evaluator.compile(p, options: store.evaluationOptions)
            selected = try fetch(request, engine: engine).filter { try judge.evaluate(.object(ObjectReference($0))) }
        } else {
            selected = try fetch(request, engine: engine)
        }
        return selected.sorted { Self.insertionOrder($0.objectID, $1.objectID) }
    }

    /// The request of a fetched property for `source`: its predicate with
    /// the two variables bound and the paths through them read now.
    public func fetchedPropertyRequest(_ f: FetchedProperty, of source: ManagedObject) throws -> FetchRequest {
        guard let predicate = f.predicate else { return FetchRequest(entity: f.destination) }
        let variables: [String: Value] = [
            "FETCH_SOURCE": .object(ObjectReference(source)),
            "FETCHED_PROPERTY": .dictionary(["name": .string(f.name), "entity": .string(f.destination), "userInfo": .dictionary([:])]),
        ]
        return FetchRequest(entity: f.destination, predicate: try FetchedPropertyBinding(options: store.evaluationOptions)
            .predicate(predicate.substituting(variables)))
    }

    /// Forgets the cached fetched properties of one object (refresh) or of all.
    func forgetFetchedProperties(of object: ManagedObject? = nil) {
        if let object { fetchedPropertyCache.forget(object.objectID) } else { fetchedPropertyCache.removeAll() }
    }
}

/// Folds key paths that start at a constant (what `$FETCH_SOURCE.path`
/// became once substituted) into the constant they read, everywhere in a
/// predicate, so that SQL sees a plain value.
final class FetchedPropertyBinding {
    let options: EvaluationOptions
    /// An object constant was met (set by the walk).
    private(set) var metObject = false

    init(options: EvaluationOptions) { self.options = options }

    /// Whether `p` compares with an object constant somewhere.
    static func holdsObject(_ p: QueryPredicate) -> Bool {
        let walk = FetchedPropertyBinding(options: .init())
        _ = try? walk.predicate(p)
        return walk.metObject
    }

    func predicate(_ p: QueryPredicate) throws -> QueryPredicate {
        var out = p
        switch p.kind {
        case .constant: break
        case .not(let q): out.kind = .not(try predicate(q))
        case .and(let ps): out.kind = .and(try ps.map(predicate))
        case .or(let ps): out.kind = .or(try ps.map(predicate))
        case .comparison(var c):
            c.lhs = try expression(c.lhs)
            c.rhs = try expression(c.rhs)
            out.kind = .comparison(c)
        }
        return out
    }

    func expression(_ e: QueryExpression) throws -> QueryExpression {
        var out = e
        switch e.kind {
        case .constant(let v):
            if Self.isObject(v) { metObject = true }
        case .evaluatedObject, .anyKey, .placeholder, .variable: break
        case .keyPath(let base, let path):
            guard let base else { break }
            // A path from a constant (the source object, the property's
            // description) is read now; one from anything else stays.
            guard case .constant(let c) = base.kind else {
                out.kind = .keyPath(base: try expression(base), path: path)
                break
            }
            if path.contains(where: { $0.hasPrefix("$") || $0.hasPrefix("%") }) {
                if Self.isObject(c) { metObject = true }
                break
            }
            let v = try Evaluator.compile(out, options: options).evaluate(.null)
            if Self.isObject(v) { metObject = true }
            out.kind = .constant(v)
        case .index(let b, let sub):
            var s = sub
            if case .expression(let i) = sub { s = .expression(try expression(i)) }
            out.kind = .index(try expression(b), s)
        case .aggregate(let items): out.kind = .aggregate(try items.map(expression))
        case .function(let name, let args): out.kind = .function(name: name, arguments: try args.map(expression))
        case .binary(let op, let a, let b): out.kind = .binary(op, try expression(a), try expression(b))
        case .setOperation(let op, let a, let b): out.kind = .setOperation(op, try expression(a), try expression(b))
        case .unary(let op, let a): out.kind = .unary(op, try expression(a))
        case .ternary(let p, let a, let b): out.kind = .ternary(try predicate(p), try expression(a), try expression(b))
        case .cast(let a, let t): out.kind = .cast(try expression(a), type: try expression(t))
        case .functionCall(let r, let n, let args):
            out.kind = .functionCall(receiver: try expression(r), name: try expression(n), arguments: try args.map(expression))
        case .subquery(let c, let name, let p): out.kind = .subquery(collection: try expression(c), variable: name, predicate: try predicate(p))
        case .assignment(let name, let v): out.kind = .assignment(variable: name, value: try expression(v))
        }
        return out
    }

    private static func isObject(_ v: Value) -> Bool {
        switch v {
        case .object: return true
        case .array(let xs), .set(let xs), .orderedSet(let xs): return xs.contains(where: isObject)
        case .dictionary(let d): return d.values.contains(where: isObject)
        default: return false
        }
    }
}

// Fetched properties in PROPERTIES (`FETCH Department PROPERTIES name,
// wellPaid, wellPaid.@count`): a store's dictionary fetch cannot read them
// (they are queries, not columns), so such a statement fetches the objects
// through a context of its own and evaluates each item on each object,
// where a fetched property runs its query (Context+FetchedProperties.swift).
// A fetched property's cell lists the objects it selected by ID. GROUP BY,
// HAVING and DISTINCT with a fetched property are refused (they would need
// the grouped values in SQL).
import Foundation

extension ShellSession {
    /// Whether any item of `f` reads a fetched property of the entity (its key path's first key).
    func readsFetchedProperty(_ f: FetchStatement, _ entity: Entity, _ model: Model) -> Bool {
        let names = Set(([entity] + entity.ancestors(in: model)).flatMap(\.fetchedProperties).map(\.name))
        guard !names.isEmpty else { return false }
        return (f.properties + f.groupBy).contains { item in
            if case .keyPath(nil, let path) = item.expression.kind, let first = path.first { return names.contains(first) }
            return false
        }
    }

    func fetchPropertiesThroughContext(_ f: FetchStatement, _ base: FetchRequest) throws(ShellError) -> ResultSet {
        if !f.groupBy.isEmpty || f.having != nil || f.distinct {
            throw ShellError(.notSupported, "a fetched property can be listed in PROPERTIES, not grouped, filtered by HAVING or made DISTINCT",
                             at: f.entity.span)
        }
        var items: [(String, CompiledExpression)] = []
        for item in f.properties {
            do {
                items.append((item.name, try Evaluator.compile(try item.expression.substituting(variables))))
            } catch {
                throw ShellError(error)
            }
        }
        let engine = self.engine
        let rows: [[Value]] = try storeCall { s in
            let context = Context(store: s)
            return try context.fetch(base, engine: engine).map { object in
                try items.map { try $0.1.evaluate(.object(ObjectReference(object))) }
            }
        }
        return ResultSet(columns: items.map(\.0), rows: rows)
    }
}

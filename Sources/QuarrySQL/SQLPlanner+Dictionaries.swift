// Dictionary results: the SELECT for `propertiesToFetch`, with GROUP BY,
// HAVING (which may name the fetched properties), DISTINCT, sort keys that
// may be property names, and LIMIT/OFFSET. Rows end ordered by every
// property, so equal sort keys come back in a stable order.
//
// A dictionary fetch runs wholly in SQL or wholly in memory: when any part
// (the predicate's residual, a property, HAVING) cannot be lowered, the
// planner says so and the store evaluates the request in memory instead.
import QuarryModel

/// A planned dictionary fetch.
public struct DictionaryPlan: Sendable {
    /// The SELECT, rendered from `statement`.
    public var sql: SQLFragment
    public var statement: SelectStatement
    /// The result keys, in order.
    public var names: [String]
    /// The attribute type of each result column when known (for decoding).
    public var types: [AttributeType?]
    /// For a column holding a to-one's key, the destination entity: the
    /// store returns the object there, as the evaluator does (Core Data
    /// returns the object ID), not the bare key.
    public var toOne: [String?] = []
}

extension SQLPlanner {
    /// Plans a dictionary fetch; nil when it must run in memory.
    /// B007 for a transient attribute anywhere in it, unless `inMemory`.
    public static func planDictionaries(_ request: FetchRequest, mapping: StoreMapping, now: Double = 0, inMemory: Bool = false) throws(Diagnostic) -> DictionaryPlan? {
        let model = mapping.model
        guard let entity = model.entity(named: request.entity), let table = mapping.table(for: request.entity) else {
            throw Diagnostic(.unknownEntity, "unknown entity '\(request.entity)'", at: .synthesized,
                             hints: Suggestions.closest(to: request.entity, among: model.entityNames).map { ["did you mean '\($0)'?"] } ?? [],
                             stage: .bind)
        }
        try checkGrouping(request, model: model)
        try refuseTransformableSorts(request, mapping: mapping)   // PredicateLowering+Transformable.swift
        let context = LoweringContext(mapping: mapping, now: now)
        let level = context.newLevel(entity: entity.name)
        var lowerer = PredicateLowerer(context: context, level: level)
        do throws(LoweringError) {
            var lowered = LoweredPredicate(condition: nil, residual: nil)
            if let predicate = request.predicate {
                do { lowered = try lowerer.lowerTopLevel(predicate) } catch { throw .bind(error) }
            }
            // With a residual the request runs in memory; the properties are
            // still lowered first, so that one needing a transient is refused
            // (memory would read nil for it from every stored object).
            let residual = lowered.residual != nil
            lowerer.aggregatesOverRows = true
            var selected: [SQLFragment] = []
            var types: [AttributeType?] = []
            var toOne: [String?] = []
            for property in request.propertiesToFetch {
                let o = try lowerer.operand(property.expression)
                guard case .scalar(let f, let type, _) = o else {
                    if case .object(let f, let destination, _) = o {
                        selected.append(f + " AS " + SQLIdentifier.quoted(property.name))
                        types.append(.integer64)
                        toOne.append(destination)
                        lowerer.propertyOperands[property.name] = o
                        continue
                    }
                    return nil
                }
                selected.append(f + " AS " + SQLIdentifier.quoted(property.name))
                types.append(type)
                toOne.append(nil)
                lowerer.propertyOperands[property.name] = o
            }
            var groups: [SQLFragment] = []
            for property in request.propertiesToGroupBy {
                guard case .scalar(let f, _, _) = try lowerer.operand(property.expression) else { return nil }
                groups.append(f)
            }
            var having: SQLFragment?
            if let h = request.havingPredicate { having = try lowerer.condition(h).fragment }
            var orderBy: [SQLFragment] = []
            for sort in request.sortDescriptors {
                let path = sort.keyPath.split(separator: ".").map(String.init)
                guard case .scalar(let f, let type, _) = try lowerer.keyPathOperand(nil, path, span: .synthesized) else { return nil }
                let key = sort.caseInsensitive && (type == .string || type == .uri) ? QuarrySQLFunction.fold.call(f, flags: 1) : f
                orderBy.append(SQLFragment(mapping.dialect.sortKey(key.sql, ascending: sort.ascending), key.arguments))
            }
            if !inMemory { do { try refuseTransients(context) } catch { throw .bind(error) } }
            if residual { return nil }
            orderBy += (1...max(1, selected.count)).map { SQLFragment(mapping.dialect.sortKey("\($0)", ascending: true)) }

            var statement = SelectStatement(items: SelectList(selected), source: TableSource(quotedTable: SQLIdentifier.quoted(table), alias: level.alias),
                                            dialect: mapping.dialect)
            statement.distinct = request.returnsDistinctResults
            statement.joins = level.joins
            statement.joinArguments = level.joinArguments
            statement.condition = SelectCondition(filter: try context.mappedEntity(entity.name).filter(alias: level.alias, includesSubentities: request.includesSubentities),
                                                  conjuncts: lowered.condition.map { [$0] } ?? [])
            statement.groupBy = groups
            statement.having = having
            statement.orderBy = orderBy
            statement.limit = request.fetchLimit
            statement.offset = request.fetchOffset
            return DictionaryPlan(sql: statement.sql, statement: statement, names: request.propertiesToFetch.map(\.name), types: types, toOne: toOne)
        } catch {
            switch error {
            case .bind(let d): throw d
            case .unsupported:
                if !inMemory { try refuseTransients(context) }
                return nil
            }
        }
    }

    /// Whether an expression aggregates over rows in a dictionary fetch of
    /// `entity` (an aggregate function of a key path without to-many steps).
    public static func isRowAggregate(_ e: QueryExpression, entity: String, model: Model) -> Bool {
        guard case .function(let name, let args) = e.kind, args.count == 1, case .keyPath(nil, let path) = args[0].kind else { return false }
        // The store's aggregates (StoreAggregate) and those only the
        // evaluator computes over the fetched rows.
        let bare = name.hasSuffix(":") ? String(name.dropLast()) : name
        guard StoreAggregate(function: name) != nil || ["median", "mode", "stddev"].contains(bare) else { return false }
        guard let bound = try? KeyPathBinder(model: model).bind(path, from: entity, span: .synthesized) else { return false }
        return !bound.isToMany
    }
}

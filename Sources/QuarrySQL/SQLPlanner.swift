// The planner for fetches and counts: the row SELECT with its joins, the WHERE
// condition the predicate lowered to, ORDER BY from the sort descriptors, and
// LIMIT/OFFSET — or, when part of the predicate must run in memory, the
// residual and a limit applied after it. Rows always end with the primary key
// as the last sort key, so equal sort keys come back in a stable order.
import QuarryModel

/// A planned fetch.
public struct FetchPlan: Sendable {
    /// The SELECT for the rows, rendered from `statement`.
    public var sql: SQLFragment
    /// The same SELECT as parts, for variants of it (only the keys, the
    /// same condition in an UPDATE): replace a part and render.
    public var statement: SelectStatement
    /// The columns the SELECT returns after `_pk` and `_entity`: attribute
    /// names (by entity) and to-one foreign keys, in order.
    public var columns: [PlannedColumn]
    /// What memory must still check, if anything.
    public var residual: QueryPredicate?
    /// Limit and offset left to memory because of the residual.
    public var memoryLimit: Int?
    public var memoryOffset: Int
    /// COUNT(*) of the same rows (nil when a residual makes memory count).
    public var countSQL: SQLFragment?
    /// The same rows unsorted, with the sort keys to order them by in
    /// memory, when that gives SQLite's order exactly (SQLPlanner+MemorySort.swift).
    public var memorySort: MemorySortPlan? = nil
}

/// A selected column: an attribute or a to-one relationship's key.
public struct PlannedColumn: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case attribute(AttributeType), toOne(destination: String) }
    public var name: String
    public var kind: Kind
    /// The entities whose `name` this column holds, when two columns of the
    /// select share the name (sibling sub-entities' same-named attributes,
    /// stored apart); nil when it is the only column of that name. A row's
    /// value for the name must come from its own entity's column.
    public var onlyFor: Set<String>? = nil
}

public enum SQLPlanner {
    /// Plans a fetch. Errors are bind diagnostics (unknown entity or key,
    /// to-many without quantifier) located in the predicate's text, and
    /// B007 for a transient attribute, unless `inMemory` (the request is
    /// evaluated in memory: only its bind errors matter).
    public static func plan(_ request: FetchRequest, mapping: StoreMapping, now: Double = 0, inMemory: Bool = false) throws(Diagnostic) -> FetchPlan {
        guard let entity = mapping.mapped.entities[request.entity] else {
            let model = mapping.model
            throw Diagnostic(.unknownEntity, "unknown entity '\(request.entity)'", at: .synthesized,
                             hints: Suggestions.closest(to: request.entity, among: model.entityNames).map { ["did you mean '\($0)'?"] } ?? [],
                             stage: .bind)
        }
        let context = LoweringContext(mapping: mapping, now: now)
        let level = context.newLevel(entity: entity.name)
        let lowerer = PredicateLowerer(context: context, level: level)
        var lowered = LoweredConjuncts()
        if let predicate = request.predicate { lowered = try lowerer.lowerConjuncts(predicate) }

        // Columns: every attribute and to-one key of the entity and its
        // sub-entities, planned once by the mapping.
        let select = entity.select
        try refuseTransformableSorts(request, mapping: mapping)   // PredicateLowering+Transformable.swift

        // ORDER BY keys (before the FROM is written: to-one sort paths add joins).
        var orderBy: [SQLFragment] = []
        orderBy.reserveCapacity(request.sortDescriptors.count + 1)
        var memoryKeys = MemorySortKeys(select: select.list, dialect: mapping.dialect, sorts: request.sortDescriptors.count)
        for sort in request.sortDescriptors {
            let path = sort.keyPath.split(separator: ".").map(String.init)
            let operand: Operand
            do {
                operand = try lowerer.keyPathOperand(nil, path, span: .synthesized)
            } catch {
                if !inMemory { try refuseTransients(context) }
                switch error {
                case .bind(let d): throw d
                case .unsupported where inMemory && !context.transients.isEmpty:
                    // A transient sort key: memory sorts by it, this plan's order is not used.
                    continue
                case .unsupported(let why):
                    throw Diagnostic(.toManyWithoutQuantifier, "cannot sort by '\(sort.keyPath)': \(why)", at: .synthesized, stage: .bind)
                }
            }
            let f: SQLFragment, type: AttributeType?
            switch operand {
            case .scalar(let fragment, let t, _):
                (f, type) = (fragment, t)
            case .object(let fragment, _, _):
                // A to-one sorts by the destination's primary key (its
                // object ID, as Core Data sorts it); nil first.
                (f, type) = (fragment, .integer64)
            default:
                throw Diagnostic(.toManyWithoutQuantifier, "cannot sort by '\(sort.keyPath)': sort keys are attributes reached through to-one relationships",
                                 at: .synthesized, stage: .bind)
            }
            let key = sort.caseInsensitive && (type == .string || type == .uri) ? QuarrySQLFunction.fold.call(SQLFragment(f.sql), flags: 1).sql : f.sql
            orderBy.append(SQLFragment(mapping.dialect.sortKey(key, ascending: sort.ascending)))
            memoryKeys.add(column: f.sql, type: type, ascending: sort.ascending)
        }
        if !inMemory { try refuseTransients(context) }
        // The primary key last: equal sort keys in a stable order.
        orderBy.append(SQLFragment(level.alias + "." + SQLIdentifier.quoted(StoreMapping.primaryKey)))

        var statement = SelectStatement(items: select.list, source: TableSource(quotedTable: entity.quotedTable, alias: level.alias),
                                        dialect: mapping.dialect)
        statement.joins = level.joins
        statement.joinArguments = level.joinArguments
        statement.condition = SelectCondition(filter: entity.filter(alias: level.alias, includesSubentities: request.includesSubentities),
                                              conjuncts: lowered.sql)
        statement.orderBy = orderBy
        var memoryLimit: Int?
        var memoryOffset = 0
        if lowered.residual == nil {
            statement.limit = request.fetchLimit
            statement.offset = request.fetchOffset
        } else {
            memoryLimit = request.fetchLimit
            memoryOffset = request.fetchOffset
        }
        // The COUNT shares everything from FROM to just before ORDER BY; the
        // unsorted rows are everything before the ORDER BY: the renderer
        // copies both out of the one text it writes.
        let sortsInMemory = lowered.residual == nil && request.fetchLimit == nil && request.fetchOffset == 0 && memoryKeys.usable
        let rendered = statement.render(count: lowered.residual == nil, unsorted: sortsInMemory)
        let memorySort = sortsInMemory ? memoryKeys.plan(unsorted: rendered.unsorted!) : nil
        return FetchPlan(sql: rendered.sql, statement: statement, columns: select.columns, residual: lowered.residual, memoryLimit: memoryLimit,
                         memoryOffset: memoryOffset, countSQL: rendered.count, memorySort: memorySort)
    }
}

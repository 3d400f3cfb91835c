// The planner for fetches and counts: the row SELECT with its joins, the WHERE
// condition the predicate lowered to, ORDER BY from the sort descriptors, and
// LIMIT/OFFSET — or, when part of the predicate must run in memory, the
// residual and a limit applied after it. Rows always end with the primary key
// as the last sort key, so equal sort keys come back in a stable order.
import QuarryModel

/// A planned fetch.
public struct FetchPlan: Sendable {
    /// The SELECT for the rows.
    public var sql: SQLFragment
    /// The columns the SELECT returns after `_pk` and `_entity`: attribute
    /// names (by entity) and to-one foreign keys, in order.
    public var columns: [PlannedColumn]
    /// What memory must still check, if anything.
    public var residual: QuarrySyntax.Predicate?
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
    /// to-many without quantifier) located in the predicate's text.
    public static func plan(_ request: FetchRequest, mapping: StoreMapping, now: Double = 0) throws(Diagnostic) -> FetchPlan {
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

        // ORDER BY keys (before the FROM is written: to-one sort paths add joins).
        var sortKeys: [String] = []
        var memoryKeys = MemorySortKeys(select: select.sql, dialect: mapping.dialect, sorts: request.sortDescriptors.count)
        for sort in request.sortDescriptors {
            let path = sort.keyPath.split(separator: ".").map(String.init)
            let operand: Operand
            do {
                operand = try lowerer.keyPathOperand(nil, path, span: .synthesized)
            } catch {
                switch error {
                case .bind(let d): throw d
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
            let key = sort.caseInsensitive && (type == .string || type == .uri) ? "quarry_fold(\(f.sql), 1)" : f.sql
            sortKeys.append(mapping.dialect.sortKey(key, ascending: sort.ascending))
            memoryKeys.add(column: f.sql, type: type, ascending: sort.ascending)
        }

        // The text in one buffer; the COUNT shares everything from FROM to
        // just before ORDER BY, cut out of it afterwards.
        var sql = SQLText(capacity: 32 + select.sql.utf8.count + level.joins.reduce(0) { $0 + $1.utf8.count + 1 }
                                       + lowered.length + 64)
        sql.appendLiteral("SELECT ")
        sql.append(select.sql)
        sql.appendLiteral(" ")
        let fromStart = sql.count
        sql.appendLiteral("FROM ")
        sql.append(entity.quotedTable)
        sql.appendLiteral(" ")
        sql.append(level.alias)
        for join in level.joins {
            sql.appendLiteral(" ")
            sql.append(join)
        }
        sql.appendArguments(level.joinArguments)
        let filter = entity.filter(alias: level.alias)
        if filter != nil || !lowered.sql.isEmpty { sql.appendLiteral(" WHERE ") }
        if let filter { sql.append(filter) }
        if !lowered.sql.isEmpty {
            if filter != nil {
                sql.appendLiteral(" AND (")
                lowered.write(to: &sql)
                sql.appendLiteral(")")
            } else {
                lowered.write(to: &sql)
            }
        }
        let fromEnd = sql.count
        let countArguments = sql.arguments
        sql.appendLiteral(" ORDER BY ")
        for key in sortKeys {
            sql.append(key)
            sql.appendLiteral(", ")
        }
        sql.append(level.alias)
        sql.appendLiteral(#"."_pk""#)
        var memoryLimit: Int?
        var memoryOffset = 0
        if lowered.residual == nil {
            if let limit = request.fetchLimit {
                sql.appendLiteral(" LIMIT ? OFFSET ?")
                sql.appendArguments([.int(Int64(limit)), .int(Int64(request.fetchOffset))])
            } else if request.fetchOffset > 0 {
                sql.appendLiteral(" ")
                sql.append(mapping.dialect.noLimit)
                sql.appendLiteral(" OFFSET ?")
                sql.appendArguments([.int(Int64(request.fetchOffset))])
            }
        } else {
            memoryLimit = request.fetchLimit
            memoryOffset = request.fetchOffset
        }
        let count: SQLFragment? = lowered.residual == nil
            ? SQLFragment(sql.string(fromStart..<fromEnd, after: "SELECT COUNT(*) "), countArguments) : nil
        // Unsorted, the same rows: everything before the ORDER BY.
        let memorySort = lowered.residual == nil && request.fetchLimit == nil && request.fetchOffset == 0
            ? memoryKeys.plan(unsorted: SQLFragment(sql.string(0..<fromEnd, after: ""), countArguments)) : nil
        return FetchPlan(sql: sql.fragment, columns: select.columns, residual: lowered.residual, memoryLimit: memoryLimit,
                         memoryOffset: memoryOffset, countSQL: count, memorySort: memorySort)
    }
}

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
}

/// A selected column: an attribute or a to-one relationship's key.
public struct PlannedColumn: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case attribute(AttributeType), toOne(destination: String) }
    public var name: String
    public var kind: Kind
}

public enum SQLPlanner {
    /// Plans a fetch. Errors are bind diagnostics (unknown entity or key,
    /// to-many without quantifier) located in the predicate's text.
    public static func plan(_ request: FetchRequest, mapping: StoreMapping, now: Double = 0) throws(Diagnostic) -> FetchPlan {
        let model = mapping.model
        guard let entity = model.entity(named: request.entity), let table = mapping.table(for: request.entity) else {
            throw Diagnostic(.unknownEntity, "unknown entity '\(request.entity)'", at: .synthesized,
                             hints: Suggestions.closest(to: request.entity, among: model.entityNames).map { ["did you mean '\($0)'?"] } ?? [],
                             stage: .bind)
        }
        let context = LoweringContext(mapping: mapping, now: now)
        let level = context.newLevel(entity: entity.name)
        let lowerer = PredicateLowerer(context: context, level: level)
        var lowered = LoweredPredicate(condition: nil, residual: nil)
        if let predicate = request.predicate { lowered = try lowerer.lowerTopLevel(predicate) }

        // Columns: every attribute and to-one key of the entity and its
        // sub-entities, planned once by the mapping.
        guard let select = mapping.rowSelect(for: entity.name) else {
            throw Diagnostic(.unknownEntity, "unknown entity '\(request.entity)'", at: .synthesized, stage: .bind)
        }
        let columns = select.columns

        // ORDER BY, with joins for to-one sort paths.
        var orderBy: [String] = []
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
            guard case .scalar(let f, let type, _) = operand else {
                throw Diagnostic(.toManyWithoutQuantifier, "cannot sort by '\(sort.keyPath)': sort keys are attributes reached through to-one relationships",
                                 at: .synthesized, stage: .bind)
            }
            let key = sort.caseInsensitive && (type == .string || type == .uri) ? "quarry_fold(\(f.sql), 1)" : f.sql
            orderBy.append(mapping.dialect.sortKey(key, ascending: sort.ascending))
        }
        orderBy.append(lowerer.pk(level.alias))

        var from = SQLFragment("FROM \(SQLIdentifier.quoted(table)) \(level.alias)")
        if !level.joins.isEmpty { from = from + " " + SQLFragment(level.joins.joined(separator: " "), level.joinArguments) }
        var conditions: [SQLFragment] = []
        if let filter = context.entityFilter(entity.name, alias: level.alias) { conditions.append(filter) }
        if let c = lowered.condition { conditions.append(conditions.isEmpty ? c : "(" + c + ")") }
        var whereClause = SQLFragment("")
        if !conditions.isEmpty { whereClause = " WHERE " + SQLFragment.join(conditions, " AND ") }

        var sql = "SELECT " + select.sql + " " + from + whereClause
        sql = sql + " ORDER BY " + orderBy.joined(separator: ", ")
        var memoryLimit: Int?
        var memoryOffset = 0
        if lowered.residual == nil {
            if let limit = request.fetchLimit {
                sql = sql + SQLFragment(" LIMIT ? OFFSET ?", [.int(Int64(limit)), .int(Int64(request.fetchOffset))])
            } else if request.fetchOffset > 0 {
                sql = sql + SQLFragment(" \(mapping.dialect.noLimit) OFFSET ?", [.int(Int64(request.fetchOffset))])
            }
        } else {
            memoryLimit = request.fetchLimit
            memoryOffset = request.fetchOffset
        }
        let count: SQLFragment? = lowered.residual == nil ? "SELECT COUNT(*) " + from + whereClause : nil
        return FetchPlan(sql: sql, columns: columns, residual: lowered.residual, memoryLimit: memoryLimit,
                         memoryOffset: memoryOffset, countSQL: count)
    }
}

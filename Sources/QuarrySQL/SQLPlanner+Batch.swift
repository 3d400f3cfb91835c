// Plans for batch requests: the keys of the rows a predicate selects, and a
// single UPDATE that sets attributes to constants or expressions of the row
// (`salary * 1.1`, `now()`). When a part cannot run in SQL (a residual, a SET
// expression through a relationship), the planner returns nil and the store
// does the same work object by object in one transaction.
import QuarryModel

extension SQLPlanner {
    /// The rows `predicate` selects, as a statement to select from, update
    /// or delete with (its joins and condition); nil when a residual means
    /// memory must decide. Unordered: the callers want the set of rows.
    public static func planSelection(entity: String, predicate: QueryPredicate?, mapping: StoreMapping, now: Double = 0) throws(Diagnostic) -> SelectStatement? {
        let plan = try plan(FetchRequest(entity: entity, predicate: predicate), mapping: mapping, now: now)
        guard plan.residual == nil else { return nil }
        return plan.statement.unordered()
    }

    /// `SELECT _entity, _pk` of the rows `predicate` selects; nil when a
    /// residual means memory must decide.
    public static func planKeys(entity: String, predicate: QueryPredicate?, mapping: StoreMapping, now: Double = 0) throws(Diagnostic) -> SQLFragment? {
        try planSelection(entity: entity, predicate: predicate, mapping: mapping, now: now)?
            .selecting(columns: [StoreMapping.entityColumn, StoreMapping.primaryKey]).sql
    }

    /// One UPDATE for a batch update; nil when it must run object by object.
    /// Errors: unknown entity or attribute (with a suggestion), a relationship
    /// in `set`, a constant of the wrong type.
    public static func planUpdate(entity entityName: String, predicate: QueryPredicate?, set: [(String, QueryExpression)],
                                  mapping: StoreMapping, now: Double = 0) throws(Diagnostic) -> SQLFragment? {
        let model = mapping.model
        guard let entity = model.entity(named: entityName), let table = mapping.table(for: entityName) else {
            throw Diagnostic(.unknownEntity, "unknown entity '\(entityName)'", at: .synthesized,
                             hints: Suggestions.closest(to: entityName, among: model.entityNames).map { ["did you mean '\($0)'?"] } ?? [],
                             stage: .bind)
        }
        for (key, expression) in set {
            // A transient has no column to set (it was `SET  WHERE`, a SQL syntax error).
            if let a = entity.attribute(named: key, in: model), a.isTransient {
                var refusal = transientError(entity: entityName, attribute: key)
                refusal.span = expression.span
                refusal.hints = ["a batch update writes the store; set a transient attribute on the context's objects"]
                throw refusal
            }
            guard entity.attribute(named: key, in: model) != nil else {
                let names = entity.allAttributes(in: model).map(\.name)
                throw Diagnostic(.unknownKeyInModel, "\(entityName) has no attribute '\(key)' to set", at: expression.span,
                                 hints: Suggestions.closest(to: key, among: names).map { ["did you mean '\($0)'?"] } ?? [], stage: .bind)
            }
        }
        guard let selection = try planSelection(entity: entityName, predicate: predicate, mapping: mapping, now: now) else { return nil }
        let context = LoweringContext(mapping: mapping, now: now)
        let level = context.newLevel(entity: entityName)
        let lowerer = PredicateLowerer(context: context, level: level)
        var assignments: [SQLFragment] = []
        for (key, expression) in set {
            let attribute = entity.attribute(named: key, in: model)!
            // A transformable's value is its transformer's bytes, which only
            // the store makes: set object by object (StoreValues+Transformable.swift).
            // So is a binary value that may go to a file (PredicateLowering+ExternalBinary.swift).
            if attribute.keepsValueOutsideSQL { return nil }
            guard let column = mapping.column(for: key, of: entityName) else { return nil }
            let operand: Operand
            do { operand = try lowerer.operand(expression) } catch {
                switch error {
                case .bind(let d): throw d
                case .unsupported: return nil
                }
            }
            switch operand {
            case .constant(let v):
                guard TypeRule.compatible(v, attribute.type) else {
                    throw Diagnostic(.bindTypeMismatch, "\(entityName).\(key) holds \(attribute.type.rawValue), not \(v.typeName)",
                                     at: expression.span, stage: .bind)
                }
                assignments.append(SQLFragment("\(SQLIdentifier.quoted(column)) = ?", [PredicateLowerer.bindable(v)]))
            case .scalar(let f, let type, _):
                if let type, !TypeRule.sameFamily(type, attribute.type) {
                    throw Diagnostic(.bindTypeMismatch, "\(entityName).\(key) holds \(attribute.type.rawValue), not \(type.rawValue)",
                                     at: expression.span, stage: .bind)
                }
                assignments.append("\(SQLIdentifier.quoted(column)) = " + f)
            default:
                return nil
            }
        }
        // SET expressions that needed joins cannot run in a single UPDATE.
        if !level.joins.isEmpty || assignments.isEmpty { return nil }
        let alias = selection.source.alias
        // Every row written gets a new version (StoreMapping+Versions.swift).
        if let bump = mapping.versionIncrement(alias: alias) { assignments.append(SQLFragment(bump)) }
        let update = "UPDATE \(SQLIdentifier.quoted(table)) AS \(alias) SET " + SQLFragment.join(assignments, ", ")
        // Without joins the selection's WHERE applies to the UPDATE directly
        // (as fast as a hand-written UPDATE); with joins, through the keys.
        if selection.joins.isEmpty { return update + selection.whereClause }
        let key = selection.qualified(StoreMapping.primaryKey)
        return update + " WHERE \(key) IN (" + selection.selecting(columns: [StoreMapping.primaryKey]).sql + ")"
    }
}

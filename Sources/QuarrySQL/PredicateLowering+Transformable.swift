// Transformable attributes in predicates and sorts. Their columns hold a
// transformer's bytes (a keyed archive, JSON, …), which SQL cannot compare
// meaningfully: `tags CONTAINS 'a'` against an archive's bytes, or an
// ORDER BY of them, would be a silent wrong answer. The policy, the same on
// SQLite and PostgreSQL:
//
// - `x == nil` / `x != nil` (x a key path to the attribute, nothing
//   applied to it) lower to `IS NULL` / `IS NOT NULL`: nil is stored as NULL.
// - Any other use in a predicate (a comparison, IN, CONTAINS, a string
//   operator, a function or arithmetic on it, an aggregate over it, a
//   quantifier over a to-many path ending at it) does not become SQL: it is
//   `LoweringError.unsupported`, so its conjunct is the residual that the
//   store evaluates in memory on the decoded values of the rows the SQL part
//   returns — the memory engine's answer by construction (Core Data's SQL
//   store refuses these; Quarry answers them, more slowly).
// - A sort by a transformable is refused (B004) on every engine, the memory
//   engine included: Core Data has no order for archived objects, and an
//   order made up for arrays or dictionaries would be one nobody can rely on.
//   Dictionary results follow the same rules (properties and groups by a
//   transformable run in memory, sorts are refused).
import QuarryModel

extension PredicateLowerer {
    /// The operand of one side of a comparison: a plain key path compared
    /// with nil may reach a transformable attribute (only its NULL-ness is tested).
    func comparisonOperand(_ c: Comparison, _ e: QueryExpression, other: QueryExpression) throws(LoweringError) -> Operand {
        guard c.modifier == .direct, c.op == .equal || c.op == .notEqual, case .constant(let v) = other.kind, v.isNull,
              case .keyPath(let base, _) = e.kind, Self.startsAtRow(base) else {
            return try operand(e)
        }
        let outer = context.nilTestedKeyPath
        context.nilTestedKeyPath = true
        defer { context.nilTestedKeyPath = outer }
        return try operand(e)
    }

    private static func startsAtRow(_ base: QueryExpression?) -> Bool {
        guard let base else { return true }
        switch base.kind {
        case .evaluatedObject, .variable: return true
        default: return false
        }
    }

    /// `.unsupported` for a transformable attribute unless the comparison
    /// being lowered is a nil test of it (`nilTestable`: the key path has
    /// no suffix and ends at the attribute itself).
    func refuseTransformable(_ a: Attribute, of entity: String, nilTestable: Bool) throws(LoweringError) {
        // External binary storage follows the same policy (PredicateLowering+ExternalBinary.swift).
        guard a.keepsValueOutsideSQL else { return }
        if nilTestable && context.nilTestedKeyPath { return }
        throw .unsupported("\(entity).\(a.name) \(a.outsideSQLReason): SQL only tests it against nil; memory compares its decoded value")
    }
}

extension SQLPlanner {
    /// B004 for a sort key ending at a transformable attribute (on every
    /// engine: see the top of this file). Keys that do not bind are left
    /// to the planner's own errors.
    public static func refuseTransformableSorts(_ request: FetchRequest, mapping: StoreMapping) throws(Diagnostic) {
        guard mapping.model.entities.contains(where: { $0.attributes.contains { $0.keepsValueOutsideSQL } }) else { return }
        let binder = KeyPathBinder(index: mapping.mapped)
        for sort in request.sortDescriptors {
            let path = sort.keyPath.split(separator: ".").map(String.init)
            guard let bound = try? binder.bind(path, from: request.entity, span: .synthesized) else { continue }
            let attribute: Attribute, owner: String
            switch bound.terminal {
            case .attribute(let a, let e): (attribute, owner) = (a, e)
            case .aggregate(_, let a, let e): (attribute, owner) = (a, e)
            default: continue
            }
            guard attribute.keepsValueOutsideSQL else { continue }
            let why = attribute.type == .transformable ? "is transformable, and its encoded values have no order"
                                                       : attribute.outsideSQLReason + ", which has no order"
            throw Diagnostic(.bindTypeMismatch,
                             "cannot sort by '\(sort.keyPath)': \(owner).\(attribute.name) \(why)",
                             at: .synthesized,
                             hints: ["sort by another attribute, or sort the fetched objects yourself by the decoded value"],
                             stage: .bind)
        }
    }
}

// To-many paths: quantifiers (ANY, ALL, NONE) become EXISTS / NOT EXISTS over
// a correlated subquery; @count, @sum, @avg, @min, @max and the aggregate
// functions become scalar subqueries; SUBQUERY(...).@count becomes a counting
// subquery with the variable bound to its rows. Any number of these may appear
// in one predicate (Core Data allows one to-many operator per query).
//
// Further to-many hops after the first are flattened with inner joins, which
// is what the evaluator does when it maps a key over nested collections.
import QuarryModel

extension PredicateLowerer {
    /// Walks a to-many path into a subquery level: returns the level, its
    /// correlation to the outer row, and the alias and entity the steps reach.
    func collectionLevel(_ bound: BoundPath, from alias: String, entity: String)
        throws(LoweringError) -> (QueryLevel, SQLFragment, String, String) {
        var current = alias
        var currentEntity = entity
        var level: QueryLevel?
        var correlation = SQLFragment("")
        for step in bound.steps {
            if let inner = level {
                current = step.isToMany
                    ? try context.joinToMany(in: inner, from: current, entity: currentEntity, relationship: step.relationship)
                    : try context.joinToOne(from: current, entity: currentEntity, relationship: step.relationship)
            } else if step.isToMany {
                let (inner, corr) = try context.toManyLevel(from: current, entity: currentEntity, relationship: step.relationship)
                level = inner
                correlation = corr
                current = inner.alias
            } else {
                current = try context.joinToOne(from: current, entity: currentEntity, relationship: step.relationship)
            }
            currentEntity = step.destination
        }
        guard let level else { throw .unsupported("not a to-many path") }
        return (level, correlation, current, currentEntity)
    }

    /// The element each row of the collection stands for.
    func element(_ bound: BoundPath, alias: String) throws(LoweringError) -> Operand {
        switch bound.terminal {
        case .attribute(let a, let owner):
            guard let column = column(a.name, of: owner, alias: alias) else { throw .unsupported("transient attribute") }
            return .scalar(SQLFragment(column), type: a.type, nullable: true)
        case .object(let e):
            return .object(SQLFragment(pk(alias)), entity: e, nullable: false)
        default:
            throw .unsupported("collection operator inside a quantifier")
        }
    }

    /// ANY / ALL / NONE of `test` over the collection a to-many path reaches.
    func quantified(_ bound: BoundPath, from alias: String, entity: String, _ modifier: ComparisonModifier,
                    _ test: (Operand, PredicateLowerer) throws(LoweringError) -> SQLCondition) throws(LoweringError) -> SQLCondition {
        let (level, correlation, elementAlias, _) = try collectionLevel(bound, from: alias, entity: entity)
        let inner = PredicateLowerer(context: context, level: level, variables: variables)
        let condition = try test(try element(bound, alias: elementAlias), inner)
        switch modifier {
        case .all:
            // No element fails the test (a NULL outcome counts as failing).
            let failing = condition.nullable ? "(" + condition.fragment + ") IS NOT TRUE" : "NOT (" + condition.fragment + ")"
            return SQLCondition(fragment: "NOT EXISTS " + context.subquery(level, select: "1", correlation: correlation, condition: failing),
                                nullable: false)
        case .none:
            return SQLCondition(fragment: "NOT EXISTS " + context.subquery(level, select: "1", correlation: correlation, condition: condition.fragment),
                                nullable: false)
        default:
            return SQLCondition(fragment: "EXISTS " + context.subquery(level, select: "1", correlation: correlation, condition: condition.fragment),
                                nullable: false)
        }
    }

    /// @count / @sum / @avg / @min / @max as a scalar subquery. @sum of no
    /// values is 0 and @avg of none is nil, as in the evaluator.
    func aggregate(_ bound: BoundPath, from alias: String, entity: String) throws(LoweringError) -> Operand {
        let (level, correlation, elementAlias, _) = try collectionLevel(bound, from: alias, entity: entity)
        let select: String
        let type: AttributeType?
        var nullable = false
        switch bound.terminal {
        case .count:
            select = "COUNT(*)"
            type = .integer64
        case .aggregate(let op, let attribute, let owner):
            guard attribute.type.isNumeric || attribute.type == .date || (attribute.type == .string && (op == "min" || op == "max")) else {
                throw .unsupported("@\(op) of \(attribute.type.rawValue)")
            }
            guard let c = column(attribute.name, of: owner, alias: elementAlias) else { throw .unsupported("transient attribute") }
            switch op {
            case "sum": select = context.dialect.sum(c, integer: attribute.type.isInteger)
            case "avg": select = context.dialect.average(c); nullable = true
            case "min": select = "MIN(\(c))"; nullable = true
            default: select = "MAX(\(c))"; nullable = true
            }
            type = op == "avg" ? .double : attribute.type
        default:
            throw .unsupported("aggregate")
        }
        return .scalar(context.subquery(level, select: select, correlation: correlation, condition: nil), type: type, nullable: nullable)
    }

    /// SUBQUERY(collection, $x, predicate).@count
    func subqueryCount(_ collection: Expression, _ variable: String, _ predicate: Predicate, span: SourceSpan) throws(LoweringError) -> Operand {
        guard case .toMany(let bound, let alias, let entity) = try operand(collection), case .object = bound.terminal else {
            throw .unsupported("SUBQUERY over something other than a to-many relationship")
        }
        let (level, correlation, elementAlias, elementEntity) = try collectionLevel(bound, from: alias, entity: entity)
        var scope = variables
        scope[variable] = VariableBinding(alias: elementAlias, entity: elementEntity)
        let inner = PredicateLowerer(context: context, level: level, variables: scope)
        let condition = try inner.condition(predicate)
        return .scalar(context.subquery(level, select: "COUNT(*)", correlation: correlation, condition: condition.fragment),
                       type: .integer64, nullable: false)
    }
}

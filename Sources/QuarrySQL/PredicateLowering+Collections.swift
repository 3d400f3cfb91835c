// To-many paths: quantifiers (ANY, ALL, NONE) become EXISTS / NOT EXISTS over
// a correlated subquery; @count, @sum, @avg, @min, @max and the aggregate
// functions become scalar subqueries (through a to-one, both are computed
// once per owner instead: PredicateLowering+Decorrelation.swift); SUBQUERY(...).@count becomes a counting
// subquery with the variable bound to its rows. Any number of these may appear
// in one predicate (Core Data allows one to-many operator per query).
//
// Further to-many hops after the first are flattened with inner joins, which
// is what the evaluator does when it maps a key over nested collections.
import QuarryModel

/// A to-many path walked into a subquery level.
struct CollectionLevel {
    var hop: ToManyHop
    /// The alias and entity the whole path reaches (the elements).
    var elementAlias: String
    var elementEntity: String
    /// Whether to-one steps came before the first to-many hop
    /// (`department.employees`): then many outer rows share one collection,
    /// and the collection is nil when the to-one is.
    var throughToOne: Bool
    /// Whether every owner that is not nil has at least one element: the
    /// path is a to-one and its own inverse (`department.employees`, which
    /// holds the row it started from). Then a missing group means a nil
    /// owner, and a count or sum needs no COALESCE (which would hide from
    /// the engines that the outer join can be an inner one).
    var ownerHasElements = false

    var level: QueryLevel { hop.level }
    var correlation: SQLFragment { hop.correlation }
}

extension PredicateLowerer {
    /// Walks a to-many path into a subquery level: the level, its
    /// correlation to the outer row, and the alias and entity the steps reach.
    func collectionLevel(_ bound: BoundPath, from alias: String, entity: String) throws(LoweringError) -> CollectionLevel {
        var current = alias
        var currentEntity = entity
        var hop: ToManyHop?
        var throughToOne = false
        let firstToMany = bound.steps.firstIndex { $0.isToMany }
        for (i, step) in bound.steps.enumerated() {
            if let inner = hop?.level {
                current = step.isToMany
                    ? try context.joinToMany(in: inner, from: current, entity: currentEntity, relationship: step.relationship)
                    : try context.joinToOne(from: current, entity: currentEntity, relationship: step.relationship)
            } else if step.isToMany {
                let made = try context.toManyLevel(outerKey: pk(current), entity: currentEntity, relationship: step.relationship)
                hop = made
                current = made.level.alias
            } else {
                throughToOne = true
                // The to-one right before the to-many, stored as a foreign
                // key: the key is the destination's identity, no join needed
                // (as toOnePath does for a path ending at a to-one).
                if i + 1 == firstToMany, case .foreignKey(let column)? = context.mapped.entities[currentEntity]?.keys[step.relationship]?.storage {
                    let next = bound.steps[i + 1]
                    let made = try context.toManyLevel(outerKey: "\(current).\(SQLIdentifier.quoted(column))", entity: step.destination,
                                                       relationship: next.relationship)
                    hop = made
                    current = made.level.alias
                    currentEntity = next.destination
                    var path = try rest(bound, after: i + 2, hop: made, current: current, currentEntity: currentEntity, throughToOne: true)
                    path.ownerHasElements = i == 0 && bound.steps.count == 2 && isInverse(step, next)
                    return path
                }
                current = try context.joinToOne(from: current, entity: currentEntity, relationship: step.relationship)
            }
            currentEntity = step.destination
        }
        guard let hop else { throw .unsupported("not a to-many path") }
        return CollectionLevel(hop: hop, elementAlias: current, elementEntity: currentEntity, throughToOne: throughToOne)
    }

    /// Whether `back` is the inverse of the to-one `step` (either side may
    /// name the other).
    func isInverse(_ step: PathStep, _ back: PathStep) -> Bool {
        let model = context.model
        guard back.destination == step.source || model.entity(named: step.source)?.isKind(of: back.destination, in: model) == true
        else { return false }
        let forward = model.entity(named: step.source)?.relationship(named: step.relationship, in: model)
        let backward = model.entity(named: back.source)?.relationship(named: back.relationship, in: model)
        return forward?.inverse == back.relationship || backward?.inverse == step.relationship
    }

    /// The steps after the first to-many hop, joined inside its level.
    private func rest(_ bound: BoundPath, after index: Int, hop: ToManyHop, current: String, currentEntity: String,
                      throughToOne: Bool) throws(LoweringError) -> CollectionLevel {
        var current = current
        var currentEntity = currentEntity
        for step in bound.steps[index...] {
            current = step.isToMany
                ? try context.joinToMany(in: hop.level, from: current, entity: currentEntity, relationship: step.relationship)
                : try context.joinToOne(from: current, entity: currentEntity, relationship: step.relationship)
            currentEntity = step.destination
        }
        return CollectionLevel(hop: hop, elementAlias: current, elementEntity: currentEntity, throughToOne: throughToOne)
    }

    /// The element each row of the collection stands for.
    func element(_ bound: BoundPath, alias: String) throws(LoweringError) -> Operand {
        switch bound.terminal {
        case .attribute(let a, let owner):
            guard let column = column(a.name, of: owner, alias: alias) else {
                context.transients.append((owner, a.name))
                throw .unsupported("transient attribute")
            }
            try refuseTransformable(a, of: owner, nilTestable: false)
            if bound.suffix.isEmpty { return .scalar(SQLFragment(column), type: a.type, nullable: true) }
            let (sql, type) = try converted(column, type: a.type, suffix: bound.suffix)
            return .scalar(SQLFragment(sql), type: type, nullable: true)
        case .object(let e):
            return .object(SQLFragment(pk(alias)), entity: e, nullable: false)
        default:
            throw .unsupported("collection operator inside a quantifier")
        }
    }

    /// ANY / ALL / NONE of `test` over the collection a to-many path reaches.
    func quantified(_ bound: BoundPath, from alias: String, entity: String, _ modifier: ComparisonModifier,
                    _ test: (Operand, PredicateLowerer) throws(LoweringError) -> SQLCondition) throws(LoweringError) -> SQLCondition {
        let path = try collectionLevel(bound, from: alias, entity: entity)
        let level = path.level
        let inner = PredicateLowerer(context: context, level: level, variables: variables)
        let condition = try test(try element(bound, alias: path.elementAlias), inner)
        // No element fails the test (a NULL outcome counts as failing).
        let failing = condition.nullable ? "(" + condition.fragment + ") IS NOT TRUE" : "NOT (" + condition.fragment + ")"
        let tested = modifier == .all ? failing : condition.fragment
        if let decorrelated = decorrelatedQuantifier(path, modifier, tested) { return decorrelated }
        let exists = context.subquery(level, select: "1", correlation: path.correlation, condition: tested)
        return SQLCondition(fragment: (modifier == .any ? "EXISTS " : "NOT EXISTS ") + exists, nullable: false)
    }

    /// @count / @sum / @avg / @min / @max as a scalar subquery (or, through
    /// a to-one, a grouped derived table: AggregateDecorrelation.swift). @sum
    /// of no values is 0; @avg of none is nil and counts a nil element as 0
    /// (Apple's KVC), where the function average: skips nil (SQL's AVG).
    /// `isOperator`: a collection operator, whose collection through a nil
    /// to-one is nil and so is its @count and @sum; the functions count:
    /// and sum: see no elements there and answer 0 (Builtins.items).
    func aggregate(_ bound: BoundPath, from alias: String, entity: String, isOperator: Bool = true) throws(LoweringError) -> Operand {
        let path = try collectionLevel(bound, from: alias, entity: entity)
        let select: String
        let type: AttributeType?
        let nullable: Bool
        switch bound.terminal {
        case .count:
            select = "COUNT(*)"
            type = .integer64
            nullable = false
        case .aggregate(let op, let attribute, let owner):
            guard let raw = column(attribute.name, of: owner, alias: path.elementAlias) else {
                context.transients.append((owner, attribute.name))
                throw .unsupported("transient attribute")
            }
            try refuseTransformable(attribute, of: owner, nilTestable: false)
            let (c, valueType) = try converted(raw, type: attribute.type, suffix: bound.suffix)
            (select, type, nullable) = try aggregateSelect(op, of: c, type: valueType, overflowFallsBack: integerSumsMayFail)
        default:
            throw .unsupported("aggregate")
        }
        let zeroWhenEmpty = !nullable
        // Through a to-one that is nil, an operator's collection is nil and
        // so is its count or sum (the evaluator: `nil.employees.@count` is nil).
        let nilWithoutOwner = path.throughToOne && isOperator && zeroWhenEmpty
        if let decorrelated = decorrelatedAggregate(path, select: select, zeroWhenEmpty: zeroWhenEmpty, nilWithoutOwner: nilWithoutOwner,
                                                    type: type) { return decorrelated }
        let subquery = context.subquery(path.level, select: select, correlation: path.correlation, condition: nil)
        if nilWithoutOwner { return .scalar(nilWhenNoOwner(path.hop, subquery), type: type, nullable: true) }
        return .scalar(subquery, type: type, nullable: nullable)
    }

    /// The SQL of `op` over the values of column `c`, shared by a to-many's
    /// collection operators and a dictionary fetch's aggregates over rows,
    /// so both refuse what the evaluator computes differently. Dates and
    /// strings are ordered but not added: the evaluator raises on their sum
    /// or average (E001), so only @min and @max of them run in SQL (SQLite
    /// would add text as 0 and dates as seconds). An Integer 64 sum can
    /// overflow, which SQLite reports as an error and PostgreSQL's BIGINT
    /// cast too, where the evaluator answers the nearest double: the
    /// evaluator decides it (found by the random-model fuzzer). The
    /// evaluator adds floating-point values with compensation
    /// (Aggregates.total), in element order; SQL's SUM and AVG add them in
    /// an order of their own, without: `[1e300, 0.1, -1e300]` sums to 0.1 in
    /// one and 0 in the other. Their sums and averages run in memory.
    ///
    /// `overflowFallsBack`: the caller reruns the request in memory when the
    /// database reports an overflow (a dictionary fetch does:
    /// `SQLDatabase.isArithmeticOverflow`), so an Integer 64 sum may run.
    func aggregateSelect(_ op: StoreAggregate, of c: String, type valueType: AttributeType,
                         overflowFallsBack: Bool = false) throws(LoweringError)
        -> (select: String, type: AttributeType, nullable: Bool) {
        let ordered = op == .min || op == .max
        guard valueType.isNumeric || ((valueType == .date || valueType == .string) && ordered) else {
            throw .unsupported("\(op.spelling) of \(valueType.rawValue)")
        }
        if op == .sum && valueType == .integer64 && !overflowFallsBack { throw .unsupported("a sum of Integer 64 values may overflow") }
        if (op == .sum || op.isAverage) && !valueType.isInteger {
            throw .unsupported("\(op.spelling) of floating-point values")
        }
        let type = op.isAverage ? AttributeType.double : valueType
        switch op {
        case .sum: return (context.dialect.sum(c, integer: valueType.isInteger), type, false)
        case .elementAverage:
            return (valueType == .integer64 ? exactAverage(c, skippingNil: false) : context.dialect.elementAverage(c), type, true)
        case .average:
            return (valueType == .integer64 ? exactAverage(c, skippingNil: true) : context.dialect.average(c), type, true)
        case .min: return ("MIN(\(c))", type, true)
        case .max: return ("MAX(\(c))", type, true)
        case .count: throw .unsupported("count of an attribute")
        }
    }

    /// `value`, or NULL when the row owning the collection is missing.
    func nilWhenNoOwner(_ hop: ToManyHop, _ value: SQLFragment) -> SQLFragment {
        "CASE WHEN \(hop.outerKey) IS NULL THEN NULL ELSE " + value + " END"
    }

    /// SUBQUERY(collection, $x, predicate).@count
    ///
    /// Only the variable is bound to the element: Apple evaluates the
    /// subquery's predicate with the *outer* object as the evaluated object
    /// (`-[NSSubqueryExpression expressionValueWithObject:context:]` passes
    /// the object it was given, the element goes into the bindings), so a
    /// bare key such as `salary` in `SUBQUERY(department.employees, $e,
    /// $e.salary > salary)` is the fetched row's, a correlated reference from
    /// inside the subquery — as the evaluator does.
    func subqueryCount(_ collection: QueryExpression, _ variable: String, _ predicate: QueryPredicate, span: SourceSpan) throws(LoweringError) -> Operand {
        guard case .toMany(let bound, let alias, let entity) = try operand(collection), case .object = bound.terminal else {
            throw .unsupported("SUBQUERY over something other than a to-many relationship")
        }
        let path = try collectionLevel(bound, from: alias, entity: entity)
        var inner = PredicateLowerer(context: context, level: self.level, variables: variables)
        inner.variables[variable] = VariableBinding(alias: path.elementAlias, entity: path.elementEntity)
        let condition = try inner.condition(predicate)
        let count = context.subquery(path.level, select: "COUNT(*)", correlation: path.correlation, condition: condition.fragment)
        // SUBQUERY over a nil collection is empty, its count 0 (the evaluator).
        return .scalar(count, type: .integer64, nullable: false)
    }
}

// Operands: what each side of a comparison becomes in SQL — a bound
// constant, a column or computed scalar, a row (its primary key or the
// foreign key pointing at it), or a to-many collection that only a quantifier
// (ANY, ALL, NONE), IN or CONTAINS can use.
import QuarryModel

enum Operand {
    case constant(Value)
    /// A scalar SQL expression; `type` is the attribute type when known.
    case scalar(SQLFragment, type: AttributeType?, nullable: Bool)
    /// A row, as the SQL expression of its primary key.
    case object(SQLFragment, entity: String, nullable: Bool)
    /// A to-many key path starting at a row.
    case toMany(BoundPath, alias: String, entity: String)
}

extension PredicateLowerer {
    func operand(_ e: QueryExpression) throws(LoweringError) -> Operand {
        switch e.kind {
        case .constant(let v):
            return .constant(v)
        case .evaluatedObject:
            return .object(SQLFragment(pk(level.alias)), entity: level.entity, nullable: false)
        case .variable(let name):
            guard let v = variables[name] else { throw .unsupported("variable $\(name) is not bound in SQL") }
            return .object(SQLFragment(pk(v.alias)), entity: v.entity, nullable: false)
        case .keyPath(let base, let path):
            return try keyPathOperand(base, path, span: e.span)
        case .binary(let op, let l, let r):
            return try arithmetic(op, l, r)
        case .unary(let op, let x):
            guard case .scalar(let f, let type, _) = try numericOperand(x) else { throw .unsupported("unary operator") }
            _ = type
            return .scalar("(" + (op == .negate ? "-" : "~") + f + ")", type: nil, nullable: true)
        case .function(let name, let args):
            return try function(name, args, span: e.span)
        default:
            throw .unsupported("expression kind")
        }
    }

    func pk(_ alias: String) -> String { StoreMapping.primaryKey(alias) }

    /// `alias."column"` for an attribute of `entity`; nil when it has no
    /// column (transient).
    func column(_ attribute: String, of entity: String, alias: String) -> String? {
        guard let key = context.mapped.entities[entity]?.keys[attribute], case .attribute = key.property,
              let quoted = key.quotedColumn else { return nil }
        return SQLText.concat(alias, ".", quoted)
    }

    /// Where a key path starts: the fetched row, SELF, or a SUBQUERY variable.
    func start(of base: QueryExpression?) throws(LoweringError) -> (alias: String, entity: String) {
        guard let base else { return (level.alias, level.entity) }
        switch base.kind {
        case .evaluatedObject: return (level.alias, level.entity)
        case .variable(let name):
            guard let v = variables[name] else { throw .unsupported("variable $\(name) is not bound in SQL") }
            return (v.alias, v.entity)
        default: throw .unsupported("key path on a computed value")
        }
    }

    func keyPathOperand(_ base: QueryExpression?, _ path: [String], span: SourceSpan) throws(LoweringError) -> Operand {
        if let base, case .subquery(let collection, let variable, let predicate) = base.kind {
            guard path == ["@count"] else { throw .unsupported("SUBQUERY followed by \(path.joined(separator: "."))") }
            return try subqueryCount(collection, variable, predicate, span: span)
        }
        if base == nil, path.count == 1, let named = propertyOperands[path[0]] { return named }
        // The byte test first: hasPrefix compares characters (grapheme
        // breaking) and nearly every key fails the byte test already.
        if path.contains(where: { ($0.utf8.first == UInt8(ascii: "$") && $0.hasPrefix("$")) || ($0.utf8.first == UInt8(ascii: "%") && $0.hasPrefix("%")) }) {
            throw .unsupported("dynamic key")
        }
        let (alias, entity) = try start(of: base)
        let bound: BoundPath
        let column: String?
        do {
            (bound, column) = try KeyPathBinder(index: context.mapped).bindWithColumn(path, from: entity, span: span)
        } catch {
            throw .bind(error)
        }
        if bound.isToMany {
            switch bound.terminal {
            case .count, .aggregate: return try aggregate(bound, from: alias, entity: entity)
            default: return .toMany(bound, alias: alias, entity: entity)
            }
        }
        if case .count = bound.terminal { throw .unsupported("@count") }
        return try toOnePath(bound, from: alias, entity: entity, column: column)
    }

    /// A path of to-one steps: LEFT JOINs, then the column or the row.
    /// `column`: the terminal attribute's quoted column, when the binder
    /// already found it.
    func toOnePath(_ bound: BoundPath, from alias: String, entity: String, column quoted: String? = nil) throws(LoweringError) -> Operand {
        var current = alias
        var currentEntity = entity
        var steps = bound.steps[...]
        // A path ending at a to-one relationship stored as a foreign key needs
        // no join: the key is the row's identity.
        if case .object = bound.terminal, let last = steps.last {
            steps = steps.dropLast()
            for step in steps {
                current = try context.joinToOne(from: current, entity: currentEntity, relationship: step.relationship)
                currentEntity = step.destination
            }
            if case .foreignKey(let column)? = context.mapped.entities[currentEntity]?.keys[last.relationship]?.storage {
                return .object(SQLFragment("\(current).\(SQLIdentifier.quoted(column))"), entity: last.destination, nullable: true)
            }
            current = try context.joinToOne(from: current, entity: currentEntity, relationship: last.relationship)
            return .object(SQLFragment(pk(current)), entity: last.destination, nullable: true)
        }
        for step in steps {
            current = try context.joinToOne(from: current, entity: currentEntity, relationship: step.relationship)
            currentEntity = step.destination
        }
        switch bound.terminal {
        case .attribute(let a, let owner):
            guard let column = quoted.map({ SQLText.concat(current, ".", $0) }) ?? column(a.name, of: owner, alias: current) else {
                context.transients.append((owner, a.name))
                throw .unsupported("transient attribute")
            }
            try refuseTransformable(a, of: owner, nilTestable: bound.suffix.isEmpty)
            if bound.suffix.isEmpty { return .scalar(SQLFragment(column), type: a.type, nullable: a.isOptional || !bound.steps.isEmpty) }
            let (sql, type) = try converted(column, type: a.type, suffix: bound.suffix)
            return .scalar(SQLFragment(sql), type: type, nullable: a.isOptional || !bound.steps.isEmpty)
        case .object(let e):
            return .object(SQLFragment(pk(current)), entity: e, nullable: false)
        default:
            throw .unsupported("terminal")
        }
    }

    func numericOperand(_ e: QueryExpression) throws(LoweringError) -> Operand {
        let o = try operand(e)
        switch o {
        case .constant(let v):
            switch v {
            case .int, .double: return .scalar(SQLFragment("?", [v]), type: nil, nullable: false)
            case .bool(let b): return .scalar(SQLFragment("?", [.int(b ? 1 : 0)]), type: nil, nullable: false)
            default: throw .unsupported("non-numeric constant in arithmetic")
            }
        case .scalar(_, let type, _):
            if let type, !(type.isNumeric || type == .boolean) { throw .unsupported("arithmetic on \(type.rawValue)") }
            return o
        default:
            throw .unsupported("arithmetic on a row or collection")
        }
    }

    /// + - * & | << >> map to SQLite's operators with the same integer and
    /// overflow-to-real behaviour; / only by a non-zero constant (the
    /// evaluator reports division by zero, SQL would give NULL); ** and ^ have
    /// no SQLite operator.
    func arithmetic(_ op: BinaryOperator, _ l: QueryExpression, _ r: QueryExpression) throws(LoweringError) -> Operand {
        let symbol: String
        switch op {
        case .add: symbol = "+"
        case .subtract: symbol = "-"
        case .multiply: symbol = "*"
        case .bitwiseAnd: symbol = "&"
        case .bitwiseOr: symbol = "|"
        case .leftShift: symbol = "<<"
        case .rightShift: symbol = ">>"
        case .divide:
            guard case .constant(let v) = r.kind, PredicateLowerer.isNonZeroNumber(v) else {
                throw .unsupported("division by a value that may be zero")
            }
            symbol = "/"
        default:
            throw .unsupported("operator \(op.rawValue)")
        }
        guard case .scalar(let a, _, _) = try numericOperand(l), case .scalar(var b, _, _) = try numericOperand(r) else {
            throw .unsupported("arithmetic")
        }
        // PostgreSQL shifts a BIGINT by an INTEGER count.
        if context.dialect == .postgres && (op == .leftShift || op == .rightShift) { b = "CAST(" + b + " AS INTEGER)" }
        return .scalar("(" + a + " \(symbol) " + b + ")", type: nil, nullable: true)
    }

    /// An aggregate over the rows of a dictionary fetch (or of each group):
    /// the same rules as over a collection (`aggregateSelect`) — nil values
    /// skipped, the sum of none 0, the average of none nil, the count of all
    /// rows; what the evaluator computes otherwise (a sum of text, of dates,
    /// of booleans, of floating-point values) runs in memory. An Integer 64
    /// sum runs in SQL: the store reruns the fetch in memory if the
    /// database reports that it overflowed.
    func rowAggregate(_ op: StoreAggregate, _ o: Operand) throws(LoweringError) -> Operand {
        switch o {
        case .scalar(_, _, _) where op == .count, .object where op == .count:
            return .scalar(SQLFragment("COUNT(*)"), type: .integer64, nullable: false)
        case .scalar(let f, let type?, _) where f.arguments.isEmpty:
            let (select, resultType, nullable) = try aggregateSelect(op, of: f.sql, type: type, overflowFallsBack: true)
            return .scalar(SQLFragment(select), type: resultType, nullable: nullable)
        default:
            throw .unsupported("aggregate of \(op.spelling)")
        }
    }

    static func isNonZeroNumber(_ v: Value) -> Bool {
        switch v {
        case .int(let i): return i != 0
        case .double(let d): return d != 0 && d.isFinite
        default: return false
        }
    }

    /// Aggregate functions over a to-many path, `now()`; the rest (the
    /// StringFunction cases among them) run in memory.
    func function(_ name: String, _ args: [QueryExpression], span: SourceSpan) throws(LoweringError) -> Operand {
        if ClockFunction.isNow(name, argumentCount: args.count) { return .constant(.date(context.now)) }
        if let f = StringFunction(function: name) {
            // SQL's UPPER / LOWER map ASCII only (SQLite) or by the server's
            // locale, and LENGTH counts characters, not UTF-16 units: the
            // evaluator computes these in memory, as a residual.
            throw .unsupported("function \(f.functionName) runs in memory")
        }
        guard let op = StoreAggregate(function: name), args.count == 1, case .keyPath(let base, let path) = args[0].kind else {
            throw .unsupported("function \(name)")
        }
        let (alias, entity) = try start(of: base)
        let bound: BoundPath
        do { bound = try KeyPathBinder(index: context.mapped).bind(path, from: entity, span: args[0].span) } catch { throw .bind(error) }
        guard bound.isToMany else {
            guard aggregatesOverRows else { throw .unsupported("\(name) of a single value") }
            return try rowAggregate(op, try toOnePath(bound, from: alias, entity: entity))
        }
        switch (op, bound.terminal) {
        case (.count, .object):
            return try aggregate(BoundPath(steps: bound.steps, terminal: .count), from: alias, entity: entity, isOperator: false)
        case (_, .attribute(let a, let owner)) where op != .count:
            // The function `average:` skips nil (SQL's AVG), where the
            // operator `@avg` counts it as 0 (Grammar/deviations.md): the
            // enum tells them apart.
            return try aggregate(BoundPath(steps: bound.steps, terminal: .aggregate(op, attribute: a, entity: owner), suffix: bound.suffix),
                                 from: alias, entity: entity, isOperator: false)
        default:
            throw .unsupported("\(name) of \(path.joined(separator: "."))")
        }
    }
}

// Comparisons: equality and order with Apple's nil and type rules, BETWEEN,
// IN and CONTAINS in their collection and substring forms, and the string
// operators through the functions the SQLite store registers
// (quarry_fold, quarry_begins, quarry_ends, quarry_contains, quarry_like,
// quarry_matches), which fold exactly as the evaluator does.
import QuarryModel

extension PredicateLowerer {
    func comparison(_ c: Comparison, span: SourceSpan) throws(LoweringError) -> SQLCondition {
        let l = try comparisonOperand(c, c.lhs, other: c.rhs)
        let r = try comparisonOperand(c, c.rhs, other: c.lhs)
        switch c.modifier {
        case .direct:
            if case .toMany(let bound, let alias, let entity) = l {
                // `tags CONTAINS %@` and `employees.name CONTAINS 'x'` mean membership.
                guard c.op == .contains, !isCollection(r) else { throw toManyError(c.lhs.span) }
                return try quantified(bound, from: alias, entity: entity, .any) { (element, inner) throws(LoweringError) in
                    try inner.compare(element, .equal, r, c.options)
                }
            }
            if case .toMany(let bound, let alias, let entity) = r {
                guard c.op == .in, !isCollection(l) else { throw toManyError(c.rhs.span) }
                return try quantified(bound, from: alias, entity: entity, .any) { (element, inner) throws(LoweringError) in
                    try inner.compare(l, .equal, element, c.options)
                }
            }
            return try compare(l, c.op, r, c.options)
        case .any, .all, .none:
            guard case .toMany(let bound, let alias, let entity) = l, !isCollection(r) else {
                throw .unsupported("quantifier over a value that is not a to-many key path")
            }
            return try quantified(bound, from: alias, entity: entity, c.modifier) { (element, inner) throws(LoweringError) in
                try inner.compare(element, c.op, r, c.options)
            }
        }
    }

    func isCollection(_ o: Operand) -> Bool {
        if case .toMany = o { return true }
        return false
    }

    func toManyError(_ span: SourceSpan) -> LoweringError {
        .bind(PredicateBinder.toManyWithoutQuantifier(at: span))
    }

    static func elements(_ v: Value) -> [Value]? {
        switch v {
        case .array(let a), .set(let a), .orderedSet(let a): return a
        case .dictionary(let d): return d.keys.sorted().map { d[$0]! }
        default: return nil
        }
    }

    /// The comparison of two operands, neither a collection.
    func compare(_ l: Operand, _ op: ComparisonOperator, _ r: Operand, _ options: ComparisonOptions) throws(LoweringError) -> SQLCondition {
        if case .constant(let a) = l, case .constant(let b) = r { return try constantComparison(a, op, b, options) }
        let folding = Folding(options)
        switch op {
        case .between:
            guard case .constant(let bounds) = r, let items = PredicateLowerer.elements(bounds), items.count == 2 else {
                throw .unsupported("BETWEEN without two constant bounds")
            }
            let low = try compare(l, .greaterOrEqual, .constant(items[0]), options)
            let high = try compare(l, .lessOrEqual, .constant(items[1]), options)
            if low.isFalse || high.isFalse { return .alwaysFalse }
            return SQLCondition(fragment: "(" + low.fragment + " AND " + high.fragment + ")", nullable: low.nullable || high.nullable)
        case .in:
            if case .constant(let collection) = r, let items = PredicateLowerer.elements(collection) {
                return try membership(l, items, folding)
            }
            // 'oh' IN name: the substring form.
            return try stringFunction(.contains, r, l, folding)
        case .contains:
            if case .constant(let collection) = l, let items = PredicateLowerer.elements(collection) {
                return try membership(r, items, folding)
            }
            return try stringFunction(.contains, l, r, folding)
        case .beginsWith: return try stringFunction(.beginsWith, l, r, folding)
        case .endsWith: return try stringFunction(.endsWith, l, r, folding)
        case .like: return try stringFunction(.like, l, r, folding)
        case .matches:
            // PostgreSQL's regular expressions are not ICU's: only patterns
            // that mean the same there run in SQL; the rest run in memory.
            if context.dialect == .postgres { return try postgresMatches(l, r, folding) }
            return try stringFunction(.matches, l, r, folding)
        case .utiConformsTo, .utiEquals: throw .unsupported("UTI operators")
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            return try scalarComparison(l, op, r, folding)
        }
    }

    /// Two constants: the evaluator decides, so SQL and memory cannot differ.
    func constantComparison(_ a: Value, _ op: ComparisonOperator, _ b: Value, _ options: ComparisonOptions) throws(LoweringError) -> SQLCondition {
        let p = QueryPredicate(.comparison(Comparison(QueryExpression(.constant(a)), op, QueryExpression(.constant(b)), options: options)))
        do {
            return try Evaluator.compile(p).evaluate(.null) ? .alwaysTrue : .alwaysFalse
        } catch {
            throw .unsupported("constant comparison raises")
        }
    }

    /// The SQL for one side of a scalar comparison.
    struct Side {
        var sql: SQLFragment
        var type: AttributeType?
        var nullable: Bool
        var constant: Value?
        var isObject: Bool
    }

    func side(_ o: Operand, folding: Folding, foldStrings: Bool) throws(LoweringError) -> Side {
        switch o {
        case .constant(let v):
            var bound = PredicateLowerer.bindable(v)
            // Folded text is compared in NFC on both sides: `quarry_fold`
            // composes its result (a few folds, ǰ → j + U+030C, decompose).
            if foldStrings, case .string(let s) = v { bound = .string(StoredText.composed(folding.fold(StoredText.composed(s)))) }
            return Side(sql: SQLFragment("?", [bound]), type: nil, nullable: v.isNull, constant: v, isObject: false)
        case .scalar(let f, let type, let nullable):
            let folded = foldStrings && (type == nil || type == .string || type == .uri)
            return Side(sql: folded ? QuarrySQLFunction.fold.call(f, flags: flags(folding)) : f, type: type, nullable: nullable, constant: nil, isObject: false)
        case .object(let f, _, let nullable):
            return Side(sql: f, type: nil, nullable: nullable, constant: nil, isObject: true)
        case .toMany:
            throw .unsupported("collection")
        }
    }

    func flags(_ folding: Folding) -> Int { (folding.caseInsensitive ? 1 : 0) | (folding.diacriticInsensitive ? 2 : 0) }

    /// Values as SQLite stores them: booleans as 0/1, decimals as REAL,
    /// strings in NFC (stores keep text composed so byte order is scalar order).
    static func bindable(_ v: Value) -> Value {
        switch v {
        case .string(let s): return .string(StoredText.composed(s))
        case .bool(let b): return .int(b ? 1 : 0)
        case .decimal(let d): return .double(NSDecimalNumberBridge.double(d))
        default: return v
        }
    }

    func scalarComparison(_ l: Operand, _ op: ComparisonOperator, _ r: Operand, _ folding: Folding) throws(LoweringError) -> SQLCondition {
        // nil: only == and != say anything.
        if case .constant(.null) = l { return try nilComparison(r, op) }
        if case .constant(.null) = r { return try nilComparison(l, op) }
        let fold = !folding.isNone && (PredicateLowerer.isStringish(l) || PredicateLowerer.isStringish(r))
        var a = try side(l, folding: folding, foldStrings: fold)
        var b = try side(r, folding: folding, foldStrings: fold)
        if a.isObject != b.isObject {
            throw .unsupported("comparing a row with a value")
        }
        // A constant of an unrelated type: never equal, never ordered.
        if let v = a.constant, !TypeRule.compatible(v, b.type) { return op == .notEqual ? .alwaysTrue : .alwaysFalse }
        if let v = b.constant, !TypeRule.compatible(v, a.type) { return op == .notEqual ? .alwaysTrue : .alwaysFalse }
        if a.isObject && op != .equal && op != .notEqual { throw .unsupported("ordering rows") }
        // An integer column against a double: the integer bound that selects
        // the same rows (PredicateLowering+IntegerBounds.swift).
        var op = op
        if let bound: IntegerBound = integerBound(a, op, b) {
            switch bound {
            case .compare(let x, let o, let y): (a, op, b) = (x, o, y)
            case .never: return op == .notEqual ? .alwaysTrue : .alwaysFalse
            }
        }
        if inexactOnPostgres(a, b) || inexactOnPostgres(b, a) { throw .unsupported("an integer beyond 2^53 against a floating-point value") }
        // Rows of unrelated entities are never the same object, whatever
        // their keys (keys are only unique within a table).
        if case .object(_, let x, _) = l, case .object(_, let y, _) = r,
           context.mapped.entities[x]?.quotedTable != context.mapped.entities[y]?.quotedTable {
            return op == .notEqual ? .alwaysTrue : .alwaysFalse
        }
        switch op {
        case .equal:
            // Both sides may be NULL: nil == nil is true in Apple.
            if a.nullable && b.nullable { return SQLCondition(fragment: .infix(a.sql, context.dialect.isNotDistinct, b.sql), nullable: false) }
            return SQLCondition(fragment: .infix(a.sql, " = ", b.sql), nullable: a.nullable || b.nullable)
        case .notEqual:
            return SQLCondition(fragment: .infix(a.sql, context.dialect.isDistinct, b.sql), nullable: false)
        default:
            let symbol = op == .less ? " < " : op == .lessOrEqual ? " <= " : op == .greater ? " > " : " >= "
            return SQLCondition(fragment: .infix(a.sql, symbol, b.sql), nullable: true)
        }
    }

    /// Whether PostgreSQL would compare `constant` with `other` inexactly: it
    /// converts a BIGINT to DOUBLE PRECISION against a floating-point value,
    /// so 2^53 + 1 equals 2^53 there, where the evaluator (and SQLite)
    /// compare an integer with a double exactly. Such comparisons run in
    /// memory (found by the random-model fuzzer).
    func inexactOnPostgres(_ constant: Side, _ other: Side) -> Bool {
        guard context.dialect == .postgres, case .int(let i)? = constant.constant, i.magnitude > 1 << 53 else { return false }
        guard let type = other.type else { return true }
        return !type.isInteger
    }

    /// `x == nil` and `x != nil`; any other comparison with nil is false.
    func nilComparison(_ other: Operand, _ op: ComparisonOperator) throws(LoweringError) -> SQLCondition {
        let o = try side(other, folding: .none, foldStrings: false)
        switch op {
        case .equal: return SQLCondition(fragment: o.sql + " IS NULL", nullable: false)
        case .notEqual: return SQLCondition(fragment: o.sql + " IS NOT NULL", nullable: false)
        default: return .alwaysFalse
        }
    }

    /// A string constant or a string-typed scalar: what folding applies to.
    static func isStringish(_ o: Operand) -> Bool {
        if case .constant(.string) = o { return true }
        if case .scalar(_, let t, _) = o, t == .string || t == .uri { return true }
        return false
    }

    /// `x IN (…)` over constants of a compatible type; a nil element matches nil.
    func membership(_ x: Operand, _ items: [Value], _ folding: Folding) throws(LoweringError) -> SQLCondition {
        if case .constant = x { throw .unsupported("constant membership") }
        let stringish: Bool = { if case .scalar(_, let t, _) = x { return t == .string || t == .uri || t == nil } else { return false } }()
        let fold = !folding.isNone && stringish
        let s = try side(x, folding: folding, foldStrings: fold)
        if s.isObject { throw .unsupported("rows in a constant collection") }
        var values: [Value] = []
        var matchesNil = false
        for item in items {
            if item.isNull { matchesNil = true; continue }
            guard TypeRule.compatible(item, s.type), Self.isScalar(item) else { continue }
            var item = item
            // An integer column equals only integers (exactly: PostgreSQL
            // would compare BIGINT and DOUBLE PRECISION as doubles).
            if s.type?.integerRange != nil {
                guard let member = Self.integerMembers(item) else { continue }
                item = member
            }
            if inexactOnPostgres(Side(sql: SQLFragment(""), type: nil, nullable: false, constant: item, isObject: false), s) {
                throw .unsupported("an integer beyond 2^53 against a floating-point value")
            }
            var bound = PredicateLowerer.bindable(item)
            if fold, case .string(let t) = item { bound = .string(StoredText.composed(folding.fold(StoredText.composed(t)))) }
            values.append(bound)
        }
        var parts: [SQLFragment] = []
        if !values.isEmpty {
            parts.append(s.sql + " IN (" + values.map { _ in "?" }.joined(separator: ", ") + ")" + SQLFragment("", values))
        }
        if matchesNil { parts.append(s.sql + " IS NULL") }
        if parts.isEmpty { return .alwaysFalse }
        if parts.count == 1 { return SQLCondition(fragment: parts[0], nullable: !matchesNil && s.nullable) }
        return SQLCondition(fragment: "(" + SQLFragment.join(parts, " OR ") + ")", nullable: false)
    }

    static func isScalar(_ v: Value) -> Bool {
        switch v {
        case .array, .set, .orderedSet, .dictionary, .object: return false
        default: return true
        }
    }

    /// A string operator: false unless both sides can be strings.
    func stringFunction(_ op: StringOperator, _ subject: Operand, _ needle: Operand, _ folding: Folding) throws(LoweringError) -> SQLCondition {
        for o in [subject, needle] {
            switch o {
            case .constant(let v):
                if case .string = v { continue }
                return .alwaysFalse
            case .scalar(_, let t, _):
                if let t, t != .string && t != .uri { return .alwaysFalse }
            case .object:
                return .alwaysFalse
            case .toMany:
                throw .unsupported("collection")
            }
        }
        let a = try side(subject, folding: .none, foldStrings: false)
        let b = try side(needle, folding: .none, foldStrings: false)
        return SQLCondition(fragment: op.function.call(a.sql, b.sql, flags: flags(folding)), nullable: true)
    }
}

import Foundation

enum NSDecimalNumberBridge {
    static func double(_ d: Decimal) -> Double { NSDecimalNumber(decimal: d).doubleValue }
}

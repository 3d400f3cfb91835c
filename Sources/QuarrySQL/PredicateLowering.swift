// Lowering predicates to SQL with Apple's semantics, not SQL's.
//
// The one rule that shapes everything: Apple's logic is two-valued. A
// comparison involving nil is false (except `== nil`), so `NOT (age > 5)` is
// true for a row whose age is null, where SQL's three-valued NOT would drop
// it. Each lowered condition therefore records whether it can be NULL, and
// NOT of such a condition becomes `(c) IS NOT TRUE`; `!=` becomes `IS
// DISTINCT FROM` (`IS NOT` on SQLite), which is true against NULL as Apple's
// `!=` is. Constant conditions are `TRUE` / `FALSE`, which both engines read.
//
// Values are only ever bound (`?`); identifiers come from the store mapping.
// Whatever cannot be expressed in SQL (a registered FUNCTION, `**`, a
// comparison of two aggregates...) is left as a residual predicate that the
// store runs in memory on the rows the SQL part returns; at the top level,
// each conjunct of an AND is lowered on its own so that as much as possible
// runs in SQL.
import QuarryModel

/// A predicate split into the part SQL runs and the part memory runs.
public struct LoweredPredicate: Sendable {
    /// The WHERE condition (nil: no condition).
    public var condition: SQLFragment?
    /// What must still be checked in memory, or nil.
    public var residual: QueryPredicate?
}

/// The top-level conjuncts of a predicate that became SQL, in order, and
/// what memory must still check.
struct LoweredConjuncts {
    var sql: [SQLFragment] = []
    var residual: QueryPredicate?

    /// Bytes `write(to:)` appends.
    var length: Int { sql.reduce(0) { $0 + $1.sql.utf8.count + 7 } }

    /// The WHERE condition: the one conjunct, or each in parentheses joined
    /// by AND (SQLText+Select.swift). Nothing when no conjunct became SQL.
    func write(to text: inout SQLText) {
        text.appendConjunction(sql)
    }
}

/// A condition and whether it can evaluate to NULL.
struct SQLCondition {
    var fragment: SQLFragment
    var nullable: Bool
    /// The value of a constant condition (`TRUE` / `FALSE`), which AND, OR
    /// and NOT fold away; nil for a condition the rows decide.
    var constant: Bool? = nil

    static let alwaysTrue = SQLCondition(fragment: SQLFragment("TRUE"), nullable: false, constant: true)
    static let alwaysFalse = SQLCondition(fragment: SQLFragment("FALSE"), nullable: false, constant: false)

    var isTrue: Bool { constant == true }
    var isFalse: Bool { constant == false }

    /// As a two-valued condition (NULL counts as false).
    var twoValued: SQLFragment {
        nullable ? "coalesce(" + fragment + ", FALSE)" : fragment
    }
}

/// A SUBQUERY variable in scope: the row alias it stands for and its entity.
struct VariableBinding {
    var alias: String
    var entity: String
}

struct PredicateLowerer {
    /// The most operands an AND or OR is given to SQL as a chain. SQLite's
    /// optimiser compares the terms of a WHERE clause pairwise (a chain of
    /// 100,000 took minutes), so a longer chain, or the top-level conjuncts
    /// past this many, are checked in memory on the rows SQL returns.
    static let maximumSQLOperands = 1_000
    let context: LoweringContext
    let level: QueryLevel
    var variables: [String: VariableBinding] = [:]
    /// Names of fetched properties, which HAVING and sort keys may use.
    var propertyOperands: [String: Operand] = [:]
    /// In dictionary results, `average:(salary)` aggregates over the rows (or groups).
    var aggregatesOverRows = false
    /// An Integer 64 sum may run in SQL because the database's overflow
    /// error fails the statement (a derived column's recompute: the write is
    /// refused), rather than being rerun in memory.
    var integerSumsMayFail = false

    var model: Model { context.model }

    /// Lowers a fetch's predicate: each top-level conjunct separately, the
    /// ones that cannot run in SQL kept as the residual.
    func lowerTopLevel(_ p: QueryPredicate) throws(Diagnostic) -> LoweredPredicate {
        let lowered = try lowerConjuncts(p)
        var condition: SQLFragment?
        if lowered.sql.count == 1 {
            condition = lowered.sql[0]
        } else if !lowered.sql.isEmpty {
            var text = SQLText(capacity: lowered.length)
            lowered.write(to: &text)
            condition = text.fragment
        }
        return LoweredPredicate(condition: condition, residual: lowered.residual)
    }

    /// `lowerTopLevel` before the SQL conjuncts are joined, so that the
    /// planner can write them straight into its statement.
    func lowerConjuncts(_ p: QueryPredicate) throws(Diagnostic) -> LoweredConjuncts {
        var lowered = LoweredConjuncts()
        var residual: [QueryPredicate] = []
        func lower(_ part: QueryPredicate) throws(Diagnostic) {
            do {
                let c = try condition(part)
                if !c.isTrue { lowered.sql.append(c.fragment) }
            } catch {
                switch error {
                case .bind(let d): throw d
                case .unsupported:
                    // What lowering did not reach is bound all the same.
                    try bindCheck(part)
                    residual.append(part)
                }
            }
        }
        if case .and(let parts) = p.kind {
            lowered.sql.reserveCapacity(min(parts.count, PredicateLowerer.maximumSQLOperands))
            for (i, part) in parts.enumerated() {
                // Past the limit, parts are checked in memory (see maximumSQLOperands).
                if i < PredicateLowerer.maximumSQLOperands {
                    try lower(part)
                } else {
                    try bindCheck(part)
                    residual.append(part)
                }
            }
        } else {
            try lower(p)
        }
        lowered.residual = residual.isEmpty ? nil : (residual.count == 1 ? residual[0] : QueryPredicate(.and(residual), span: p.span))
        return lowered
    }

    func condition(_ p: QueryPredicate) throws(LoweringError) -> SQLCondition {
        switch p.kind {
        case .constant(let b):
            return b ? .alwaysTrue : .alwaysFalse
        case .not(let inner):
            let c = try condition(inner)
            if c.isTrue { return .alwaysFalse }
            if c.isFalse { return .alwaysTrue }
            return SQLCondition(fragment: c.nullable ? "(" + c.fragment + ") IS NOT TRUE" : "NOT (" + c.fragment + ")", nullable: false)
        case .and(let parts), .or(let parts):
            let isAnd: Bool
            if case .and = p.kind { isAnd = true } else { isAnd = false }
            if parts.count > PredicateLowerer.maximumSQLOperands {
                throw .unsupported("\(isAnd ? "AND" : "OR") of \(parts.count) parts: more than \(PredicateLowerer.maximumSQLOperands) run in memory")
            }
            var lowered: [SQLCondition] = []
            var decided: SQLCondition?
            for part in parts {
                // Every part is lowered even after a constant decided the
                // whole: a part SQL cannot run makes the whole a residual,
                // which the evaluator compiles — and an unknown FUNCTION is
                // then E002 here as on the memory engine, not skipped.
                let c = try condition(part)
                // Constant parts decide or vanish, as in the evaluator.
                if isAnd ? c.isFalse : c.isTrue { decided = c; continue }
                if isAnd ? c.isTrue : c.isFalse { continue }
                lowered.append(c)
            }
            if let decided { return decided }
            if lowered.isEmpty { return isAnd ? .alwaysTrue : .alwaysFalse }
            if lowered.count == 1 { return lowered[0] }
            let joined = SQLFragment.balancedJoin(lowered.map { "(" + $0.fragment + ")" }, isAnd ? " AND " : " OR ")
            return SQLCondition(fragment: joined, nullable: lowered.contains { $0.nullable })
        case .comparison(let c):
            return try comparison(c, span: p.span)
        }
    }

    func bindError(_ code: DiagnosticCode, _ message: String, _ span: SourceSpan, hints: [String] = []) -> LoweringError {
        .bind(Diagnostic(code, message, at: span, hints: hints, stage: .bind))
    }
}

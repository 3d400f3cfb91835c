// Aggregates and quantifiers over a to-many reached through a to-one
// (`department.employees.@avg.salary > salary`, `department.employees.@count
// > 900`, `ANY department.employees.salary > 190000`), computed once per
// owner instead of once per fetched row. Written as correlated subqueries
// they are re-run for every employee, and neither SQLite nor PostgreSQL
// decorrelates them: quadratic (78 s for 20,000 employees on SQLite).
//
// - An aggregate becomes a derived table grouped by the owner's key, LEFT
//   JOINed on it: `LEFT JOIN (SELECT e."department" AS "k", AVG(...) AS "v"
//   FROM ... GROUP BY e."department") d ON d."k" = t0."department"`. An owner
//   with no elements has no group: its count and sum are 0 (COALESCE), its
//   average, minimum and maximum nil, as in the correlated form. When the
//   path returns to the row's own collection (`department.employees`), every
//   owner has a group, and the value is the bare column: a comparison that
//   rejects NULL then lets the engine turn the outer join into an inner one
//   and drive it from the groups (SQLite: SCAN d, SEARCH t0 USING INDEX).
// - A quantifier whose test does not mention the outer row becomes
//   membership in an uncorrelated list of owners, which both engines compute
//   once: ANY is `key IN (owners with a matching element)`, NONE and ALL are
//   `key IS NULL OR key NOT IN (owners with a matching / failing element)`.
//
// Both keep the correlated form's meaning exactly, including a nil to-one
// (the collection is nil: its count and sum are nil, ANY is false, ALL and
// NONE true). Only the fetch's own SELECT gets derived tables; inside a
// subquery the correlated form stays (a derived table there would be
// recomputed per outer row anyway). EXPLAIN shows the shape chosen: the
// derived table (`LEFT JOIN (SELECT ... GROUP BY ...)`) or the `IN (SELECT`.
import QuarryModel

extension PredicateLowerer {
    /// The aggregate `select` over `path` as a column of a grouped derived
    /// table joined to the fetch; nil when the correlated form must stay.
    func decorrelatedAggregate(_ path: CollectionLevel, select: String, zeroWhenEmpty: Bool, nilWithoutOwner: Bool,
                               type: AttributeType?) -> Operand? {
        let hop = path.hop
        guard path.throughToOne, context.isTopLevel(hop.outerAlias) else { return nil }
        let level = hop.level
        let k = SQLIdentifier.quoted("k"), v = SQLIdentifier.quoted("v")
        var derived = SQLFragment("LEFT JOIN (SELECT \(hop.innerKey) AS \(k), \(select) AS \(v) " + level.joins.joined(separator: " "),
                                  level.joinArguments)
        derived = derived + " WHERE \(hop.innerKey) IS NOT NULL"
        if let filter = hop.filter { derived = derived + " AND " + filter }
        let alias = context.newAlias("d")
        derived = derived + " GROUP BY \(hop.innerKey)) \(alias) ON \(alias).\(k) = \(hop.outerKey)"
        context.addJoin(derived, toLevelOwning: hop.outerAlias)
        let raw = SQLFragment("\(alias).\(v)")
        // Every owner has a group: no group means no owner, a nil collection.
        if path.ownerHasElements && nilWithoutOwner { return .scalar(raw, type: type, nullable: true) }
        let value = zeroWhenEmpty ? "COALESCE(" + raw + ", 0)" : raw
        if nilWithoutOwner { return .scalar(nilWhenNoOwner(hop, value), type: type, nullable: true) }
        return .scalar(value, type: type, nullable: !zeroWhenEmpty)
    }

    /// ANY / ALL / NONE over `path` as membership of the owner's key in the
    /// owners that have an element passing `tested` (for ALL: failing the
    /// test); nil when the test mentions the outer row, or when the
    /// correlated form must stay.
    func decorrelatedQuantifier(_ path: CollectionLevel, _ modifier: ComparisonModifier, _ tested: SQLFragment) -> SQLCondition? {
        let hop = path.hop
        let level = hop.level
        guard path.throughToOne, context.isTopLevel(hop.outerAlias),
              !context.mentionsOuterRows(of: level, in: tested.sql + " " + level.joins.joined(separator: " ")) else { return nil }
        var owners = SQLFragment("(SELECT \(hop.innerKey) " + level.joins.joined(separator: " "), level.joinArguments)
        owners = owners + " WHERE \(hop.innerKey) IS NOT NULL"
        if let filter = hop.filter { owners = owners + " AND " + filter }
        owners = owners + " AND (" + tested + "))"
        if modifier == .any {
            // NULL only when the owner is nil: false, as ANY over nil is.
            return SQLCondition(fragment: "\(hop.outerKey) IN " + owners, nullable: true)
        }
        return SQLCondition(fragment: "(\(hop.outerKey) IS NULL OR \(hop.outerKey) NOT IN " + owners + ")", nullable: false)
    }
}

extension ToManyHop {
    /// The alias the owner's key is read from.
    var outerAlias: String { String(outerKey.prefix { $0 != "." }) }
}

extension LoweringContext {
    /// Whether `sql` (a condition inside `level`) mentions a row alias made
    /// before `level` was: the outer rows, whose mention makes it correlated.
    /// Aliases are written `alias.` and values are always bound, so a
    /// mention is the alias followed by a dot, not preceded by a letter,
    /// digit, underscore or quote.
    func mentionsOuterRows(of level: QueryLevel, in sql: String) -> Bool {
        for alias in aliases(before: level) {
            var searchStart = sql.startIndex
            while let r = sql.range(of: alias + ".", range: searchStart..<sql.endIndex) {
                if r.lowerBound == sql.startIndex { return true }
                let before = sql[sql.index(before: r.lowerBound)]
                if !(before.isLetter || before.isNumber || before == "_" || before == "\"") { return true }
                searchStart = r.upperBound
            }
        }
        return false
    }
}

// The one renderer of a planned SELECT (SelectStatement) into SQL text and
// its bound arguments, for SQLite and PostgreSQL alike (the dialect only
// decides how "no limit" is written; sort keys arrive written for it).
// Arguments follow the text's order: select list, joins, WHERE, GROUP BY,
// HAVING, ORDER BY, LIMIT/OFFSET. A row fetch also wants the COUNT(*) of
// the same rows and the same rows unsorted: both are copied out of the same
// buffer as it is written, which costs less than writing them again
// (planning is on the path of every fetch: PERFORMANCE.md, scenario 2).
import QuarryModel

/// A rendered SELECT, and the variants asked for.
struct RenderedSelect {
    var sql: SQLFragment
    /// `SELECT COUNT(*)` of the same rows (nil when not asked for, or when
    /// the statement groups rows or is DISTINCT, where that would not count them).
    var count: SQLFragment?
    /// The statement without ORDER BY and LIMIT/OFFSET (nil when not asked for).
    var unsorted: SQLFragment?
}

extension SelectStatement {
    /// The statement as SQL.
    public var sql: SQLFragment { render().sql }

    /// ` WHERE <condition>`, or nothing: the rows' condition, to reuse in an
    /// UPDATE or DELETE of the source table under the same alias.
    public var whereClause: SQLFragment {
        if condition.isEmpty { return SQLFragment("") }
        var text = SQLText(capacity: condition.length + 8)
        text.appendWhere(condition)
        return text.fragment
    }

    /// `SELECT <items>`, without FROM: for loading rows by other conditions.
    public var selectClause: String {
        (distinct ? "SELECT DISTINCT " : "SELECT ") + items.joined.sql
    }

    func render(count wantsCount: Bool = false, unsorted wantsUnsorted: Bool = false) -> RenderedSelect {
        var sql = SQLText(capacity: 48 + items.joined.sql.utf8.count + source.quotedTable.utf8.count
                                    + joins.reduce(0) { $0 + $1.utf8.count + 1 } + condition.length
                                    + orderBy.reduce(0) { $0 + $1.sql.utf8.count + 2 } + 24)
        sql.appendLiteral(distinct ? "SELECT DISTINCT " : "SELECT ")
        sql.append(items.joined)
        let itemArguments = sql.arguments.count
        sql.appendLiteral(" ")
        let fromStart = sql.count
        sql.appendLiteral("FROM ")
        sql.append(source.quotedTable)
        sql.appendLiteral(" ")
        sql.append(source.alias)
        for join in joins {
            sql.appendLiteral(" ")
            sql.append(join)
        }
        sql.appendArguments(joinArguments)
        sql.appendWhere(condition)
        if !groupBy.isEmpty {
            sql.appendLiteral(" GROUP BY ")
            sql.append(list: groupBy)
        }
        if let having {
            sql.appendLiteral(" HAVING ")
            sql.append(having)
        }
        let rowsEnd = sql.count
        let rowArguments = sql.arguments
        if !orderBy.isEmpty {
            sql.appendLiteral(" ORDER BY ")
            sql.append(list: orderBy)
        }
        if let limit {
            sql.appendLiteral(" LIMIT ? OFFSET ?")
            sql.appendArguments([.int(Int64(limit)), .int(Int64(offset))])
        } else if offset > 0 {
            sql.appendLiteral(" ")
            sql.append(dialect.noLimit)
            sql.appendLiteral(" OFFSET ?")
            sql.appendArguments([.int(Int64(offset))])
        }
        var rendered = RenderedSelect(sql: sql.fragment)
        if wantsCount && groupBy.isEmpty && having == nil && !distinct {
            let arguments = itemArguments == 0 ? rowArguments : Array(rowArguments[itemArguments...])
            rendered.count = SQLFragment(sql.string(fromStart..<rowsEnd, after: "SELECT COUNT(*) "), arguments)
        }
        if wantsUnsorted {
            rendered.unsorted = SQLFragment(sql.string(0..<rowsEnd, after: ""), rowArguments)
        }
        return rendered
    }
}

extension SelectCondition {
    /// Bytes `appendWhere` writes, about.
    var length: Int {
        (filter?.sql.utf8.count ?? 0) + conjuncts.reduce(0) { $0 + $1.sql.utf8.count + 7 } + 16
    }
}

extension SQLText {
    /// ` WHERE filter AND (conjuncts)`, ` WHERE conjuncts`, or nothing.
    mutating func appendWhere(_ condition: SelectCondition) {
        if condition.isEmpty { return }
        appendLiteral(" WHERE ")
        if let filter = condition.filter {
            append(filter)
            if condition.conjuncts.isEmpty { return }
            appendLiteral(" AND (")
            appendConjunction(condition.conjuncts)
            appendLiteral(")")
        } else {
            appendConjunction(condition.conjuncts)
        }
    }

    /// The one conjunct, or each in parentheses joined by AND. Nothing
    /// for none.
    mutating func appendConjunction(_ parts: [SQLFragment]) {
        if parts.count == 1 { return append(parts[0]) }
        if parts.count > SQLFragment.flatChain {
            // Nested groups, so that SQLite's expression depth limit holds.
            return append(SQLFragment.balancedJoin(parts.map { "(" + $0 + ")" }, " AND "))
        }
        for (i, part) in parts.enumerated() {
            if i == 0 { appendLiteral("(") } else { appendLiteral(") AND (") }
            append(part)
        }
        if !parts.isEmpty { appendLiteral(")") }
    }

    /// Fragments separated by `, `.
    mutating func append(list: [SQLFragment]) {
        for (i, part) in list.enumerated() {
            if i > 0 { appendLiteral(", ") }
            append(part)
        }
    }
}

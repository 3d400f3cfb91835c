// A planned SELECT as parts: the select list, the FROM source with its
// alias, the joins, the WHERE condition (the entity filter of a shared table
// and the predicate's conjuncts), GROUP BY, HAVING, ORDER BY and the limit.
// The planners build one; a caller that needs a variant of the same query
// (the same rows selecting only their keys, the same condition for an
// UPDATE or a DELETE, the statement without its ORDER BY) replaces a part
// and renders again, instead of cutting or searching the rendered text.
// Rendering is in SQLText+Select.swift, one renderer for both dialects.
import QuarryModel

/// A SELECT statement, planned but not yet text.
public struct SelectStatement: Sendable {
    public var distinct = false
    public var items: SelectList
    public var source: TableSource
    /// `LEFT JOIN …` clauses, in order, and the values bound in them.
    public var joins: [String] = []
    public var joinArguments: [Value] = []
    public var condition = SelectCondition()
    public var groupBy: [SQLFragment] = []
    public var having: SQLFragment?
    /// Sort keys as the dialect writes them (`t1."name" DESC`).
    public var orderBy: [SQLFragment] = []
    /// LIMIT and OFFSET, both bound; nil: no limit.
    public var limit: Int?
    public var offset = 0
    /// Decides how "no limit, but an offset" is written.
    public var dialect: SQLDialect

    public init(items: SelectList, source: TableSource, dialect: SQLDialect) {
        self.items = items
        self.source = source
        self.dialect = dialect
    }

    /// The same statement selecting `columns` of the source row (quoted and
    /// qualified with its alias), e.g. only the keys of the rows.
    public func selecting(columns: [String]) -> SelectStatement {
        var s = self
        s.items = SelectList(columns.map { SQLFragment(qualified($0)) })
        return s
    }

    /// `alias."column"` of the source row.
    public func qualified(_ column: String) -> String {
        source.alias + "." + SQLIdentifier.quoted(column)
    }

    /// The same rows in no particular order and without LIMIT or OFFSET.
    public func unordered() -> SelectStatement {
        var s = self
        s.orderBy = []
        s.limit = nil
        s.offset = 0
        return s
    }
}

/// The expressions a SELECT returns, and their text joined once: a row
/// fetch's list is planned once per entity by the mapping and written into
/// every fetch of it.
public struct SelectList: Sendable {
    public let items: [SQLFragment]
    /// The items separated by `, `.
    public let joined: SQLFragment

    public init(_ items: [SQLFragment]) {
        self.items = items
        joined = SQLFragment.join(items, ", ")
    }
}

/// `"table" alias`.
public struct TableSource: Sendable, Equatable {
    /// The table's name, quoted (SQLIdentifier).
    public var quotedTable: String
    public var alias: String

    public init(quotedTable: String, alias: String) {
        self.quotedTable = quotedTable
        self.alias = alias
    }
}

/// A WHERE condition: the `_entity` filter of a table shared by several
/// entities, then the predicate's conjuncts that became SQL, all ANDed.
public struct SelectCondition: Sendable {
    public var filter: SQLFragment?
    public var conjuncts: [SQLFragment] = []

    public init(filter: SQLFragment? = nil, conjuncts: [SQLFragment] = []) {
        self.filter = filter
        self.conjuncts = conjuncts
    }

    /// No condition: every row of the source.
    public var isEmpty: Bool { filter == nil && conjuncts.isEmpty }
}

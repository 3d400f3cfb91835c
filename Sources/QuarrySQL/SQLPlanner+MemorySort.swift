// Sorting a fetch's rows in memory instead of in SQLite. A fetch that loads
// every row it selects (no limit, no offset) pays SQLite's sorter for whole
// rows: each row is copied into a sort record and compared field by field,
// which for a million rows costs several times more than reading them. When
// every sort key is a plain numeric column of the fetched table (integers,
// booleans, doubles, floats, dates), the store can read the rows in table
// order and sort their keys itself, reproducing SQLite's order exactly: NULL
// first ascending and last descending, integers and reals compared as
// numbers, and the primary key last, as the planned ORDER BY says. Strings
// are left to SQL (their order depends on the collation), as are keys
// reached through relationships, more than three keys, PostgreSQL (which
// sorts on the server) and fetches with a limit (SQLite keeps only the top
// rows). The store checks each row's storage class as it reads it and
// falls back on SQL's order when a key column holds something else (text
// in a numeric column).

/// How to sort a fetch's rows in memory: the SELECT without its ORDER BY,
/// and the keys to sort by, in order (the primary key, column 0, follows).
public struct MemorySortPlan: Sendable, Equatable {
    public var unsorted: SQLFragment
    public var keys: [MemorySortKey]

    /// The most keys a plan has (the sorter's records hold three words).
    public static let maximumKeys = 3
}

/// A column of the planned SELECT (0 is `_pk`, 1 `_entity`) and its direction.
public struct MemorySortKey: Sendable, Equatable {
    public var column: Int
    public var ascending: Bool
}

/// Collects the sort keys of a fetch while the planner lowers them, and
/// says whether memory can sort by them.
struct MemorySortKeys {
    private let expressions: [SQLFragment]
    private(set) var keys: [MemorySortKey] = []
    private(set) var usable: Bool

    init(select: SelectList, dialect: SQLDialect, sorts: Int) {
        usable = dialect == .sqlite && sorts > 0
        // The select list's items are `t0."col"` (StoreMapping.planSelect).
        expressions = select.items
    }

    /// A sort key, lowered to `column` (an expression over the row alias).
    mutating func add(column: String, type: AttributeType?, ascending: Bool) {
        guard usable else { return }
        // A plain column of the row, of a type stored as INTEGER or REAL.
        guard keys.count < MemorySortPlan.maximumKeys, let type, Self.numeric.contains(type),
              let index = expressions.firstIndex(where: { $0.sql == column }) else {
            usable = false
            return
        }
        keys.append(MemorySortKey(column: index, ascending: ascending))
    }

    private static let numeric: Set<AttributeType> = [.integer16, .integer32, .integer64, .boolean, .double, .float, .date]

    func plan(unsorted: @autoclosure () -> SQLFragment) -> MemorySortPlan? {
        usable ? MemorySortPlan(unsorted: unsorted(), keys: keys) : nil
    }
}

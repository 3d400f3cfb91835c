// The SQL engines Quarry plans for. The planner writes one SQL text for both
// wherever the two agree (they agree on most: `?` placeholders are renumbered
// to `$n` by the PostgreSQL driver, `IS NOT DISTINCT FROM`, `TRUE`/`FALSE`,
// and the `quarry_*` string functions exist on both — registered in Swift on
// SQLite, installed with the schema on PostgreSQL). The dialect decides the
// few places they differ: column types, `LIMIT ALL` versus `LIMIT -1`,
// NULL ordering, and which operators can run in SQL at all (MATCHES with
// PostgreSQL's regular expressions only for patterns that mean the same).

public enum SQLDialect: String, Sendable, CaseIterable {
    case sqlite
    case postgres
}

extension SQLDialect {
    /// `a IS NOT DISTINCT FROM b`: equal, or both NULL.
    var isNotDistinct: String { self == .sqlite ? " IS " : " IS NOT DISTINCT FROM " }
    /// `a IS DISTINCT FROM b`: unequal, or exactly one NULL.
    var isDistinct: String { self == .sqlite ? " IS NOT " : " IS DISTINCT FROM " }

    /// The sum of no values is 0. PostgreSQL sums integers as NUMERIC;
    /// the result is cast back so both engines return an integer.
    func sum(_ column: String, integer: Bool) -> String {
        if self == .postgres && integer { return "CAST(COALESCE(SUM(\(column)), 0) AS BIGINT)" }
        return "COALESCE(SUM(\(column)), 0)"
    }

    /// The average as a double (PostgreSQL averages integers as NUMERIC).
    func average(_ column: String) -> String {
        self == .postgres ? "CAST(AVG(\(column)) AS DOUBLE PRECISION)" : "AVG(\(column))"
    }

    /// The collection operator `@avg`: Apple's KVC adds the non-nil values
    /// and divides by the number of *elements* (a nil counts as 0:
    /// `[10, 20, nil]` averages to 10); nil for no elements. AVG would skip
    /// the NULLs. TOTAL is SQLite's double sum that never overflows.
    func elementAverage(_ column: String) -> String {
        self == .postgres
            ? "(CAST(COALESCE(SUM(\(column)), 0) AS DOUBLE PRECISION) / NULLIF(COUNT(*), 0))"
            : "(TOTAL(\(column)) / NULLIF(COUNT(*), 0))"
    }

    /// An ORDER BY key. Apple sorts nil first ascending and last descending,
    /// as SQLite does by default; PostgreSQL is told so.
    func sortKey(_ key: String, ascending: Bool) -> String {
        switch (self, ascending) {
        case (.sqlite, true): return key
        case (.sqlite, false): return key + " DESC"
        case (.postgres, true): return key + " NULLS FIRST"
        case (.postgres, false): return key + " DESC NULLS LAST"
        }
    }

    /// `LIMIT` for an offset without a limit.
    var noLimit: String { self == .sqlite ? "LIMIT -1" : "LIMIT ALL" }
}

extension AttributeType {
    /// Stored as an integer (booleans too: 0 / 1).
    var isInteger: Bool { integerRange != nil || self == .boolean }
}

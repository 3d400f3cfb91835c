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

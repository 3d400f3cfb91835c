// Users of the PostgreSQL driver get the store layer (Value, SQLDatabase,
// SQLValueKind) with one import, as users of QuarryStore do. postgres-nio is
// deliberately NOT re-exported: its own `PostgresDatabase` protocol would
// clash with this module's class of that name.
@_exported import QuarryStore

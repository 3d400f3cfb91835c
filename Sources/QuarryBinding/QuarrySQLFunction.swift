// The SQL functions Quarry defines in every store, named once. The SQLite
// connection registers them in Swift (SQLiteFunctions), PostgreSQL's schema
// creates them (PostgresFunctions), and the lowering writes their calls
// through `call`, so a name cannot be lowered that no store defines, nor
// defined under a spelling the lowering does not use. A source scan
// (SQLFunctionNameGuardTests) fails on a `quarry_…` name spelled anywhere else.

public enum QuarrySQLFunction: String, Sendable, CaseIterable {
    /// `quarry_fold(text, flags)`: the text folded as [c] (1) / [d] (2) fold it, in NFC.
    case fold
    /// `quarry_like(text, pattern, flags)`: Apple's LIKE (`*`, `?`, `\`).
    case like
    /// `quarry_matches(text, pattern, flags)`: a whole-string ICU regular expression.
    case matches
    /// `quarry_begins` / `quarry_ends` / `quarry_contains(text, needle, flags)`.
    case begins, ends, contains

    /// The name in SQL.
    public var sqlName: String { "quarry_" + rawValue }

    /// How many arguments it takes.
    public var arity: Int { self == .fold ? 2 : 3 }

    /// Whether PostgreSQL defines it too: MATCHES lowers to PostgreSQL's own
    /// `~` over `quarry_fold` (PostgresRegex), so `quarry_matches` is SQLite's only.
    public var isDefinedOnPostgres: Bool { self != .matches }

    /// The SQL text of a call, `quarry_fold(x, 1)`; the arguments are SQL
    /// fragments (column references, placeholders, integer flags).
    public func call(_ arguments: String...) -> String {
        sqlName + "(" + arguments.joined(separator: ", ") + ")"
    }
}

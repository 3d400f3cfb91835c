// The string operators of comparisons, named once: which comparison
// operators test text, and the SQL function each lowers to. The SQLite store
// registers these functions over the evaluator's own matchers, PostgreSQL
// defines them in the schema, and the SQL lowering switches on this enum, so
// a string operator cannot be lowered under a name no store defines.
import QuarrySyntax

public enum StringOperator: Sendable, CaseIterable {
    case beginsWith, endsWith, contains, like, matches

    /// The string operator a comparison operator is; nil for the others
    /// (IN and CONTAINS over collections are membership, decided by the caller).
    public init?(_ op: ComparisonOperator) {
        switch op {
        case .beginsWith: self = .beginsWith
        case .endsWith: self = .endsWith
        case .contains, .in: self = .contains
        case .like: self = .like
        case .matches: self = .matches
        default: return nil
        }
    }

    /// The SQL function `(subject, needle, flags)` that decides it, flags being
    /// 1 for [c] and 2 for [d].
    public var function: QuarrySQLFunction {
        switch self {
        case .beginsWith: return .begins
        case .endsWith: return .ends
        case .contains: return .contains
        case .like: return .like
        case .matches: return .matches
        }
    }

    /// The function's name in SQL (`quarry_begins`).
    public var sqlFunction: String { function.sqlName }
}

// The keys a scalar answers — `salary.doubleValue`, `name.length`,
// `employees.@avg.salary.doubleValue` — as a table of what each key gives
// for each kind of value. Apple developers write these NSNumber / NSString
// KVC suffixes after key paths; KeyAccess.scalarKey computes them in memory,
// and the SQL binder asks this table which suffixes a typed attribute
// accepts and what type follows, so that both engines accept exactly the
// same set (an unknown suffix is the same bind error everywhere) and SQL
// lowers only the ones whose value it can reproduce exactly (the rest run in
// memory as a residual, through the evaluator itself).

/// What kind of scalar a key is applied to, or gives.
public enum ScalarKind: Sendable, Equatable {
    case string, integer, double, boolean, decimal, date, uuid
}

/// A key a scalar answers, named once: the binder checks suffixes against
/// `result(on:)`, the evaluator (KeyAccess.scalarKey) and the SQL lowering
/// (`converted`) switch on the case, so no engine spells a key of its own.
public enum ScalarKey: String, CaseIterable, Sendable {
    case identity = "self"
    case length, intValue, integerValue, longLongValue, uppercaseString, lowercaseString, description
    case doubleValue, floatValue, boolValue, stringValue, decimalValue
    case timeIntervalSinceReferenceDate, timeIntervalSince1970, UUIDString

    /// The kind this key gives on a value of `kind`; nil when the value has
    /// no such key (E009 in memory, B005 in a fetch).
    public func result(on kind: ScalarKind) -> ScalarKind? {
        if self == .identity { return kind }
        switch kind {
        case .string:
            switch self {
            case .length, .intValue, .integerValue, .longLongValue: return .integer
            case .uppercaseString, .lowercaseString, .description: return .string
            case .doubleValue, .floatValue: return .double
            case .boolValue: return .boolean
            default: return nil
            }
        case .integer, .double, .boolean, .decimal:
            switch self {
            case .stringValue, .description: return .string
            case .intValue, .integerValue, .longLongValue: return .integer
            case .doubleValue, .floatValue: return .double
            case .boolValue: return .boolean
            case .decimalValue: return .decimal
            default: return nil
            }
        case .date:
            return self == .timeIntervalSinceReferenceDate || self == .timeIntervalSince1970 ? .double : nil
        case .uuid:
            return self == .UUIDString ? .string : nil
        }
    }

    /// Every key some scalar answers, as written (for "did you mean").
    public static let spellings = allCases.map(\.rawValue)
}

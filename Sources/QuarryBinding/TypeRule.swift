// The one type-compatibility rule: which values a typed key can ever equal.
// Apple's `isEqual:` never equals values of unrelated classes (and Quarry
// never orders them, Grammar/deviations.md): numbers (every integer width,
// floating point, decimal, and booleans as 0/1) form one family, text (string
// and URI attributes, which the store keeps as text) another, and dates,
// UUIDs and data each their own. The evaluator applies the rule at run time
// value by value (Compare in Value+Comparison.swift, which
// TypeRuleAgreementTests checks against this table); the SQL lowering and the
// batch-update planner apply it here, ahead of time, to a constant against
// an attribute type and to an attribute type against another.
import QuarrySyntax
import QuarryModel

/// The families of values that can equal one another.
public enum ValueFamily: Sendable, Equatable {
    case number, text, date, uuid, data

    /// The family of a value; nil for nil, collections, dictionaries and
    /// host objects (which equal nothing of an attribute type).
    public init?(_ v: Value) {
        switch v {
        case .int, .double, .decimal, .bool: self = .number
        case .string: self = .text
        case .date: self = .date
        case .uuid: self = .uuid
        case .data: self = .data
        default: return nil
        }
    }

    /// The family of an attribute type's values; nil for types whose values
    /// are not scalars (transformable, object IDs, undefined).
    public init?(_ type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64, .double, .float, .decimal, .boolean: self = .number
        case .string, .uri: self = .text
        case .date: self = .date
        case .uuid: self = .uuid
        case .binary: self = .data
        case .transformable, .objectID, .undefined: return nil
        }
    }
}

public enum TypeRule {
    /// Whether a constant can equal a value of the attribute type (nil equals
    /// a missing value of any type; an unknown type accepts anything).
    public static func compatible(_ v: Value, _ type: AttributeType?) -> Bool {
        guard let type else { return true }
        if v.isNull { return true }
        guard let family = ValueFamily(v) else { return false }
        return family == ValueFamily(type)
    }

    /// Whether a value of type `a` can be stored in an attribute of type `b`
    /// (or compared with one): the same family, or the same type.
    public static func sameFamily(_ a: AttributeType, _ b: AttributeType) -> Bool {
        if let x = ValueFamily(a), let y = ValueFamily(b) { return x == y }
        return a == b
    }
}

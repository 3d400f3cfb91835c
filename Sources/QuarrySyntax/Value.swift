// Value: the one value type of the language. Constants in the AST, arguments
// substituted for `%@`, `$VARIABLE` bindings and evaluation results are all
// `Value`s, so the front end and the evaluator share it.
//
// Equality here is *structural* (`.int(1) != .double(1.0)`): that is what
// the AST needs for `parse(print(x)) == x`. The language's own equality
// (numbers across integer, double and boolean; strings with options) lives in
// the evaluator.
import Foundation

/// A value of the predicate language.
///
/// ```swift
/// let v: Value = .array([.int(1), .string("Zoë"), .null])
/// ```
public enum Value: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    /// Seconds since 2001-01-01 00:00:00 UTC (Apple's reference date).
    case date(Double)
    case data([UInt8])
    case uuid(UUID)
    case array([Value])
    case orderedSet([Value])
    /// Unordered, duplicates removed by the language's equality when built by the evaluator.
    case set([Value])
    case dictionary([String: Value])
    /// A host object reached through key-value access.
    case object(ObjectReference)
}

/// Something the evaluator can ask for values by key: store objects, user
/// types. JSON-like dictionaries are `Value.dictionary` and need no wrapper.
public protocol KeyValueAccessible: AnyObject, Sendable {
    /// The value for `key`, or `nil` when the object has no such key
    /// (the evaluator treats a missing key as null, as Apple's `valueForKey:` on
    /// a dictionary does).
    func value(forKey key: String) -> Value?

    /// A stable name for the object in printed values and messages (a
    /// store's objects answer their ID, `Department/3`); nil prints the
    /// object's identity, which differs from run to run.
    var printedIdentity: String? { get }
}

extension KeyValueAccessible {
    public var printedIdentity: String? { nil }
}

/// A reference to a host object; two references are equal when they point at
/// the same object (identity, like managed objects in one context).
public struct ObjectReference: Sendable, Hashable {
    public let object: any KeyValueAccessible

    public init(_ object: any KeyValueAccessible) { self.object = object }

    public static func == (a: ObjectReference, b: ObjectReference) -> Bool {
        a.object === b.object
    }

    /// Identity, as `==` is.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(object)) }
}

extension Value {
    /// The name of the value's type as messages show it.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int: return "integer"
        case .double: return "double"
        case .decimal: return "decimal"
        case .string: return "string"
        case .date: return "date"
        case .data: return "data"
        case .uuid: return "UUID"
        case .array: return "array"
        case .orderedSet: return "ordered set"
        case .set: return "set"
        case .dictionary: return "dictionary"
        case .object: return "object"
        }
    }

    public var isNull: Bool { if case .null = self { return true } else { return false } }
}

// The collection operators (`@count`, `@avg`, `@distinctUnionOfObjects`…) and
// the aggregates a store computes, named once. The evaluator's key-path
// access (KeyAccess.apply) and the SQL lowering (PredicateLowerer.aggregate)
// both switch on these enums, so an operator one engine knows and the other
// spells differently cannot exist: adding a case breaks both switches until
// both handle it.
import QuarrySyntax

/// A KVC collection operator, the key after `@` (Apple's set: there is no
/// `@unionOfSets`).
public enum CollectionOperator: String, Sendable, CaseIterable {
    case count, sum, avg, min, max
    case distinctUnionOfObjects, unionOfObjects, distinctUnionOfArrays, unionOfArrays, distinctUnionOfSets

    /// The operator a key path component names (`"@avg"`); nil for a plain key
    /// or an unknown operator.
    public init?(key: String) {
        guard key.utf8.first == UInt8(ascii: "@") else { return nil }
        self.init(rawValue: String(key.dropFirst()))
    }

    /// Every operator as written in a key path, for hints.
    public static let spelled = allCases.map { "@" + $0.rawValue }.joined(separator: " ")
}

/// An aggregate over the elements of a to-many path (or over the rows of a
/// dictionary fetch), in both its spellings: the collection operator and the
/// function. They differ in one rule only (Grammar/deviations.md): the
/// operator `@avg` counts a nil element as 0 (Apple's KVC), the function
/// `average:` skips nil.
public enum StoreAggregate: String, Sendable, CaseIterable {
    case count, sum, min, max
    /// `@avg`: the sum of the non-nil values over the number of elements.
    case elementAverage
    /// `average:`: the mean of the non-nil values.
    case average

    /// The aggregate a collection operator computes; nil for the union operators.
    public init?(_ op: CollectionOperator) {
        switch op {
        case .count: self = .count
        case .sum: self = .sum
        case .avg: self = .elementAverage
        case .min: self = .min
        case .max: self = .max
        case .distinctUnionOfObjects, .unionOfObjects, .distinctUnionOfArrays, .unionOfArrays, .distinctUnionOfSets: return nil
        }
    }

    /// The aggregate a function names (`average:` or `average`); nil for any
    /// other function.
    public init?(function name: String) {
        let bare = name.hasSuffix(":") ? name.dropLast() : Substring(name)
        guard let a = StoreAggregate(rawValue: String(bare)), a != .elementAverage else { return nil }
        self = a
    }

    /// The function's name as the registry spells it (`average:`); the
    /// element average has none (it is only `@avg`).
    public var functionName: String? { self == .elementAverage ? nil : rawValue + ":" }

    /// How the aggregate is written in messages (`@avg`, `average:`).
    public var spelling: String { self == .elementAverage ? "@avg" : rawValue + ":" }

    /// Whether the result is a double whatever the values' type.
    public var isAverage: Bool { self == .average || self == .elementAverage }
}

// Value as a Swift user meets it: written with literals (`"Sales"`, `50_000`,
// `true`, `[1, 2]`, `["name": "Zoë"]`), built from and read back as
// Foundation's types (Date, Decimal, UUID, URL, Data), and usable as a
// dictionary key or in a set. Structural, like `==` (Value.swift): `.int(1)`
// and `.double(1)` are different keys; the language's own equality lives in
// the evaluator.
//
// There is deliberately no nil literal: `Value?` is everywhere in the
// library (a missing key, an unset attribute), and `nil` there must keep
// meaning "absent", not `.null`. Write `.null`.
import Foundation

extension Value: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
                 ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: Value...) { self = .array(elements) }
    /// A later duplicate key wins, as in a dictionary built by assignment.
    public init(dictionaryLiteral elements: (String, Value)...) {
        var d: [String: Value] = [:]
        for (k, v) in elements { d[k] = v }
        self = .dictionary(d)
    }
}


// MARK: - Foundation's types

extension Value {
    public init(_ date: Date) { self = .date(date.timeIntervalSinceReferenceDate) }
    public init(_ decimal: Decimal) { self = .decimal(decimal) }
    public init(_ uuid: UUID) { self = .uuid(uuid) }
    public init(_ data: Data) { self = .data([UInt8](data)) }
    /// A URL is its absolute string, as a URI attribute stores it.
    public init(_ url: URL) { self = .string(url.absoluteString) }

    public var dateValue: Date? {
        if case .date(let s) = self { return Date(timeIntervalSinceReferenceDate: s) }
        return nil
    }
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }
    /// An integer, or a double or decimal that is one exactly.
    public var int64Value: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d): return d.isFinite && d.rounded() == d ? Int64(exactly: d) : nil
        case .decimal(let d):
            let n = NSDecimalNumber(decimal: d)
            return Decimal(n.int64Value) == d ? n.int64Value : nil
        default: return nil
        }
    }
    /// Any number as a double (integers past 2^53 round).
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .decimal(let d): return NSDecimalNumber(decimal: d).doubleValue
        default: return nil
        }
    }
    /// Any number as a decimal (a double through its shortest text, so 0.1 stays 0.1).
    public var decimalValue: Decimal? {
        switch self {
        case .int(let i): return Decimal(i)
        case .double(let d): return d.isFinite ? Decimal(string: "\(d)") : nil
        case .decimal(let d): return d
        default: return nil
        }
    }
    public var uuidValue: UUID? {
        if case .uuid(let u) = self { return u }
        return nil
    }
    public var dataValue: Data? {
        if case .data(let b) = self { return Data(b) }
        return nil
    }
    public var urlValue: URL? {
        if case .string(let s) = self { return URL(string: s) }
        return nil
    }
}

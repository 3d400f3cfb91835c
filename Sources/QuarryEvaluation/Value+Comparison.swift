// The language's equality and ordering of values — not the structural
// equality of `Value: Equatable` (which keeps `.int(1) != .double(1)` for the
// AST's sake).
//
// Rules, after Apple's `isEqual:` / `compare:` as NSPredicate applies them:
// - numbers (integer, double, decimal, and booleans as 0/1) compare by value
//   across types, exactly (an Int64 and a Double are never rounded into each
//   other: 2^53 + 1 != 2^53 as a double);
// - strings compare by Unicode order (Swift's, which is canonical
//   equivalence plus scalar order: 'a' < 'B' is false, "é" == "e\u{301}");
// - dates by time, UUIDs and data by bytes, host objects by identity;
// - arrays element-wise in order, sets ignoring order, dictionaries by keys
//   and values;
// - values of unrelated types are not equal, and ordering them is false
//   (Apple raises; Quarry's documented deviation).
import Foundation

/// A number of any of the language's numeric types.
enum Number {
    case int(Int64)
    case double(Double)
    case decimal(Decimal)

    @inline(__always)
    init?(_ v: Value) {
        switch v {
        case .int(let i): self = .int(i)
        case .double(let d): self = .double(d)
        case .bool(let b): self = .int(b ? 1 : 0)
        case .decimal(let d): self = .decimal(d)
        default: return nil
        }
    }

    var doubleValue: Double {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .decimal(let d): return Number.double(d)
        }
    }

    var decimalValue: Decimal? {
        switch self {
        case .int(let i): return Decimal(i)
        case .double(let d): return Number.decimal(d)
        case .decimal(let d): return d
        }
    }

    /// A double as the decimal its shortest printed form denotes (0.1 → 0.1,
    /// not 0.1000000000000000055…), as NSNumber's decimalValue does.
    static func decimal(_ d: Double) -> Decimal? {
        guard d.isFinite else { return nil }
        return Decimal(string: "\(d)", locale: nil)
    }

    /// A decimal as the nearest double (via its exact text; Foundation's own
    /// conversion on Linux can be off by an ulp).
    static func double(_ d: Decimal) -> Double {
        if d.isNaN { return .nan }
        return Double(d.description) ?? NSDecimalNumber(decimal: d).doubleValue
    }

    var value: Value {
        switch self {
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .decimal(let d): return .decimal(d)
        }
    }
}

/// The result of ordering two values; nil from `order` means "not ordered".
enum Order { case less, equal, greater }

extension Order {
    @inline(__always) init<T: Comparable>(_ a: T, _ b: T) {
        self = a < b ? .less : (a == b ? .equal : .greater)
    }
}

enum Compare {
    /// Exact order of an integer and a double.
    static func order(_ i: Int64, _ d: Double) -> Order? {
        if d.isNaN { return nil }
        if d >= 9_223_372_036_854_775_808.0 { return .less }
        if d < -9_223_372_036_854_775_808.0 { return .greater }
        let t = d.rounded(.towardZero)
        let ti = Int64(t)
        if i != ti { return i < ti ? .less : .greater }
        let fraction = d - t
        return fraction > 0 ? .less : (fraction < 0 ? .greater : .equal)
    }

    static func order(_ a: Number, _ b: Number) -> Order? {
        switch (a, b) {
        case (.int(let x), .int(let y)): return Order(x, y)
        case (.double(let x), .double(let y)):
            if x.isNaN || y.isNaN { return nil }
            return Order(x, y)
        case (.int(let x), .double(let y)): return order(x, y)
        case (.double(let x), .int(let y)):
            guard let o = order(y, x) else { return nil }
            return o == .less ? .greater : (o == .greater ? .less : .equal)
        default:
            guard let x = a.decimalValue, let y = b.decimalValue, !x.isNaN, !y.isNaN else {
                // A non-finite double against a decimal: compare as doubles.
                let x = a.doubleValue, y = b.doubleValue
                if x.isNaN || y.isNaN { return nil }
                return Order(x, y)
            }
            return Order(x, y)
        }
    }

    /// The language's ordering; nil when the values are not ordered (unrelated
    /// types, nil, NaN, collections).
    static func order(_ a: Value, _ b: Value) -> Order? {
        switch (a, b) {
        case (.int(let x), .int(let y)): return Order(x, y)
        case (.string(let x), .string(let y)): return Order(x, y)
        case (.date(let x), .date(let y)):
            if x.isNaN || y.isNaN { return nil }
            return Order(x, y)
        case (.uuid(let x), .uuid(let y)): return Order(x.uuidString, y.uuidString)
        default:
            guard let x = Number(a), let y = Number(b) else { return nil }
            return order(x, y)
        }
    }

    /// The language's equality (nil equals nil).
    static func equal(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.int(let x), .int(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.date(let x), .date(let y)): return x == y
        case (.uuid(let x), .uuid(let y)): return x == y
        case (.data(let x), .data(let y)): return x == y
        case (.object(let x), .object(let y)): return x == y
        case (.array(let x), .array(let y)), (.orderedSet(let x), .orderedSet(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.set(let x), .set(let y)):
            guard x.count == y.count else { return false }
            let keys = Set(x.map(HashKey.init))
            return y.allSatisfy { keys.contains(HashKey($0)) }
        case (.dictionary(let x), .dictionary(let y)):
            guard x.count == y.count else { return false }
            for (k, v) in x {
                guard let w = y[k], equal(v, w) else { return false }
            }
            return true
        default:
            guard let x = Number(a), let y = Number(b) else { return false }
            return order(x, y) == .equal
        }
    }
}

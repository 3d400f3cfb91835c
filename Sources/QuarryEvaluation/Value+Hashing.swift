// Hashing consistent with the language's equality, so that sets, DISTINCT,
// mode:, UNION/INTERSECT/MINUS and IN over a constant collection can use hash
// tables instead of quadratic scans. 1, 1.0, YES and the decimal 1 hash alike
// because they are equal.
import Foundation

struct HashKey: Hashable {
    let value: Value

    init(_ value: Value) { self.value = value }

    static func == (a: HashKey, b: HashKey) -> Bool { Compare.equal(a.value, b.value) }

    func hash(into hasher: inout Hasher) { HashKey.hash(value, into: &hasher) }

    static func hash(_ value: Value, into hasher: inout Hasher) {
        switch value {
        case .null: hasher.combine(0 as UInt8)
        case .bool, .int, .double, .decimal:
            hashNumber(Number(value)!, into: &hasher)
        case .string(let s): hasher.combine(2 as UInt8); hasher.combine(s)
        case .date(let d): hasher.combine(3 as UInt8); hasher.combine(d)
        case .uuid(let u): hasher.combine(4 as UInt8); hasher.combine(u)
        case .data(let d): hasher.combine(5 as UInt8); hasher.combine(d)
        case .array(let items), .orderedSet(let items):
            hasher.combine(6 as UInt8)
            hasher.combine(items.count)
            for item in items { hash(item, into: &hasher) }
        case .set(let items):
            // Order-independent: sum of the elements' own hashes.
            hasher.combine(7 as UInt8)
            var sum = 0
            for item in items { sum &+= HashKey(item).hashValue }
            hasher.combine(sum)
        case .dictionary(let d):
            hasher.combine(8 as UInt8)
            hasher.combine(d.count)
        case .object(let ref):
            hasher.combine(ObjectIdentifier(ref.object))
        }
    }

    /// Integral numbers hash as Int64, others by their double value.
    static func hashNumber(_ n: Number, into hasher: inout Hasher) {
        hasher.combine(1 as UInt8)
        let d: Double
        switch n {
        case .int(let i): hasher.combine(i); return
        case .double(let x): d = x
        case .decimal(let x):
            // An integral decimal equals the Int64 of the same value exactly
            // (beyond 2^53 its double would not).
            if let i = Int64(x.description) { hasher.combine(i); return }
            d = Number.double(x)
        }
        // Every integral double in Int64's range, -2^63 included (the random-
        // model fuzzer's `n IN {-9223372036854775808}`: equal, hashed apart).
        if d == d.rounded(), d >= -9_223_372_036_854_775_808.0, d < 9_223_372_036_854_775_808.0 {
            hasher.combine(Int64(d))
        } else {
            hasher.combine(d.isNaN ? Double.nan.bitPattern : d.bitPattern)
        }
    }
}

enum Collections {
    /// The elements of a collection value; nil when the value is not one.
    /// A dictionary counts as the collection of its values (Apple's IN and
    /// quantifiers iterate a dictionary's values).
    @inline(__always)
    static func elements(_ v: Value) -> [Value]? {
        switch v {
        case .array(let a), .orderedSet(let a), .set(let a): return a
        case .dictionary(let d): return Array(d.values)
        default: return nil
        }
    }

    static func isCollection(_ v: Value) -> Bool {
        switch v {
        case .array, .orderedSet, .set, .dictionary: return true
        default: return false
        }
    }

    /// Distinct values in first-seen order.
    static func distinct(_ items: [Value]) -> [Value] {
        var seen = Set<HashKey>()
        seen.reserveCapacity(items.count)
        var out: [Value] = []
        for item in items where seen.insert(HashKey(item)).inserted { out.append(item) }
        return out
    }

    /// A set value built by the evaluator: duplicates removed.
    static func makeSet(_ items: [Value]) -> Value { .set(distinct(items)) }
}

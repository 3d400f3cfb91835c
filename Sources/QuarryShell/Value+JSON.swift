// The value encoding of the machine interface (INTERFACES.md): JSON objects
// are key-value objects, arrays are arrays, integers stay integers, and tagged
// objects carry the types JSON lacks: {"$date": S}, {"$set": [...]},
// {"$orderedSet": [...]}, {"$uuid": "..."}, {"$data": "base64"}, {"$null": true}.
import Foundation

extension Value {
    /// Reads a value in the interface's encoding.
    public init(json: JSON) {
        switch json {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .double(let d): self = .double(d)
        case .number(let text): self = Decimal(string: text).map(Value.decimal) ?? .double(Double(text) ?? .nan)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(Value.init(json:)))
        case .object(let members):
            if members.count == 1, let tagged = Value.tagged(members[0].0, members[0].1) {
                self = tagged
                return
            }
            var d: [String: Value] = [:]
            d.reserveCapacity(members.count)
            for (k, v) in members { d[k] = Value(json: v) }
            self = .dictionary(d)
        }
    }

    private static func tagged(_ tag: String, _ payload: JSON) -> Value? {
        switch (tag, payload) {
        case ("$date", .int(let i)): return .date(Double(i))
        case ("$date", .double(let d)): return .date(d)
        case ("$set", .array(let items)):
            var unique: [Value] = []
            for item in items.map(Value.init(json:)) where !unique.contains(item) { unique.append(item) }
            return .set(unique)
        case ("$orderedSet", .array(let items)): return .orderedSet(items.map(Value.init(json:)))
        case ("$uuid", .string(let s)): return UUID(uuidString: s).map(Value.uuid)
        case ("$data", .string(let s)): return Data(base64Encoded: s).map { .data([UInt8]($0)) }
        case ("$null", _): return .null
        case ("$url", .string(let s)): return .string(s)
        case ("$decimal", .string(let s)): return Decimal(string: s).map(Value.decimal)
        default: return nil
        }
    }

    /// Writes a value in the interface's encoding.
    public var json: JSON {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .decimal(let d):
            let n = NSDecimalNumber(decimal: d)
            if d == Decimal(n.int64Value) { return .int(n.int64Value) }
            return Value.exactNumber(d).map(JSON.number) ?? .null
        case .string(let s): return .string(s)
        case .date(let s): return .object([("$date", .double(s))])
        case .data(let bytes): return .object([("$data", .string(Data(bytes).base64EncodedString()))])
        case .uuid(let u): return .object([("$uuid", .string(u.uuidString))])
        case .array(let items): return .array(items.map(\.json))
        case .orderedSet(let items): return .object([("$orderedSet", .array(items.map(\.json)))])
        case .set(let items): return .object([("$set", .array(items.map(\.json)))])
        case .dictionary(let d): return .object(d.keys.sorted().map { ($0, d[$0]!.json) })
        case .object(let ref): return .object([("$object", .string(String(describing: type(of: ref.object))))])
        }
    }
}

extension Value {
    /// A decimal as exact JSON number text: its own digits (never through
    /// Double, which turns 1e127 into 1.0000000000000006e+127), with a long
    /// run of trailing zeros written as an exponent. Nil for NaN.
    static func exactNumber(_ d: Decimal) -> String? {
        guard !d.isNaN else { return nil }
        let text = d.description  // plain digits: "-12.5", "1000…000", "0.0001"
        guard text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-" || $0 == ".") }) else { return nil }
        if text.contains(".") { return text }
        let zeros = text.reversed().prefix { $0 == "0" }.count
        guard zeros > 15, zeros < text.count else { return text }
        return "\(text.dropLast(zeros))e\(zeros)"
    }
}

// Values as fixtures hold them: the attribute's own kind of `Value` (`.bool`
// for booleans, `.date` for dates, `.double` for decimals, which the store
// keeps as REAL anyway), strings in NFC as the store keeps them. This file
// reads factory text into such values by the attribute's type and checks a
// value against the attribute's bounds, once, at plan time.
import Foundation
import QuarryModel

enum FixtureValues {
    /// Seconds since 2001-01-01 UTC from seconds or ISO 8601 (date or
    /// date-time): `DateText`'s rules, which the shell follows too.
    static func date(_ text: String) -> Double? { DateText.seconds(text) }

    /// The value `text` means for an attribute of `type`, or nil.
    static func value(_ text: String, for type: AttributeType) -> Value? {
        let t = text.trimmingCharacters(in: .whitespaces)
        switch type {
        case .integer16, .integer32, .integer64:
            guard let n = Int64(t.replacingOccurrences(of: "_", with: "")), type.integerRange!.contains(n) else { return nil }
            return .int(n)
        case .double, .float, .decimal:
            guard let d = Double(t.replacingOccurrences(of: "_", with: "")), d.isFinite else { return nil }
            return .double(d)
        case .string, .uri:
            return .string(text.precomposedStringWithCanonicalMapping)
        case .boolean:
            switch t.lowercased() {
            case "yes", "true", "1": return .bool(true)
            case "no", "false", "0": return .bool(false)
            default: return nil
            }
        case .date:
            return date(t).map(Value.date)
        case .uuid:
            return UUID(uuidString: t).map(Value.uuid)
        case .binary:
            return Data(base64Encoded: t).map { .data(Array($0)) }
        default:
            return nil
        }
    }

    /// A factory value read for `attribute`, or a located error.
    static func read(_ v: FactoryValue, for attribute: Attribute, in what: String) throws(FixtureError) -> Value {
        if v.isNull {
            guard attribute.isOptional else {
                throw FixtureError(.invalidGenerator, "\(what) is required, so it cannot be null", at: v.location)
            }
            return .null
        }
        guard let value = value(v.text, for: attribute.type) else {
            throw FixtureError(.invalidGenerator, "'\(v.text)' is not \(describe(attribute.type)) (\(what) is \(attribute.type.rawValue))",
                               at: v.location)
        }
        if let problem = boundProblem(value, attribute) {
            throw FixtureError(.invalidGenerator, "'\(v.text)' \(problem) of \(what)", at: v.location)
        }
        return value
    }

    static func describe(_ type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64:
            let r = type.integerRange!
            return "an integer from \(r.lowerBound) to \(r.upperBound)"
        case .double, .float, .decimal: return "a number"
        case .string, .uri: return "a string"
        case .boolean: return "true or false"
        case .date: return "a date (ISO 8601 or seconds since 2001-01-01)"
        case .uuid: return "a UUID"
        case .binary: return "base64 data"
        default: return "a value Quarry can generate"
        }
    }

    /// A number for comparing with bounds: the value, or a string's length.
    static func magnitude(_ v: Value, _ attribute: Attribute) -> Double? {
        switch v {
        case .int(let n): return Double(n)
        case .double(let d), .date(let d): return d
        case .string(let s) where attribute.type.boundsAreLengths: return Double(s.count)
        case .data(let d) where attribute.type.boundsAreLengths: return Double(d.count)
        default: return nil
        }
    }

    static func bound(_ v: Value?) -> Double? {
        switch v {
        case .int(let n)?: return Double(n)
        case .double(let d)?, .date(let d)?: return d
        case .decimal(let d)?: return NSDecimalNumber(decimal: d).doubleValue
        default: return nil
        }
    }

    /// Why `v` breaks the attribute's minimum or maximum, or nil.
    static func boundProblem(_ v: Value, _ attribute: Attribute) -> String? {
        guard let m = magnitude(v, attribute) else { return nil }
        let lengths = attribute.type.boundsAreLengths
        if let lo = bound(attribute.minimum), m < lo {
            return lengths ? "is shorter than the minimum length \(Int(lo))" : "is below the minimum \(text(attribute.minimum!))"
        }
        if let hi = bound(attribute.maximum), m > hi {
            return lengths ? "is longer than the maximum length \(Int(hi))" : "is above the maximum \(text(attribute.maximum!))"
        }
        return nil
    }

    static func text(_ v: Value) -> String {
        switch v {
        case .date(let s): return ISO8601DateFormatter().string(from: Date(timeIntervalSinceReferenceDate: s))
        case .decimal(let d): return "\(d)"
        case .int(let n): return String(n)
        case .double(let d): return String(d)
        default: return Printer.format(v)
        }
    }
}

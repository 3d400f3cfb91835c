// Values as cell text and as output JSON. Dates print in ISO 8601 (UTC, with
// fractional seconds only when there are some); null prints as NULL in text
// modes so that it cannot be mistaken for an empty string; objects (a
// store's or a context's) print as their ID (`Department/3`); doubles in
// shortest round-trip form.
import Foundation

enum CellText {
    /// Seconds between 1970 and Apple's reference date, 2001-01-01 UTC.
    static let referenceOffset = 978_307_200.0

    static func text(_ v: Value, null: String = "NULL") -> String {
        switch v {
        case .null: return null
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return Printer.formatDouble(d)
        case .decimal(let d): return NSDecimalNumber(decimal: d).stringValue
        case .string(let s): return s
        case .date(let d): return iso8601(d)
        case .data(let bytes): return "x'" + bytes.map { String(format: "%02x", $0) }.joined() + "'"
        case .uuid(let u): return u.uuidString
        case .array(let items), .orderedSet(let items), .set(let items):
            return "[" + items.map { text($0, null: "null") }.joined(separator: ", ") + "]"
        case .dictionary(let d):
            return "{" + d.keys.sorted().map { "\($0): \(text(d[$0]!, null: "null"))" }.joined(separator: ", ") + "}"
        case .object(let ref):
            if let o = ref.object as? StoredObject { return o.id.description }
            if let o = ref.object as? ManagedObject { return o.objectID.description }
            return "<object>"
        }
    }

    static func iso8601(_ seconds: Double) -> String {
        let unix = seconds + referenceOffset
        let whole = unix.rounded(.down)
        var t = time_t(whole)
        var parts = tm()
        gmtime_r(&t, &parts)
        var s = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                       Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
        let fraction = unix - whole
        if fraction > 0 {
            let millis = Int((fraction * 1000).rounded())
            if millis > 0 && millis < 1000 { s += String(format: ".%03d", millis) }
        }
        return s + "Z"
    }

    /// The value in output JSON: native numbers, booleans and null; dates as
    /// ISO 8601 strings; objects as their ID string.
    static func json(_ v: Value) -> JSON {
        switch v {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return d.isFinite ? .double(d) : .string(Printer.formatDouble(d))
        case .decimal: return v.json
        case .string(let s): return .string(s)
        case .array(let items), .orderedSet(let items), .set(let items): return .array(items.map(json))
        case .dictionary(let d): return .object(d.keys.sorted().map { ($0, json(d[$0]!)) })
        default: return .string(text(v))
        }
    }

    /// Numbers align right in tables.
    static func isNumeric(_ v: Value) -> Bool {
        switch v {
        case .int, .double, .decimal: return true
        default: return false
        }
    }
}

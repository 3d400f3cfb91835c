// CAST(value, 'Type') and castObject:toType:. The types Apple's parser
// knows: NSString, NSNumber, NSDate (seconds since 2001-01-01 UTC, Apple's
// reference date, not 1970), NSDecimalNumber, plus NSUUID and NSData, which
// Quarry's printer uses to spell constants that have no literal.
//
// A string cast to NSDate is read as ISO 8601 ('2016-03-02T00:00:00Z',
// munki's tests rely on this) or NSDate's own description format
// ('2016-03-02 00:00:00 +0000'); a date cast to NSString prints in that
// description format, in UTC.
import Foundation

enum Cast {
    static let typeNames = ["NSString", "NSNumber", "NSDate", "NSDecimalNumber", "NSUUID", "NSData"]

    static func cast(_ v: Value, to type: String, span: SourceSpan) throws(Diagnostic) -> Value {
        if v.isNull { return .null }
        func fail() -> Diagnostic {
            evaluationError(.badFunctionArgument, "cannot CAST \(v.typeName) \(Printer.format(v)) to '\(type)'", at: span)
        }
        switch type {
        case "NSString", "String":
            switch v {
            case .string: return v
            case .uuid(let u): return .string(u.uuidString)
            case .data(let d): return .string(String(decoding: d, as: UTF8.self))
            case .int, .double, .bool, .decimal, .date: return .string(describe(v))
            default: throw fail()
            }
        case "NSNumber":
            switch v {
            case .int, .double, .bool: return v
            case .decimal(let d): return .double(Number.double(d))
            case .date(let t): return .double(t)
            case .string(let s):
                guard let n = number(from: s) else { throw fail() }
                return n
            default: throw fail()
            }
        case "NSDecimalNumber":
            switch v {
            case .decimal: return v
            case .int, .double, .bool:
                guard let d = Number(v)!.decimalValue else { throw fail() }
                return .decimal(d)
            case .date(let t):
                guard let d = Number.decimal(t) else { throw fail() }
                return .decimal(d)
            case .string(let s):
                guard let d = Decimal(string: s.trimmingCharacters(in: .whitespaces), locale: nil) else { throw fail() }
                return .decimal(d)
            default: throw fail()
            }
        case "NSDate", "Date":
            switch v {
            case .date: return v
            case .int, .double, .bool, .decimal: return .date(Number(v)!.doubleValue)
            case .string(let s):
                guard let t = DateText.parse(s) else { throw fail() }
                return .date(t)
            default: throw fail()
            }
        case "NSUUID", "UUID":
            switch v {
            case .uuid: return v
            case .string(let s):
                guard let u = UUID(uuidString: s) else { throw fail() }
                return .uuid(u)
            default: throw fail()
            }
        case "NSData", "Data":
            switch v {
            case .data: return v
            case .string(let s):
                guard let d = Data(base64Encoded: s) else { throw fail() }
                return .data([UInt8](d))
            default: throw fail()
            }
        default:
            throw evaluationError(.badFunctionArgument, "unknown CAST type '\(type)'", at: span,
                                  hints: ["CAST takes one of " + typeNames.map { "'\($0)'" }.joined(separator: ", ")])
        }
    }

    /// A string of digits as an integer, anything else numeric as a double.
    static func number(from s: String) -> Value? {
        let t = s.trimmingCharacters(in: .whitespaces)
        if let i = Int64(t) { return .int(i) }
        if let d = Double(t), !t.isEmpty { return .double(d) }
        return nil
    }

    /// How NSNumber / NSDate describe themselves.
    static func describe(_ v: Value) -> String {
        switch v {
        case .int(let i): return String(i)
        case .bool(let b): return b ? "1" : "0"
        case .double(let d):
            if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
            return String(d)
        case .decimal(let d): return d.description
        case .string(let s): return s
        case .date(let t): return DateText.describe(t)
        default: return Printer.format(v)
        }
    }
}

/// Dates as text, in UTC, without DateFormatter (not cheap, not Sendable).
enum DateText {
    /// Days from 1970-01-01 of a civil date (Howard Hinnant's algorithm).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    static let referenceOffset = 978_307_200.0

    static func describe(_ t: Double) -> String {
        guard t.isFinite, abs(t) < 1e14 else { return String(t) }
        let unix = Int((t + referenceOffset).rounded(.down))
        let days = unix >= 0 ? unix / 86400 : (unix - 86399) / 86400
        let secs = unix - days * 86400
        let (y, m, d) = civil(days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let year = y >= 0 && y < 1000 ? String(repeating: "0", count: 4 - String(y).count) + String(y) : String(y)
        return "\(year)-\(two(m))-\(two(d)) \(two(secs / 3600)):\(two(secs / 60 % 60)):\(two(secs % 60)) +0000"
    }

    /// `YYYY-MM-DD`, then optionally `T` or a space and `HH:MM[:SS[.fff]]`,
    /// then optionally `Z` or an offset `±HH[:]MM`. Without an offset: UTC.
    static func parse(_ text: String) -> Double? {
        let b = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in 0..<n {
                let c = b[i + k]
                guard c >= 0x30 && c <= 0x39 else { return nil }
                v = v * 10 + Int(c - 0x30)
            }
            i += n
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            if i < b.count && b[i] == c { i += 1; return true }
            return false
        }
        guard let y = digits(4), expect(0x2D), let mo = digits(2), expect(0x2D), let d = digits(2),
              (1...12).contains(mo), (1...31).contains(d) else { return nil }
        var seconds = Double(days(year: y, month: mo, day: d) * 86400)
        if i < b.count && (b[i] == 0x54 || b[i] == 0x20) {
            i += 1
            guard let h = digits(2), expect(0x3A), let mi = digits(2), h < 24, mi < 60 else { return nil }
            seconds += Double(h * 3600 + mi * 60)
            if expect(0x3A) {
                guard let s = digits(2), s < 61 else { return nil }
                seconds += Double(s)
                if expect(0x2E) {
                    var scale = 0.1
                    while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                        seconds += Double(b[i] - 0x30) * scale
                        scale /= 10
                        i += 1
                    }
                }
            }
        }
        while i < b.count && b[i] == 0x20 { i += 1 }
        if i < b.count {
            if expect(0x5A) {
                // Z: UTC
            } else if b[i] == 0x2B || b[i] == 0x2D {
                let sign = b[i] == 0x2D ? -1.0 : 1.0
                i += 1
                guard let oh = digits(2) else { return nil }
                _ = expect(0x3A)
                let om = digits(2) ?? 0
                seconds -= sign * Double(oh * 3600 + om * 60)
            } else {
                return nil
            }
        }
        guard i == b.count else { return nil }
        return seconds - referenceOffset
    }
}

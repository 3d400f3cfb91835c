// Reading attribute values from text — default values, minimums, maximums —
// the same way for YAML and Core Data XML, and checking that a value fits an
// attribute's type (for models built in code, where no text is involved).
//
// Xcode writes every default as text (`defaultValueString="YES"`), except
// dates, which it writes as seconds since 2001-01-01 UTC in their own XML
// attributes. Quarry's YAML also accepts ISO 8601 dates (`2024-01-31`,
// `2024-01-31T09:00:00Z`), which YAML users expect.
import Foundation
import QuarrySyntax

enum AttributeValues {
    /// A default value for `type` from its text, or nil when the text is not
    /// a value of that type.
    static func defaultValue(_ text: String, for type: AttributeType) -> Value? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch type {
        case .integer16, .integer32, .integer64:
            guard let n = Int64(trimmed), type.integerRange!.contains(n) else { return nil }
            return .int(n)
        case .double, .float:
            return Double(trimmed).map(Value.double)
        case .decimal:
            guard Double(trimmed) != nil, let d = Decimal(string: trimmed) else { return nil }
            return .decimal(d)
        case .string:
            return .string(text)
        case .boolean:
            return bool(trimmed).map(Value.bool)
        case .date:
            return date(trimmed).map(Value.date)
        case .binary:
            return Data(base64Encoded: trimmed).map { .data(Array($0)) }
        case .uuid:
            return UUID(uuidString: trimmed).map(Value.uuid)
        case .uri:
            return URL(string: trimmed) == nil ? nil : .string(trimmed)
        case .transformable, .objectID, .undefined:
            return nil
        }
    }

    /// A minimum or maximum for `type` from its text: a number for numeric
    /// types, a length for strings and binary data, an instant for dates.
    static func bound(_ text: String, for type: AttributeType) -> Value? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if type.boundsAreLengths {
            guard let n = Int64(trimmed), n >= 0 else { return nil }
            return .int(n)
        }
        guard type.acceptsBounds else { return nil }
        return defaultValue(trimmed, for: type)
    }

    static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true", "1": return true
        case "no", "false", "0": return false
        default: return nil
        }
    }

    /// Seconds since 2001-01-01 UTC from a number of seconds or an ISO 8601
    /// date or date-time (a bare date is midnight UTC).
    static func date(_ text: String) -> Double? {
        if let seconds = Double(text) { return seconds }
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate],
        ] {
            formatter.formatOptions = options
            if let d = formatter.date(from: text) { return d.timeIntervalSinceReferenceDate }
        }
        return nil
    }

    /// A value as messages show it: dates in ISO 8601 rather than as the
    /// printer's `CAST(seconds, "NSDate")`.
    static func text(_ value: Value) -> String {
        switch value {
        case .date(let seconds):
            let formatter = ISO8601DateFormatter()
            return formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds))
        case .decimal(let d): return "\(d)"
        default: return Printer.format(value)
        }
    }

    /// What a value of `type` looks like, for messages.
    static func describe(_ type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64:
            let r = type.integerRange!
            return "an integer from \(r.lowerBound) to \(r.upperBound)"
        case .double, .float, .decimal: return "a number"
        case .string: return "a string"
        case .boolean: return "YES or NO (true or false)"
        case .date: return "a date (ISO 8601, or seconds since 2001-01-01 UTC)"
        case .binary: return "base64 data"
        case .uuid: return "a UUID"
        case .uri: return "a URI"
        case .transformable, .objectID, .undefined: return "nothing (\(type.rawValue) attributes take no default)"
        }
    }
}

extension AttributeType {
    /// Whether `value` can be the default of an attribute of this type.
    func acceptsDefault(_ value: Value) -> Bool {
        switch (self, value) {
        case (.integer16, .int(let n)), (.integer32, .int(let n)), (.integer64, .int(let n)):
            return integerRange!.contains(n)
        case (.double, .int), (.double, .double), (.float, .int), (.float, .double): return true
        case (.decimal, .int), (.decimal, .double), (.decimal, .decimal): return true
        case (.string, .string), (.boolean, .bool), (.date, .date), (.binary, .data): return true
        case (.uuid, .uuid), (.uri, .string): return true
        default: return false
        }
    }

    /// Whether `value` can be a minimum or maximum of an attribute of this type.
    func acceptsBound(_ value: Value) -> Bool {
        if boundsAreLengths {
            if case .int(let n) = value { return n >= 0 }
            return false
        }
        return acceptsBounds && acceptsDefault(value)
    }
}

extension Value {
    /// The value as a number for comparing bounds (lengths, numbers, dates).
    var boundNumber: Double? {
        switch self {
        case .int(let n): return Double(n)
        case .double(let d), .date(let d): return d
        case .decimal(let d): return NSDecimalNumber(decimal: d).doubleValue
        default: return nil
        }
    }
}

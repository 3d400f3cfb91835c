// How Core Data reads the default values and bounds Xcode writes, which are
// not always values of the attribute's type. Xcode keeps the text of a
// default when the attribute's type changes, so a Boolean turned Integer 16
// still says `defaultValueString="NO"`, a Double turned Integer 32 says
// `0.0`, an Integer turned Boolean says `100`; a hand-typed maximum may lie
// beyond the type's range. Core Data's model compiler (momc) compiles all of
// these: it turns the text into a number the way Foundation's NSString does
// (`boolValue`, a number read up to what it cannot use) and stores the
// result in the attribute's type. So the XML reader converts instead of
// refusing, and says what it did in a warning.
//
// Quarry's own YAML/JSON format stays strict (`AttributeValues.defaultValue`):
// there a `0.0` for an integer is a mistake worth stopping for.
import Foundation
import QuarrySyntax

/// What became of a default or bound read leniently.
enum LenientValue: Equatable {
    /// The text is a value of the type, read as is.
    case exact(Value)
    /// The text was converted (rounded toward zero, clamped, YES → 1...);
    /// `note` says how, for the warning.
    case converted(Value, note: String)
    /// Nothing usable: the attribute gets no default or bound; `note` says why.
    case ignored(note: String)
}

extension AttributeValues {
    /// A default value from a Core Data model file, read as momc reads it.
    static func coreDataDefault(_ text: String, for type: AttributeType) -> LenientValue {
        if let exact = defaultValue(text, for: type) { return .exact(exact) }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch type {
        case .integer16, .integer32, .integer64:
            return integer(trimmed, for: type)
        case .double, .float:
            if let b = bool(trimmed) { return .converted(.double(b ? 1 : 0), note: "read as \(b ? 1 : 0)") }
            return .ignored(note: "not a number")
        case .decimal:
            if let b = bool(trimmed) { return .converted(.decimal(b ? 1 : 0), note: "read as \(b ? 1 : 0)") }
            return .ignored(note: "not a number")
        case .boolean:
            // NSString.boolValue: YES when the first character after
            // whitespace, a sign and leading zeros is Y, T or a digit 1–9.
            let b = foundationBool(trimmed)
            return .converted(.bool(b), note: "read as \(b ? "YES" : "NO") (Foundation's boolValue)")
        case .transformable, .objectID, .undefined:
            return .ignored(note: "\(type.rawValue) attributes take no default")
        case .string, .date, .binary, .uuid, .uri:
            return .ignored(note: "not \(describe(type))")
        }
    }

    /// A minimum or maximum from a Core Data model file: out-of-range
    /// integers are clamped to the type (momc stores the bound in the
    /// attribute's type, which cannot hold more), unreadable bounds ignored.
    static func coreDataBound(_ text: String, for type: AttributeType) -> LenientValue {
        if let exact = bound(text, for: type) { return .exact(exact) }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if !type.acceptsBounds { return .ignored(note: "a \(type.rawValue) attribute has no minimum or maximum") }
        if type.boundsAreLengths {
            if let d = Double(trimmed), d.isFinite, d >= 0, d < 9.2e18 {
                return .converted(.int(Int64(d)), note: "read as the length \(Int64(d))")
            }
            return .ignored(note: "not a length (a whole number ≥ 0)")
        }
        if type.integerRange != nil { return integer(trimmed, for: type) }
        return .ignored(note: "not \(describe(type))")
    }

    /// An integer of `type` from text that is not one: a decimal number is
    /// cut toward zero, YES/NO are 1/0, anything beyond the type's range is
    /// clamped to it.
    static func integer(_ text: String, for type: AttributeType) -> LenientValue {
        let range = type.integerRange!
        if let n = Int64(text) {
            let c = min(max(n, range.lowerBound), range.upperBound)
            return .converted(.int(c), note: "clamped to \(c), the \(n < c ? "smallest" : "largest") \(type.rawValue) value")
        }
        if let d = Double(text), d.isFinite {
            let t = d.rounded(.towardZero)
            if t < Double(range.lowerBound) {
                return .converted(.int(range.lowerBound), note: "clamped to \(range.lowerBound), the smallest \(type.rawValue) value")
            }
            if t >= Double(range.upperBound) {
                return .converted(.int(range.upperBound), note: "clamped to \(range.upperBound), the largest \(type.rawValue) value")
            }
            return .converted(.int(Int64(t)), note: "read as \(Int64(t))")
        }
        if let b = bool(text) { return .converted(.int(b ? 1 : 0), note: "read as \(b ? 1 : 0)") }
        return .ignored(note: "not \(describe(type))")
    }

    /// Foundation's `-[NSString boolValue]`.
    static func foundationBool(_ text: String) -> Bool {
        var rest = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        if let first = rest.first, first == "+" || first == "-" { rest = rest.dropFirst() }
        rest = rest.drop { $0 == "0" }
        guard let c = rest.first else { return false }
        return "YyTt123456789".contains(c)
    }
}

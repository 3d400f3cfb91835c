// The string functions, named once: `uppercase:` / `lowercase:` / `length:`
// as functions, `FUNCTION(s, 'uppercase')`-style methods (FunctionRegistry)
// and the `.uppercaseString` / `.length` key suffixes (ScalarKey) are the
// same three computations. The evaluator's function table and registry read
// their names and bodies from here, and the SQL lowering switches on the
// enum to keep them in memory (SQL's UPPER and LENGTH do not fold or count
// as Foundation does), so no file spells a name or a rule of its own.
import QuarrySyntax

public enum StringFunction: String, Sendable, CaseIterable {
    case uppercase, lowercase, length

    /// The function named in a predicate (`uppercase:` or `uppercase`); nil
    /// for any other function.
    public init?(function name: String) {
        let bare = name.hasSuffix(":") ? name.dropLast() : Substring(name)
        self.init(rawValue: String(bare))
    }

    /// The function's name as the function table spells it (`uppercase:`).
    public var functionName: String { rawValue + ":" }

    /// The method names FUNCTION(receiver, 'name') answers with this
    /// computation (Foundation's property names included).
    public var methodNames: [String] {
        switch self {
        case .uppercase: return ["uppercase", "uppercaseString"]
        case .lowercase: return ["lowercase", "lowercaseString"]
        case .length: return ["length"]
        }
    }

    /// The key suffix that computes the same (`name.uppercaseString`).
    public var scalarKey: ScalarKey {
        switch self {
        case .uppercase: return .uppercaseString
        case .lowercase: return .lowercaseString
        case .length: return .length
        }
    }

    /// The function's value on a string: Foundation's case mapping, and the
    /// length in UTF-16 code units (NSString's `length`).
    public func apply(_ s: String) -> Value {
        switch self {
        case .uppercase: return .string(s.uppercased())
        case .lowercase: return .string(s.lowercased())
        case .length: return .int(Int64(s.utf16.count))
        }
    }
}

// Host functions for `FUNCTION(receiver, 'name', args…)`. Apple sends an
// arbitrary Objective-C message there; Quarry instead looks the name up in a
// registry the host program fills in, so a predicate can only call what the
// host allowed — safe by construction, no reflection. An unregistered name
// is error E002. Plain calls whose name is not a predefined function
// (`mgl_interpolate:…(x)`) are looked up here too, with a nil receiver.

/// Functions a host program makes callable from predicates and expressions.
///
/// ```swift
/// var functions = FunctionRegistry.standard
/// functions.register("pow:", arity: 1) { receiver, args throws(Diagnostic) in
///     guard case .int(let b) = receiver, case .int(let e) = args[0] else { return .null }
///     return .double(pow(Double(b), Double(e)))
/// }
/// var options = EvaluationOptions()
/// options.functions = functions
/// let p = try Evaluator.compile(try Parser.parsePredicate("FUNCTION(a, 'pow:', 3) == 8"), options: options)
/// try p.evaluate(.dictionary(["a": .int(2)]))   // true
/// ```
public struct FunctionRegistry: Sendable {
    /// A host function: the receiver (nil for plain calls) and the arguments, evaluated.
    public typealias Body = @Sendable (_ receiver: Value, _ arguments: [Value]) throws(Diagnostic) -> Value

    struct Entry: Sendable {
        let arity: Int?
        let body: Body
    }

    var entries: [String: Entry] = [:]

    /// An empty registry.
    public init() {}

    /// Registers `name` (as written in the predicate, e.g. `"pow:"` or
    /// `"uppercaseString"`). `arity` nil accepts any number of arguments.
    /// A later registration of the same name replaces the earlier one.
    public mutating func register(_ name: String, arity: Int? = nil, _ body: @escaping Body) {
        entries[name] = Entry(arity: arity, body: body)
    }

    /// Whether `name` is registered.
    public func contains(_ name: String) -> Bool { entries[name] != nil }

    /// The registered names, sorted.
    public var names: [String] { entries.keys.sorted() }

    func lookup(_ name: String) -> Entry? {
        for s in Builtins.spellings(name) { if let e = entries[s] { return e } }
        return nil
    }

    /// A registry with the string methods predicates commonly send through
    /// FUNCTION: `uppercase`, `lowercase`, `uppercaseString`,
    /// `lowercaseString`, `length`, `stringByTrimmingWhitespace`. Their
    /// receiver must be a string (nil gives nil).
    public static let standard: FunctionRegistry = {
        var r = FunctionRegistry()
        func stringMethod(_ name: String, _ f: @escaping @Sendable (String) -> Value) {
            r.register(name, arity: 0) { (receiver, _) throws(Diagnostic) -> Value in
                switch receiver {
                case .null: return .null
                case .string(let s): return f(s)
                default:
                    throw Diagnostic(.typeMismatch, "\(name) needs a string receiver, got \(receiver.typeName)",
                                     at: .synthesized, stage: .evaluate)
                }
            }
        }
        for f in StringFunction.allCases {
            for name in f.methodNames { stringMethod(name, f.apply) }
        }
        stringMethod("stringByTrimmingWhitespace") {
            .string(String($0.drop(while: { $0.isWhitespace }).reversed().drop(while: { $0.isWhitespace }).reversed()))
        }
        return r
    }()
}

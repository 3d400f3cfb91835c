// The predefined functions of NSExpression (`sum:`, `add:to:`, `now` …),
// looked up by name at compile time. Names may be written without their
// trailing colon in call syntax (`sum(x)` is `sum:`, `now()` is `now`), and
// one name can have spellings for several arities (`random` and `random:`).
// A name that is neither here nor in the host's FunctionRegistry is error
// E002 at compile time — never at parse time, since real code uses names the
// parser cannot know (map styling's `mgl_interpolate:…`).
//
// The aggregate functions take one collection argument (`sum:({1, 2})`,
// `average:(employees.salary)`); given several arguments they aggregate
// those (`max(a, b)`), and a single scalar counts as a one-element list.
import Foundation

/// What a built-in function may need besides its arguments.
struct BuiltinContext {
    let span: SourceSpan
    let now: @Sendable () -> Double
    let random: RandomSource
}

struct Builtin: Sendable {
    typealias Body = @Sendable ([Value], BuiltinContext) throws(Diagnostic) -> Value
    let name: String
    let arity: ClosedRange<Int>
    /// Pure functions of constant arguments are folded at compile time.
    let pure: Bool
    let body: Body
}

enum Builtins {
    /// Spellings of a written name to try, in order: as written, with a
    /// trailing colon, without it.
    static func spellings(_ name: String) -> [String] {
        if name.hasSuffix(":") { return [name, String(name.dropLast())] }
        return [name, name + ":"]
    }

    static func lookup(_ name: String, argumentCount: Int) -> (Builtin?, arityMismatch: Builtin?) {
        var mismatch: Builtin? = nil
        for s in spellings(name) {
            guard let b = table[s] else { continue }
            if b.arity.contains(argumentCount) { return (b, nil) }
            mismatch = mismatch ?? b
        }
        return (nil, mismatch)
    }

    static func items(_ args: [Value]) -> [Value] {
        if args.count == 1 {
            if args[0].isNull { return [] }
            return Collections.elements(args[0]) ?? [args[0]]
        }
        return args
    }

    static func unaryMath(_ name: String, _ f: @escaping @Sendable (Double) -> Double) -> Builtin {
        Builtin(name: name, arity: 1...1, pure: true) { (args, ctx) throws(Diagnostic) -> Value in
            if args[0].isNull { return .null }
            guard let n = Number(args[0]) else { throw Arithmetic.typeError(name, args[0], nil, ctx.span) }
            return .double(f(n.doubleValue))
        }
    }

    /// floor:, ceiling:, trunc: keep integers as they are.
    static func rounding(_ name: String, _ rule: FloatingPointRoundingRule) -> Builtin {
        Builtin(name: name, arity: 1...1, pure: true) { (args, ctx) throws(Diagnostic) -> Value in
            switch args[0] {
            case .null: return .null
            case .int: return args[0]
            case .bool(let b): return .int(b ? 1 : 0)
            case .double(let d): return .double(d.rounded(rule))
            case .decimal(let d):
                var x = d, r = Decimal()
                let mode: NSDecimalNumber.RoundingMode
                switch rule {
                case .down: mode = .down
                case .up: mode = .up
                default: mode = d < 0 ? .up : .down
                }
                NSDecimalRound(&r, &x, 0, mode)
                return .decimal(r)
            default: throw Arithmetic.typeError(name, args[0], nil, ctx.span)
            }
        }
    }

    static func binary(_ op: BinaryOperator) -> Builtin {
        Builtin(name: op.functionName, arity: 2...2, pure: true) { (args, ctx) throws(Diagnostic) -> Value in
            try Arithmetic.binary(op, args[0], args[1], span: ctx.span)
        }
    }

    static func string(_ name: String, _ f: @escaping @Sendable (String) -> Value) -> Builtin {
        Builtin(name: name, arity: 1...1, pure: true) { (args, ctx) throws(Diagnostic) -> Value in
            switch args[0] {
            case .null: return .null
            case .string(let s): return f(s)
            default:
                throw evaluationError(.typeMismatch, "\(name) needs a string, got \(args[0].typeName)", at: ctx.span)
            }
        }
    }

    static func aggregate(_ name: String, _ f: @escaping @Sendable ([Value], SourceSpan) throws(Diagnostic) -> Value) -> Builtin {
        Builtin(name: name, arity: 1...Int.max, pure: true) { (args, ctx) throws(Diagnostic) -> Value in
            try f(items(args), ctx.span)
        }
    }

    static func aggregate(_ a: StoreAggregate, _ f: @escaping @Sendable ([Value], SourceSpan) throws(Diagnostic) -> Value) -> Builtin {
        aggregate(a.functionName ?? a.spelling, f)
    }

    static let table: [String: Builtin] = {
        var all: [Builtin] = [
            // The aggregates a store also computes are named by StoreAggregate,
            // the enum the SQL lowering switches on.
            aggregate(.sum) { (v, s) throws(Diagnostic) in try Aggregates.sum(v, span: s) },
            aggregate(.count) { (v, _) in .int(Int64(v.count)) },
            aggregate(.min) { (v, s) throws(Diagnostic) in try Aggregates.extreme(v, wantMax: false, span: s) },
            aggregate(.max) { (v, s) throws(Diagnostic) in try Aggregates.extreme(v, wantMax: true, span: s) },
            aggregate(.average) { (v, s) throws(Diagnostic) in try Aggregates.average(v, span: s) },
            aggregate("median:") { (v, s) throws(Diagnostic) in try Aggregates.median(v, span: s) },
            aggregate("mode:") { (v, _) in Aggregates.mode(v) },
            aggregate("stddev:") { (v, s) throws(Diagnostic) in try Aggregates.standardDeviation(v, span: s) },
            aggregate("distinct:") { (v, _) in .array(Collections.distinct(v)) },
            unaryMath("sqrt:") { $0.squareRoot() },
            unaryMath("log:") { Foundation.log10($0) },
            unaryMath("ln:") { Foundation.log($0) },
            unaryMath("exp:") { Foundation.exp($0) },
            rounding("floor:", .down),
            rounding("ceiling:", .up),
            rounding("trunc:", .towardZero),
            Builtin(name: "abs:", arity: 1...1, pure: true) { (args, ctx) throws(Diagnostic) -> Value in
                switch args[0] {
                case .null: return .null
                case .int(let i): return i == .min ? .double(-Double(i)) : .int(Swift.abs(i))
                case .bool(let b): return .int(b ? 1 : 0)
                case .double(let d): return .double(Swift.abs(d))
                case .decimal(let d): return .decimal(d < 0 ? -d : d)
                default: throw Arithmetic.typeError("abs:", args[0], nil, ctx.span)
                }
            },
            Builtin(name: "modulus:by:", arity: 2...2, pure: true) { (args, ctx) throws(Diagnostic) -> Value in
                try Arithmetic.modulus(args[0], args[1], span: ctx.span)
            },
            Builtin(name: "onesComplement:", arity: 1...1, pure: true) { (args, ctx) throws(Diagnostic) -> Value in
                try Arithmetic.complement(args[0], span: ctx.span)
            },
            // Core Data's derivation function: case- and diacritic-folded,
            // as [cd] folds (what a store keeps in a derived column). Not in
            // StringFunction: it has no key suffix or method spelling, and
            // only derivations (QuarryModel's Derivation) call it.
            string("canonical:") { .string(Folding(caseInsensitive: true, diacriticInsensitive: true).fold($0)) },
            // Apple's private spelling, seen in archived Core Data predicates.
            string("_convertStringToNumber:") { Cast.number(from: $0) ?? .null },
            Builtin(name: ClockFunction.name, arity: 0...0, pure: false) { (_, ctx) in .date(ctx.now()) },
            Builtin(name: "random", arity: 0...0, pure: false) { (_, ctx) in .double(ctx.random.nextDouble()) },
            Builtin(name: "noindex:", arity: 1...1, pure: true) { (args, _) in args[0] },
            Builtin(name: "castObject:toType:", arity: 2...2, pure: true) { (args, ctx) throws(Diagnostic) -> Value in
                guard case .string(let type) = args[1] else {
                    throw evaluationError(.badFunctionArgument, "castObject:toType: needs a type name string", at: ctx.span)
                }
                return try Cast.cast(args[0], to: type, span: ctx.span)
            },
            Builtin(name: "objectFrom:withIndex:", arity: 2...2, pure: true) { (args, ctx) throws(Diagnostic) -> Value in
                try Index.element(of: args[0], at: args[1], span: ctx.span)
            },
        ]
        // uppercase:, lowercase:, length: — named and computed by StringFunction.
        all += StringFunction.allCases.map { f in string(f.functionName, f.apply) }
        for name in ["random:", "randomn:"] {
            all.append(Builtin(name: name, arity: 1...1, pure: false) { (args, ctx) throws(Diagnostic) -> Value in
                guard case .int(let n)? = Number(args[0]), n > 0 else {
                    throw evaluationError(.badFunctionArgument, "\(name) needs a positive integer bound, got \(Printer.format(args[0]))", at: ctx.span)
                }
                return .int(Int64(ctx.random.next() % UInt64(n)))
            })
        }
        for op in BinaryOperator.allCases { all.append(binary(op)) }
        return Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }()
}

/// Quarry's own seeded generator (SplitMix64), shared by the closures of one
/// compiled tree: the same seed gives the same sequence on every platform.
final class RandomSource: @unchecked Sendable {
    private var state: UInt64
    private let lock = NSLock()

    init(seed: UInt64) { state = seed }

    func next() -> UInt64 {
        lock.lock()
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        lock.unlock()
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    func nextDouble() -> Double { Double(next() >> 11) * 0x1p-53 }
}

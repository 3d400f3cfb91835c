// Compiling a predicate for one host class (`Evaluator.compile(_:for:)`).
//
// The predicate is compiled twice: once as usual (the general closure tree,
// for objects of any other type), and once into closures over `Root` itself.
// In the second tree, a comparison whose left side is a path of plain keys
// that `Root` has typed accessors for, and whose right side is a constant,
// reads the property through its accessor (resolved here, once) and
// compares without building a `Value` in the common cases — a string, an
// integer or a double against a constant of the same kind. Every other
// comparison is the general closure applied to the object, so the two trees
// answer alike by construction: NOT / AND / OR fold and short-circuit exactly
// as Compiler+Predicates.swift does, and each fast case falls back to
// `Comparator.test` on the value the accessor gives whenever it is not the
// plain case (nil, a folding option, a constant of another type).

/// A compiled predicate over a typed host object.
typealias TypedBoolClosure<Root> = @Sendable (Root, Env) throws(Diagnostic) -> Bool

enum TypedCompiledBool<Root> {
    case constant(Bool)
    case dynamic(TypedBoolClosure<Root>)
}

struct TypedCompiler<Root: TypedKeyValueAccessible> {
    /// Compiles the parts that take the general path. A copy of the compiler
    /// that compiled the general tree: it shares its random source and goes
    /// on numbering slots after it.
    var base: Compiler

    mutating func predicate(_ p: Predicate) throws(Diagnostic) -> TypedCompiledBool<Root> {
        switch p.kind {
        case .constant(let b):
            return .constant(b)
        case .not(let inner):
            switch try predicate(inner) {
            case .constant(let b): return .constant(!b)
            case .dynamic(let f): return .dynamic { (r: Root, env) throws(Diagnostic) -> Bool in !(try f(r, env)) }
            }
        case .and(let parts):
            return try junction(parts, isAnd: true)
        case .or(let parts):
            return try junction(parts, isAnd: false)
        case .comparison(let c):
            if let typed = try comparison(c, span: p.span) { return .dynamic(typed) }
            return try general(p)
        }
    }

    /// The general closure, applied to the object as SELF.
    mutating func general(_ p: Predicate) throws(Diagnostic) -> TypedCompiledBool<Root> {
        switch try base.predicate(p) {
        case .constant(let b): return .constant(b)
        case .dynamic(let f):
            return .dynamic { (r: Root, env) throws(Diagnostic) -> Bool in try f(.object(ObjectReference(r)), env) }
        }
    }

    /// As `Compiler.junction`, over typed closures.
    mutating func junction(_ parts: [Predicate], isAnd: Bool) throws(Diagnostic) -> TypedCompiledBool<Root> {
        var steps: [TypedBoolStep<Root>] = []
        var decided = false
        for part in parts {
            switch try predicate(part) {
            case .constant(let b):
                if b != isAnd { decided = true }
            case .dynamic(let f):
                steps.append(TypedBoolStep(closure: f))
            }
        }
        if decided { return .constant(!isAnd) }
        switch steps.count {
        case 0: return .constant(isAnd)
        case 1: return .dynamic(steps[0].closure)
        case 2:
            let a = steps[0].closure, b = steps[1].closure
            if isAnd {
                return .dynamic { (r: Root, env) throws(Diagnostic) -> Bool in
                    if !(try a(r, env)) { return false }
                    return try b(r, env)
                }
            }
            return .dynamic { (r: Root, env) throws(Diagnostic) -> Bool in
                if try a(r, env) { return true }
                return try b(r, env)
            }
        default:
            let all = steps
            return .dynamic { (r: Root, env) throws(Diagnostic) -> Bool in
                for step in all where try step.closure(r, env) != isAnd { return !isAnd }
                return isAnd
            }
        }
    }

    /// `path op constant` through typed accessors, or nil for the general path.
    mutating func comparison(_ c: Comparison, span: SourceSpan) throws(Diagnostic) -> TypedBoolClosure<Root>? {
        guard c.modifier == .direct, c.op != .utiConformsTo, c.op != .utiEquals,
              case .keyPath(nil, let path) = c.lhs.kind,
              !path.contains(where: { $0.hasPrefix("$") || $0.hasPrefix("@") }),
              let accessor = Root.accessor(forPath: path) else { return nil }
        // The right side compiled on a scratch copy: when it is not a
        // constant, the general path compiles it again, for real.
        var scratch = base
        guard let k = try scratch.expression(c.rhs).constant else { return nil }
        let cmp = try Comparator(op: c.op, options: c.options, rhs: k, timeLimit: base.options.regexTimeLimit,
                                 span: span, rhsSpan: c.rhs.span)
        return TypedComparison.closure(accessor, cmp, k)
    }
}

/// A typed closure in a non-generic-field box (see `BoolStep`).
struct TypedBoolStep<Root> {
    let closure: TypedBoolClosure<Root>
}

/// The typed comparisons: `accessor op k`, each answering as
/// `cmp.test(accessor's value, k)` does.
enum TypedComparison {
    static func closure<Root>(_ accessor: KeyAccessor<Root>, _ cmp: Comparator, _ k: Value) -> TypedBoolClosure<Root> {
        let op = cmp.op
        switch (accessor.read, k) {
        case (.string(let f), .string(let s)):
            if let special = string(f, cmp, s, k) { return special }
        case (.int(let f), .int(let i)) where cmp.folding.isNone && IntegerTest.handles(op):
            return { (r: Root, _) throws(Diagnostic) -> Bool in
                if let x = f(r) { return IntegerTest.holds(op, x, i) }
                return try cmp.test(.null, k)
            }
        case (.double(let f), .double(let d)) where cmp.folding.isNone
                && (op == .less || op == .lessOrEqual || op == .greater || op == .greaterOrEqual):
            return { (r: Root, _) throws(Diagnostic) -> Bool in
                guard let x = f(r) else { return try cmp.test(.null, k) }
                switch op {
                case .less: return x < d
                case .lessOrEqual: return x <= d
                case .greater: return x > d
                default: return x >= d
                }
            }
        default:
            break
        }
        let value = accessor.value
        return { (r: Root, _) throws(Diagnostic) -> Bool in try cmp.test(value(r), k) }
    }

    /// A string property against a constant string.
    static func string<Root>(_ f: @escaping @Sendable (Root) -> String?, _ cmp: Comparator, _ s: String,
                             _ k: Value) -> TypedBoolClosure<Root>? {
        let op = cmp.op
        if cmp.folding.isNone && (op == .equal || op == .notEqual) {
            let equal = op == .equal
            return { (r: Root, _) throws(Diagnostic) -> Bool in
                guard let t = f(r) else { return try cmp.test(.null, k) }
                return (t == s) == equal
            }
        }
        guard let needle = cmp.needle else { return nil }
        let matcher = cmp.matcher
        switch op {
        case .beginsWith:
            return { (r: Root, _) throws(Diagnostic) -> Bool in
                guard let t = f(r) else { return try cmp.test(.null, k) }
                return matcher.beginsWith(t, needle)
            }
        case .endsWith:
            return { (r: Root, _) throws(Diagnostic) -> Bool in
                guard let t = f(r) else { return try cmp.test(.null, k) }
                return matcher.endsWith(t, needle)
            }
        case .contains:
            return { (r: Root, _) throws(Diagnostic) -> Bool in
                guard let t = f(r) else { return try cmp.test(.null, k) }
                return matcher.contains(t, needle)
            }
        case .equal:
            return { (r: Root, _) throws(Diagnostic) -> Bool in
                guard let t = f(r) else { return try cmp.test(.null, k) }
                return matcher.equal(t, needle)
            }
        default:
            return nil
        }
    }
}

// Predicates → closures: constants, NOT, AND / OR (short-circuit, left to
// right; constant parts folded away), and comparisons with their
// quantifiers. ANY / SOME is true when some element satisfies the
// comparison, ALL when every one does (vacuously true for an empty
// collection), NONE when none does. A left side that is not a collection is
// one element; nil is the empty collection.
//
// Direct comparisons against a constant get specialised closures for the
// common cases (a string, an integer, a double, a prepared string operator),
// so `department.name == 'Dept 7' AND salary > 50000` does no generic
// dispatch per object.

extension Compiler {
    mutating func predicate(_ p: Predicate) throws(Diagnostic) -> CompiledBool {
        switch p.kind {
        case .constant(let b):
            return .constant(b)
        case .not(let inner):
            let c = try predicate(inner)
            switch c {
            case .constant(let b): return .constant(!b)
            case .dynamic(let f): return .dynamic { (o, env) throws(Diagnostic) -> Bool in !(try f(o, env)) }
            }
        case .and(let parts):
            return try junction(parts, isAnd: true)
        case .or(let parts):
            return try junction(parts, isAnd: false)
        case .comparison(let c):
            return try comparison(c, span: p.span)
        }
    }

    /// AND (isAnd) or OR of parts. A part equal to the junction's identity
    /// (true for AND) is dropped; its absorbing value decides the whole.
    mutating func junction(_ parts: [Predicate], isAnd: Bool) throws(Diagnostic) -> CompiledBool {
        var closures: [BoolClosure] = []
        var decided = false
        for part in parts {
            switch try predicate(part) {
            case .constant(let b):
                if b != isAnd { decided = true }
            case .dynamic(let f):
                closures.append(f)
            }
        }
        if decided { return .constant(!isAnd) }
        switch closures.count {
        case 0: return .constant(isAnd)
        case 1: return .dynamic(closures[0])
        case 2:
            let a = closures[0], b = closures[1]
            if isAnd {
                return .dynamic { (o, env) throws(Diagnostic) -> Bool in
                    if !(try a(o, env)) { return false }
                    return try b(o, env)
                }
            }
            return .dynamic { (o, env) throws(Diagnostic) -> Bool in
                if try a(o, env) { return true }
                return try b(o, env)
            }
        default:
            let all = closures
            return .dynamic { (o, env) throws(Diagnostic) -> Bool in
                for f in all where try f(o, env) != isAnd { return !isAnd }
                return isAnd
            }
        }
    }

    mutating func comparison(_ c: Comparison, span: SourceSpan) throws(Diagnostic) -> CompiledBool {
        if c.op == .utiConformsTo || c.op == .utiEquals {
            throw evaluationError(.unsupportedOperation, "\(c.op.rawValue) is not supported: Quarry has no Uniform Type Identifier database",
                                  at: span, hints: ["compare the type identifier strings with == or BEGINSWITH instead"])
        }
        let l = try expression(c.lhs)
        let r = try expression(c.rhs)
        let cmp = try Comparator(op: c.op, options: c.options, rhs: r.constant,
                                 timeLimit: options.regexTimeLimit, span: span, rhsSpan: c.rhs.span)
        let lf = l.closure, rf = r.closure
        switch c.modifier {
        case .direct:
            if let k = r.constant, l.constant == nil, let special = specialised(cmp, lf, k) {
                return .dynamic(special)
            }
            return foldBool({ (o, env) throws(Diagnostic) -> Bool in try cmp.test(try lf(o, env), try rf(o, env)) }, [l, r])
        case .any, .all, .none:
            let modifier = c.modifier
            let closure: BoolClosure = { (o, env) throws(Diagnostic) -> Bool in
                let lv = try lf(o, env)
                let rv = try rf(o, env)
                switch lv {
                case .null: return modifier != .any
                case .array(let items), .orderedSet(let items), .set(let items):
                    return try Compiler.quantify(modifier, items, rv, cmp)
                case .dictionary(let d):
                    return try Compiler.quantify(modifier, Array(d.values), rv, cmp)
                default:
                    return try Compiler.quantify(modifier, [lv], rv, cmp)
                }
            }
            return foldBool(closure, [l, r])
        }
    }

    static func quantify(_ modifier: ComparisonModifier, _ items: [Value], _ rv: Value, _ cmp: Comparator) throws(Diagnostic) -> Bool {
        switch modifier {
        case .all:
            for item in items where !(try cmp.test(item, rv)) { return false }
            return true
        case .none:
            for item in items where try cmp.test(item, rv) { return false }
            return true
        default:
            for item in items where try cmp.test(item, rv) { return true }
            return false
        }
    }

    /// Closures for `lhs op constant` without the generic dispatch.
    func specialised(_ cmp: Comparator, _ lf: @escaping ValueClosure, _ k: Value) -> BoolClosure? {
        let op = cmp.op
        if cmp.folding.isNone {
            switch (op, k) {
            case (.equal, .string(let s)):
                return { (o, env) throws(Diagnostic) -> Bool in
                    let v = try lf(o, env)
                    if case .string(let t) = v { return t == s }
                    return false
                }
            case (.notEqual, .string(let s)):
                return { (o, env) throws(Diagnostic) -> Bool in
                    let v = try lf(o, env)
                    if case .string(let t) = v { return t != s }
                    return true
                }
            case (.equal, .null):
                return { (o, env) throws(Diagnostic) -> Bool in try lf(o, env).isNull }
            case (.notEqual, .null):
                return { (o, env) throws(Diagnostic) -> Bool in !(try lf(o, env).isNull) }
            case (.equal, .int(let i)), (.notEqual, .int(let i)), (.less, .int(let i)), (.lessOrEqual, .int(let i)),
                 (.greater, .int(let i)), (.greaterOrEqual, .int(let i)):
                return { (o, env) throws(Diagnostic) -> Bool in
                    let v = try lf(o, env)
                    if case .int(let x) = v {
                        switch op {
                        case .equal: return x == i
                        case .notEqual: return x != i
                        case .less: return x < i
                        case .lessOrEqual: return x <= i
                        case .greater: return x > i
                        default: return x >= i
                        }
                    }
                    return try cmp.test(v, k)
                }
            case (.less, .double(let d)), (.lessOrEqual, .double(let d)), (.greater, .double(let d)), (.greaterOrEqual, .double(let d)):
                return { (o, env) throws(Diagnostic) -> Bool in
                    let v = try lf(o, env)
                    if case .double(let x) = v {
                        switch op {
                        case .less: return x < d
                        case .lessOrEqual: return x <= d
                        case .greater: return x > d
                        default: return x >= d
                        }
                    }
                    return try cmp.test(v, k)
                }
            default: break
            }
        }
        switch (op, k) {
        case (.beginsWith, .string), (.endsWith, .string), (.like, .string):
            return { (o, env) throws(Diagnostic) -> Bool in try cmp.stringTest(try lf(o, env), k) }
        case (.equal, .string(let s)):
            guard let needle = cmp.needle else { return nil }
            let matcher = cmp.matcher
            return { (o, env) throws(Diagnostic) -> Bool in
                let v = try lf(o, env)
                if case .string(let t) = v { return matcher.equal(t, needle) }
                return Compare.equal(v, .string(s))
            }
        default:
            return nil
        }
    }
}

// Predicates → closures: constants, NOT, AND / OR (short-circuit, left to
// right; constant parts folded away), and comparisons with their
// quantifiers. ANY / SOME is true when some element satisfies the
// comparison, ALL when every one does (vacuously true for an empty
// collection), NONE when none does. A left side that is not a collection is
// one element; nil is the empty collection.
//
// Direct comparisons against a constant get specialised closures for the
// common cases (Compiler+Specialised.swift), so `department.name == 'Dept 7'
// AND salary > 50000` does no generic dispatch per object.

extension Compiler {
    mutating func predicate(_ p: QueryPredicate) throws(Diagnostic) -> CompiledBool {
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
    ///
    /// The closures are kept in a `BoolStep` (a non-generic struct), never
    /// in a bare `[BoolClosure]`: an array holds a function at its most
    /// general abstraction, so each call would pass through a thunk.
    mutating func junction(_ parts: [QueryPredicate], isAnd: Bool) throws(Diagnostic) -> CompiledBool {
        var steps: [AndStep] = []
        var decided = false
        for part in parts {
            let code: ComparisonCode
            if isAnd, case .comparison(let c) = part.kind {
                code = try comparisonCode(c, span: part.span)
            } else {
                code = .compiled(try predicate(part))
            }
            switch code {
            case .test(let build): steps.append(.test(build))
            case .compiled(.constant(let b)): if b != isAnd { decided = true }
            case .compiled(.dynamic(let f)): steps.append(.closure(BoolStep(f)))
            }
        }
        if decided { return .constant(!isAnd) }
        if steps.isEmpty { return .constant(isAnd) }
        let closures = steps.map(\.closure)
        if closures.count == 1 { return .dynamic(closures[0].closure) }
        let fast: BoolClosure
        if isAnd {
            fast = AndStep.chain(steps)
        } else if closures.count == 2 {
            let a = closures[0].closure, b = closures[1].closure
            fast = { (o, env) throws(Diagnostic) -> Bool in
                if try a(o, env) { return true }
                return try b(o, env)
            }
        } else {
            let all = closures
            fast = { (o, env) throws(Diagnostic) -> Bool in
                for step in all where try step.closure(o, env) { return true }
                return false
            }
        }
        return .dynamic(decidesPastErrors ? Compiler.decidedByAnyPart(fast, closures, isAnd: isAnd) : fast)
    }

    /// An AND that one part makes false is false, and an OR that one part
    /// makes true is true, even when another part raises an error: an error
    /// stands only when no part decides the junction. The order of the parts
    /// then cannot change an answer — the SQL planner sends some parts of a
    /// conjunction to the database, which filters on them before the rest
    /// is evaluated in memory, and which parts go depends on the database
    /// (PostgreSQL keeps `MATCHES[c]` in memory, SQLite does not). `fast`
    /// runs left to right and stops at the first deciding part, as before;
    /// only when it raises are the parts tried one by one. Only the tree a
    /// `CompiledPredicate` falls back to after an error is built this way
    /// (`decidesPastErrors`): the first tree pays nothing for the rule.
    static func decidedByAnyPart(_ fast: @escaping BoolClosure, _ parts: [BoolStep], isAnd: Bool) -> BoolClosure {
        { (o, env) throws(Diagnostic) -> Bool in
            do throws(Diagnostic) { return try fast(o, env) } catch {
                for part in parts { if let v = try? part.closure(o, env), v != isAnd { return v } }
                throw error
            }
        }
    }

    mutating func comparison(_ c: Comparison, span: SourceSpan) throws(Diagnostic) -> CompiledBool {
        switch try comparisonCode(c, span: span) {
        case .test(let build): return .dynamic(build(nil))
        case .compiled(let b): return b
        }
    }

    /// A comparison compiled as a specialised test, which an AND chain can
    /// hand what follows it, or as anything else.
    mutating func comparisonCode(_ c: Comparison, span: SourceSpan) throws(Diagnostic) -> ComparisonCode {
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
            if let k = r.constant, l.constant == nil {
                // A plain key path on the left is read inline (ValueReader.swift).
                let test: ((BoolClosure?) -> BoolClosure)?
                switch c.lhs.plainKeys {
                case let keys? where keys.count == 1:
                    test = specialisedTest(cmp, KeyReader(key: keys[0], span: c.lhs.span), k)
                case let keys?:
                    test = specialisedTest(cmp, KeyPairReader(first: keys[0], second: keys[1], span: c.lhs.span), k)
                case nil:
                    test = specialisedTest(cmp, ClosureReader(closure: lf), k)
                }
                if let test { return .test(test) }
            }
            return .compiled(foldBool({ (o, env) throws(Diagnostic) -> Bool in try cmp.test(try lf(o, env), try rf(o, env)) }, [l, r]))
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
            return .compiled(foldBool(closure, [l, r]))
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
}

/// A compiled predicate in a non-generic box, for arrays of them.
struct BoolStep {
    let closure: BoolClosure
    init(_ closure: @escaping BoolClosure) { self.closure = closure }
}

/// A comparison as `comparisonCode` compiles it.
enum ComparisonCode {
    /// A specialised test; given the closure for the rest of an AND, it
    /// calls it itself when it holds (nil: nothing follows).
    case test((BoolClosure?) -> BoolClosure)
    case compiled(CompiledBool)
}

/// One part of an AND, and how the parts chain. A specialised test calls
/// the rest of the AND itself, so `a AND b` runs in `a`'s closure and `b`'s,
/// with no junction closure between them: on most objects `a` fails and
/// its closure is the only one that runs.
enum AndStep {
    case test((BoolClosure?) -> BoolClosure)
    case closure(BoolStep)

    var closure: BoolStep {
        switch self {
        case .test(let build): return BoolStep(build(nil))
        case .closure(let step): return step
        }
    }

    /// How many parts one nested chain holds. Each part of a chain calls the
    /// next, so a chain of n parts is n frames deep when all hold; a longer
    /// AND runs its chains of this length one after another in a loop, so
    /// `a == 1 AND … ` with 100,000 parts cannot overflow the stack.
    static let segmentLength = 64

    /// The parts, left to right, each evaluated only when all before it held.
    static func chain(_ steps: [AndStep]) -> BoolClosure {
        guard steps.count > segmentLength else { return nestedChain(steps[...]) }
        let segments = stride(from: 0, to: steps.count, by: segmentLength).map { start in
            BoolStep(nestedChain(steps[start..<min(start + segmentLength, steps.count)]))
        }
        return { (o, env) throws(Diagnostic) -> Bool in
            for segment in segments where !(try segment.closure(o, env)) { return false }
            return true
        }
    }

    /// A chain as nested closures, a specialised test handing on to the next.
    static func nestedChain(_ steps: ArraySlice<AndStep>) -> BoolClosure {
        var rest: BoolClosure? = nil
        for step in steps.reversed() {
            switch step {
            case .test(let build):
                rest = build(rest)
            case .closure(let step):
                guard let next = rest else {
                    rest = step.closure
                    continue
                }
                let f = step.closure
                rest = { (o, env) throws(Diagnostic) -> Bool in
                    if !(try f(o, env)) { return false }
                    return try next(o, env)
                }
            }
        }
        return rest!
    }
}

/// `x op i` for integers, the operators `specialised` handles.
enum IntegerTest {
    static func handles(_ op: ComparisonOperator) -> Bool {
        switch op {
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual: return true
        default: return false
        }
    }

    @inline(__always)
    static func holds(_ op: ComparisonOperator, _ x: Int64, _ i: Int64) -> Bool {
        switch op {
        case .equal: return x == i
        case .notEqual: return x != i
        case .less: return x < i
        case .lessOrEqual: return x <= i
        case .greater: return x > i
        default: return x >= i
        }
    }
}

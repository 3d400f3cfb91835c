// Compiling a predicate for one host class (`Evaluator.compile(_:for:)`).
// Nothing here is generic: the root type is erased to its key reads (see
// TypedKeyValueAccessible.swift), so no closure pays for generic
// abstraction at run time.
//
// The predicate is compiled twice: once as usual (the general closure tree,
// for objects of any other type), and once into closures over objects of the
// class. In the second tree, a comparison whose left side is a path of plain
// keys that the class has typed accessors for, and whose right side is a constant,
// reads the property through its accessor (resolved here, once) and
// compares without building a `Value` in the common cases — a string, an
// integer or a double against a constant of the same kind. Every other
// comparison is the general closure applied to the object, so the two trees
// answer alike by construction: NOT / AND / OR fold and short-circuit exactly
// as Compiler+Predicates.swift does, and each fast case falls back to
// `Comparator.test` on the value the accessor gives whenever it is not the
// plain case (nil, a folding option, a constant of another type).

/// A compiled predicate over a host object of the class compiled for.
@usableFromInline
typealias HostBoolClosure = @Sendable (ObjectReference, Env) throws(Diagnostic) -> Bool

enum HostCompiledBool {
    case constant(Bool)
    case dynamic(HostBoolClosure)
}

struct HostCompiler {
    /// Compiles the parts that take the general path. A copy of the compiler
    /// that compiled the general tree: it shares its random source and goes
    /// on numbering slots after it.
    var base: Compiler
    /// The root class's reads, by key.
    let rootRead: (String) -> KeyRead?

    mutating func predicate(_ p: QueryPredicate) throws(Diagnostic) -> HostCompiledBool {
        switch p.kind {
        case .constant(let b):
            return .constant(b)
        case .not(let inner):
            switch try predicate(inner) {
            case .constant(let b): return .constant(!b)
            case .dynamic(let f): return .dynamic { (r: ObjectReference, env) throws(Diagnostic) -> Bool in !(try f(r, env)) }
            }
        case .and(let parts):
            return try junction(parts, isAnd: true)
        case .or(let parts):
            return try junction(parts, isAnd: false)
        case .comparison(let c):
            if let test = try comparison(c, span: p.span) { return .dynamic(test(nil)) }
            return try general(p)
        }
    }

    /// The general closure, applied to the object as SELF.
    mutating func general(_ p: QueryPredicate) throws(Diagnostic) -> HostCompiledBool {
        switch try base.predicate(p) {
        case .constant(let b): return .constant(b)
        case .dynamic(let f):
            return .dynamic { (r: ObjectReference, env) throws(Diagnostic) -> Bool in try f(.object(r), env) }
        }
    }

    /// As `Compiler.junction` (AND chains included), over host closures.
    mutating func junction(_ parts: [QueryPredicate], isAnd: Bool) throws(Diagnostic) -> HostCompiledBool {
        var steps: [HostAndStep] = []
        var decided = false
        for part in parts {
            if isAnd, case .comparison(let c) = part.kind, let test = try comparison(c, span: part.span) {
                steps.append(.test(test))
                continue
            }
            switch try predicate(part) {
            case .constant(let b):
                if b != isAnd { decided = true }
            case .dynamic(let f):
                steps.append(.closure(HostBoolStep(closure: f)))
            }
        }
        if decided { return .constant(!isAnd) }
        if steps.isEmpty { return .constant(isAnd) }
        let closures = steps.map(\.closure)
        if closures.count == 1 { return .dynamic(closures[0].closure) }
        let fast: HostBoolClosure
        if isAnd {
            fast = HostAndStep.chain(steps)
        } else if closures.count == 2 {
            let a = closures[0].closure, b = closures[1].closure
            fast = { (r: ObjectReference, env) throws(Diagnostic) -> Bool in
                if try a(r, env) { return true }
                return try b(r, env)
            }
        } else {
            let all = closures
            fast = { (r: ObjectReference, env) throws(Diagnostic) -> Bool in
                for step in all where try step.closure(r, env) { return true }
                return false
            }
        }
        // As Compiler.decidedByAnyPart: an error stands only when no part decides.
        guard base.decidesPastErrors else { return .dynamic(fast) }
        let parts = closures
        return .dynamic { (r: ObjectReference, env) throws(Diagnostic) -> Bool in
            do throws(Diagnostic) { return try fast(r, env) } catch {
                for part in parts { if let v = try? part.closure(r, env), v != isAnd { return v } }
                throw error
            }
        }
    }

    /// `path op constant` through typed accessors, as a test to build with
    /// what follows it in an AND; nil for the general path.
    mutating func comparison(_ c: Comparison, span: SourceSpan) throws(Diagnostic) -> ((HostBoolClosure?) -> HostBoolClosure)? {
        guard c.modifier == .direct, c.op != .utiConformsTo, c.op != .utiEquals,
              case .keyPath(nil, let path) = c.lhs.kind,
              !path.contains(where: { $0.hasPrefix("$") || $0.hasPrefix("@") }),
              let read = KeyRead.path(path, first: rootRead) else { return nil }
        // The right side compiled on a scratch copy: when it is not a
        // constant, the general path compiles it again, for real.
        var scratch = base
        guard let k = try scratch.expression(c.rhs).constant else { return nil }
        let cmp = try Comparator(op: c.op, options: c.options, rhs: k, timeLimit: base.options.regexTimeLimit,
                                 span: span, rhsSpan: c.rhs.span)
        return { (next: HostBoolClosure?) -> HostBoolClosure in
            if let next { return HostComparison.closure(read, cmp, k, HostAndThen(next: next)) }
            return HostComparison.closure(read, cmp, k, HostDone())
        }
    }
}

/// A host closure in a box, for arrays of them (see `BoolStep`).
struct HostBoolStep {
    let closure: HostBoolClosure
}

/// One part of an AND over host closures (see `AndStep`).
enum HostAndStep {
    case test((HostBoolClosure?) -> HostBoolClosure)
    case closure(HostBoolStep)

    var closure: HostBoolStep {
        switch self {
        case .test(let build): return HostBoolStep(closure: build(nil))
        case .closure(let step): return step
        }
    }

    static func chain(_ steps: [HostAndStep]) -> HostBoolClosure {
        // Chains of bounded length run one after another, as in
        // `AndStep.chain`, so a long AND cannot overflow the stack.
        let length = AndStep.segmentLength
        guard steps.count > length else { return nestedChain(steps[...]) }
        let segments = stride(from: 0, to: steps.count, by: length).map { start in
            HostBoolStep(closure: nestedChain(steps[start..<min(start + length, steps.count)]))
        }
        return { (r: ObjectReference, env) throws(Diagnostic) -> Bool in
            for segment in segments where !(try segment.closure(r, env)) { return false }
            return true
        }
    }

    static func nestedChain(_ steps: ArraySlice<HostAndStep>) -> HostBoolClosure {
        var rest: HostBoolClosure? = nil
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
                rest = { (r: ObjectReference, env) throws(Diagnostic) -> Bool in
                    if !(try f(r, env)) { return false }
                    return try next(r, env)
                }
            }
        }
        return rest!
    }
}

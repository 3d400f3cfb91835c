// Specialised closures for `lhs op constant`, the comparisons filters are
// made of (`salary > 50000`, `department.name == 'Dept 7'`,
// `name BEGINSWITH[cd] 'jo'`). Each answers exactly as `cmp.test(lhs, k)`
// would; the fast cases only skip the dispatch on the operator and on the
// constant's type, and fall back to `cmp.test` for any other left value.
//
// The left side is read by a `ValueReader` (ValueReader.swift), inline for
// plain key paths. A closure captures the few values its fast case reads
// and, for everything else, one `Fallback` object: capturing the Comparator
// itself made every call unpack a dozen words first, and reading the hot
// values out of a class instead cost retains.

extension Compiler {
    /// The specialised test for `lhs op k`, to be built with what follows it
    /// in an AND (nil: nothing), or nil when no fast case applies.
    func specialisedTest<R: ValueReader>(_ cmp: Comparator, _ lhs: R, _ k: Value) -> ((BoolClosure?) -> BoolClosure)? {
        guard specialised(cmp, lhs, k, Done()) != nil else { return nil }
        return { (next: BoolClosure?) -> BoolClosure in
            if let next { return specialised(cmp, lhs, k, AndThen(next: next))! }
            return specialised(cmp, lhs, k, Done())!
        }
    }

    func specialised<R: ValueReader, N: Continuation>(_ cmp: Comparator, _ lhs: R, _ k: Value, _ next: N) -> BoolClosure? {
        let fallback = Fallback(cmp, k)
        let op = cmp.op
        if cmp.folding.isNone {
            switch (op, k) {
            case (.equal, .string(let s)):
                return { (o, env) throws(Diagnostic) -> Bool in
                    if case .string(let t) = try lhs.read(o, env) { return try next.when(t == s, o, env) }
                    return false
                }
            case (.notEqual, .string(let s)):
                return { (o, env) throws(Diagnostic) -> Bool in
                    if case .string(let t) = try lhs.read(o, env) { return try next.when(t != s, o, env) }
                    return try next(o, env)
                }
            case (.equal, .null):
                return { (o, env) throws(Diagnostic) -> Bool in try next.when(try lhs.read(o, env).isNull, o, env) }
            case (.notEqual, .null):
                return { (o, env) throws(Diagnostic) -> Bool in try next.when(!(try lhs.read(o, env).isNull), o, env) }
            case (_, .int(let i)) where IntegerTest.handles(op):
                return { (o, env) throws(Diagnostic) -> Bool in
                    let v = try lhs.read(o, env)
                    if case .int(let x) = v { return try next.when(IntegerTest.holds(op, x, i), o, env) }
                    return try next.when(try fallback.test(v), o, env)
                }
            case (.less, .double(let d)), (.lessOrEqual, .double(let d)), (.greater, .double(let d)),
                 (.greaterOrEqual, .double(let d)):
                return { (o, env) throws(Diagnostic) -> Bool in
                    let v = try lhs.read(o, env)
                    if case .double(let x) = v {
                        let holds: Bool
                        switch op {
                        case .less: holds = x < d
                        case .lessOrEqual: holds = x <= d
                        case .greater: holds = x > d
                        default: holds = x >= d
                        }
                        return try next.when(holds, o, env)
                    }
                    return try next.when(try fallback.test(v), o, env)
                }
            default: break
            }
        }
        switch (op, k) {
        case (.beginsWith, .string), (.endsWith, .string), (.contains, .string):
            // The needle is folded and its bytes prepared at compile time.
            guard let needle = cmp.needle else { return nil }
            let matcher = cmp.matcher
            switch op {
            case .beginsWith:
                return { (o, env) throws(Diagnostic) -> Bool in
                    if case .string(let t) = try lhs.read(o, env) { return try next.when(matcher.beginsWith(t, needle), o, env) }
                    return false
                }
            case .endsWith:
                return { (o, env) throws(Diagnostic) -> Bool in
                    if case .string(let t) = try lhs.read(o, env) { return try next.when(matcher.endsWith(t, needle), o, env) }
                    return false
                }
            default:
                // CONTAINS on a collection is membership: only strings here.
                return { (o, env) throws(Diagnostic) -> Bool in
                    let v = try lhs.read(o, env)
                    if case .string(let t) = v { return try next.when(matcher.contains(t, needle), o, env) }
                    return try next.when(try fallback.test(v), o, env)
                }
            }
        case (.like, .string):
            return { (o, env) throws(Diagnostic) -> Bool in
                try next.when(try fallback.cmp.stringTest(try lhs.read(o, env), fallback.k), o, env)
            }
        case (.equal, .string):
            guard let needle = cmp.needle else { return nil }
            let matcher = cmp.matcher
            return { (o, env) throws(Diagnostic) -> Bool in
                let v = try lhs.read(o, env)
                if case .string(let t) = v { return try next.when(matcher.equal(t, needle), o, env) }
                return try next.when(Compare.equal(v, fallback.k), o, env)
            }
        default:
            return nil
        }
    }
}

/// The general test, `cmp.test(v, k)`, for the values a fast case does not
/// cover: boxed, so that the closures capture one word for it.
final class Fallback: Sendable {
    let cmp: Comparator
    let k: Value

    init(_ cmp: Comparator, _ k: Value) {
        self.cmp = cmp
        self.k = k
    }

    func test(_ v: Value) throws(Diagnostic) -> Bool { try cmp.test(v, k) }
}

/// What a specialised test does when it holds: answer true, or go on with
/// the rest of an AND. Generic, so each test is compiled for both and the
/// plain one has no extra branch.
protocol Continuation: Sendable {
    func callAsFunction(_ o: Value, _ env: Env) throws(Diagnostic) -> Bool
}

extension Continuation {
    /// `holds AND the rest`, the rest evaluated only when `holds`.
    @inline(__always)
    func when(_ holds: Bool, _ o: Value, _ env: Env) throws(Diagnostic) -> Bool {
        holds ? try self(o, env) : false
    }
}

/// Nothing follows.
struct Done: Continuation {
    @inline(__always) func callAsFunction(_ o: Value, _ env: Env) throws(Diagnostic) -> Bool { true }
}

/// The rest of an AND follows.
struct AndThen: Continuation {
    let next: BoolClosure
    @inline(__always) func callAsFunction(_ o: Value, _ env: Env) throws(Diagnostic) -> Bool { try next(o, env) }
}

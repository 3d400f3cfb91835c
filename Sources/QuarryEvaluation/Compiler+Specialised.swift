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
    func specialised<R: ValueReader>(_ cmp: Comparator, _ lhs: R, _ k: Value) -> BoolClosure? {
        let fallback = Fallback(cmp, k)
        let op = cmp.op
        if cmp.folding.isNone {
            switch (op, k) {
            case (.equal, .string(let s)):
                return { (o, env) throws(Diagnostic) -> Bool in
                    if case .string(let t) = try lhs.read(o, env) { return t == s }
                    return false
                }
            case (.notEqual, .string(let s)):
                return { (o, env) throws(Diagnostic) -> Bool in
                    if case .string(let t) = try lhs.read(o, env) { return t != s }
                    return true
                }
            case (.equal, .null):
                return { (o, env) throws(Diagnostic) -> Bool in try lhs.read(o, env).isNull }
            case (.notEqual, .null):
                return { (o, env) throws(Diagnostic) -> Bool in !(try lhs.read(o, env).isNull) }
            case (_, .int(let i)) where IntegerTest.handles(op):
                return { (o, env) throws(Diagnostic) -> Bool in
                    let v = try lhs.read(o, env)
                    if case .int(let x) = v { return IntegerTest.holds(op, x, i) }
                    return try fallback.test(v)
                }
            case (.less, .double(let d)), (.lessOrEqual, .double(let d)), (.greater, .double(let d)),
                 (.greaterOrEqual, .double(let d)):
                return { (o, env) throws(Diagnostic) -> Bool in
                    let v = try lhs.read(o, env)
                    if case .double(let x) = v {
                        switch op {
                        case .less: return x < d
                        case .lessOrEqual: return x <= d
                        case .greater: return x > d
                        default: return x >= d
                        }
                    }
                    return try fallback.test(v)
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
                    if case .string(let t) = try lhs.read(o, env) { return matcher.beginsWith(t, needle) }
                    return false
                }
            case .endsWith:
                return { (o, env) throws(Diagnostic) -> Bool in
                    if case .string(let t) = try lhs.read(o, env) { return matcher.endsWith(t, needle) }
                    return false
                }
            default:
                // CONTAINS on a collection is membership: only strings here.
                return { (o, env) throws(Diagnostic) -> Bool in
                    let v = try lhs.read(o, env)
                    if case .string(let t) = v { return matcher.contains(t, needle) }
                    return try fallback.test(v)
                }
            }
        case (.like, .string):
            return { (o, env) throws(Diagnostic) -> Bool in try fallback.cmp.stringTest(try lhs.read(o, env), fallback.k) }
        case (.equal, .string):
            guard let needle = cmp.needle else { return nil }
            let matcher = cmp.matcher
            return { (o, env) throws(Diagnostic) -> Bool in
                let v = try lhs.read(o, env)
                if case .string(let t) = v { return matcher.equal(t, needle) }
                return Compare.equal(v, fallback.k)
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

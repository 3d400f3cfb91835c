// The comparisons of `Evaluator.compile(_:for:)`'s host tree: a key path
// resolved to typed reads (`HostPath`) against a constant. Each closure
// answers exactly as `cmp.test(value of the path, k)` does; the fast cases —
// a string, an integer or a double against a constant of the same kind — only
// skip building the `Value`, and every other case (nil, a folding option the
// fast case does not cover, a constant of another type) builds it and asks
// `Comparator.test`.
//
// The tests are generic over how the object that holds the last key is
// reached (the object itself, or through its relations), so the optimiser
// builds one copy of each and `salary` costs no hop at all. Each test keeps
// its state in one final class and its closure captures only that: a
// closure capturing the fields one by one (the Comparator alone is a dozen
// words) spent ~30 instructions per call unpacking them.

/// Reaches the object the last key of a path is read from.
protocol OwnerReader: Sendable {
    func owner(_ root: AnyObject) -> AnyObject?
}

/// A one-key path: the object itself.
struct RootOwner: OwnerReader {
    @inline(__always) func owner(_ root: AnyObject) -> AnyObject? { root }
}

/// A longer path: through its to-one relations (nil when one is nil).
struct HopOwner: OwnerReader {
    let hop: @Sendable (AnyObject) -> AnyObject?
    @inline(__always) func owner(_ root: AnyObject) -> AnyObject? { hop(root) }
}

enum HostComparison {
    static func closure<N: HostContinuation>(_ path: HostPath, _ cmp: Comparator, _ k: Value, _ next: N) -> HostBoolClosure {
        if let hop = path.hop { return closure(HopOwner(hop: hop), path.leaf, cmp, k, next) }
        return closure(RootOwner(), path.leaf, cmp, k, next)
    }

    static func closure<O: OwnerReader, N: HostContinuation>(_ owner: O, _ read: KeyRead, _ cmp: Comparator,
                                                           _ k: Value, _ next: N) -> HostBoolClosure {
        let op = cmp.op
        switch (read, k) {
        case (.string(let f), .string(let s)):
            if cmp.folding.isNone && (op == .equal || op == .notEqual) {
                let t = StringEqualityTest(owner, f, cmp, k, s)
                return { (r: ObjectReference, env) throws(Diagnostic) -> Bool in try next.when(try t.test(r), r, env) }
            }
            if let needle = cmp.needle, op == .beginsWith || op == .endsWith || op == .contains || op == .equal {
                let t = StringMatchTest(owner, f, cmp, k, needle)
                return { (r: ObjectReference, env) throws(Diagnostic) -> Bool in try next.when(try t.test(r), r, env) }
            }
        case (.int(let f), .int(let i)) where cmp.folding.isNone && IntegerTest.handles(op):
            let t = IntegerComparisonTest(owner, f, cmp, k, i)
            return { (r: ObjectReference, env) throws(Diagnostic) -> Bool in try next.when(try t.test(r), r, env) }
        case (.double(let f), .double(let d)) where cmp.folding.isNone
                && (op == .less || op == .lessOrEqual || op == .greater || op == .greaterOrEqual):
            let t = DoubleOrderTest(owner, f, cmp, k, d)
            return { (r: ObjectReference, env) throws(Diagnostic) -> Bool in try next.when(try t.test(r), r, env) }
        default:
            break
        }
        let t = ValueTest(owner, read.value, cmp, k)
        return { (r: ObjectReference, env) throws(Diagnostic) -> Bool in try next.when(try t.test(r), r, env) }
    }
}

/// `string ==/!= constant`, no folding.
final class StringEqualityTest<O: OwnerReader>: Sendable {
    let owner: O, read: @Sendable (AnyObject) -> String?, cmp: Comparator, k: Value
    let s: String, equal: Bool

    init(_ owner: O, _ read: @escaping @Sendable (AnyObject) -> String?, _ cmp: Comparator, _ k: Value, _ s: String) {
        self.owner = owner; self.read = read; self.cmp = cmp; self.k = k; self.s = s
        equal = cmp.op == .equal
    }

    @inline(__always) func test(_ r: ObjectReference) throws(Diagnostic) -> Bool {
        guard let o = owner.owner(r.object), let t = read(o) else { return try cmp.test(.null, k) }
        return (t == s) == equal
    }
}

/// BEGINSWITH / ENDSWITH / CONTAINS / == on a string, with its folding.
final class StringMatchTest<O: OwnerReader>: Sendable {
    let owner: O, read: @Sendable (AnyObject) -> String?, cmp: Comparator, k: Value
    let needle: FoldedString, matcher: StringMatcher, op: ComparisonOperator

    init(_ owner: O, _ read: @escaping @Sendable (AnyObject) -> String?, _ cmp: Comparator, _ k: Value,
         _ needle: FoldedString) {
        self.owner = owner; self.read = read; self.cmp = cmp; self.k = k; self.needle = needle
        matcher = cmp.matcher
        op = cmp.op
    }

    @inline(__always) func test(_ r: ObjectReference) throws(Diagnostic) -> Bool {
        guard let o = owner.owner(r.object), let t = read(o) else { return try cmp.test(.null, k) }
        switch op {
        case .beginsWith: return matcher.beginsWith(t, needle)
        case .endsWith: return matcher.endsWith(t, needle)
        case .contains: return matcher.contains(t, needle)
        default: return matcher.equal(t, needle)
        }
    }
}

/// An integer against an integer constant.
final class IntegerComparisonTest<O: OwnerReader>: Sendable {
    let owner: O, read: @Sendable (AnyObject) -> Int64?, cmp: Comparator, k: Value
    let i: Int64, op: ComparisonOperator

    init(_ owner: O, _ read: @escaping @Sendable (AnyObject) -> Int64?, _ cmp: Comparator, _ k: Value, _ i: Int64) {
        self.owner = owner; self.read = read; self.cmp = cmp; self.k = k; self.i = i
        op = cmp.op
    }

    @inline(__always) func test(_ r: ObjectReference) throws(Diagnostic) -> Bool {
        guard let o = owner.owner(r.object), let x = read(o) else { return try cmp.test(.null, k) }
        return IntegerTest.holds(op, x, i)
    }
}

/// A double ordered against a double constant.
final class DoubleOrderTest<O: OwnerReader>: Sendable {
    let owner: O, read: @Sendable (AnyObject) -> Double?, cmp: Comparator, k: Value
    let d: Double, op: ComparisonOperator

    init(_ owner: O, _ read: @escaping @Sendable (AnyObject) -> Double?, _ cmp: Comparator, _ k: Value, _ d: Double) {
        self.owner = owner; self.read = read; self.cmp = cmp; self.k = k; self.d = d
        op = cmp.op
    }

    @inline(__always) func test(_ r: ObjectReference) throws(Diagnostic) -> Bool {
        guard let o = owner.owner(r.object), let x = read(o) else { return try cmp.test(.null, k) }
        switch op {
        case .less: return x < d
        case .lessOrEqual: return x <= d
        case .greater: return x > d
        default: return x >= d
        }
    }
}

/// Anything else: the key's `Value`, through `Comparator.test`.
final class ValueTest<O: OwnerReader>: Sendable {
    let owner: O, value: @Sendable (AnyObject) -> Value, cmp: Comparator, k: Value

    init(_ owner: O, _ value: @escaping @Sendable (AnyObject) -> Value, _ cmp: Comparator, _ k: Value) {
        self.owner = owner; self.value = value; self.cmp = cmp; self.k = k
    }

    @inline(__always) func test(_ r: ObjectReference) throws(Diagnostic) -> Bool {
        guard let o = owner.owner(r.object) else { return try cmp.test(.null, k) }
        return try cmp.test(value(o), k)
    }
}

/// What a host test does when it holds (see `Continuation`).
protocol HostContinuation: Sendable {
    func callAsFunction(_ r: ObjectReference, _ env: Env) throws(Diagnostic) -> Bool
}

extension HostContinuation {
    @inline(__always)
    func when(_ holds: Bool, _ r: ObjectReference, _ env: Env) throws(Diagnostic) -> Bool {
        holds ? try self(r, env) : false
    }
}

struct HostDone: HostContinuation {
    @inline(__always) func callAsFunction(_ r: ObjectReference, _ env: Env) throws(Diagnostic) -> Bool { true }
}

struct HostAndThen: HostContinuation {
    let next: HostBoolClosure
    @inline(__always) func callAsFunction(_ r: ObjectReference, _ env: Env) throws(Diagnostic) -> Bool { try next(r, env) }
}

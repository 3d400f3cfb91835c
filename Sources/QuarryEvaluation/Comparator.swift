// One comparison `lhs op[options] rhs` applied to two values (after ANY /
// ALL / NONE have picked the left elements). Everything that depends only on
// a constant right side — its folded text, a LIKE pattern, a regular
// expression, a hash set for IN — is prepared once, at compile time.
//
// nil: `x == nil` is true when x is nil, `!=` is its negation, and every other
// operator with a nil operand is false, so `NOT (age > 5)` is true when age
// is nil (as in Apple; SQL's three-valued logic differs).

struct Comparator: Sendable {
    let op: ComparisonOperator
    /// The string operator `op` is (QuarryBinding's enum, the one the SQL
    /// lowering picks its `quarry_*` function by); nil for the others.
    let stringOperator: StringOperator?
    let folding: Folding
    let matcher: StringMatcher
    let span: SourceSpan
    /// The right side's folded text, when it is a constant string.
    let needle: FoldedString?
    let like: LikePattern?
    let regex: CompiledRegex?
    let regexCache: RegexCache
    /// IN over a constant collection: its elements (strings folded).
    let members: Set<HashKey>?

    init(op: ComparisonOperator, options: ComparisonOptions, rhs: Value?, timeLimit: Double,
         span: SourceSpan, rhsSpan: SourceSpan) throws(Diagnostic) {
        self.op = op
        stringOperator = StringOperator(op)
        self.span = span
        let folding = Folding(options)
        self.folding = folding
        matcher = StringMatcher(folding: folding)
        regexCache = RegexCache(folding: folding, timeLimit: timeLimit)
        var needle: FoldedString? = nil
        var like: LikePattern? = nil
        var regex: CompiledRegex? = nil
        var members: Set<HashKey>? = nil
        switch rhs {
        case .string(let s)?:
            needle = folding.prepare(s)
            if op == .like { like = LikePattern(s, folding: folding) }
            if op == .matches && !s.isEmpty {
                regex = try CompiledRegex(s, folding: folding, timeLimit: timeLimit, span: rhsSpan)
            }
        case .array(let items)?, .orderedSet(let items)?, .set(let items)?:
            if op == .in {
                var set = Set<HashKey>(minimumCapacity: items.count)
                for item in items { set.insert(HashKey(Comparator.fold(item, folding))) }
                members = set
            }
        default: break
        }
        self.needle = needle
        self.like = like
        self.regex = regex
        self.members = members
    }

    static func fold(_ v: Value, _ folding: Folding) -> Value {
        if !folding.isNone, case .string(let s) = v { return .string(folding.fold(s)) }
        return v
    }

    // MARK: Equality and order under the options

    @inline(__always)
    func equal(_ l: Value, _ r: Value) -> Bool {
        if !folding.isNone, case .string(let a) = l, case .string(let b) = r {
            if let needle { return matcher.equal(a, needle) }
            return matcher.equal(a, b)
        }
        return Compare.equal(l, r)
    }

    @inline(__always)
    func order(_ l: Value, _ r: Value) -> Order? {
        if !folding.isNone, case .string(let a) = l, case .string(let b) = r { return matcher.order(a, b) }
        return Compare.order(l, r)
    }

    /// Element equality for IN / CONTAINS membership.
    func member(_ x: Value, of items: [Value]) -> Bool {
        if !folding.isNone, case .string(let s) = x {
            let f = folding.fold(s)
            return items.contains { item in
                if case .string(let t) = item { return folding.fold(t) == f }
                return false
            }
        }
        return items.contains { Compare.equal(x, $0) }
    }

    // MARK: The test

    func test(_ l: Value, _ r: Value) throws(Diagnostic) -> Bool {
        switch op {
        case .equal: return equal(l, r)
        case .notEqual: return !equal(l, r)
        case .less: return order(l, r) == .less
        case .lessOrEqual:
            let o = order(l, r)
            return o == .less || o == .equal
        case .greater: return order(l, r) == .greater
        case .greaterOrEqual:
            let o = order(l, r)
            return o == .greater || o == .equal
        case .beginsWith, .endsWith, .like, .matches:
            return try stringTest(l, r)
        case .contains:
            switch l {
            case .string: return try stringTest(l, r)
            case .array(let items), .orderedSet(let items), .set(let items): return member(r, of: items)
            case .dictionary(let d): return member(r, of: Array(d.values))
            default: return false
            }
        case .in:
            switch r {
            case .string(let hay):
                guard case .string(let s) = l else { return false }
                return matcher.contains(hay, folding.prepare(s))
            case .array(let items), .orderedSet(let items), .set(let items):
                if l.isNull { return items.contains { $0.isNull } }
                if let members { return members.contains(HashKey(Comparator.fold(l, folding))) }
                return member(l, of: items)
            case .dictionary(let d): return member(l, of: Array(d.values))
            default: return false
            }
        case .between:
            guard case .array(let bounds) = r, bounds.count == 2 else {
                if case .orderedSet(let b) = r, b.count == 2 { return try test(l, .array(b)) }
                throw evaluationError(.typeMismatch,
                                      "BETWEEN needs a two-element collection {low, high}, got \(r.typeName) \(Printer.format(r))",
                                      at: span, hints: ["x BETWEEN {1, 5} means 1 <= x AND x <= 5"])
            }
            guard let lo = order(l, bounds[0]), lo != .less, let hi = order(l, bounds[1]), hi != .greater else { return false }
            return true
        case .utiConformsTo, .utiEquals:
            throw evaluationError(.unsupportedOperation, "\(op.rawValue) is not supported in memory", at: span)
        }
    }

    /// BEGINSWITH, ENDSWITH, CONTAINS on strings, LIKE, MATCHES: both sides
    /// must be strings, otherwise false.
    @inline(__always)
    func stringTest(_ l: Value, _ r: Value) throws(Diagnostic) -> Bool {
        guard case .string(let s) = l, let stringOperator else { return false }
        switch stringOperator {
        case .like:
            if let like { return like.matches(s) }
            guard case .string(let p) = r else { return false }
            return LikePattern(p, folding: folding).matches(s)
        case .matches:
            if let regex { return try regex.matches(s, span: span) }
            guard case .string(let p) = r, !p.isEmpty else { return false }
            return try regexCache.regex(p, span: span).matches(s, span: span)
        case .beginsWith, .endsWith, .contains:
            let n: FoldedString
            if let needle { n = needle } else {
                guard case .string(let t) = r else { return false }
                n = folding.prepare(t)
            }
            switch stringOperator {
            case .beginsWith: return matcher.beginsWith(s, n)
            case .endsWith: return matcher.endsWith(s, n)
            default: return matcher.contains(s, n)
            }
        }
    }
}

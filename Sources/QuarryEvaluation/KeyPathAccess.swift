// Key-value access: dictionaries by key (a missing key is nil), host objects
// through `KeyValueAccessible.value(forKey:)`, dotted paths with nil
// propagation, to-many paths, and the collection operators (@count, @sum …).
//
// A key applied to a collection maps over its elements, as NSArray's
// `valueForKey:` does (`employees.salary` is the array of salaries, nil
// elements kept as nil). Unlike NSArray, a key that yields a collection for
// each element is flattened into one collection (`departments.employees` is
// all employees, not an array of arrays), which is what Core Data's SQL does
// for to-many through to-many and what ANY/ALL expect; a documented deviation.
//
// A collection operator takes everything to its right as the key to map over
// the elements (`employees.@avg.salary`), except @count, which ignores any
// right-hand path, as Apple documents. @sum, @avg, @min, @max and the union
// operators need a key after them (Apple raises on a bare `numbers.@sum`;
// write `numbers.@sum.self`).
//
// Scalars answer only a few keys, the ones KVC gives them in Apple: `self`
// (anything), `length` of a string, and conversions such as `intValue`.
// Any other key on a scalar is error E009, as NSUnknownKeyException is.
//
// The operators are QuarryBinding's CollectionOperator, the enum the SQL
// lowering switches on too.
import Foundation

/// A key path split and checked once, at compile time.
struct CompiledKeyPath: Sendable {
    enum Step: Sendable {
        case key(String)
        case collection(CollectionOperator, rest: CompiledKeyPath?)
    }

    let steps: [Step]
    let span: SourceSpan

    init(_ components: [String], span: SourceSpan) throws(Diagnostic) {
        self.span = span
        var steps: [Step] = []
        var i = 0
        while i < components.count {
            let c = components[i]
            if c.hasPrefix("@") {
                guard let op = CollectionOperator(rawValue: String(c.dropFirst())) else {
                    throw evaluationError(.unsupportedOperation, "unknown collection operator '\(c)'", at: span,
                                          hints: ["collection operators: " + CollectionOperator.spelled])
                }
                let rest = Array(components[(i + 1)...])
                if op == .count {
                    steps.append(.collection(.count, rest: nil))
                } else {
                    guard !rest.isEmpty else {
                        throw evaluationError(.unsupportedOperation, "\(c) needs a key after it", at: span,
                                              hints: ["write \(c).self for a collection of plain values, or \(c).key"])
                    }
                    steps.append(.collection(op, rest: try CompiledKeyPath(rest, span: span)))
                }
                break
            }
            steps.append(.key(c))
            i += 1
        }
        self.steps = steps
    }

    /// The single key, when the path is one plain key.
    var singleKey: String? {
        if steps.count == 1, case .key(let k) = steps[0] { return k }
        return nil
    }

    func resolve(_ start: Value) throws(Diagnostic) -> Value {
        var v = start
        for step in steps {
            switch step {
            case .key(let k): v = try KeyAccess.value(of: v, key: k, span: span)
            case .collection(let op, let rest): return try KeyAccess.apply(op, to: v, rest: rest, span: span)
            }
        }
        return v
    }
}

enum KeyAccess {
    /// `valueForKey:` with the language's rules.
    @inline(__always)
    static func value(of v: Value, key: String, span: SourceSpan) throws(Diagnostic) -> Value {
        switch v {
        case .dictionary(let d): return d[key] ?? .null
        case .object(let ref): return ref.object.value(forKey: key) ?? .null
        case .null: return .null
        default: return try valueSlow(of: v, key: key, span: span)
        }
    }

    static func valueSlow(of v: Value, key: String, span: SourceSpan) throws(Diagnostic) -> Value {
        switch v {
        case .array(let items), .orderedSet(let items):
            return .array(try map(items, key: key, span: span))
        case .set(let items):
            return Collections.makeSet(try map(items, key: key, span: span))
        default:
            if let r = scalarKey(v, key) { return r }
            throw evaluationError(.unknownKey, "a value of type \(v.typeName) has no key '\(key)'", at: span,
                                  hints: ["keys apply to dictionaries, objects and collections of them"])
        }
    }

    /// The key over each element; per-element collections are flattened.
    static func map(_ items: [Value], key: String, span: SourceSpan) throws(Diagnostic) -> [Value] {
        var out: [Value] = []
        out.reserveCapacity(items.count)
        for item in items {
            let r = try value(of: item, key: key, span: span)
            switch r {
            case .array(let inner), .orderedSet(let inner), .set(let inner): out.append(contentsOf: inner)
            default: out.append(r)
            }
        }
        return out
    }

    /// The keys KVC gives scalars in Apple (ScalarKey, the binder's table).
    static func scalarKey(_ v: Value, _ name: String) -> Value? {
        guard let key = ScalarKey(rawValue: name) else { return nil }
        if key == .identity { return v }
        switch v {
        case .string(let s):
            switch key {
            case .length: return StringFunction.length.apply(s)
            case .uppercaseString: return StringFunction.uppercase.apply(s)
            case .lowercaseString: return StringFunction.lowercase.apply(s)
            case .description: return v
            case .intValue, .integerValue, .longLongValue:
                return .int(Int64(s.trimmingCharacters(in: .whitespaces)) ?? Int64(exactly: (Double(s.trimmingCharacters(in: .whitespaces)) ?? 0).rounded(.towardZero)) ?? 0)
            case .doubleValue, .floatValue: return .double(Double(s.trimmingCharacters(in: .whitespaces)) ?? 0)
            case .boolValue:
                let t = s.trimmingCharacters(in: .whitespaces).lowercased()
                return .bool(t.hasPrefix("y") || t.hasPrefix("t") || (Int64(t).map { $0 != 0 } ?? false))
            default: return nil
            }
        case .int, .double, .bool, .decimal:
            let n = Number(v)!
            switch key {
            case .stringValue, .description: return .string(Cast.describe(v))
            case .intValue, .integerValue, .longLongValue:
                if case .int(let i) = n { return .int(i) }
                return Int64(exactly: n.doubleValue.rounded(.towardZero)).map(Value.int) ?? .null
            case .doubleValue, .floatValue: return .double(n.doubleValue)
            case .boolValue: return .bool(n.doubleValue != 0)
            case .decimalValue: return n.decimalValue.map(Value.decimal) ?? .null
            default: return nil
            }
        case .date(let t):
            switch key {
            case .timeIntervalSinceReferenceDate: return .double(t)
            case .timeIntervalSince1970: return .double(t + 978_307_200)
            default: return nil
            }
        case .uuid(let u):
            return key == .UUIDString ? .string(u.uuidString) : nil
        default:
            return nil
        }
    }

    // MARK: Collection operators

    static func apply(_ op: CollectionOperator, to v: Value, rest: CompiledKeyPath?, span: SourceSpan) throws(Diagnostic) -> Value {
        if v.isNull { return .null }
        if op == .count {
            switch v {
            case .array(let a), .orderedSet(let a), .set(let a): return .int(Int64(a.count))
            case .dictionary(let d): return .int(Int64(d.count))
            default:
                throw evaluationError(.typeMismatch, "@count needs a collection, got \(v.typeName)", at: span)
            }
        }
        guard let items = Collections.elements(v), let rest else {
            throw evaluationError(.typeMismatch, "@\(op.rawValue) needs a collection, got \(v.typeName)", at: span)
        }
        switch op {
        case .unionOfArrays, .distinctUnionOfArrays, .distinctUnionOfSets:
            var out: [Value] = []
            for item in items {
                let r = try rest.resolve(item)
                if r.isNull { continue }
                if let inner = Collections.elements(r) { out.append(contentsOf: inner.filter { !$0.isNull }) }
                else { out.append(r) }
            }
            switch op {
            case .unionOfArrays: return .array(out)
            case .distinctUnionOfArrays: return .array(Collections.distinct(out))
            default: return Collections.makeSet(out)
            }
        default:
            var values: [Value] = []
            values.reserveCapacity(items.count)
            // Elements, nil ones included: @avg divides by them (below).
            var elements = 0
            for item in items {
                let r = try rest.resolve(item)
                switch r {
                case .null: elements += 1
                case .array(let inner), .orderedSet(let inner), .set(let inner):
                    elements += inner.count
                    values.append(contentsOf: inner.filter { !$0.isNull })
                default:
                    elements += 1
                    values.append(r)
                }
            }
            switch op {
            case .sum: return try Aggregates.sum(values, span: span)
            // Apple's `-[NSArray _avgForKeyPath:]` divides the sum of the
            // non-nil values by the number of elements: `[10, 20, nil]`
            // averages to 10 (observed on iOS 18.3). The function average:
            // skips nil instead (Grammar/deviations.md).
            case .avg: return try Aggregates.average(values, span: span, elements: elements)
            case .min: return try Aggregates.extreme(values, wantMax: false, span: span)
            case .max: return try Aggregates.extreme(values, wantMax: true, span: span)
            case .unionOfObjects: return .array(values)
            default: return .array(Collections.distinct(values))
            }
        }
    }
}

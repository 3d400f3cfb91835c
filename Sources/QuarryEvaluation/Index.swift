// Subscripts: `array[0]`, `array[FIRST]`, `array[LAST]`, `array[SIZE]`,
// `dict['key']` (and `objectFrom:withIndex:`, their function spelling).
//
// An index outside the collection is nil, not an error: Apple-run tests
// assert `{}[FIRST] = 1` and `{}[LAST] = {3}` are simply false. A negative
// index is likewise nil. SIZE of a dictionary is its count.

enum Index {
    enum Symbol { case first, last, size }

    static func element(of base: Value, symbol: Symbol, span: SourceSpan) throws(Diagnostic) -> Value {
        switch base {
        case .null: return .null
        case .array(let a), .orderedSet(let a), .set(let a):
            switch symbol {
            case .first: return a.first ?? .null
            case .last: return a.last ?? .null
            case .size: return .int(Int64(a.count))
            }
        case .dictionary(let d):
            if symbol == .size { return .int(Int64(d.count)) }
            return .null
        case .string(let s) where symbol == .size:
            return .int(Int64(s.utf16.count))
        default:
            throw evaluationError(.typeMismatch, "cannot index a value of type \(base.typeName)", at: span)
        }
    }

    static func element(of base: Value, at index: Value, span: SourceSpan) throws(Diagnostic) -> Value {
        switch base {
        case .null: return .null
        case .array(let a), .orderedSet(let a), .set(let a):
            switch index {
            case .string(let s) where ["FIRST", "LAST", "SIZE"].contains(s):
                return try element(of: base, symbol: s == "FIRST" ? .first : (s == "LAST" ? .last : .size), span: span)
            case .null: return .null
            default:
                guard let n = Number(index) else {
                    throw evaluationError(.typeMismatch, "an array index must be a number, got \(index.typeName)", at: span)
                }
                let d = n.doubleValue
                guard d >= 0, d < Double(a.count), d == d.rounded(.towardZero) else { return .null }
                return a[Int(d)]
            }
        case .dictionary(let d):
            switch index {
            case .string(let k): return d[k] ?? .null
            case .null: return .null
            default: return d[Cast.describe(index)] ?? .null
            }
        case .object(let ref):
            guard case .string(let k) = index else {
                throw evaluationError(.typeMismatch, "an object subscript must be a key string, got \(index.typeName)", at: span)
            }
            return ref.object.value(forKey: k) ?? .null
        default:
            throw evaluationError(.typeMismatch, "cannot index a value of type \(base.typeName)", at: span)
        }
    }
}

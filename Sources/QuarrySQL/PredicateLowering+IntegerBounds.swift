// An integer column against a floating-point constant, compared exactly.
// The evaluator (and SQLite) compare an integer with a double exactly;
// PostgreSQL converts the BIGINT to DOUBLE PRECISION first, so past 2^53
// neighbouring integers compare equal to the same double there
// (`n > -9223372036854775808`, whose literal overflows Int64 and reads as a
// double, excluded Int64.min + 1 on PostgreSQL: found by the random-model
// fuzzer on QuarryFixtures' edge-case rows). The constant is turned into the
// integer bound that selects exactly the same integers, on both dialects:
//
//     x >  d   ⟺  x >  floor(d)        x <= d  ⟺  x <= floor(d)
//     x >= d   ⟺  x >= ceil(d)         x <  d  ⟺  x <  ceil(d)
//     x == d   ⟺  d is an integer and x == d; otherwise never
//
// A bound beyond Int64's range selects every integer or none; "every" is
// written `x >= Int64.min`, so a nil still compares false, as in Apple.
import Foundation
import QuarryModel

/// What an integer column against a double constant becomes.
enum IntegerBound {
    /// The same comparison with an integer constant.
    case compare(PredicateLowerer.Side, ComparisonOperator, PredicateLowerer.Side)
    /// No integer satisfies it (`x == 1.5`, `x > 1e300`); `!=` holds for all.
    case never
}

extension PredicateLowerer {
    /// The comparison rewritten with an integer constant, or nil when it is
    /// not an integer column against a double constant.
    func integerBound(_ a: Side, _ op: ComparisonOperator, _ b: Side) -> IntegerBound? {
        if a.constant != nil, b.constant == nil, let flipped = op.flipped {
            guard let bound = integerBound(b, flipped, a) else { return nil }
            if case .compare(let x, let o, let y) = bound, let back = o.flipped { return .compare(y, back, x) }
            return bound
        }
        guard a.constant == nil, a.type?.integerRange != nil, case .double(let d)? = b.constant, !d.isNaN else { return nil }
        func constant(_ i: Int64) -> Side { Side(sql: SQLFragment("?", [.int(i)]), type: .integer64, nullable: false, constant: .int(i), isObject: false) }
        let everything = IntegerBound.compare(a, .greaterOrEqual, constant(.min))
        switch op {
        case .greater, .lessOrEqual:
            if let floor = Int64(exactly: d.rounded(.down)) { return .compare(a, op, constant(floor)) }
            // floor(d) below Int64.min: every x is greater; above Int64.max: none.
            return (d < 0) == (op == .greater) ? everything : .never
        case .greaterOrEqual, .less:
            if let ceiling = Int64(exactly: d.rounded(.up)) { return .compare(a, op, constant(ceiling)) }
            return (d < 0) == (op == .greaterOrEqual) ? everything : .never
        case .equal, .notEqual:
            if let exact = Int64(exactly: d) { return .compare(a, op, constant(exact)) }
            return .never
        default:
            return nil
        }
    }

    /// The members of an IN list that an integer column can equal, as
    /// integers: a double that is not an integer in range equals none.
    static func integerMembers(_ v: Value) -> Value? {
        guard case .double(let d) = v else { return v }
        return Int64(exactly: d).map(Value.int)
    }
}

extension ComparisonOperator {
    /// The operator with its sides swapped (`a < b` is `b > a`).
    var flipped: ComparisonOperator? {
        switch self {
        case .equal, .notEqual: return self
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        default: return nil
        }
    }
}

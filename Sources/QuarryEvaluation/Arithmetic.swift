// Arithmetic and bitwise operators, shared by the operator syntax (`a + b`)
// and the function spelling (`add:to:(a, b)`), which mean the same thing.
//
// Two integers stay integer, as in Objective-C: `7 / 2` is 3 (truncation
// toward zero), which Apple-run tests confirm (`(41 / 2) * 2 <> 41`). Every
// integer operation reports overflow and promotes to double instead of
// trapping (`Int64.max + 1`, `Int64.min / -1`, `abs(Int64.min)`). Integer
// division or modulus by zero is error E003 (Apple answers 0; a documented
// deviation). A decimal operand makes the operation decimal; a double makes
// it double. Booleans count as 0 and 1. nil in, nil out: an arithmetic
// expression over a missing value is nil, so a comparison with it is false.
//
// Dates: date ± seconds is a date, date - date is seconds (a convenience
// beyond Apple, whose functions only take numbers).
import Foundation

enum Arithmetic {
    static func typeError(_ op: String, _ a: Value, _ b: Value?, _ span: SourceSpan) -> Diagnostic {
        let operands = b.map { "\(a.typeName) and \($0.typeName)" } ?? a.typeName
        return evaluationError(.typeMismatch, "\(op) needs numbers, got \(operands)", at: span)
    }

    static func binary(_ op: BinaryOperator, _ a: Value, _ b: Value, span: SourceSpan) throws(Diagnostic) -> Value {
        if a.isNull || b.isNull { return .null }
        switch op {
        case .add, .subtract:
            if let d = try dateArithmetic(op, a, b, span: span) { return d }
        default: break
        }
        switch op {
        case .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift:
            let x = try integer(a, op.rawValue, span), y = try integer(b, op.rawValue, span)
            switch op {
            case .bitwiseAnd: return .int(x & y)
            case .bitwiseOr: return .int(x | y)
            case .bitwiseXor: return .int(x ^ y)
            // Swift's smart shifts: a count ≥ 64 shifts everything out, a
            // negative count shifts the other way; never undefined.
            case .leftShift: return .int(x << y)
            default: return .int(x >> y)
            }
        default: break
        }
        guard let x = Number(a), let y = Number(b) else { throw typeError(op.rawValue, a, b, span) }
        switch (x, y) {
        case (.int(let i), .int(let j)): return try integerOp(op, i, j, span: span)
        case (.decimal, _), (_, .decimal):
            if let p = x.decimalValue, let q = y.decimalValue { return try decimalOp(op, p, q, span: span) }
            return doubleOp(op, x.doubleValue, y.doubleValue)
        default:
            return doubleOp(op, x.doubleValue, y.doubleValue)
        }
    }

    static func integerOp(_ op: BinaryOperator, _ i: Int64, _ j: Int64, span: SourceSpan) throws(Diagnostic) -> Value {
        let r: (partialValue: Int64, overflow: Bool)
        switch op {
        case .add: r = i.addingReportingOverflow(j)
        case .subtract: r = i.subtractingReportingOverflow(j)
        case .multiply: r = i.multipliedReportingOverflow(by: j)
        case .divide:
            if j == 0 { throw divisionByZero(span) }
            r = i.dividedReportingOverflow(by: j)
        case .power:
            return power(i, j)
        default:
            return .null
        }
        return r.overflow ? doubleOp(op, Double(i), Double(j)) : .int(r.partialValue)
    }

    static func divisionByZero(_ span: SourceSpan) -> Diagnostic {
        evaluationError(.divisionByZero, "division by zero", at: span,
                        hints: ["Apple answers 0 here; Quarry reports it"])
    }

    /// Exact integer powers while they fit; a double otherwise.
    static func power(_ base: Int64, _ exponent: Int64) -> Value {
        guard exponent >= 0 else { return .double(Foundation.pow(Double(base), Double(exponent))) }
        var result: Int64 = 1, b = base, e = exponent
        while e > 0 {
            if e & 1 == 1 {
                let (r, o) = result.multipliedReportingOverflow(by: b)
                if o { return .double(Foundation.pow(Double(base), Double(exponent))) }
                result = r
            }
            e >>= 1
            if e > 0 {
                let (sq, o) = b.multipliedReportingOverflow(by: b)
                if o { return .double(Foundation.pow(Double(base), Double(exponent))) }
                b = sq
            }
        }
        return .int(result)
    }

    static func doubleOp(_ op: BinaryOperator, _ x: Double, _ y: Double) -> Value {
        switch op {
        case .add: return .double(x + y)
        case .subtract: return .double(x - y)
        case .multiply: return .double(x * y)
        case .divide: return .double(x / y)
        case .power: return .double(Foundation.pow(x, y))
        default: return .null
        }
    }

    static func decimalOp(_ op: BinaryOperator, _ x: Decimal, _ y: Decimal, span: SourceSpan) throws(Diagnostic) -> Value {
        switch op {
        case .add: return .decimal(x + y)
        case .subtract: return .decimal(x - y)
        case .multiply: return .decimal(x * y)
        case .divide:
            if y.isZero { throw divisionByZero(span) }
            return .decimal(x / y)
        case .power:
            let e = Number.double(y)
            if e == e.rounded(), e >= 0, e <= 1000 { return .decimal(Foundation.pow(x, Int(e))) }
            return .double(Foundation.pow(Number.double(x), Number.double(y)))
        default: return .null
        }
    }

    static func dateArithmetic(_ op: BinaryOperator, _ a: Value, _ b: Value, span: SourceSpan) throws(Diagnostic) -> Value? {
        switch (a, b) {
        case (.date(let t), .date(let u)):
            return op == .subtract ? .double(t - u) : nil
        case (.date(let t), _):
            guard let n = Number(b) else { return nil }
            return .date(op == .add ? t + n.doubleValue : t - n.doubleValue)
        case (_, .date(let u)):
            guard op == .add, let n = Number(a) else { return nil }
            return .date(n.doubleValue + u)
        default: return nil
        }
    }

    /// Modulus (`modulus:by:`): integer remainder, truncated like C's `%`.
    static func modulus(_ a: Value, _ b: Value, span: SourceSpan) throws(Diagnostic) -> Value {
        if a.isNull || b.isNull { return .null }
        guard let x = Number(a), let y = Number(b) else { throw typeError("modulus:by:", a, b, span) }
        if case .int(let i) = x, case .int(let j) = y {
            if j == 0 { throw divisionByZero(span) }
            return .int(i.remainderReportingOverflow(dividingBy: j).partialValue)
        }
        let d = y.doubleValue
        if d == 0 { throw divisionByZero(span) }
        return .double(x.doubleValue.truncatingRemainder(dividingBy: d))
    }

    /// An integer operand of a bitwise operator: integers and booleans, and
    /// doubles truncated toward zero (as `-[NSNumber longLongValue]` does).
    static func integer(_ v: Value, _ op: String, _ span: SourceSpan) throws(Diagnostic) -> Int64 {
        switch Number(v) {
        case .int(let i): return i
        case .double(let d):
            if let i = Int64(exactly: d.rounded(.towardZero)) { return i }
        case .decimal(let d):
            if let i = Int64(exactly: Number.double(d).rounded(.towardZero)) { return i }
        case nil: break
        }
        throw evaluationError(.typeMismatch, "\(op) needs integers, got \(v.typeName) \(Printer.format(v))", at: span)
    }

    static func negate(_ v: Value, span: SourceSpan) throws(Diagnostic) -> Value {
        switch v {
        case .null: return .null
        case .int(let i): return i == .min ? .double(-Double(i)) : .int(-i)
        case .bool(let b): return .int(b ? -1 : 0)
        case .double(let d): return .double(-d)
        case .decimal(let d): return .decimal(-d)
        default: throw typeError("-", v, nil, span)
        }
    }

    static func complement(_ v: Value, span: SourceSpan) throws(Diagnostic) -> Value {
        if v.isNull { return .null }
        return .int(~(try integer(v, "~", span)))
    }
}

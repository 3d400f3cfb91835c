// The statistics shared by the collection operators (@sum, @avg, @min,
// @max) and the functions (sum:, average:, min:, max:, median:, mode:,
// stddev:, count:).
//
// Integers sum exactly in Int64 and continue in Decimal if that overflows;
// decimals sum in Decimal (Apple's @sum and @avg use NSDecimalNumber);
// doubles use compensated (Neumaier) summation so that long columns do not
// drift. average: and mode: skip nil; @avg counts a nil element as 0 (Apple's
// KVC divides by the element count). @avg / average: of nothing is nil; min and max skip nil; stddev: is
// the population deviation (divides by N), as Apple's is.
import Foundation

enum Aggregates {
    static func numbers(_ items: [Value], _ what: String, span: SourceSpan) throws(Diagnostic) -> [Number] {
        var out: [Number] = []
        out.reserveCapacity(items.count)
        for item in items {
            if item.isNull { continue }
            guard let n = Number(item) else {
                throw evaluationError(.typeMismatch, "\(what) needs numbers, got \(item.typeName) \(Printer.format(item))", at: span)
            }
            out.append(n)
        }
        return out
    }

    enum Total {
        case int(Int64)
        case decimal(Decimal)
        case double(Double)
    }

    static func total(_ ns: [Number]) -> Total {
        var intSum: Int64 = 0
        var decimalSum: Decimal? = nil
        var doubleSum = 0.0, compensation = 0.0
        var sawDouble = false
        for n in ns {
            switch n {
            case .int(let i):
                if let d = decimalSum { decimalSum = d + Decimal(i); continue }
                let (r, o) = intSum.addingReportingOverflow(i)
                if o { decimalSum = Decimal(intSum) + Decimal(i) } else { intSum = r }
            case .decimal(let x):
                decimalSum = (decimalSum ?? Decimal(intSum)) + x
            case .double(let x):
                sawDouble = true
                let t = doubleSum + x
                compensation += abs(doubleSum) >= abs(x) ? (doubleSum - t) + x : (x - t) + doubleSum
                doubleSum = t
            }
        }
        if sawDouble {
            let rest = decimalSum.map(Number.double) ?? Double(intSum)
            return .double(doubleSum + compensation + rest)
        }
        if let d = decimalSum { return .decimal(d) }
        return .int(intSum)
    }

    static func sum(_ items: [Value], span: SourceSpan) throws(Diagnostic) -> Value {
        let ns = try numbers(items, "sum", span: span)
        let hasDecimal = ns.contains { if case .decimal = $0 { return true } else { return false } }
        switch total(ns) {
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .decimal(let d):
            if hasDecimal { return .decimal(d) }
            // Integers whose running sum overflowed Int64: an integer again
            // if the total fits, otherwise the nearest double.
            if let i = Int64(d.description) { return .int(i) }
            return .double(Number.double(d))
        }
    }

    /// The sum of the non-nil values divided by their number (the function
    /// `average:`), or by `elements` when given (the operator `@avg`, which
    /// counts a nil element as 0). nil when there is nothing to divide by.
    static func average(_ items: [Value], span: SourceSpan, elements: Int? = nil) throws(Diagnostic) -> Value {
        let ns = try numbers(items, "average", span: span)
        let n = elements ?? ns.count
        if n == 0 { return .null }
        let count = Double(n)
        switch total(ns) {
        // Integers: the exact sum rounded once to a double, divided by the
        // count — what SQL computes exactly too (PredicateLowering+Averages),
        // so the stores need not leave integer averages to memory.
        case .int(let i): return .double(Double(i) / count)
        case .double(let d): return .double(d / count)
        case .decimal(let d):
            let hasDecimal = ns.contains { if case .decimal = $0 { return true } else { return false } }
            return hasDecimal ? .decimal(d / Decimal(n)) : .double(Number.double(d) / count)
        }
    }

    /// min / max by the language's ordering; nil elements are skipped.
    static func extreme(_ items: [Value], wantMax: Bool, span: SourceSpan) throws(Diagnostic) -> Value {
        var best: Value? = nil
        for item in items where !item.isNull {
            guard let current = best else { best = item; continue }
            guard let o = Compare.order(item, current) else {
                throw evaluationError(.typeMismatch, "cannot order \(item.typeName) and \(current.typeName) in \(wantMax ? "max" : "min")", at: span)
            }
            if (wantMax && o == .greater) || (!wantMax && o == .less) { best = item }
        }
        return best ?? .null
    }

    static func sorted(_ ns: [Number]) -> [Number] {
        ns.sorted { (Compare.order($0, $1) ?? .equal) == .less }
    }

    static func median(_ items: [Value], span: SourceSpan) throws(Diagnostic) -> Value {
        let ns = sorted(try numbers(items, "median", span: span))
        if ns.isEmpty { return .null }
        let mid = ns.count / 2
        if ns.count % 2 == 1 { return ns[mid].value }
        if case .decimal = ns[mid], let a = ns[mid - 1].decimalValue, let b = ns[mid].decimalValue {
            return .decimal((a + b) / 2)
        }
        return .double((ns[mid - 1].doubleValue + ns[mid].doubleValue) / 2)
    }

    /// The most frequent values, in the order they first appear. nil is
    /// not a value here, as for every other statistic (average:, median:,
    /// min:, max:, stddev:): `mode:({1, nil, nil})` is `{1}`, and the mode
    /// of nothing but nils is empty.
    static func mode(_ items: [Value]) -> Value {
        var counts: [HashKey: Int] = [:]
        var order: [Value] = []
        for var item in items where !item.isNull {
            // 0.0 and -0.0 are one value; which sign the first of them had
            // is no part of the answer (SQLite does not even keep it).
            if case .double(0) = item { item = .double(0) }
            let key = HashKey(item)
            if let c = counts[key] { counts[key] = c + 1 } else { counts[key] = 1; order.append(item) }
        }
        let top = counts.values.max() ?? 0
        return .array(order.filter { counts[HashKey($0)] == top })
    }

    static func standardDeviation(_ items: [Value], span: SourceSpan) throws(Diagnostic) -> Value {
        let ds = try numbers(items, "stddev", span: span).map(\.doubleValue)
        if ds.isEmpty { return .null }
        let mean = ds.reduce(0, +) / Double(ds.count)
        let variance = ds.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(ds.count)
        return .double(variance.squareRoot())
    }
}

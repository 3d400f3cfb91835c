// ValueSource: one attribute's generator, compiled from a factory or chosen
// by the heuristics, and drawing the next value from the attribute's own
// random stream. Sources know nothing of nulls, defaults or uniqueness: the
// AttributeGenerator around them does that.
//
// Numbers stay exact: integer draws, decimal steps scaled to integers
// (a price of 12.34 is 1234 / 100, one correctly rounded division), skew by
// products of uniforms rather than `pow`, so the bits are the same on every
// machine.

enum ValueSource {
    case constant(Value)
    /// Text with `{n}` holes: fixed parts and (offset, zero-pad width) holes.
    case template([TemplatePart], start: Int64, step: Int64)
    case integerSequence(start: Int64, step: Int64)
    case doubleSequence(start: Double, step: Double)
    case dateSequence(start: Double, step: Double)
    case choice([Value], WeightedSampler?)
    /// Integers lo...hi in multiples of `step` from lo.
    case integers(lo: Int64, hi: Int64, step: Int64, shape: DistributionShape, skew: Double)
    /// Decimals as integers over a power-of-ten scale (cents: scale 100).
    case scaled(lo: Int64, hi: Int64, step: Int64, scale: Double, shape: DistributionShape, skew: Double, asDate: Bool)
    case pattern(RegexPattern)
    case expression(CompiledExpression, AttributeType, location: FixtureLocation?)
    case text(TextKind, nameColumn: Int?)
    case bool(ratio: Double)
    case uuid
    case bytes(lo: Int, hi: Int)

    enum TemplatePart {
        case text(String)
        case number(width: Int)
    }

    /// The next value for row `row` (0-based) of `count`; `values` holds the
    /// row's columns generated so far (in attribute order).
    func next(_ r: inout FixtureRandom, row: Int, count: Int, values: [Value], names: [String]) throws(FixtureError) -> Value {
        switch self {
        case .constant(let v): return v
        case .template(let parts, let start, let step):
            let n = start &+ Int64(row) &* step
            var s = ""
            for part in parts {
                switch part {
                case .text(let t): s += t
                case .number(let width):
                    let digits = String(n)
                    if digits.count < width { s += String(repeating: "0", count: width - digits.count) }
                    s += digits
                }
            }
            return .string(s)
        case .integerSequence(let start, let step): return .int(start &+ Int64(row) &* step)
        case .doubleSequence(let start, let step): return .double(start + Double(row) * step)
        case .dateSequence(let start, let step): return .date(start + Double(row) * step)
        case .choice(let values, let sampler):
            if let sampler { return values[sampler.draw(&r)!] }
            return values[r.index(values.count)]
        case .integers(let lo, let hi, let step, let shape, let skew):
            let steps = UInt64(bitPattern: hi &- lo) / UInt64(step)
            let k = Self.draw(steps, shape, skew, &r)
            return .int(lo &+ Int64(bitPattern: k &* UInt64(step)))
        case .scaled(let lo, let hi, let step, let scale, let shape, let skew, let asDate):
            let k = Self.draw(UInt64(hi - lo) / UInt64(step), shape, skew, &r)
            let v = Double(lo + Int64(k) * step) / scale
            return asDate ? .date(v) : .double(v)
        case .pattern(let p):
            return .string(p.generate(&r).precomposedStringWithCanonicalMapping)
        case .expression(let compiled, let type, let location):
            var object: [String: Value] = [:]
            for (i, v) in values.enumerated() where i < names.count { object[names[i]] = v }
            let variables: [String: Value] = ["n": .int(Int64(row + 1)), "index": .int(Int64(row)),
                                              "count": .int(Int64(count)), "random": .double(r.unit())]
            let result: Value
            do {
                result = try compiled.evaluate(.dictionary(object), variables: variables)
            } catch {
                throw FixtureError(.invalidGenerator, "the expression failed on row \(row + 1): \(error.message)", at: location)
            }
            guard let converted = Self.convert(result, to: type) else {
                throw FixtureError(.invalidGenerator,
                                   "the expression gave \(result.typeName) '\(Printer.format(result))' on row \(row + 1), not \(FixtureValues.describe(type))",
                                   at: location)
            }
            return converted
        case .text(let kind, let nameColumn):
            var name: String?
            if let c = nameColumn, c < values.count, case .string(let s) = values[c] { name = s }
            return .string(TextMaker.make(kind, &r, row: row, name: name))
        case .bool(let ratio): return .bool(r.chance(ratio))
        case .uuid:
            var bytes = (r.next(), r.next())
            // Version 4, variant 1, as UUID() makes them.
            bytes.0 = (bytes.0 & ~0xF000) | 0x4000
            bytes.1 = (bytes.1 & ~(0xC << 60)) | (0x8 << 60)
            let b = withUnsafeBytes(of: (bytes.0.bigEndian, bytes.1.bigEndian)) { Array($0) }
            return .uuid(UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])))
        case .bytes(let lo, let hi):
            let n = lo + r.index(hi - lo + 1)
            return .data((0..<n).map { _ in UInt8(truncatingIfNeeded: r.next()) })
        }
    }

    /// A step index in 0...steps by shape: uniform; normal (a bell around the
    /// middle, ±3σ = the range); zipf-like (products of uniforms crowd the low end).
    static func draw(_ steps: UInt64, _ shape: DistributionShape, _ skew: Double, _ r: inout FixtureRandom) -> UInt64 {
        if steps == UInt64.max { return r.next() }
        switch shape {
        case .uniform:
            return r.below(steps + 1)
        case .normal:
            let x = (r.bell() / 6 + 0.5) * Double(steps + 1)
            return UInt64(Swift.min(Swift.max(x, 0), Double(steps)))
        case .zipf:
            var u = r.unit()
            for _ in 0..<Int((2 * skew).rounded()) { u *= r.unit() }
            return Swift.min(UInt64(u * Double(steps + 1)), steps)
        }
    }

    /// An expression's result as a value of the attribute's type, when it is one.
    static func convert(_ v: Value, to type: AttributeType) -> Value? {
        switch (type, v) {
        case (_, .null): return .null
        case (.integer16, .int(let n)), (.integer32, .int(let n)), (.integer64, .int(let n)):
            return type.integerRange!.contains(n) ? v : nil
        case (.integer16, .double(let d)), (.integer32, .double(let d)), (.integer64, .double(let d)):
            guard d.isFinite, d == d.rounded(), abs(d) < 9e18, type.integerRange!.contains(Int64(d)) else { return nil }
            return .int(Int64(d))
        case (.double, .int(let n)), (.float, .int(let n)), (.decimal, .int(let n)): return .double(Double(n))
        case (.double, .double(let d)), (.float, .double(let d)), (.decimal, .double(let d)): return d.isFinite ? v : nil
        case (.decimal, .decimal(let d)): return .double(NSDecimalNumber(decimal: d).doubleValue)
        case (.string, .string(let s)), (.uri, .string(let s)): return .string(s.precomposedStringWithCanonicalMapping)
        case (.boolean, .bool): return v
        case (.boolean, .int(let n)) where n == 0 || n == 1: return .bool(n == 1)
        case (.date, .date): return v
        case (.date, .double(let d)): return .date(d)
        case (.date, .int(let n)): return .date(Double(n))
        case (.uuid, .uuid), (.binary, .data): return v
        default: return nil
        }
    }
}

import Foundation

// AttributeGenerator: one attribute's values, row after row, within the
// model's rules. Around its ValueSource it decides nulls (optional
// attributes only, at the null ratio), defaults (a share of rows take the
// model's default, as objects that were never edited do), edge values in
// edge-case mode, string lengths (cut or padded to min/max), the regular
// expression (checked on every value, retried when it fails), and
// uniqueness (values remembered as 64-bit hashes, 8 bytes a row, never the
// values themselves; a repeat is drawn again, then disambiguated with a
// number for free text, then reported).

struct AttributeGenerator {
    let attribute: Attribute
    /// "Employee.email", for messages.
    let label: String
    var source: ValueSource
    var random: FixtureRandom
    let nullRatio: Double
    let defaultRatio: Double
    let matcher: ValueMatcher?
    let unique: Bool
    /// Hashes of the values so far, shared by every entity of a hierarchy
    /// when the constraint is inherited (they share one table and index).
    var seen = SeenValues()
    /// Edge-case mode: values tried first, then mixed in with the source's.
    let edgeValues: [Value]
    /// Where the generator was configured, for errors (nil: the heuristic).
    let location: FixtureLocation?
    /// Sources whose output may be cut or padded to the length bounds
    /// (patterns are not: that would break what they were made to match).
    let adjustsLength: Bool
    /// Whether the attribute has a minimum or maximum to check (counting a
    /// string's characters is not free).
    var checksBounds: Bool { attribute.minimum != nil || attribute.maximum != nil }

    static let attempts = 100

    /// `retry`: the row is drawn again (a repeat of a constraint over
    /// several attributes), so the edge value planned for it is skipped.
    mutating func next(row: Int, count: Int, values: [Value], names: [String], retry: Bool = false) throws(FixtureError) -> Value {
        if !retry, row < edgeValues.count, accept(edgeValues[row]) { return edgeValues[row] }
        if attribute.isOptional, random.chance(nullRatio) { return .null }
        if let d = attribute.defaultValue, defaultRatio > 0, random.chance(defaultRatio), let v = Self.normalized(d, attribute.type), accept(v) {
            return v
        }
        if !edgeValues.isEmpty, random.chance(0.5) {
            let v = edgeValues[random.index(edgeValues.count)]
            if accept(v) { return v }
        }
        var invalid = 0
        for _ in 0..<Self.attempts {
            var v = try source.next(&random, row: row, count: count, values: values, names: names)
            if adjustsLength { v = adjust(v) }
            if let matcher, case .string(let s) = v, !matcher.matches(s) { invalid += 1; continue }
            if checksBounds, FixtureValues.boundProblem(v, attribute) != nil { invalid += 1; continue }
            if accept(v) { return v }
        }
        if invalid == Self.attempts {
            let rule = matcher.map { "its regular expression '\($0.source)'" } ?? "its bounds"
            throw FixtureError(.invalidGenerator, "\(label): no generated value met \(rule) in \(Self.attempts) tries; give it a 'pattern' or another generator",
                               at: location)
        }
        if unique, let v = disambiguate(row: row) { return v }
        throw FixtureError(.impossibleUniqueness,
                           "\(label) must be unique, but after \(seen.count) values the generator gives only repeats; widen its generator or lower the count",
                           at: location)
    }

    /// Records `v` when uniqueness allows it (nulls are never repeats).
    mutating func accept(_ v: Value) -> Bool {
        guard unique, !v.isNull else { return true }
        return seen.insert(ValueHash.of(v))
    }

    /// A free-text value made unique with a number ("Sales 2"), or an integer
    /// found by probing upward from a random point in its range.
    mutating func disambiguate(row: Int) -> Value? {
        switch source {
        case .text, .choice, .template, .constant:
            guard matcher == nil, case .string(let base)? = try? source.next(&random, row: row, count: 0, values: [], names: []) else { return nil }
            for n in 2..<(row + 100) {
                var candidate = base + " " + String(n)
                if let max = FixtureValues.bound(attribute.maximum), candidate.count > Int(max) {
                    let keep = Int(max) - String(n).count - 1
                    guard keep > 0 else { return nil }
                    candidate = String(base.prefix(keep)) + " " + String(n)
                }
                let v = Value.string(candidate)
                if accept(v) { return v }
            }
            return nil
        case .integers(let lo, let hi, let step, _, _):
            let steps = UInt64(bitPattern: hi &- lo) / UInt64(step)
            let start = random.below(steps &+ 1 == 0 ? UInt64.max : steps + 1)
            var k = start
            repeat {
                let v = Value.int(lo &+ Int64(bitPattern: k &* UInt64(step)))
                if accept(v) { return v }
                k = k == steps ? 0 : k + 1
            } while k != start
            return nil
        default:
            return nil
        }
    }

    /// Strings cut to the maximum length or padded to the minimum.
    mutating func adjust(_ v: Value) -> Value {
        guard case .string(let s) = v, attribute.type == .string else { return v }
        if let max = FixtureValues.bound(attribute.maximum), s.count > Int(max) {
            return .string(String(s.prefix(Int(max))))
        }
        if let min = FixtureValues.bound(attribute.minimum), s.count < Int(min) {
            var padded = s
            while padded.count < Int(min) { padded.append(Character(Unicode.Scalar(UInt8(97 + random.index(26))))) }
            return .string(padded)
        }
        return v
    }

    /// A model default as fixtures hold values (decimals as doubles, NFC).
    static func normalized(_ v: Value, _ type: AttributeType) -> Value? {
        switch v {
        case .decimal(let d): return .double(NSDecimalNumber(decimal: d).doubleValue)
        case .int(let n) where type == .double || type == .float || type == .decimal: return .double(Double(n))
        case .string(let s): return .string(s.precomposedStringWithCanonicalMapping)
        default: return v
        }
    }
}

/// The hashes of the values a uniqueness constraint has seen.
final class SeenValues {
    private var hashes: Set<UInt64> = []
    var count: Int { hashes.count }
    func insert(_ hash: UInt64) -> Bool { hashes.insert(hash).inserted }
}

/// Whole-string regular-expression checks: Quarry's own matcher for the
/// common subset, NSRegularExpression (ICU, as MATCHES) for the rest.
struct ValueMatcher {
    let source: String
    private let runner: RegexRunner?
    private let regex: NSRegularExpression?

    init?(_ source: String) {
        self.source = source
        runner = (try? RegexPattern(source))?.program.map(RegexRunner.init)
        regex = try? NSRegularExpression(pattern: "\\A(?:" + source + ")\\z")
        if runner == nil && regex == nil { return nil }
    }

    func matches(_ s: String) -> Bool {
        if let runner { return runner.matches(s) }
        return regex!.firstMatch(in: s, range: NSRange(location: 0, length: s.utf16.count)) != nil
    }
}

/// A 64-bit FNV-1a hash of a value's kind and bytes: the same on every run
/// (Swift's `Hasher` is seeded per process), used only for membership.
enum ValueHash {
    static func of(_ v: Value) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        @inline(__always) func mix(_ b: UInt8) { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        func mix64(_ x: UInt64) { for i in 0..<8 { mix(UInt8(truncatingIfNeeded: x >> (8 * UInt64(i)))) } }
        switch v {
        case .null: mix(0)
        case .bool(let b): mix(1); mix(b ? 1 : 0)
        case .int(let n): mix(2); mix64(UInt64(bitPattern: n))
        case .double(let d), .date(let d): mix(3); mix64(d.bitPattern)
        case .string(let s): mix(4); for b in s.utf8 { mix(b) }
        case .data(let d): mix(5); for b in d { mix(b) }
        case .uuid(let u): mix(6); for b in u.uuidString.utf8 { mix(b) }
        default: mix(7); for b in Printer.format(v).utf8 { mix(b) }
        }
        return h
    }

    /// A hash of several values (a uniqueness constraint over properties).
    static func of(_ values: [Value]) -> UInt64 {
        var h: UInt64 = 0x84222325
        for v in values { h = (h ^ of(v)) &* 0x0000_0100_0000_01B3 }
        return h
    }
}

import Foundation

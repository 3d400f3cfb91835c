// Edge-case mode (`--edge-cases`): values that break naive predicate
// implementations, tried first on every attribute (row 1 gets the first edge
// value, row 2 the second...) and then mixed in with ordinary ones, while
// nulls come at a quarter of the optional rows. Strings: empty, LIKE and
// glob wildcards (`%`, `_`, `*`, `?`), quotes, backslashes, combining
// accents that survive NFC (q̇, a decomposed ë that NFC composes, Zalgo),
// non-Latin scripts and emoji, whitespace, very long text. Numbers: zero,
// ±1, the type's (or the model's) limits. Doubles at the edges of their
// range — never NaN or infinity, which SQLite cannot store. Dates: exactly
// the reference date, one second either side, the 2001 epoch, far past and
// future. Every candidate is filtered through the attribute's own rules
// (regex, min/max), so edge cases stay valid data.

enum EdgeCases {
    static let strings: [String] = [
        "", " ", "%", "_", "*", "?", "%%", "a%b", "a_b", "*?*", "[cd]", "'", "\"", "''", "O'Brien", "\"quoted\"",
        "\\", "back\\slash", "\\%", "e\u{301}", "Zoe\u{308}", "q\u{307}\u{323}", "Z\u{351}\u{361}a\u{34F}l\u{36B}g\u{35C}o",
        "ÅNGSTRÖM", "ß", "İ", "ﬁ", "佐藤", "🙂", "👩‍💻", " leading", "trailing ", "tab\tinside", "new\nline",
        "NULL", "nil", "0", "-0", "LIKE", "MATCHES", ".*", "^$",
        String(repeating: "long ", count: 2_000),
    ]

    static let doubles: [Double] = [
        0, -0.0, 1, -1, 0.1, -0.1, 1e-300, Double.leastNonzeroMagnitude, Double.leastNormalMagnitude,
        9_007_199_254_740_992, -9_007_199_254_740_992, Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude,
    ]

    static func values(for attribute: Attribute, reference: Double) -> [Value] {
        switch attribute.type {
        case .string:
            return strings.map { .string($0.precomposedStringWithCanonicalMapping) }
        case .integer16, .integer32, .integer64:
            let r = attribute.type.integerRange!
            var values: [Int64] = [0, 1, -1, r.lowerBound, r.upperBound, r.lowerBound + 1, r.upperBound - 1]
            if let lo = FixtureValues.bound(attribute.minimum), abs(lo) < 9e18 { values += [Int64(lo.rounded(.up)), Int64(lo.rounded(.up)) + 1] }
            if let hi = FixtureValues.bound(attribute.maximum), abs(hi) < 9e18 { values += [Int64(hi.rounded(.down)), Int64(hi.rounded(.down)) - 1] }
            return values.map(Value.int)
        case .double, .float, .decimal:
            var values = attribute.type == .float ? [0, -0.0, 1, -1, 0.1, Double(Float.greatestFiniteMagnitude), Double(-Float.greatestFiniteMagnitude), Double(Float.leastNormalMagnitude)] : doubles
            if let lo = FixtureValues.bound(attribute.minimum) { values.append(lo) }
            if let hi = FixtureValues.bound(attribute.maximum) { values.append(hi) }
            return values.map(Value.double)
        case .date:
            var values = [reference, reference - 1, reference + 1, 0, -3_155_760_000, 3_155_760_000, reference + 0.5]
            if let lo = FixtureValues.bound(attribute.minimum) { values.append(lo) }
            if let hi = FixtureValues.bound(attribute.maximum) { values.append(hi) }
            return values.map(Value.date)
        case .boolean:
            return [.bool(false), .bool(true)]
        case .uuid:
            return [.uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))),
                    .uuid(UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)))]
        case .binary:
            return [.data([]), .data([0]), .data([0xFF, 0x00, 0x25, 0x5F])]
        case .uri:
            return [.string("https://example.com/a%20b?q=%25&x=_"), .string("file:///tmp/it's"), .string("https://例え.テスト/パス")]
        default:
            return []
        }
    }

    /// The generator with the attribute's valid edge values to try first.
    static func apply(to generator: AttributeGenerator, reference: Double) -> AttributeGenerator {
        let a = generator.attribute
        let edges = values(for: a, reference: reference).filter { v in
            if FixtureValues.boundProblem(v, a) != nil { return false }
            if let m = generator.matcher, case .string(let s) = v, !m.matches(s) { return false }
            return true
        }
        var result = AttributeGenerator(attribute: a, label: generator.label, source: generator.source, random: generator.random,
                                        nullRatio: generator.nullRatio, defaultRatio: generator.defaultRatio, matcher: generator.matcher,
                                        unique: generator.unique, edgeValues: edges, location: generator.location,
                                        adjustsLength: generator.adjustsLength)
        result.seen = generator.seen
        return result
    }
}

import Foundation

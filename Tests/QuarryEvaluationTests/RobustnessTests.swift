// Inputs that must neither crash nor hang: the deepest trees the parser
// accepts, large collections, pathological LIKE patterns, and overflow in
// every integer operator.
import Foundation
import Testing
@testable import QuarryEvaluation

@Suite struct Robustness {
    @Test func deepTreesEvaluate() throws {
        let depth = 300
        let nots = String(repeating: "NOT ", count: depth) + "a == 1"
        #expect(try holds(nots, dict(["a": .int(1)])) == (depth % 2 == 0))
        let parens = String(repeating: "(", count: depth) + "a" + String(repeating: " + 1)", count: depth) + " == 301"
        #expect(try holds(parens, dict(["a": .int(1)])))
        let chain = (0..<300).map { "a == \($0)" }.joined(separator: " OR ")
        #expect(try holds(chain, dict(["a": .int(299)])))
        let minus = String(repeating: "-", count: 200) + "a"
        #expect(try value(minus, dict(["a": .int(7)])) == .int(7))
        let nested = String(repeating: "{", count: 150) + "1" + String(repeating: "}", count: 150)
        #expect(try holds(nested + "[SIZE] == 1"))
    }

    @Test func largeCollections() throws {
        let big = Value.array((0..<200_000).map { .int(Int64($0)) })
        #expect(try holds("SELF IN %@", .int(199_999), args: [big]))
        #expect(try holds("SELF IN %@", .double(5.0), args: [big]))
        #expect(try !holds("SELF IN %@", .int(-1), args: [big]))
        #expect(try holds("SELF.@count == 200000 AND SELF.@max.#self == 199999", big))
        #expect(try holds("ANY SELF == 199999", big))
        #expect(try holds("sum:(SELF) == 19999900000", big))
        let strings = Value.array((0..<50_000).map { .string("name\($0)") })
        #expect(try holds("SELF IN[c] %@", .string("NAME49999"), args: [strings]))
    }

    @Test func pathologicalLikeIsLinearish() throws {
        let subject = String(repeating: "a", count: 20_000)
        let start = Date()
        #expect(try !holds("SELF LIKE '*a*a*a*a*a*a*a*a*a*a*b'", .string(subject)))
        #expect(try holds("SELF LIKE '*a*a*a*a*a*a*a*a*a*a'", .string(subject)))
        #expect(Date().timeIntervalSince(start) < 10)
    }

    static let overflowing: [String] = [
        "$max + $max", "$min - $max", "$max * $max", "$min / -1", "$max ** $max", "$min ** 3",
        "$max << 1", "$min >> 1", "~$min", "-$min", "abs:($min)", "modulus:by:($min, -1)",
        "$max << $min", "$max >> $min", "sum:({$max, $max, $min})", "average:({$max, $max})",
        "median:({$max, $max - 1})", "stddev:({$max, $min})", "$min * -1", "trunc:($min)",
        "raise:toPower:($min, $min)", "sqrt:(-4)", "ln:(-1)", "log:(0)", "$max + 0.5", "CAST($max, 'NSDate')",
        "CAST(CAST($max, 'NSDate'), 'NSString')", "1e308 * 10", "bitwiseAnd:with:(1e300, 1)",
    ]

    @Test(arguments: overflowing)
    func integerEdgesNeverTrap(_ format: String) throws {
        let vars: [String: Value] = ["max": .int(.max), "min": .int(.min)]
        do {
            _ = try value(format, vars: vars)
        } catch let d as Diagnostic {
            // An error is acceptable; a trap is not.
            #expect(d.stage == .evaluate)
        }
    }

    @Test func sumsOfHugeIntegersStayExact() throws {
        let vars: [String: Value] = ["max": .int(.max)]
        #expect(same(try value("sum:({$max, $max, -$max})", vars: vars), .int(.max)))
        #expect(same(try value("average:({$max, $max})", vars: vars), .double(Double(Int64.max))))
    }
}

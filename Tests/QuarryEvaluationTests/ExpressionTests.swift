// Arithmetic and bitwise operators, the predefined functions, CAST, TERNARY,
// set operations, aggregates and assignments.
import Foundation
import Testing
@testable import QuarryEvaluation

@Suite struct Expressions {
    static let arithmetic: [(String, Value)] = [
        ("7 / 2", .int(3)), ("-7 / 2", .int(-3)), ("7.0 / 2", .double(3.5)), ("7 / 2.0", .double(3.5)),
        ("(24 - 18) / 87 * 100", .int(0)), ("(41 / 2) * 2", .int(40)), ("1 + 2 * 3", .int(7)),
        ("2 ** 10", .int(1024)), ("2 ** -1", .double(0.5)), ("2.0 ** 0.5", .double(2.0.squareRoot())),
        ("2 ** 3 ** 2", .int(64)), ("-(3)", .int(-3)), ("-(2.5)", .double(-2.5)),
        ("9223372036854775807 + 1", .double(0x1p63)),
        ("9223372036854775807 * 2", .double(0x1p64)),
        ("-9223372036854775807 - 2", .double(-0x1p63)),
        ("3037000500 * 3037000500", .double(3037000500.0 * 3037000500.0)),
        ("2 ** 63", .double(0x1p63)), ("2 ** 62", .int(4_611_686_018_427_387_904)),
        ("1 << 3", .int(8)), ("1 << 63", .int(.min)), ("1 << 64", .int(0)), ("1 << 70", .int(0)),
        ("8 >> 1", .int(4)), ("-8 >> 100", .int(-1)), ("1 << -1", .int(0)), ("8 << -1", .int(4)),
        ("6 & 3", .int(2)), ("6 | 3", .int(7)), ("6 ^ 3", .int(5)), ("~5", .int(-6)), ("~0", .int(-1)),
        ("7.9 & 3", .int(3)), ("YES + 1", .int(2)), ("YES & 3", .int(1)),
        ("CAST('1.1', 'NSDecimalNumber') + CAST('2.2', 'NSDecimalNumber')", .decimal(Decimal(string: "3.3")!)),
        ("CAST('1', 'NSDecimalNumber') / 4", .decimal(Decimal(string: "0.25")!)),
        ("CAST(10, 'NSDate') + 5", .date(15)), ("CAST(10, 'NSDate') - CAST(4, 'NSDate')", .double(6)),
        ("1.0 / 0", .double(.infinity)),
    ]

    @Test(arguments: arithmetic)
    func operators(_ format: String, _ expected: Value) throws {
        #expect(try value(format) == expected)
    }

    @Test func overflowEdgesNeverTrap() throws {
        let vars: [String: Value] = ["min": .int(.min), "max": .int(.max), "m1": .int(-1), "z": .int(0)]
        #expect(try value("$min / $m1", vars: vars) == .double(0x1p63))
        #expect(try value("modulus:by:($min, $m1)", vars: vars) == .int(0))
        #expect(try value("abs:($min)", vars: vars) == .double(0x1p63))
        #expect(try value("-$min", vars: vars) == .double(0x1p63))
        #expect(try value("$max ** 2", vars: vars) == .double(Double(Int64.max) * Double(Int64.max)))
        #expect(try value("1 << $min", vars: vars) == .int(0))
        #expect(try value("-1 >> $max", vars: vars) == .int(-1))
        #expect(try value("$max << $max", vars: vars) == .int(0))
        #expect(try value("$min - 1", vars: vars) == .double(-0x1p63))
        #expect(try value("$min * $m1", vars: vars) == .double(0x1p63))
        #expect(try value("$z ** $m1", vars: vars) == .double(.infinity))
        guard case .double(let nan) = try value("sqrt:(-1)") else { Issue.record("sqrt gives a double"); return }
        #expect(nan.isNaN)
    }

    @Test func nilPropagatesThroughArithmetic() throws {
        #expect(try value("missing + 1", dict([:])) == .null)
        #expect(try value("-missing", dict([:])) == .null)
        #expect(try value("sqrt:(missing)", dict([:])) == .null)
        #expect(try !holds("missing + 1 > 0", dict([:])))
    }

    static let functions: [(String, Value)] = [
        ("sum:({1, 2, 3})", .int(6)), ("sum({1, 2, 3})", .int(6)), ("count:({1, 2, 3})", .int(3)),
        ("min:({3, 1.5, 2})", .double(1.5)), ("max:({3, 1.5, 2})", .int(3)), ("max(1, 5, 2)", .int(5)),
        ("min:({'b', 'a'})", .string("a")), ("average:({1, 2, 3, 4})", .double(2.5)),
        ("median:({3, 1, 2})", .int(2)), ("median:({4, 1, 3, 2})", .double(2.5)),
        ("mode:({1, 2, 2, 3, 3})", .array([.int(2), .int(3)])), ("mode:({'a', 'b', 'a'})", .array([.string("a")])),
        ("sqrt:(16)", .double(4)), ("log:(100)", .double(2)), ("ln:(1)", .double(0)), ("exp:(0)", .double(1)),
        ("raise:toPower:(2, 3)", .int(8)), ("floor:(2.7)", .double(2)), ("ceiling:(2.1)", .double(3)),
        ("trunc:(-2.7)", .double(-2)), ("floor:(5)", .int(5)), ("abs:(-3)", .int(3)), ("abs(-2.5)", .double(2.5)),
        ("uppercase:('abc')", .string("ABC")), ("lowercase:('ÀB')", .string("àb")), ("uppercase:('straße')", .string("STRASSE")),
        ("length:('Zoë')", .int(3)), ("noindex:(5)", .int(5)), ("distinct:({1, 1.0, 2, 'a', 'a'})", .array([.int(1), .int(2), .string("a")])),
        ("castObject:toType:('5', 'NSNumber')", .int(5)), ("bitwiseAnd:with:(6, 3)", .int(2)),
        ("bitwiseOr:with:(6, 3)", .int(7)), ("bitwiseXor:with:(6, 3)", .int(5)), ("leftshift:by:(1, 4)", .int(16)),
        ("rightshift:by:(16, 2)", .int(4)), ("onesComplement:(0)", .int(-1)), ("objectFrom:withIndex:({10, 20}, 1)", .int(20)),
        ("objectFrom:withIndex:({10, 20}, 'LAST')", .int(20)), ("add:to:(1, 2)", .int(3)), ("from:subtract:(5, 2)", .int(3)),
        ("multiply:by:(3, 4)", .int(12)), ("divide:by:(7, 2)", .int(3)), ("modulus:by:(-7, 2)", .int(-1)),
        ("modulus:by:(7.5, 2)", .double(1.5)), ("count:(nil)", .int(0)), ("_convertStringToNumber:('42')", .int(42)),
    ]

    @Test(arguments: functions)
    func predefinedFunctions(_ format: String, _ expected: Value) throws {
        #expect(try value(format) == expected)
    }

    @Test func standardDeviationIsPopulation() throws {
        guard case .double(let d) = try value("stddev:({1, 2, 3, 4, 4, 5, 9, 11})") else { Issue.record("a double"); return }
        #expect(abs(d - 3.2185983) < 1e-6)
        #expect(try value("stddev:({})") == .null)
    }

    @Test func clockAndRandomAreInjectable() throws {
        var options = EvaluationOptions()
        options.now = { 1234.5 }
        options.randomSeed = 7
        #expect(try value("now()", options: options) == .date(1234.5))
        let a = try value("{random(), random(), random:(10)}", options: options)
        let b = try value("{random(), random(), random:(10)}", options: options)
        #expect(a == b, "the same seed gives the same sequence")
        guard case .array(let items) = a, case .double(let r) = items[0], case .int(let n) = items[2] else {
            Issue.record("random gives doubles, random: integers"); return
        }
        #expect(r >= 0 && r < 1)
        #expect(n >= 0 && n < 10)
        #expect(items[0] != items[1])
        options.randomSeed = 8
        #expect(try value("{random(), random(), random:(10)}", options: options) != a)
    }

    static let casts: [(String, Value)] = [
        ("CAST('42', 'NSNumber')", .int(42)), ("CAST('2.5', 'NSNumber')", .double(2.5)),
        ("CAST(42, 'NSString')", .string("42")), ("CAST(2.5, 'NSString')", .string("2.5")),
        ("CAST(YES, 'NSString')", .string("1")), ("CAST(0, 'NSDate')", .date(0)),
        ("CAST(CAST(0, 'NSDate'), 'NSString')", .string("2001-01-01 00:00:00 +0000")),
        ("CAST(CAST(-1, 'NSDate'), 'NSString')", .string("2000-12-31 23:59:59 +0000")),
        ("CAST('2016-03-02T00:00:00Z', 'NSDate')", .date(478_569_600)),
        ("CAST('2016-03-02 01:00:00 +0100', 'NSDate')", .date(478_569_600)),
        ("CAST('2001-01-01', 'NSDate')", .date(0)), ("CAST(CAST(100, 'NSDate'), 'NSNumber')", .double(100)),
        ("CAST('1.25', 'NSDecimalNumber')", .decimal(Decimal(string: "1.25")!)),
        ("CAST(CAST('1.25', 'NSDecimalNumber'), 'NSNumber')", .double(1.25)),
        ("CAST('E621E1F8-C36C-495A-93FC-0C247A3E6E5F', 'NSUUID')", .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)),
        ("CAST('AQID', 'NSData')", .data([1, 2, 3])), ("CAST(nil, 'NSNumber')", .null),
        ("CAST(missing, 'NSString')", .null),
    ]

    @Test(arguments: casts)
    func castConverts(_ format: String, _ expected: Value) throws {
        #expect(try value(format, dict([:])) == expected)
    }

    @Test func ternarySetOperationsAggregatesAssignments() throws {
        #expect(try value("TERNARY(1 > 0, 'a', 'b')") == .string("a"))
        #expect(try value("TERNARY(age > 40, 'old', 'young')", person) == .string("young"))
        #expect(try value("TERNARY(nickname == nil, name, nickname)", person) == .string("José"))
        #expect(same(try value("{1, 2} UNION {2, 3}"), .set([.int(1), .int(2), .int(3)])))
        #expect(same(try value("{1, 2, 3} INTERSECT {2.0, 3, 4}"), .set([.int(2), .int(3)])))
        #expect(same(try value("{1, 2, 3} MINUS {2}"), .set([.int(1), .int(3)])))
        #expect(same(try value("$s UNION nil", vars: ["s": .set([.int(1)])]), .set([.int(1)])))
        #expect(try value("{age, $b, name}", person, vars: ["b": .bool(true)]) == .array([.int(30), .bool(true), .string("José")]))
        #expect(try value("{$x := 2, $x + 1}") == .array([.int(2), .int(3)]))
        #expect(try value("$y := 5") == .int(5))
        #expect(try holds("TERNARY(($t := age) > 10, $t, 0) == 30", person))
    }

    @Test func hostFunctionsComeFromTheRegistry() throws {
        var options = EvaluationOptions()
        options.functions.register("twice", arity: 0) { (receiver, _) throws(Diagnostic) -> Value in
            guard case .int(let i) = receiver else { return .null }
            return .int(i * 2)
        }
        options.functions.register("clamp:between:", arity: 2) { (receiver, args) throws(Diagnostic) -> Value in
            guard case .int(let i) = receiver, case .int(let lo) = args[0], case .int(let hi) = args[1] else { return .null }
            return .int(Swift.min(Swift.max(i, lo), hi))
        }
        options.functions.register("mgl_join:", arity: nil) { (_, args) throws(Diagnostic) -> Value in
            .string(args.map { Printer.format($0) }.joined(separator: "+"))
        }
        #expect(try holds("FUNCTION(age, 'twice') == 60", person, options: options))
        #expect(try holds("FUNCTION(age, 'clamp:between:', 1, 10) == 10", person, options: options))
        #expect(try value("mgl_join:(1, 2)", options: options) == .string("1+2"))
        #expect(try holds("FUNCTION('a', 'uppercase') == 'A'"))
        #expect(try holds("FUNCTION(name, 'lowercaseString') == 'josé'", person))
        #expect(try holds("FUNCTION(age, $f) == 60", person, vars: ["f": .string("twice")], options: options))
        #expect(FunctionRegistry().names.isEmpty)
        #expect(FunctionRegistry.standard.contains("uppercase"))
    }
}

// The quarry_* SQL functions: explicit cases for each, NULL in → NULL out,
// errors from quarry_matches, indexing a folded column, and a differential
// check that every function agrees with the in-memory evaluator over a corpus
// of awkward strings (José, Zoë, MÜLLER, ß, Turkish İ/ı, combining accents,
// LIKE's wildcards and escapes, SQL's % and _).
import Foundation
import QuarryEvaluation
import Testing
@testable import QuarrySQLite

/// Strings chosen to break naive folding and matching.
let subjects: [String] = [
    "José", "jose", "JOSE", "Jose\u{301}", "Zoë", "zoe", "ZOË", "Zoe\u{308}", "MÜLLER", "muller", "Müller", "Mueller",
    "Straße", "STRASSE", "strasse", "ß", "ss", "İstanbul", "istanbul", "ıstanbul", "ISTANBUL", "i\u{307}", "I",
    "e\u{301}", "é", "É", "café", "cafe\u{301}", "", "a", "abc", "ABC", "a\r\nb", "ǅ", "ﬁ", "Ω", "ω", "日本語",
    "😀x", "%", "_", "a%b", "a_b", "100%", "*", "?", "\\", "a\\b", "a*b", "a?b", "ab", "aXb", "Łukasz", "ŁUKASZ",
]

/// Needles for BEGINSWITH / ENDSWITH / CONTAINS.
let needles: [String] = [
    "jo", "JO", "josé", "é", "e", "e\u{301}", "ss", "ß", "i", "İ", "ı", "mü", "mu", "MÜ", "\u{301}", "", "x",
    "ab", "straße", "ë", "a%", "%", "_", "\\", "*", "b", "日本", "łu", "lu", "\r", "\n", "ﬁ", "fi",
]

/// LIKE patterns: Apple's wildcards, escapes, and SQL's wildcards as literals.
let likePatterns: [String] = [
    "jo*", "JOS?", "*é", "*e", "Zo?", "*ü*", "m?ller", "%", "_", "a%b", "a_b", "100\\%", "100%", "\\*", "\\?",
    "a\\*b", "a\\?b", "*\\\\*", "a\\\\b", "", "*", "?", "??", "st*ss*", "stra*e", "i*", "İ*", "ı*", "e?", "e",
    "\\", "a\\", "*x", "a*", "*a*b*", "?\r\nb", "a?b", "日*", "ł*", "l*", "ab*", "a**b", "Jos\\é",
]

/// Regular expressions for MATCHES.
let regexPatterns: [String] = [
    "jo.*", "J.S.", "[a-z]+", "z.e", "m.ller", "a|ab", "ab|a", "\\Qa*b", "stra(ß|ss)e", "ß", ".*ü.*", ".", "..",
    "", ".*", "(?i)zoë", "[[:alpha:]]+", "\\p{L}+", "caf.", "e", "a\\*b", "日本.",
]

@Suite struct FoldFunction {
    static let cases: [(String, Int32, String)] = [
        ("MÜLLER", 3, "muller"), ("MÜLLER", 1, "müller"), ("MÜLLER", 2, "MULLER"), ("MÜLLER", 0, "MÜLLER"),
        ("José", 3, "jose"), ("Zoë", 2, "Zoe"), ("Straße", 1, "strasse"), ("İ", 1, "i\u{307}"), ("ı", 3, "ı"),
        ("I", 1, "i"), ("e\u{301}", 2, "e"), ("e\u{301}", 0, "é"), ("cafe\u{301}", 1, "café"),
        ("ABC", 1, "abc"), ("abc", 1, "abc"), ("ABC", 2, "ABC"), ("", 3, ""), ("Łukasz", 3, "łukasz"),
        ("a\u{0}B", 1, "a\u{0}b"), ("ǅ", 1, "ǆ"), ("ΣΑΣ", 1, "σασ"),
    ]

    @Test(arguments: cases)
    func foldsLikeTheEvaluator(_ text: String, _ flags: Int32, _ expected: String) throws {
        let db = try SQLiteConnection.inMemory()
        let folded = try db.scalar("SELECT quarry_fold(?, ?)", [.string(text), .int(Int64(flags))])
        #expect(folded == .string(expected))
        // And as bytes: the result is in NFC ("e\u{301}" with no flags → "é", U+00E9).
        if case .string(let s) = folded { #expect(Array(s.utf8) == Array(expected.precomposedStringWithCanonicalMapping.utf8)) }
    }

    @Test func nonTextIsFoldedAsItsText() throws {
        let db = try SQLiteConnection.inMemory()
        #expect(try db.scalar("SELECT quarry_fold(42, 1)") == .string("42"))
        #expect(try db.scalar("SELECT quarry_fold(X'C39C', 3)") == .string("u")) // the UTF-8 of "Ü"
    }

    @Test func foldedEqualityAndOrderAgreeWithTheEvaluator() throws {
        let db = try SQLiteConnection.inMemory()
        try db.execute("CREATE TABLE s(t TEXT)")
        for s in subjects { try db.execute("INSERT INTO s VALUES (?)", [.string(s)]) }
        var mismatches: [String] = []
        for flags: Int32 in 0...3 {
            let rows = try db.query("""
                SELECT a.t, b.t, quarry_fold(a.t, ?1) = quarry_fold(b.t, ?1), quarry_fold(a.t, ?1) < quarry_fold(b.t, ?1)
                FROM s AS a, s AS b
                """, [.int(Int64(flags))])
            for row in rows {
                guard case .string(let a) = row[0], case .string(let b) = row[1] else { continue }
                let equal = try evaluator("==", a, b, flags: flags)
                let less = try evaluator("<", a, b, flags: flags)
                if truth(row[2]) != equal || truth(row[3]) != less {
                    mismatches.append("\(a.debugDescription) vs \(b.debugDescription) flags \(flags): SQL ==\(row[2]) <\(row[3]), memory ==\(equal) <\(less)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20).joined(separator: "\n"))")
    }

    @Test func aFoldedColumnCanBeIndexedAndTheIndexIsUsed() throws {
        let db = try SQLiteConnection.inMemory()
        try db.executeScript("""
            CREATE TABLE person(name TEXT);
            CREATE INDEX person_name_cd ON person(quarry_fold(name, 3));
            """)
        for s in ["José", "JOSE", "Zoë", "Müller"] { try db.execute("INSERT INTO person VALUES (?)", [.string(s)]) }
        let sql = "SELECT name FROM person WHERE quarry_fold(name, 3) = quarry_fold(?, 3) ORDER BY name"
        #expect(try db.query(sql, [.string("jose")]) == [[.string("JOSE")], [.string("José")]])
        let plan = try db.query("EXPLAIN QUERY PLAN " + sql, [.string("jose")]).map { "\($0)" }.joined()
        #expect(plan.contains("USING INDEX person_name_cd"), "\(plan)")
    }
}

@Suite struct MatchingFunctions {
    static let cases: [(String, String, String, Int32, Bool)] = [
        // (function, subject, pattern or needle, flags, expected)
        // "İ" case-folds to "i\u{307}", one Character: under [c] "İstanbul"
        // does not begin with "I" but does with "i\u{307}" (Character semantics,
        // as in the evaluator).
        ("quarry_begins", "José", "jo", 3, true), ("quarry_begins", "José", "jo", 0, false),
        ("quarry_begins", "José", "JO", 1, true), ("quarry_begins", "Zoë", "zoe", 3, true),
        ("quarry_begins", "Zoë", "zoe", 1, false), ("quarry_begins", "MÜLLER", "mu", 3, true),
        ("quarry_begins", "Straße", "strass", 1, true), ("quarry_begins", "e\u{301}", "e", 0, false),
        ("quarry_begins", "e\u{301}", "e", 2, true), ("quarry_begins", "abc", "", 0, false),
        ("quarry_begins", "İstanbul", "I", 1, false),
        ("quarry_begins", "İstanbul", "i\u{307}s", 1, true), ("quarry_begins", "ıstanbul", "i", 3, false),
        ("quarry_ends", "José", "SE", 3, true), ("quarry_ends", "José", "se", 1, false),
        ("quarry_ends", "café", "e", 2, true), ("quarry_ends", "Straße", "SSE", 1, true),
        ("quarry_ends", "abc", "", 3, false), ("quarry_ends", "a%b", "%b", 0, true),
        ("quarry_contains", "MÜLLER", "ull", 3, true), ("quarry_contains", "MÜLLER", "ull", 1, false),
        ("quarry_contains", "Straße", "ss", 1, true), ("quarry_contains", "Straße", "ss", 0, false),
        ("quarry_contains", "a_b", "_", 0, true), ("quarry_contains", "ab", "_", 0, false),
        ("quarry_contains", "abc", "", 0, false), ("quarry_contains", "日本語", "本", 0, true),
        ("quarry_like", "José", "jo*", 3, true), ("quarry_like", "José", "jo*", 0, false),
        ("quarry_like", "José", "Jos?", 0, true), ("quarry_like", "José", "Jos", 0, false),
        ("quarry_like", "MÜLLER", "m?ller", 3, true), ("quarry_like", "muller", "M?LLER", 1, true),
        ("quarry_like", "a%b", "a%b", 0, true), ("quarry_like", "axb", "a%b", 0, false),
        ("quarry_like", "a_b", "a_b", 0, true), ("quarry_like", "axb", "a_b", 0, false),
        ("quarry_like", "a*b", "a\\*b", 0, true), ("quarry_like", "axb", "a\\*b", 0, false),
        ("quarry_like", "a?b", "a\\?b", 0, true), ("quarry_like", "axb", "a\\?b", 0, false),
        ("quarry_like", "a\\b", "a\\\\b", 0, true), ("quarry_like", "\\", "\\", 0, true),
        ("quarry_like", "", "", 0, false), ("quarry_like", "abc", "", 0, false), ("quarry_like", "", "*", 0, true),
        ("quarry_like", "Straße", "stra*e", 1, true), ("quarry_like", "Straße", "stra?e", 1, false),
        ("quarry_like", "ab", "*a*b*", 0, true), ("quarry_like", "e\u{301}", "?", 0, true),
        ("quarry_matches", "José", "jo.*", 1, true), ("quarry_matches", "José", "jo.*", 0, false),
        ("quarry_matches", "José", "Jos", 0, false), ("quarry_matches", "ab", "a|ab", 0, true),
        ("quarry_matches", "Zoë", "zoe", 3, true), ("quarry_matches", "Zoë", "zoe", 1, false),
        ("quarry_matches", "a*b", "\\Qa*b", 0, true), ("quarry_matches", "", "", 0, false), ("quarry_matches", "", ".*", 0, true),
        ("quarry_matches", "MÜLLER", "m.ller", 1, true), ("quarry_matches", "x", "", 0, false),
    ]

    @Test(arguments: cases)
    func answersLikeApple(_ function: String, _ subject: String, _ argument: String, _ flags: Int32, _ expected: Bool) throws {
        let db = try SQLiteConnection.inMemory()
        let result = try db.scalar("SELECT \(function)(?, ?, ?)", [.string(subject), .string(argument), .int(Int64(flags))])
        #expect(result == .int(expected ? 1 : 0))
    }

    static let functions = ["quarry_like", "quarry_matches", "quarry_begins", "quarry_ends", "quarry_contains"]

    @Test(arguments: functions)
    func nullInGivesNullOut(_ function: String) throws {
        let db = try SQLiteConnection.inMemory()
        let rows = try db.query("""
            SELECT \(function)(NULL, 'a', 0), \(function)('a', NULL, 0), \(function)('a', 'a', NULL),
                   quarry_fold(NULL, 3), quarry_fold('a', NULL)
            """)
        #expect(rows == [[.null, .null, .null, .null, .null]])
    }

    static let operators: [(String, String, [String])] = [
        ("quarry_like", "LIKE", likePatterns), ("quarry_begins", "BEGINSWITH", needles),
        ("quarry_ends", "ENDSWITH", needles), ("quarry_contains", "CONTAINS", needles),
        ("quarry_matches", "MATCHES", regexPatterns),
    ]

    /// Every subject × argument × flags in SQL, checked against the evaluator,
    /// once with the argument as a constant (auxdata caching) and once from a
    /// column (a different pattern on every row).
    @Test(arguments: operators)
    func agreesWithTheInMemoryEvaluator(_ function: String, _ op: String, _ arguments: [String]) throws {
        let db = try SQLiteConnection.inMemory()
        try db.executeScript("CREATE TABLE s(t TEXT); CREATE TABLE p(t TEXT);")
        try db.transaction {
            for s in subjects { try db.execute("INSERT INTO s VALUES (?)", [.string(s)]) }
            for a in arguments { try db.execute("INSERT INTO p VALUES (?)", [.string(a)]) }
        }
        var mismatches: [String] = []
        var checked = 0
        for flags: Int32 in 0...3 {
            // Argument from a column: one statement, a new pattern per row.
            let rows = try db.query("SELECT s.t, p.t, \(function)(s.t, p.t, ?) FROM s, p", [.int(Int64(flags))])
            for row in rows {
                guard case .string(let subject) = row[0], case .string(let argument) = row[1] else { continue }
                let memory = try evaluator(op, subject, argument, flags: flags)
                checked += 1
                if truth(row[2]) != memory {
                    mismatches.append("\(subject.debugDescription) \(op)\(optionLetters(flags)) \(argument.debugDescription): SQL \(row[2]), memory \(memory)")
                }
            }
            // Argument bound once: the compiled pattern is reused across rows.
            for argument in arguments {
                let sql = try db.query("SELECT t FROM s WHERE \(function)(t, ?, ?) ORDER BY rowid",
                                       [.string(argument), .int(Int64(flags))]).map { $0[0] }
                let memory = try subjects.filter { try evaluator(op, $0, argument, flags: flags) }.map(Value.string)
                if sql != memory { mismatches.append("\(op)\(optionLetters(flags)) \(argument.debugDescription) bound: SQL \(sql), memory \(memory)") }
            }
        }
        #expect(checked == subjects.count * arguments.count * 4)
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.prefix(25).joined(separator: "\n"))")
    }
}

@Suite struct RegexErrors {
    @Test func anInvalidPatternIsAClearSQLError() throws {
        let db = try SQLiteConnection.inMemory()
        let error = sqliteError { _ = try db.scalar("SELECT quarry_matches('abc', '(ab', 0)") }
        #expect(error?.kind == .invalidRegularExpression)
        #expect(error?.message == "quarry_matches: invalid regular expression '(ab'")
    }

    @Test func aCatastrophicPatternIsStoppedAtTheTimeLimit() throws {
        let db = try SQLiteConnection(path: ":memory:", options: .init(regexTimeLimit: 0.2))
        let subject = String(repeating: "a", count: 40) + "b"
        let start = Date()
        let error = sqliteError { _ = try db.scalar("SELECT quarry_matches(?, '(a+)+$', 0)", [.string(subject)]) }
        let took = Date().timeIntervalSince(start)
        #expect(error?.kind == .regularExpressionTooComplex)
        #expect(error?.message.hasPrefix("quarry_matches: regular expression took longer than 0.2 s") == true)
        #expect(took < 5, "took \(took) s")
        // The limit can be raised on the open connection.
        db.regexTimeLimit = 30
        #expect(db.regexTimeLimit == 30)
        #expect(try db.scalar("SELECT quarry_matches('aab', '(a+)+b', 0)") == .int(1))
    }
}

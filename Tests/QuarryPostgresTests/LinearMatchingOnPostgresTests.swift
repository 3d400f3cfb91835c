// PostgreSQL's `quarry_like` and `quarry_contains` (PostgresFunctions+
// Graphemes.swift) answer as the evaluator does, and in time linear in the
// text (issue 19): a table of hand-picked cases (escapes, `%` and `_` as
// literals, CR LF, marks, a backslash carrying a mark, text in the planes
// the functions borrow codes from) under every flag set; the shared case
// list (PostgresFunctionCases) crossed, unfolded and [cd], where the only
// differences left are the grapheme rules the functions do not model
// (listed below); and long patterns and needles — 10,000-character
// patterns with wildcards, a 1 kB needle and 50 `?` over 1 MB, the inputs
// that made the old functions quadratic — each within seconds, against the
// evaluator's answer. Not here: folding itself (PostgresFoldingTableTests);
// one known difference of it, a string that starts with two marks under
// [d] (Foundation drops the second, quarry_fold keeps it), is left out.
import Foundation
import QuarryEvaluation
import QuarryPostgres
import QuarryPostgresTestSupport
import QuarrySQL
import Testing

@Suite(.postgres, .serialized) struct LinearMatchingOnPostgresTests {
    /// One schema with Quarry's functions for the whole suite (installing
    /// them takes seconds on a loaded machine); the tests run one at a time.
    nonisolated(unsafe) static let shared: Result<PostgresDatabase, any Error> = Result {
        let db = try PostgresTestEnvironment.freshDatabase()
        for statement in PostgresFunctions.installStatements { try db.run(statement, []) }
        return db
    }

    static func withFunctions<T>(_ body: (PostgresDatabase) throws -> T) throws -> T {
        try body(try shared.get())
    }

    static func folding(_ flags: Int) -> Folding {
        Folding(caseInsensitive: flags & 1 != 0, diacriticInsensitive: flags & 2 != 0)
    }

    static func like(_ db: PostgresDatabase, _ s: String, _ p: String, _ flags: Int) throws -> Bool {
        try db.query("SELECT CASE WHEN quarry_like(?, ?, ?::integer) THEN 1 ELSE 0 END", [.string(s), .string(p), .int(Int64(flags))],
                     as: [.int]) == [[.int(1)]]
    }

    static func contains(_ db: PostgresDatabase, _ s: String, _ n: String, _ flags: Int) throws -> Bool {
        try db.query("SELECT CASE WHEN quarry_contains(?, ?, ?::integer) THEN 1 ELSE 0 END", [.string(s), .string(n), .int(Int64(flags))],
                     as: [.int]) == [[.int(1)]]
    }

    /// 17 letters, each with a stroke overlay (no precomposed forms).
    static let manyMarked = "bcdfghjklmnpqrstv".map { "\($0)\u{335}" }.joined()

    static let likeCases: [(String, String)] = [
        ("abc", "a*"), ("abc", "a?c"), ("abc", "*c"), ("abc", "?"), ("", "*"), ("", "?"), ("x", "*"),
        // Apple's escapes; SQL's % and _ are literals.
        ("100%", "100\\%"), ("100x", "100\\%"), ("100%", "100%"), ("100x", "100%"), ("a_b", "a_b"), ("axb", "a_b"),
        ("a*b", "a\\*b"), ("axb", "a\\*b"), ("a?b", "a\\?b"), ("axb", "a\\?b"), ("ab", "a\\b"), ("back\\slash", "back\\\\slash"),
        ("a", "a\\"), ("a\\", "a\\"), ("\\", "\\"), ("\\x", "\\\\*"), ("%_\\", "*\\\\"), ("%_", "\\%\\_"),
        // CR LF: two characters over ASCII bytes, one otherwise.
        ("cr\r\nlf", "cr?lf"), ("cr\r\nlf", "cr??lf"), ("é\r\n", "??"), ("é\r\n", "???"), ("é\r\n", "é\r*"), ("é\r\n", "*\n"),
        ("\r\n", "?"), ("\r\n", "\r\n"), ("\r\nx", "\r\n?"), ("é\r\nx", "*\r\n?"), ("a\r", "*\r"), ("é\r", "?\r"),
        // Marks that do not compose: a base and its marks are one character.
        ("q\u{307}x", "q*"), ("q\u{307}x", "q\u{307}*"), ("q\u{307}x", "??"), ("q\u{307}x", "???"), ("q\u{307}\u{323}", "q\u{307}*"),
        ("q\u{307}\u{323}", "?"), ("xq\u{307}", "*q"), ("xq\u{307}", "*q\u{307}"), ("\u{301}a", "?a"), ("\u{301}a", "\u{301}*"),
        ("\u{301}\u{302}a", "??"), ("a\u{301}\u{302}", "a*"), ("a\u{335}", "a?"),
        // A wildcard or backslash carrying a mark is a literal character.
        ("*\u{301}", "*\u{301}"), ("x", "*\u{301}"), ("x*\u{301}", "?*\u{301}"), ("\\\u{301}", "\\\u{301}"),
        ("x\u{301}", "\\x\u{301}"), ("\\\u{301}q", "\\\\\u{301}?"),
        // Characters of several code points whose base means something to
        // a regular expression; marks after CR LF (a character of their own).
        (".\u{307}x", ".\u{307}?"), ("a.\u{307}", "*.\u{307}"), ("a.x", "*.\u{307}"), ("(\u{307}[\u{307}", "(\u{307}*"),
        ("(\u{307}[\u{307}", "*[\u{307}"), ("é\r\n\u{301}", "é\r\n\u{301}"), ("é\r\n\u{301}", "??"), ("é\r\n\u{301}", "?\r\n?"),
        ("é\r\n\u{301}\u{302}", "?\r\n?"), ("xq\u{307}\r\n", "*q\u{307}\r\n"),
        // More than 16 different ones in the pattern (the other encoding path).
        (manyMarked + "z", manyMarked + "?"), (manyMarked, "*" + manyMarked.dropFirst(2)), ("x" + manyMarked, "?" + manyMarked.dropLast(2) + "*"),
        (manyMarked, String(manyMarked.dropLast(2)) + "v"),
        // Folding: [c], [d], [cd].
        ("JOSÉ", "jos?"), ("José", "jose"), ("José", "JOS*"), ("Straße", "stra*e"), ("MÜLLER", "m?ller"), ("ǰ", "j*"),
        ("ﬁnal", "fi*"), ("İstanbul", "i*"), ("Σίσυφος", "σ*ς"),
        // Text in the planes the functions take codes from.
        ("\u{100000}", "?"), ("\u{100000}x\u{307}", "?x\u{307}"), ("\u{100000}q\u{307}", "\u{100000}*"), ("q\u{307}", "\u{100000}*"),
        ("\u{F0000}\u{100000}q\u{307}", "??q\u{307}"), ("\u{100001}q\u{307}", "?q\u{307}"), ("\u{100000}", "q\u{307}*"),
    ]

    @Test(arguments: likeCases)
    func likeAgreesWithTheEvaluator(subject: String, pattern: String) throws {
        let s = StoredText.composed(subject)
        try Self.withFunctions { db in
            for flags in 0...3 {
                let expected = LikePattern(pattern, folding: Self.folding(flags)).matches(s)
                let answer = try Self.like(db, s, pattern, flags)
                #expect(answer == expected, "\(s.debugDescription) LIKE \(pattern.debugDescription), flags \(flags)")
            }
        }
    }

    static let containsCases: [(String, String)] = [
        ("abc", "b"), ("abc", "d"), ("ABC", "b"), ("José", "se"), ("José", "é"), ("José", "e"),
        ("cr\r\nlf", "\r"), ("cr\r\nlf", "\n"), ("é\r\n", "\r"), ("é\r\n", "\n"), ("é\r\n", "\r\n"), ("é\rx", "\r"),
        ("q\u{307}q\u{307}", "q"), ("q\u{307}q\u{307}", "q\u{307}"), ("q\u{307}\u{323}", "q\u{307}"), ("aq\u{307}b", "q\u{307}b"),
        ("\u{301}a", "\u{301}"), ("x\u{301}a", "\u{301}a"), ("\u{301}a", "\u{301}a"),
        ("\u{100000}q\u{307}", "q\u{307}"), ("\u{100000}q\u{307}", "\u{100000}"), ("\u{100000}x", "\u{100000}"),
        ("Straße", "SS"), ("naïve café", "E"), ("100%_", "%_"),
        ("a.\u{307}b", ".\u{307}b"), ("a.\u{307}\u{323}b", ".\u{307}"), ("é\r\n\u{301}", "\r\n"), ("é\r\n\u{301}", "\u{301}"),
        ("é\r\n\u{301}", "\n\u{301}"), ("x" + manyMarked, manyMarked), ("x" + manyMarked, "c\u{335}d"), ("x" + manyMarked, "c\u{335}d\u{335}"),
    ]

    @Test(arguments: containsCases)
    func containsAgreesWithTheEvaluator(subject: String, needle: String) throws {
        let s = StoredText.composed(subject)
        try Self.withFunctions { db in
            for flags in 0...3 {
                let folding = Self.folding(flags)
                let expected = StringMatcher(folding: folding).contains(s, folding.prepare(needle))
                let answer = try Self.contains(db, s, needle, flags)
                #expect(answer == expected, "\(s.debugDescription) CONTAINS \(needle.debugDescription), flags \(flags)")
            }
        }
    }

    /// Where the shared case list still differs: grapheme rules beyond
    /// marks, ZWJ and CR LF are not modelled (PostgresFunctions.swift).
    static func knownDifference(_ s: String) -> Bool {
        s.unicodeScalars.contains { u in
            (0x1F1E6...0x1F1FF).contains(u.value) // regional indicators (flags)
                || u.value == 0x200D // emoji ZWJ sequences
                || (0x1100...0x11FF).contains(u.value) // Hangul jamo
                || u.value == 0x94D || u.value == 0x0E33 // Indic virama (conjuncts), Thai sara am
        }
    }

    @Test func theSharedCaseListAgrees() throws {
        let strings = PostgresFunctionCases.strings().map(StoredText.composed)
        let patterns = PostgresFunctionCases.likePatterns()
        let needles = PostgresFunctionCases.needles()
        try Self.withFunctions { db in
            try db.run(#"CREATE TEMP TABLE subj (id int, s text COLLATE "C") ON COMMIT PRESERVE ROWS"#, [])
            try db.run(#"CREATE TEMP TABLE pat (id int, p text COLLATE "C") ON COMMIT PRESERVE ROWS"#, [])
            defer { _ = try? db.run("DROP TABLE subj, pat", []) }
            for (i, s) in strings.enumerated() { try db.run("INSERT INTO subj VALUES (?, ?)", [.int(Int64(i)), .string(s)]) }
            for (i, p) in (patterns + needles).enumerated() { try db.run("INSERT INTO pat VALUES (?, ?)", [.int(Int64(i)), .string(p)]) }
            // One row per (subject, pattern or needle, flags) that matches.
            let rows = try db.query("""
                SELECT subj.id, pat.id, f FROM subj, pat, unnest(ARRAY[0, 3]) f
                WHERE CASE WHEN pat.id < ? THEN quarry_like(s, p, f) ELSE quarry_contains(s, p, f) END
                """, [.int(Int64(patterns.count))], as: [.int, .int, .int])
            var matched = Set<[Int64]>()
            for row in rows {
                if case .int(let i) = row[0], case .int(let j) = row[1], case .int(let f) = row[2] { matched.insert([i, j, f]) }
            }
            var differences: [String] = []
            var known = 0
            var compared = 0
            for (i, s) in strings.enumerated() {
                for flags in [0, 3] {
                    let folding = Self.folding(flags)
                    let matcher = StringMatcher(folding: folding)
                    for (j, p) in (patterns + needles).enumerated() {
                        let isLike = j < patterns.count
                        let expected = isLike ? LikePattern(p, folding: folding).matches(s) : matcher.contains(s, folding.prepare(p))
                        compared += 1
                        guard matched.contains([Int64(i), Int64(j), Int64(flags)]) != expected else { continue }
                        if Self.knownDifference(s) || Self.knownDifference(p) { known += 1; continue }
                        differences.append("\(s.debugDescription) \(isLike ? "LIKE" : "CONTAINS") \(p.debugDescription) flags \(flags): evaluator \(expected)")
                    }
                }
            }
            print("LinearMatchingOnPostgresTests: \(compared) answers compared, \(known) known differences (grapheme rules not modelled)")
            #expect(differences.isEmpty, "\(differences.count) differences: \(differences.prefix(20))")
        }
    }

    /// Long inputs: each answer as the evaluator's, each within seconds.
    static let longCases: [(name: String, op: String, subject: String, pattern: String, flags: Int)] = [
        ("10,000-character pattern with wildcards, ASCII", "LIKE",
         String(repeating: "long ", count: 2_000), String(repeating: "lo?g*", count: 2_000), 0),
        ("10,000-character pattern that almost matches everywhere", "LIKE",
         String(repeating: "a", count: 10_000), "*" + String(repeating: "a", count: 5_000) + "b*", 1),
        ("10,000-character pattern with marks and wildcards", "LIKE",
         String(repeating: "lóng q\u{307} ", count: 1_000), String(repeating: "l?ng q\u{307}*", count: 1_000), 3),
        ("a 10,000-character pattern against itself (the fuzzer's hang)", "LIKE",
         String(repeating: "long ", count: 2_000), String(repeating: "long?", count: 2_000), 0),
        ("50 ? over 1 MB", "LIKE", String(repeating: "a", count: 1_000_000), "*" + String(repeating: "?", count: 50) + "b*", 1),
        ("50 ? over 1 MB of marked characters", "LIKE",
         String(repeating: "q\u{307}", count: 500_000), "*" + String(repeating: "?", count: 50) + "b*", 0),
        ("1 kB needle over 1 MB, [cd]", "CONTAINS",
         String(repeating: "a", count: 1_000_000), String(repeating: "A", count: 1_000) + "b", 3),
        ("a needle matching inside every character, 1 MB", "CONTAINS",
         String(repeating: "q\u{307}", count: 500_000), "q", 0),
        ("1 kB needle with marks over 1 MB", "CONTAINS",
         String(repeating: "q\u{307}", count: 500_000), String(repeating: "q\u{307}", count: 500) + "b", 0),
    ]

    @Test(arguments: longCases.indices)
    func longInputsRunInSeconds(index: Int) throws {
        let c = Self.longCases[index]
        try Self.withFunctions { db in
            let folding = Self.folding(c.flags)
            let expected = c.op == "LIKE" ? LikePattern(c.pattern, folding: folding).matches(c.subject)
                                          : StringMatcher(folding: folding).contains(c.subject, folding.prepare(c.pattern))
            let start = Date()
            let answer = c.op == "LIKE" ? try Self.like(db, c.subject, c.pattern, c.flags) : try Self.contains(db, c.subject, c.pattern, c.flags)
            let seconds = Date().timeIntervalSince(start)
            print("LinearMatchingOnPostgresTests: \(c.name): \(answer) in \(String(format: "%.3f", seconds)) s")
            #expect(answer == expected, "\(c.name)")
            #expect(seconds < 5, "\(c.name): \(seconds) s")
        }
    }
}

// PostgresRegex: ICU patterns → PostgreSQL AREs, text for text for the safe
// subset, nil for everything it cannot translate with certainty. (Answers
// against a live server are compared by Scripts/PGCompare.)
import Testing
import QuarryEvaluation
@testable import QuarrySQL

@Suite struct PostgresRegexTests {
    static let dot = PostgresRegex.dot

    @Test(arguments: [
        ("abc", "^(?:abc)$"),
        ("a|ab", "^(?:a|ab)$"),
        ("colou?r", "^(?:colou?r)$"),
        ("(?:ab)*c", "^(?:(?:ab)*c)$"),
        ("(a|b)+", "^(?:(?:a|b)+)$"),
        ("a{2,3}", "^(?:a{2,3})$"),
        ("a{2,}?", "^(?:a{2,})$"),
        ("a*?b+?", "^(?:a*b+)$"),
        ("^abc$", "^(?:abc)$"),
        ("\\.\\*\\(\\)", "^(?:\\.\\*\\(\\))$"),
        ("x^y", nil),
        ("a.b", "^(?:a" + dot + "b)$"),
        ("[a-c]", "^(?:[\\u0061-\\u0063])$"),
        ("[^a]*", "^(?:[^\\u0061]*)$"),
        ("[\\]x]", "^(?:[\\u005D\\u0078])$"),
        ("100%", "^(?:100\\%)$"),
        ("a b", "^(?:a\\ b)$"),
        ("a\\nb", "^(?:a\\u000Ab)$"),
        ("José", "^(?:José)$"),
    ] as [(String, String?)])
    func translatesWithoutFolding(pattern: String, expected: String?) {
        #expect(PostgresRegex.translate(pattern, folding: .none) == expected)
    }

    @Test(arguments: [
        "", "(?<=a)b", "(?<!a)b", "(?=a)", "(?!a)", "a++", "a*+", "(?>a)", "(a)\\1", "(?<name>a)", "\\k<name>",
        "(?i)a", "\\p{L}", "\\P{L}", "\\bword\\b", "\\Aa", "a\\z", "a\\Z", "\\Qa.b\\E", "\\x41", "\\u0041",
        "\\N{LATIN SMALL LETTER A}", "[[:alpha:]]", "[a-z&&[^x]]", "[a[b]]", "a{1,300}", "a{3,2}", "(", ")", "[a",
        "*a", "a**", "a$b", "\\X", "\\R", "\\h", "(?#comment)",
    ])
    func refuses(pattern: String) {
        #expect(PostgresRegex.translate(pattern, folding: .none) == nil)
    }

    /// Patterns PostgreSQL would take seconds to compile, or refuse as "too
    /// complex" where memory answers, run in memory; their neighbours just
    /// under the bounds still translate.
    @Test(arguments: [
        (String(repeating: "a*", count: 64), true), (String(repeating: "a*", count: 65), false),
        (String(repeating: "a?", count: 200), false), (String(repeating: "(a|b){1,3}", count: 65), false),
        ("(.{1,100}){1,100}", true), ("(a{1,255}){1,255}", false), ("((a{1,5}){1,5}){1,5}", true),
        (String(repeating: "a+", count: 500), true), (String(repeating: "abc", count: 3_000), true),
        (String(repeating: "abc", count: 3_334), false), ("(a{2}){5000}", false),
    ] as [(String, Bool)])
    func patternsPostgreSQLWouldCompileSlowlyRunInMemory(pattern: String, translated: Bool) {
        #expect((PostgresRegex.translate(pattern, folding: .none) != nil) == translated)
    }

    @Test(arguments: [
        ("John", "^(?:john)$"),                      // the subject is folded too
        ("j.*", "^(?:j" + dot + "*)$"),
        ("\\d{3}", nil),                             // fine in itself, but see below
        ("a.", nil),                                 // "." alone counts code points: ß vs ss
        ("s+", nil),                                 // ICU: "s+" does not match "ß"; folded "ss" would
        ("[a-z]+", nil),                             // ß is not in ICU's [a-z] closure
        ("[^0-9]", nil),
        ("[0-9]+-", "^(?:[\\u0030-\\u0039]+\\-)$"),
        ("Straße", nil),                             // non-ASCII pattern under folding
    ] as [(String, String?)])
    func caseInsensitive(pattern: String, expected: String?) {
        let folding = Folding(caseInsensitive: true, diacriticInsensitive: false)
        if pattern == "\\d{3}" {
            // \d never matches a letter, so it may be counted under [c].
            #expect(PostgresRegex.translate(pattern, folding: folding)?.hasSuffix("]{3})$") == true)
        } else {
            #expect(PostgresRegex.translate(pattern, folding: folding) == expected)
        }
    }

    @Test func diacriticInsensitiveKeepsASCIIPatternsAndRefusesOthers() {
        let d = Folding(caseInsensitive: false, diacriticInsensitive: true)
        #expect(PostgresRegex.translate("Jos.", folding: d) == "^(?:Jos" + PostgresRegex.dot + ")$")
        #expect(PostgresRegex.translate("José", folding: d) == nil)
    }

    @Test func classEscapesAreICUsUnicodeSets() throws {
        let d = try #require(PostgresRegex.translate("\\d", folding: .none))
        #expect(d.contains("\\u0030-\\u0039") && d.contains("\\u0660-\\u0669"))   // Arabic-Indic digits too
        let w = try #require(PostgresRegex.translate("\\w+", folding: .none))
        #expect(w.contains("\\u005F") && w.contains("\\u00D8-\\u00F6"))   // _ and Latin-1 letters
        let notSpace = try #require(PostgresRegex.translate("\\S", folding: .none))
        #expect(notSpace.hasPrefix("^(?:[^") && notSpace.contains("\\u3000"))
    }
}

// The strings, needles and patterns on which PostgreSQL's quarry_* functions
// and translated MATCHES patterns are compared with the evaluator: mixed
// scripts, combining marks (kept and dropped), Greek sigma, Turkish İ,
// ligatures, ß/ẞ, Hangul, emoji, CR LF, LIKE and regex metacharacters.
// Used by the Swift mirror test here and, against a live server, by
// Scripts/pg-compare (and later by the driver's tests). `peerTestStrings`
// adds every string value found in the shared conformance cases.
import Foundation

public enum PostgresFunctionCases {
    public static func strings() -> [String] {
        var out = [
            "", "a", "A", "abc", "ABC", "Hello World", "hello world", "  spaced  ", "tab\there", "line\nbreak",
            "cr\r\nlf", "\r\n", "a\r", "100%", "under_score", "star*star", "q?mark", "back\\slash", "dot.dot",
            "(paren)", "[bracket]", "{brace}", "a+b", "x^y", "$money", "a|b",
            "José", "JOSÉ", "Zoë", "Müller", "MÜLLER", "Łukasz", "Straße", "STRASSE", "ẞ", "ß", "ǰ", "J\u{30C}",
            "İstanbul", "ISTANBUL", "ıi", "i\u{307}", "Σίσυφος", "ΣΊΣΥΦΟΣ", "ς", "ΐ", "ᾳ", "ᾼ", "Ω", "K",
            "ﬁ", "ﬃ", "ﬀ", "ŉ", "Ǆ", "ǅ", "ǆ", "Ⅻ", "Ⓐ", "Ａ", "ｶﾞ", "ガ", "が", "か\u{3099}", "ア\u{3099}",
            "한국어", "각", "\u{1100}\u{1161}\u{11A8}", "日本語", "丛\u{335}", "丛\u{301}", "中文\u{301}",
            "e\u{301}", "é", "q\u{301}", "q\u{301}x", "Q\u{301}", "a\u{335}\u{301}", "e\u{301}\u{323}", "ệ",
            "\u{301}", "\u{301}a", "a\u{20DD}", "a\u{FE0F}", "x\u{345}", "Ꭰ\u{345}", "a\u{5B0}", "א\u{5B0}",
            "שָׁלוֹם", "مرحبا", "مَرْحَبًا", "नमस्ते", "क्षत्रिय", "ไทย", "Привет", "ПРИВЕТ", "Ёлка", "йод",
            "Ελληνικά", "Ἀθῆναι", "👍", "👍🏽", "👨‍👩‍👧", "🇫🇷🇩🇪", "a\u{200D}b", "Ǳ", "ǲ", "Å", "Å", "Ø", "đ",
            "Ångström", "Crème Brûlée", "naïve café", "résumé", "RÉSUMÉ", "façade", "Dvořák", "Ŝ", "ŝ", "Ǻ",
            "Ṩ", "ẛ", "ﬅ", "ﬆ", "ℌ", "℃", "µ", "Μ", "μ", "ǈ", "ǉ", "Ꞵ", "𐐀", "𐐨", "𝔄", "\u{10400}\u{301}",
            "abc\u{301}", "ab\u{301}c", "Ab\u{0327}C", "mixed É and e\u{301}", "ﬁnal", "FINAL", "ﬁnal\u{301}",
        ]
        // Each of the single letters with each common mark, for context rules.
        for base in ["a", "E", "1", " ", "ø", "ß", "я", "α", "丛", "ア", "가", "א", "ا", "क", "👍"] {
            for mark in ["\u{300}", "\u{308}", "\u{327}", "\u{335}", "\u{345}", "\u{5B0}", "\u{64B}", "\u{94D}", "\u{3099}", "\u{FE0F}", "\u{1F3FD}"] {
                out.append(base + mark)
                out.append(base + mark + "z")
            }
        }
        return out
    }

    /// Needles for BEGINSWITH / ENDSWITH / CONTAINS.
    public static func needles() -> [String] {
        ["", "a", "A", "ab", "bc", "q", "e", "é", "E", "o", "ö", "ss", "SS", "ß", "ẞ", "i", "İ", "i\u{307}", "\u{307}",
         "\u{301}", "σ", "Σ", "ς", "fi", "ﬁ", "ffi", "\r", "\n", "\r\n", "%", "_", "*", "?", "\\", ".", " ", "ǰ", "j",
         "한", "각", "\u{1100}", "丛", "👍", "🏽", "🇩", "🇷🇩", "🇫🇷", "µ", "μ", "K", "k", "straße", "STRASSE",
         "ε", "ά", "α", "Ω", "ω", "x", "z", "nd", "é z", "Hello", "world", "ФЫ", "ёл", "ел", "Ё"]
    }

    /// Apple LIKE patterns (`*`, `?`, backslash escapes).
    public static func likePatterns() -> [String] {
        ["", "*", "?", "a*", "*a", "*a*", "a?c", "?", "??", "???", "j*", "J*", "*é", "*e", "stra*e", "STRA?E", "*ss*",
         "*ß*", "\\*", "*\\**", "*\\?*", "100\\%", "100%", "under_score", "*_*", "q*", "q?", "q?x", "q\u{301}*", "?*",
         "*?", "\\\\*", "back\\\\slash", "*\r*", "?\n", "cr?lf", "cr??lf", "*丛*", "?\u{301}", "e?", "İ*", "i*",
         "Σ*", "σ*", "*ς", "ﬁ*", "fi*", "👍?", "👍*", "?🏽", "한*", "*어", "a\\", "\\"]
    }

    /// MATCHES patterns (ICU), some translatable to PostgreSQL and some not.
    public static func regexPatterns() -> [String] {
        ["a.*", ".*", ".+", "[a-z]+", "[A-Z][a-z]*", "\\d+", "\\w+", "\\s.*", ".*\\.", "[^a]*", "(a|b)+", "a|ab",
         "(?:ab)*c", "colou?r", "a{2,3}", "\\d{3}-\\d{4}", "[0-9]+%", ".*o.*", "j.*", "J.*", "jos.", "Jos.", "stra.*",
         "..", "...", ".", "\\S+", "\\W", "[a-z ]+", ".*\\n.*", "cr\\r\\nlf", "x\\^y", "\\$money", "a\\|b",
         "\\(paren\\)", "\\[bracket\\]", "[.]+", "[\\]]", "a*?", "(a+)+", "hello world", "[[:alpha:]]+"]
    }

    /// Every string value (object values, args, formats) in the shared
    /// conformance cases under `directory` (one JSON object per line).
    public static func peerTestStrings(directory: URL) -> [String] {
        var found = Set<String>()
        func walk(_ v: Any) {
            if let s = v as? String { found.insert(s) }
            else if let a = v as? [Any] { a.forEach(walk) }
            else if let d = v as? [String: Any] { d.forEach { walk($0.key); walk($0.value) } }
        }
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        for file in files where file.pathExtension == "jsonl" {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") {
                guard let obj = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
                for key in ["args", "object", "objects", "vars"] { if let v = obj[key] { walk(v) } }
            }
        }
        return found.sorted()
    }
}

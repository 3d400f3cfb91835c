// Where the script splitter puts statement boundaries, as tables: quotes
// (both kinds, with backslash escapes) keep `;` and `--` as text; comments
// are blanked byte for byte so offsets stay file offsets; a dot-command is a
// line starting with `.` where a statement could start; brackets do not
// protect a `;` (the language has no `;`, so a forgotten `)` is reported at
// its own statement instead of swallowing the rest of the file); and the
// REPL's `ready` runs every finished statement of a multi-line paste and
// keeps the unfinished one.
import Testing
@testable import QuarryStatements

@Suite("Script splitter")
struct ScriptSplitterTests {
    /// An item as the table writes it: "S:" statement ended by `;`, "U:" a
    /// statement the text ended, "D:" dot-command; then its text.
    static func describe(_ items: [ScriptItem]) -> [String] {
        items.map { item in
            (item.kind == .dotCommand ? "D:" : item.terminated ? "S:" : "U:") + item.text
        }
    }

    static let boundaries: [(String, [String])] = [
        // Plain statements; blank ones (`;;`) and surrounding space are skipped.
        ("COUNT A; COUNT B;", ["S:COUNT A", "S:COUNT B"]),
        (";; COUNT A ;;", ["S:COUNT A "]),
        ("COUNT A", ["U:COUNT A"]),
        ("", []),
        ("  \n\t ", []),
        // `;` inside strings, either quote, and escaped quotes inside them.
        ("FETCH A WHERE s == 'x;y'; COUNT B", ["S:FETCH A WHERE s == 'x;y'", "U:COUNT B"]),
        ("FETCH A WHERE s == \"x;y\";", ["S:FETCH A WHERE s == \"x;y\""]),
        ("FETCH A WHERE s == 'it\\'s;'; COUNT B;", ["S:FETCH A WHERE s == 'it\\'s;'", "S:COUNT B"]),
        ("FETCH A WHERE s == \"say \\\"hi;\\\"\";", ["S:FETCH A WHERE s == \"say \\\"hi;\\\"\""]),
        ("FETCH A WHERE s == \"it's;\";", ["S:FETCH A WHERE s == \"it's;\""]),
        // An unclosed quote runs to the end of the text: one unfinished statement.
        ("FETCH A WHERE s == 'x; COUNT B;", ["U:FETCH A WHERE s == 'x; COUNT B;"]),
        // `--` inside a string is text; outside, the rest of the line is
        // blanked (same length), and a quote in a comment opens nothing.
        ("FETCH A WHERE s == '--x';", ["S:FETCH A WHERE s == '--x'"]),
        ("COUNT A -- why; not\n;", ["S:COUNT A            \n"]),
        ("-- don't\nCOUNT A;", ["S:COUNT A"]),
        ("-- only a comment", []),
        ("COUNT A; -- trailing; comment", ["S:COUNT A"]),
        // Brackets do not protect `;`.
        ("FETCH A WHERE x IN {1; 2}", ["S:FETCH A WHERE x IN {1", "U:2}"]),
        ("FETCH A WHERE (x > 1; COUNT B;", ["S:FETCH A WHERE (x > 1", "S:COUNT B"]),
        // Dot-commands: to the end of the line (a CR before it dropped), only
        // where a statement could start.
        (".mode json\nCOUNT A;", ["D:.mode json", "S:COUNT A"]),
        (".mode csv\r\nCOUNT A;", ["D:.mode csv", "S:COUNT A"]),
        ("COUNT A;\n.headers on", ["S:COUNT A", "D:.headers on"]),
        ("FETCH A WHERE x >\n.5;", ["S:FETCH A WHERE x >\n.5"]),
        (".read 'a;b.qry'", ["D:.read 'a;b.qry'"]),
        // Multi-line statements keep their newlines.
        ("FETCH Employee\n  WHERE salary > 5\n  SORT BY name;\nCOUNT A;",
         ["S:FETCH Employee\n  WHERE salary > 5\n  SORT BY name", "S:COUNT A"]),
    ]

    @Test(arguments: boundaries)
    func splits(script: String, expected: [String]) {
        #expect(Self.describe(ScriptSplitter.split(SourceText(script))) == expected)
    }

    /// Every byte of a statement's text that is not a blanked comment is the
    /// script's byte at the same offset: diagnostics point into the file.
    @Test(arguments: boundaries.map(\.0))
    func offsetsAreFileOffsets(script: String) {
        let bytes = Array(script.utf8)
        for item in ScriptSplitter.split(SourceText(script)) {
            for (i, b) in item.text.utf8.enumerated() where b != 0x20 {
                #expect(bytes[item.offset + i] == b, "\(item.text) at \(i)")
            }
        }
    }

    /// (typed so far, what runs now, what waits for more)
    static let pastes: [(String, String, String)] = [
        ("COUNT A;\nCOUNT B;\nFETCH C\nWHERE", "COUNT A;\nCOUNT B;\n", "FETCH C\nWHERE"),
        ("COUNT A;\nCOUNT B;\n", "COUNT A;\nCOUNT B;\n", ""),
        ("FETCH C\nWHERE x > 1", "", "FETCH C\nWHERE x > 1"),
        (".mode json\nCOUNT A", ".mode json\n", "COUNT A"),
        ("COUNT A;\n.mode json", "COUNT A;\n.mode json", ""),
        ("FETCH A WHERE s == 'a;\nb'", "", "FETCH A WHERE s == 'a;\nb'"),
        ("-- just a note\n", "", ""),
        ("COUNT A; -- done", "COUNT A; -- done", ""),
    ]

    @Test(arguments: pastes)
    func readyRunsFinishedStatements(typed: String, run: String, rest: String) {
        let (ready, left) = ScriptSplitter.ready(typed)
        #expect(ready == run)
        #expect(left == rest)
    }
}

// The nesting check before Yams reads a model or factories file may refuse
// too much but must never let deep nesting through: Yams recurses per level
// and would take the process down. The cases are what the fuzzer and a
// reading of the check found: a quote the check wrongly takes to open
// (`it 'is` in a plain scalar), `''` inside single quotes, escaped quotes,
// closing brackets inside strings — each followed by real nesting.
import Testing
@testable import QuarryModel

@Suite("YAML nesting check")
struct YAMLNestingTests {
    static let deep = 5_000

    /// Texts that nest `deep` levels for real, behind a trap for the check.
    static let hostile: [(String, String)] = [
        ("a quote opened inside a plain scalar (found by the fuzzer)",
         "name: it 'is a plain scalar\nage: " + String(repeating: "{age: ", count: deep)),
        ("the same in flow context, closed after the nesting",
         "[x 'a, " + String(repeating: "[", count: deep) + " ']"),
        ("'' inside single quotes, then a comment sign",
         "a: 'it''s #' " + String(repeating: "[", count: deep)),
        ("an escaped quote inside double quotes",
         "a: \"say \\\"hi\\\" #\" " + String(repeating: "[", count: deep)),
        ("closing brackets inside strings between real openers",
         String(repeating: "{\"]\": ", count: deep)),
        ("phantom quotes chained, each hiding less than the limit",
         String(repeating: "[x 'a, " + String(repeating: "[", count: 60) + " ', ", count: 100)),
    ]

    @Test(arguments: hostile)
    func hostileNestingIsRefused(_ name: String, _ text: String) {
        #expect(YAMLNesting.check(text) != nil, "\(name): let through")
    }

    /// Real files: patterns with brackets, quotes with escapes, comments.
    static let ordinary: [String] = [
        String(repeating: "  pattern: '[A-Z]{3}-[0-9]{4}'   # it's a code\n", count: 300),
        String(repeating: "  name: \"a \\\"quoted\\\" [name]\"\n", count: 300),
        String(repeating: "- {a: [1, 2, {b: 'c''d'}]}\n", count: 300),
        "entities:\n  Employee:\n    attributes: { name: string, age: integer16 }\n",
    ]

    @Test(arguments: ordinary)
    func ordinaryFilesPass(_ text: String) {
        #expect(YAMLNesting.check(text) == nil)
    }

    @Test
    func aHostileModelIsAnErrorNotACrash() {
        let text = "entities:\n  A:\n    attributes: { name: it 'is }\n    x: " + String(repeating: "{a: ", count: 20_000)
        #expect(throws: ModelError.self) { _ = try ModelReader.read(yaml: text) }
    }
}

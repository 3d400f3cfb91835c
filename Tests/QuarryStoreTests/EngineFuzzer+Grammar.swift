// The fuzzer's claim on the grammar: each production of
// Grammar/predicate.ebnf and Grammar/lexical.ebnf, mapped to the generator
// categories (GrammarFuzzer.productions) whose predicates exercise it, or
// listed as deliberately not generated, with why. The run prints which
// productions it drew and fails when one it claims was never drawn; a test
// reads the grammar files so that a production added there without a place
// here fails too.
import Foundation
import Testing

enum GrammarCoverage {
    /// Production → the categories that draw it (any one suffices).
    static let drawnBy: [String: [String]] = [
        // predicate.ebnf
        "predicate_text": ["predicate"], "predicate": ["predicate"],
        "or_predicate": ["or"], "and_predicate": ["and"], "not_predicate": ["not"],
        "comparison": ["compare-number", "compare-string"], "quantifier": ["quantifier", "quantifier-through-to-one"],
        "comparison_tail": ["compare-number", "compare-string"], "comparison_operator": ["compare-number", "compare-date"],
        "options": ["modifiers"], "option_word": ["modifiers"],
        "expression": ["arithmetic"], "set_expr": ["set-operation"], "set_operator": ["set-operation"],
        "bitor_expr": ["arithmetic"], "bitxor_expr": ["bitwise"], "bitand_expr": ["arithmetic"], "shift_expr": ["bitwise"],
        "additive_expr": ["arithmetic"], "multiplicative_expr": ["arithmetic"], "power_expr": ["arithmetic"],
        "unary_expr": ["arithmetic", "bitwise"], "postfix_expr": ["to-one", "suffix"], "key": ["to-one", "subquery"],
        "subscript": ["subscript"], "primary": ["compare-number"], "assignment": ["assignment"],
        "call": ["call"], "selector_call": ["aggregate-function", "string-function"], "arguments": ["call", "aggregate-function"],
        "function_expression": ["function-expression"], "ternary": ["ternary"], "subquery": ["subquery", "subquery-nested"],
        "cast": ["cast", "compare-date"], "aggregate": ["aggregate-literal"],
        // lexical.ebnf
        "input": ["predicate"], "token": ["predicate"], "whitespace": ["predicate"], "end": ["predicate"],
        "identifier_start": ["to-one"], "identifier_char": ["to-one"], "word": ["to-one"], "identifier": ["to-one"],
        "keyword": ["true/false", "between"], "word_keyword": ["true/false", "between"],
        "escaped_key": ["literal-forms"], "variable": ["subquery"],
        "number": ["compare-number"], "radix_integer": ["literal-forms"], "hex_digit": ["literal-forms"],
        "decimal_number": ["compare-number"], "exponent": ["extreme-literal", "literal-forms"], "digit": ["compare-number"],
        "string": ["compare-string"], "escape": ["literal-forms"], "punctuation": ["and", "between"],
    ]

    /// Production → why the fuzzer does not generate it.
    static let notGenerated: [String: String] = [
        "expression_text": "the fuzzer compares fetches, whose predicates hold expressions; a bare expression has no rows to compare",
        "key_specifier": "%K needs format arguments, which are substituted at parse time: both engines see the same tree (ParserArgumentTests)",
        "specifier": "format arguments are substituted by the parser before any engine runs (ParserArgumentTests)",
        "position": "part of a format specifier (not generated: see specifier)",
        "flag": "part of a format specifier (not generated: see specifier)",
        "length": "part of a format specifier (not generated: see specifier)",
        "conversion": "part of a format specifier (not generated: see specifier)",
        "non_ascii_char": "the company model's keys are ASCII; non-ASCII text is drawn in string literals (compare-string)",
    ]

    /// The production names the grammar files define, in file order.
    static func grammarProductions() throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var names: [String] = []
        for file in ["predicate.ebnf", "lexical.ebnf"] {
            let text = try String(contentsOf: root.appendingPathComponent("Grammar/\(file)"), encoding: .utf8)
            for line in text.split(separator: "\n") {
                guard let r = line.range(of: "::="), let first = line.first, first.isLetter else { continue }
                let name = line[..<r.lowerBound].trimmingCharacters(in: .whitespaces)
                if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0 == "_" }) { names.append(name) }
            }
        }
        return names
    }

    /// How often each claimed production was drawn in a run, from the
    /// categories' counts.
    static func drawn(_ coverage: [String: Int]) -> [(String, Int)] {
        drawnBy.keys.sorted().map { p in (p, drawnBy[p]!.reduce(0) { $0 + coverage[$1, default: 0] }) }
    }
}

@Suite("Fuzzer: grammar coverage table")
struct GrammarCoverageTests {
    @Test func everyProductionIsDrawnOrExcused() throws {
        let productions = try GrammarCoverage.grammarProductions()
        #expect(productions.count > 50, "read \(productions.count) productions")
        for p in productions {
            let claimed = GrammarCoverage.drawnBy[p] != nil
            let excused = GrammarCoverage.notGenerated[p] != nil
            #expect(claimed != excused, "\(p): claimed \(claimed), excused \(excused)")
        }
        // No claim for a production the grammar does not have, nor by a category the generator lacks.
        for (p, categories) in GrammarCoverage.drawnBy {
            #expect(productions.contains(p), "\(p) is not in the grammar")
            for c in categories { #expect(GrammarFuzzer.productions.contains(c), "\(p) claims unknown category \(c)") }
        }
    }

    /// A short run draws every production it claims (the CI-sized run checks the same).
    @Test func aShortRunDrawsEveryClaimedProduction() {
        var fuzzer = GrammarFuzzer(seed: 18)
        for _ in 0..<2_000 { _ = fuzzer.draw() }
        let never = GrammarCoverage.drawn(fuzzer.coverage).filter { $0.1 == 0 }.map(\.0)
        #expect(never.isEmpty, "never drawn: \(never)")
    }
}

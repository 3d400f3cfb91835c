// Rendering of diagnostics: the exact human form with caret, and the JSON form.
import Testing
@testable import QuarrySyntax

@Suite("Diagnostics")
struct DiagnosticTests {
    @Test func rendersLineCaretAndHint() throws {
        let text = "salary > AND name == 'x'"
        let d = try #require(diagnostic(text))
        let expected = """
        q.qry:1:10: error[P012]: expected a value after '>', found 'AND'
            salary > AND name == 'x'
                     ^~~
        help: did you mean `salary > %@`?
        """
        #expect(d.rendered(in: SourceText(text), file: "q.qry") == expected)
    }

    @Test func caretCountsCharactersNotBytes() throws {
        let text = "name == 'Zoë' AND Zoë ==="
        let d = try #require(diagnostic(text))
        let lines = d.rendered(in: SourceText(text)).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].hasPrefix("1:25:"))
        #expect(lines[2] == "    " + String(repeating: " ", count: 24) + "^")
    }

    @Test func multiLineInputPointsAtTheRightLine() throws {
        let text = "a == 1 AND\n  b == 'x"
        let d = try #require(diagnostic(text))
        #expect(d.code == .unterminatedString)
        #expect(d.location(in: SourceText(text)) == SourceLocation(line: 2, column: 8))
        #expect(d.rendered(in: SourceText(text)).contains("\n      b == 'x\n"))
    }

    @Test func jsonFormHasTheContractFields() throws {
        let text = "a =="
        let d = try #require(diagnostic(text))
        let json = d.jsonObject(in: SourceText(text), file: "f")
        #expect(json.hasPrefix(#"{"code":"P012","message":"#))
        for field in [#""file":"f""#, #""line":1"#, #""column":5"#, #""length":1"#, #""stage":"parse""#, #""hints":["#] {
            #expect(json.contains(field), "\(field) missing in \(json)")
        }
    }

    @Test func codesAreUnique() {
        let codes = DiagnosticCode.allCases.map(\.rawValue)
        #expect(Set(codes).count == codes.count)
    }

    @Test(arguments: [("BEGINSWTH", "BEGINSWITH"), ("contain", "CONTAINS"), ("betwen", "BETWEEN"), ("lke", "LIKE"), ("sbquery", "SUBQUERY")])
    func keywordSuggestions(word: String, expected: String) {
        #expect(Suggestions.keyword(near: word) == expected)
    }

    @Test func noSuggestionForUnrelatedWords() {
        #expect(Suggestions.keyword(near: "salary") == nil)
    }
}

// The fast front end's own promises. The parser lexes as it goes, straight
// from the string's bytes, yet must report errors as if the whole input had
// been lexed first; the keyword table packs words into integers, so every
// keyword and every near miss must come out right in any case and wherever
// the word stands (the table reads eight bytes at once away from the end of
// the input, byte by byte near it); string literals without escapes are read
// from the source instead of a table.
import Testing
@testable import QuarrySyntax

/// The error a parse reports, or nil.
func parseError(_ text: String, expression: Bool = false, arguments: [Value]? = nil) -> Diagnostic? {
    do {
        if expression {
            _ = try Parser.parseExpression(text, arguments: arguments)
        } else {
            _ = try Parser.parsePredicate(text, arguments: arguments)
        }
        return nil
    } catch {
        return error
    }
}

/// The first lexical error of a text, or nil.
func lexError(_ text: String) -> Diagnostic? {
    do {
        _ = try Lexer.tokenize(SourceText(text))
        return nil
    } catch {
        return error
    }
}

@Suite("Streaming front end")
struct StreamingTests {
    /// Texts with a grammar, nesting or argument error before a lexical one.
    static let laterLexicalErrors: [(String, DiagnosticCode, Int)] = [
        ("a == == 'open", .unterminatedString, 8),
        ("(a == 1 $", .emptyVariableName, 8),
        ("a == 1 AND #", .malformedKeywordEscape, 11),
        ("a == ) 12abc", .malformedNumber, 7),
        ("NOT NOT %k", .malformedSpecifier, 8),
        ("a b c d e ? f", .unexpectedCharacter, 10),
        (String(repeating: "(", count: 500) + "a == 1 ;", .unexpectedCharacter, 507),
        ("a == %@ AND b == %@ AND c == 'x\\q'", .unknownEscape, 31),
    ]

    @Test(arguments: laterLexicalErrors)
    func aLexicalErrorWinsOverAnEarlierGrammarError(text: String, code: DiagnosticCode, offset: Int) throws {
        let lexical = try #require(lexError(text))
        #expect(lexical.code == code)
        #expect(lexical.span.start == offset)
        // Predicate, expression, with too few arguments (A001 would come first), and clause by clause.
        #expect(parseError(text) == lexical)
        #expect(parseError(text, expression: true) == lexical)
        #expect(parseError(text, arguments: [.int(1)]) == lexical)
        var use = ArgumentUse()
        #expect(throws: lexical) { try Parser.parsePredicate(SourceText(text), arguments: [], continuing: &use) }
    }

    @Test func aLexicalErrorAfterAValidPredicateIsReported() throws {
        // The parser stops at the lexer's error as if at the end; a complete
        // predicate before it must not hide it.
        let text = "a == 1 `"
        let lexical = try #require(lexError(text))
        #expect(parseError(text) == lexical)
        #expect(lexical.code == .unexpectedCharacter && lexical.span.start == 7)
    }

    @Test func randomTextsFailWithTheirFirstLexicalError() {
        var rng = SeededGenerator(state: 11)
        let alphabet = Array("ab1 ()'\"\\$%@#=<>&|!?;`.,{}[]AND é\n".unicodeScalars)
        var lexicallyBad = 0
        for _ in 0..<3_000 {
            var s = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0..<24, using: &rng) { s.append(alphabet.randomElement(using: &rng)!) }
            let text = String(s)
            guard let lexical = lexError(text) else { continue }
            lexicallyBad += 1
            #expect(parseError(text) == lexical, "\(text.debugDescription)")
            #expect(parseError(text, expression: true) == lexical, "\(text.debugDescription)")
        }
        #expect(lexicallyBad > 500)   // the alphabet makes lexical errors common
    }

    /// Every keyword, spelled three ways.
    static let keywordSpellings: [(String, Keyword)] = Keyword.allCases.flatMap { k in
        [(k.rawValue, k), (k.rawValue.lowercased(), k), (mixedCase(k.rawValue), k)]
    }

    static func mixedCase(_ word: String) -> String {
        String(word.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.lowercased()) : $0.element })
    }

    @Test(arguments: keywordSpellings)
    func keywordsAreFoundAtTheEndAndInTheMiddle(spelling: String, keyword: Keyword) throws {
        #expect(try kinds(spelling) == [.keyword(keyword)])
        #expect(try kinds(spelling + " x == 1 AND yy") == [.keyword(keyword), .identifier, .punctuation(.equal),
                                                            .integer(1), .keyword(.and), .identifier])
        #expect(try kinds("(" + spelling + ")") == [.punctuation(.leftParen), .keyword(keyword), .punctuation(.rightParen)])
    }

    @Test func wordsAreKeywordsExactlyWhenTheySpellOne() throws {
        // Random words over the letters of the keywords (plus characters
        // that may continue a word), checked against Keyword(rawValue:).
        var rng = SeededGenerator(state: 5)
        let letters = Array("ANDORINTLYSEMCHBWUQKPFZVaeinorstl_@9é")
        var keywordsSeen = 0
        for _ in 0..<20_000 {
            let base: String
            if Bool.random(using: &rng) {
                // A keyword with one letter changed, dropped or added.
                var chars = Array(Keyword.allCases.randomElement(using: &rng)!.rawValue.filter { $0 != "-" })
                let at = Int.random(in: 0..<chars.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: chars[at] = letters.randomElement(using: &rng)!
                case 1: if chars.count > 1 { chars.remove(at: at) }
                default: chars.insert(letters.randomElement(using: &rng)!, at: at)
                }
                base = String(chars)
            } else {
                base = String((0..<Int.random(in: 1...17, using: &rng)).map { _ in letters.randomElement(using: &rng)! })
            }
            guard let first = base.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { continue }
            let expected: TokenKind = Keyword(rawValue: base.uppercased()).map { .keyword($0) } ?? .identifier
            if case .keyword = expected { keywordsSeen += 1 }
            #expect(try kinds(base) == [expected], "\(base)")
            #expect(try kinds(base + " == 'some text'").first == expected, "\(base)")
        }
        #expect(keywordsSeen > 100)
    }

    @Test(arguments: Keyword.allCases)
    func keysThatSpellKeywordsPrintEscaped(keyword: Keyword) throws {
        for key in [keyword.rawValue, keyword.rawValue.lowercased()] {
            let tree = QueryPredicate(.comparison(Comparison(QueryExpression(.keyPath(base: nil, path: ["a", key])), .equal,
                                                        QueryExpression(.constant(.int(1))))))
            let printed = Printer.format(tree)
            // `#UTI-EQUALS` would read back as `#UTI` minus `EQUALS`: a
            // hyphenated key prints quoted, as any key that is not a word.
            #expect(printed == (key.contains("-") ? "a.#\"\(key)\" == 1" : "a.#\(key) == 1"))
            #expect(try Parser.parsePredicate(printed) == tree)
        }
        let nearMiss = keyword.rawValue + "x"
        let nearMissPrinted = Printer.format(QueryExpression(.keyPath(base: nil, path: [nearMiss])))
        #expect(nearMissPrinted == (nearMiss.contains("-") ? "#\"\(nearMiss)\"" : nearMiss))
        #expect(try Parser.parseExpression(nearMissPrinted) == QueryExpression(.keyPath(base: nil, path: [nearMiss])))
    }

    @Test func stringLiteralsWithAndWithoutEscapesMix() throws {
        let text = #"a == 'x' AND b == "y\tz" AND c == 'Zoë' AND d == '' AND e == 'it\'s' AND f == "w""#
        let p = try Parser.parsePredicate(text)
        guard case .and(let parts) = p.kind else { Issue.record("not an AND"); return }
        let values = parts.compactMap { part -> String? in
            guard case .comparison(let c) = part.kind, case .constant(.string(let s)) = c.rhs.kind else { return nil }
            return s
        }
        #expect(values == ["x", "y\tz", "Zoë", "", "it's", "w"])
        #expect(values == (try Lexer.tokenize(SourceText(text)).strings))
    }

    @Test func stringAndSourceTextEntriesAgree() throws {
        for text in ["department.name == 'Sales' AND salary > 50000", "ANY a.b[FIRST].c ==[cd] \"é\\n\" OR $x.#size > -5",
                     "   name  BEGINSWITH[c] 'Mü'   "] {
            let fromString = try Parser.parsePredicate(text)
            let fromSource = try Parser.parsePredicate(SourceText(text))
            #expect(fromString == fromSource)
            #expect(fromString.span.start == fromSource.span.start && fromString.span.end == fromSource.span.end)
        }
    }

    @Test func aDottedKeyPathIsOneLinkOfTheNestingLimit() {
        // `a.b` followed by k subscripts nests as deep as `a` followed by k + 1.
        for k in (Parser.maximumDepth - 4)...(Parser.maximumDepth + 1) {
            let dotted = "a.b" + String(repeating: "[0]", count: k) + " == 1"
            let plain = "a" + String(repeating: "[0]", count: k + 1) + " == 1"
            #expect(parseError(dotted)?.code == parseError(plain)?.code, "k = \(k)")
        }
        #expect(parseError("a.b" + String(repeating: "[0]", count: Parser.maximumDepth) + " == 1")?.code == .nestingTooDeep)
        #expect(parseError("a.b" + String(repeating: "[0]", count: Parser.maximumDepth - 5) + " == 1") == nil)
    }
}

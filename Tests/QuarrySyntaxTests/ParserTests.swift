// Parser tables: inputs and their canonical prints (which show the tree's
// shape through the printer's parentheses), the round-trip law
// parse(print(t)) == t, tree shapes that matter, and located errors.
import Testing
@testable import QuarrySyntax

func canonical(_ text: String, _ args: [Value]? = nil) throws -> String {
    Printer.format(try Parser.parsePredicate(text, arguments: args))
}

func diagnostic(_ text: String, _ args: [Value]? = nil, expression: Bool = false) -> Diagnostic? {
    do {
        if expression { _ = try Parser.parseExpression(text, arguments: args) } else { _ = try Parser.parsePredicate(text, arguments: args) }
        return nil
    } catch {
        return error
    }
}

@Suite("Parser")
struct ParserTests {
    static let canonicalForms: [(String, String)] = [
        ("name BEGINSWITH[cd] 'jo'", #"name BEGINSWITH[cd] "jo""#),
        ("a = 1", "a == 1"), ("a <> 1", "a != 1"), ("a =< 1", "a <= 1"), ("a => 1", "a >= 1"),
        ("a=1 and not b<2 or c>3", "(a == 1 AND NOT b < 2) OR c > 3"),
        ("a = 1 or b = 2 and c = 3", "a == 1 OR (b == 2 AND c == 3)"),
        ("a = 1 and b = 2 and c = 3", "a == 1 AND b == 2 AND c == 3"),
        ("(a = 1 and b = 2) and c = 3", "(a == 1 AND b == 2) AND c == 3"),
        ("not not a = 1", "NOT NOT a == 1"),
        ("!(a = 1 || b = 2)", "NOT (a == 1 OR b == 2)"),
        ("((a > 1))", "a > 1"),
        ("(a + 1) * 2 > 3", "(a + 1) * 2 > 3"),
        ("((a + 1)) > 3", "a + 1 > 3"),
        ("(a) > 3", "a > 3"),
        ("(a).b > 3", "a.b > 3"),
        ("1 - 2 - 3 == x", "1 - 2 - 3 == x"),
        ("1 - (2 - 3) == x", "1 - (2 - 3) == x"),
        ("2 ** 3 ** 2 == x", "2 ** 3 ** 2 == x"),
        ("2 ** (3 ** 2) == x", "2 ** (3 ** 2) == x"),
        ("1 + 2 * 3 == x", "1 + 2 * 3 == x"),
        ("(1 + 2) * 3 == x", "(1 + 2) * 3 == x"),
        ("a & 1 | b ^ 2 == x", "a & 1 | b ^ 2 == x"),
        ("1 << 2 + 1 == x", "1 << 2 + 1 == x"),
        ("-5 == -a", "-5 == -a"),
        ("- -5 == x", "5 == x"),
        ("~a == -(1 + 2)", "~a == -(1 + 2)"),
        ("ANY employees.salary > 100000", "ANY employees.salary > 100000"),
        ("SOME a = 1", "ANY a == 1"), ("ALL a = 1", "ALL a == 1"), ("NONE a = 1", "NONE a == 1"),
        ("SUBQUERY(tasks, $t, $t.done == NO).@count > 0", "SUBQUERY(tasks, $t, $t.done == NO).@count > 0"),
        ("SUBQUERY(a, $x, SUBQUERY($x.b, $y, $y.c == $x.d).@count > 0).@count == 1",
         "SUBQUERY(a, $x, SUBQUERY($x.b, $y, $y.c == $x.d).@count > 0).@count == 1"),
        ("average:(employees.salary) > 5", "average:(employees.salary) > 5"),
        ("add:to:(1,2) == 3", "add:to:(1, 2) == 3"),
        ("now() > CAST(0, 'NSDate')", "now() > CAST(0.0, \"NSDate\")"),
        ("x BETWEEN {1, 5}", "x BETWEEN {1, 5}"),
        ("x BETWEEN {$lo, 5}", "x BETWEEN {$lo, 5}"),
        ("x IN {'a', 'b'}", #"x IN {"a", "b"}"#),
        ("a[FIRST].b == 3", "a[FIRST].b == 3"), ("a[last] == 3", "a[LAST] == 3"), ("a[size] == 3", "a[SIZE] == 3"),
        ("a[0] == 1", "a[0] == 1"), ("d['k'] == 1", #"d["k"] == 1"#), ("a[1][2] == 1", "a[1][2] == 1"),
        ("{1,2,{3}}[LAST] = {3}", "{1, 2, {3}}[LAST] == {3}"),
        ("#size == 3", "#size == 3"), ("a.#first == 1", "a.#first == 1"),
        ("truepredicate", "TRUEPREDICATE"), ("FALSEPREDICATE", "FALSEPREDICATE"),
        ("self == nil", "SELF == nil"), ("SELF.name == NULL", "SELF.name == nil"),
        ("a == yes AND b == FALSE", "a == YES AND b == NO"),
        ("name ==[c] 'bob'", #"name ==[c] "bob""#), ("name LIKE[cd] 'a*'", #"name LIKE[cd] "a*""#),
        ("name MATCHES[c] '.*'", #"name MATCHES[c] ".*""#), ("name CONTAINS[n] 'x'", #"name CONTAINS[n] "x""#),
        ("name ENDSWITH[l] 'x'", #"name ENDSWITH[l] "x""#), ("name IN[dc] %@", "name IN[cd] %@"),
        ("FUNCTION(a, 'pow:', 3) == 8", #"FUNCTION(a, "pow:", 3) == 8"#),
        ("TERNARY(a > 1, 'x', 'y') == 'x'", #"TERNARY(a > 1, "x", "y") == "x""#),
        ("a UNION b == c", "a UNION b == c"), ("(a MINUS b) INTERSECT c == d", "a MINUS b INTERSECT c == d"),
        ("a MINUS (b INTERSECT c) == d", "a MINUS (b INTERSECT c) == d"),
        ("$x := 3 == 3", "($x := 3) == 3"),
        ("'it\\'s' == \"say \\\"x\\\"\"", #""it's" == "say \"x\"""#),
        ("a == 'line\\nbreak'", #"a == "line\nbreak""#),
        ("a == 1.5", "a == 1.5"), ("a == 1.0", "a == 1.0"), ("a == 9.2e-5", "a == 9.2e-05"), ("a == 0x10", "a == 16"),
        ("a UTI-CONFORMS-TO 'public.image'", #"a UTI-CONFORMS-TO "public.image""#),
        ("ANYKEY == 1", "ANYKEY == 1"),
        ("$a.$b == 'ABC'", #"$a.$b == "ABC""#),
        ("mgl_interpolate:withCurveType:parameters:stops:(x, 'linear', nil, %@) > 1",
         #"mgl_interpolate:withCurveType:parameters:stops:(x, "linear", nil, %@) > 1"#),
        ("employees.@avg.salary > 10 AND tags.@count == 0", "employees.@avg.salary > 10 AND tags.@count == 0"),
        ("\tself =\n123\n", "SELF == 123"),
    ]

    /// Quoted keys print quoted and read back as the same key: a key that
    /// is not a word, and one spelled like a hyphenated keyword
    /// (libFuzzer: `#UTI-CONFORMS-TO` would read back as `#UTI` minus …).
    static let quotedKeys: [(String, String)] = [
        (#"#"first name" == 1"#, #"#"first name" == 1"#), (#"#"a-b" == 1"#, #"#"a-b" == 1"#),
        (#"#"UTI-CONFORMS-TO" + #"" == 1"#, #"#"UTI-CONFORMS-TO" + #"" == 1"#),
        (#"a.#"x y".b == 1"#, #"a.#"x y".b == 1"#), ("a.%K == 1", "a.%K == 1"),
    ]

    /// A key component that starts with `$` is a variable and one that
    /// starts with `%` a specifier, so a quoted key spelled that way cannot
    /// mean a plain key: refused (L007), where it used to be evaluated as
    /// the variable (`#"$ab"`) or printed as one. The inputs are the ones
    /// libFuzzer's parser target found printing wrongly before.
    static let keysSpelledLikePlaceholders = [
        #"#"%@#"< a1"#, #"#"%" == 1"#, #"#"$a-b" == 1"#, #"#"$" == 1"#, #"#"%a b" == 1"#, #"#"%$xp" == 1"#,
        #"#"%1$" == 1"#, #"#"$@x" == 1"#, #"@avg.#"%d" == 1"#, #"a.#"%@" == 1"#, #"#"$iNOT " == 1"#,
        #"a.#"%K " == 1"#, #"#"$ab" == 1"#, #"#"%K" == 1"#, #"a.#"$x" == 1"#, #"SUBQUERY(x, $ab, #"$ab" == 1).@count > 0"#,
    ]

    @Test(arguments: keysSpelledLikePlaceholders)
    func keysSpelledLikeAVariableOrSpecifierAreRefused(input: String) {
        #expect {
            try Parser.parsePredicate(input)
        } throws: { error in
            guard let d = error as? Diagnostic else { return false }
            return d.code == .malformedKeywordEscape && d.message.contains("starts with")
        }
    }

    /// The same rule for `%K`'s argument: "$ab" would be the variable $ab.
    @Test(arguments: ["$ab", "a.$b", "%K", "a.%d"])
    func aKeyPathArgumentSpelledLikeAPlaceholderIsRefused(argument: String) {
        #expect {
            try Parser.parsePredicate("%K == 1", arguments: [.string(argument)])
        } throws: { error in
            guard let d = error as? Diagnostic else { return false }
            return d.code == .keyPathArgumentNotString && d.message.contains(argument)
        }
    }

    @Test(arguments: quotedKeys)
    func quotedKeysPrintQuotedAndReparse(input: String, expected: String) throws {
        #expect(try canonical(input) == expected)
        let tree = try Parser.parsePredicate(input)
        #expect(try Parser.parsePredicate(Printer.format(tree)) == tree)
    }

    /// A combining mark straight after a sigil (`$`, `#`) forms one
    /// character with it, but the lexer reads bytes, so the mark belongs to
    /// the name. libFuzzer's parser target found `$` U+0301 `0` U+FFFD `in`
    /// (an expression) printing as `$0\u{FFFD}in`, which does not parse: the
    /// name had lost its mark with the sigil's character.
    static let marksAfterSigils: [(input: String, expression: Bool, name: String)] = [
        ("$\u{301}0\u{FFFD}in ", true, "\u{301}0\u{FFFD}in"),
        ("$\u{301}x == 1", false, "\u{301}x"),
        ("#\u{301}x == 1", false, "\u{301}x"),
        ("SUBQUERY(items, $\u{301}v, $\u{301}v == 1).@count > 0", false, "\u{301}v"),
    ]

    @Test(arguments: marksAfterSigils)
    func aCombiningMarkAfterASigilStaysInTheName(input: String, expression: Bool, name: String) throws {
        let printed = expression ? Printer.format(try Parser.parseExpression(input)) : Printer.format(try Parser.parsePredicate(input))
        // Compared as bytes: as characters, `$` and the mark are one.
        let bytes = Array(printed.utf8), wanted = Array(name.utf8)
        #expect(bytes.indices.contains { bytes[$0...].starts(with: wanted) }, "printed \(printed)")
        if expression {
            let tree = try Parser.parseExpression(input)
            #expect(try Parser.parseExpression(printed) == tree)
        } else {
            let tree = try Parser.parsePredicate(input)
            #expect(try Parser.parsePredicate(printed) == tree)
        }
    }

    @Test(arguments: canonicalForms)
    func printsCanonically(input: String, expected: String) throws {
        #expect(try canonical(input) == expected)
    }

    @Test(arguments: canonicalForms)
    func printedFormReparsesToTheSameTree(input: String, expected _: String) throws {
        let tree = try Parser.parsePredicate(input)
        let again = try Parser.parsePredicate(Printer.format(tree))
        #expect(again == tree)
    }

    @Test func precedenceShapes() throws {
        // NOT binds tighter than AND, which binds tighter than OR.
        let p = try Parser.parsePredicate("NOT a = 1 AND b = 2 OR c = 3")
        guard case .or(let ors) = p.kind, ors.count == 2, case .and(let ands) = ors[0].kind,
              case .not = ands[0].kind else {
            Issue.record("wrong shape: \(Printer.format(p))")
            return
        }
    }

    @Test func parenthesisedComparisonIsAComparison() throws {
        let p = try Parser.parsePredicate("(available = 1)")
        guard case .comparison(let c) = p.kind else { Issue.record("not a comparison"); return }
        #expect(c.lhs == QueryExpression(.keyPath(base: nil, path: ["available"])))
        #expect(c.rhs == QueryExpression(.constant(.int(1))))
    }

    @Test func aggregatesOfConstantsAreConstantArrays() throws {
        let e = try Parser.parseExpression("{1, 'a', {2}}")
        #expect(e.kind == .constant(.array([.int(1), .string("a"), .array([.int(2)])])))
        let mixed = try Parser.parseExpression("{1, a}")
        guard case .aggregate(let items) = mixed.kind else { Issue.record("not an aggregate"); return }
        #expect(items.count == 2)
    }

    @Test func castOfNumberToDateIsADateConstant() throws {
        #expect(try Parser.parseExpression("CAST(-86400, 'NSDate')").kind == .constant(.date(-86400)))
        #expect(try Parser.parseExpression("CAST(x, 'NSDate')").kind != .constant(.date(0)))
    }

    @Test func spansCoverTheirText() throws {
        let p = try Parser.parsePredicate("  name == 'Zoë'  ")
        #expect(p.span.start == 2 && p.span.end == 16)
        guard case .comparison(let c) = p.kind else { Issue.record("not a comparison"); return }
        #expect(c.rhs.span.start == 10 && c.rhs.span.end == 16)
    }

    @Test(arguments: ["1+1", "1\n+1", "0x4444+0x2222", "average:({1, 2, 3})", "now()", "$x := 5", "{}", "SELF",
                      "a.b.c", "FUNCTION(SELF, 'f')", "TERNARY(TRUEPREDICATE, 1, 2)", "-a", "%@", "CAST('1', 'NSNumber')"])
    func standaloneExpressions(input: String) throws {
        let e = try Parser.parseExpression(input)
        #expect(try Parser.parseExpression(Printer.format(e)) == e)
    }

    static let errors: [(String, DiagnosticCode, Int)] = [
        ("", .emptyInput, 1), ("   ", .emptyInput, 4), ("age", .expectedComparison, 4), ("1", .expectedComparison, 2),
        ("TRUE", .expectedComparison, 5), ("0 || 1", .expectedComparison, 3), ("a == 1 b", .unexpectedTrailingInput, 8),
        ("(a == 1", .expectedClosingParenthesis, 8), ("{1, 2 == a", .expectedClosingBrace, 7),
        ("a[1 == 2", .expectedClosingBracket, 5), ("a ==[x] 1", .malformedOptions, 6), ("a ==[] 1", .malformedOptions, 5),
        ("SUBQUERY(a, x, x == 1).@count > 0", .expectedVariable, 13), ("SUBQUERY(a $x, 1)", .expectedComma, 12),
        ("salary > AND name == 'x'", .expectedValue, 10), ("a ==", .expectedValue, 5), ("a == )", .expectedValue, 6),
        ("a.and == 1", .reservedWordAsKey, 3), ("size == 3", .reservedWordAsKey, 1), ("a.1 == 1", .expectedKey, 3),
        ("a[] == 1", .expectedIndex, 3), ("()", .expectedValue, 2), ("age === 25", .expectedValue, 7),
        ("sdlfjasdflj", .expectedComparison, 12), ("age * 25", .expectedComparison, 9), (",", .expectedValue, 1),
        ("foo:bar == 1", .expectedFunctionName, 5), ("CAST(1) == 1", .wrongArgumentCount, 1),
        ("FUNCTION(a) == 1", .wrongArgumentCount, 1), ("a == 1 AND", .expectedValue, 11),
        ("x BETWEEN", .expectedValue, 10), ("Zoë === 1", .expectedValue, 7),
    ]

    @Test(arguments: errors)
    func locatedErrors(input: String, code: DiagnosticCode, column: Int) throws {
        let d = try #require(diagnostic(input))
        #expect(d.code == code, "\(d.message)")
        #expect(d.location(in: SourceText(input)).column == column)
    }

    @Test func hintsPointTheWay() throws {
        #expect(diagnostic("name BEGINSWTH 'x'")?.hints.contains("did you mean BEGINSWITH?") == true)
        #expect(diagnostic("salary > AND name == 'x'")?.hints.contains("did you mean `salary > %@`?") == true)
        #expect(diagnostic("size == 3")?.hints.first?.contains("#size") == true)
        #expect(diagnostic("name == '%@'", [.string("x")])?.hints.first?.contains("inside quotes is literal") == true)
        #expect(diagnostic("%k == 1")?.hints.first?.contains("%K") == true)
    }

    @Test func deepNestingIsRefusedNotCrashed() {
        for depth in [Parser.maximumDepth + 1, 5_000, 100_000] {
            let parens = String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth)
            #expect(diagnostic(parens)?.code == .nestingTooDeep)
            let nots = String(repeating: "NOT ", count: depth) + "a == 1"
            #expect(diagnostic(nots)?.code == .nestingTooDeep)
            let braces = "a == " + String(repeating: "{", count: depth) + String(repeating: "}", count: depth)
            #expect(diagnostic(braces)?.code == .nestingTooDeep)
            let minus = "a == " + String(repeating: "-", count: depth) + "b"
            #expect(diagnostic(minus)?.code == .nestingTooDeep)
            let chain = "a == 1" + String(repeating: " + 1", count: depth)
            #expect(diagnostic(chain)?.code == .nestingTooDeep)
            let path = "a" + String(repeating: "[0]", count: depth) + " == 1"
            #expect(diagnostic(path)?.code == .nestingTooDeep)
        }
    }

    @Test func nestingJustUnderTheLimitParses() throws {
        let depth = Parser.maximumDepth - 5
        let parens = String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth)
        #expect(try canonical(parens) == "a == 1")
    }

    @Test func longFlatInputsParse() throws {
        // 1 MB of OR-ed comparisons: flat chains have no depth.
        let clause = "name == 'Müller' OR "
        let text = String(repeating: clause, count: 1_000_000 / clause.utf8.count) + "TRUEPREDICATE"
        let p = try Parser.parsePredicate(text)
        guard case .or(let parts) = p.kind else { Issue.record("not an OR"); return }
        #expect(parts.count == 1_000_000 / clause.utf8.count + 1)
        let longString = "a == '" + String(repeating: "x", count: 1_000_000) + "'"
        #expect(try Parser.parsePredicate(longString).kind != .constant(false))
    }
}

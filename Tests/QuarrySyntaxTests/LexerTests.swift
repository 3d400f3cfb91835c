// Lexer tables: every token spelling of LANGUAGE.md maps to the right kind,
// and malformed tokens give the right code at the right place.
import Testing
@testable import QuarrySyntax

/// The token kinds of an input, without the final `.end`.
func kinds(_ text: String) throws -> [TokenKind] {
    let (tokens, _) = try Lexer.tokenize(SourceText(text))
    return tokens.dropLast().map(\.kind)
}

func decodedStrings(_ text: String) throws -> [String] {
    try Lexer.tokenize(SourceText(text)).strings
}

@Suite("Lexer")
struct LexerTests {
    static let keywordSpellings: [(String, Keyword)] = [
        ("and", .and), ("AND", .and), ("And", .and), ("or", .or), ("in", .in), ("not", .not),
        ("all", .all), ("any", .any), ("some", .some), ("none", .none), ("like", .like),
        ("matches", .matches), ("contains", .contains), ("beginswith", .beginsWith), ("EndsWith", .endsWith),
        ("between", .between), ("null", .null), ("nil", .nil), ("self", .self), ("true", .true), ("yes", .yes),
        ("false", .false), ("no", .no), ("first", .first), ("last", .last), ("size", .size), ("anykey", .anyKey),
        ("subquery", .subquery), ("cast", .cast), ("truepredicate", .truePredicate), ("FALSEPREDICATE", .falsePredicate),
        ("UTI-CONFORMS-TO", .utiConformsTo), ("uti-equals", .utiEquals), ("caseinsensitive", .caseInsensitive), ("ci", .ci),
    ]

    @Test(arguments: keywordSpellings)
    func keywordsAreCaseInsensitive(spelling: String, keyword: Keyword) throws {
        #expect(try kinds(spelling) == [.keyword(keyword)])
    }

    @Test(arguments: ["name", "_x", "@count", "café", "名前", "a1", "Self_", "ANDY", "notes", "uti"])
    func identifiersAreNotKeywords(word: String) throws {
        #expect(try kinds(word) == [.identifier])
    }

    static let punctuation: [(String, Punctuation)] = [
        ("=", .equal), ("==", .equal), ("!=", .notEqual), ("<>", .notEqual), ("<", .less), ("<=", .lessOrEqual),
        ("=<", .lessOrEqual), (">", .greater), (">=", .greaterOrEqual), ("=>", .greaterOrEqual), ("&&", .and),
        ("||", .or), ("!", .not), ("+", .plus), ("-", .minus), ("*", .star), ("**", .starStar), ("/", .slash),
        ("&", .ampersand), ("|", .pipe), ("^", .caret), ("~", .tilde), ("<<", .shiftLeft), (">>", .shiftRight),
        (":=", .assign), (":", .colon), (".", .dot), (",", .comma), ("(", .leftParen), (")", .rightParen),
        ("{", .leftBrace), ("}", .rightBrace), ("[", .leftBracket), ("]", .rightBracket),
    ]

    @Test(arguments: punctuation)
    func operatorSpellings(text: String, expected: Punctuation) throws {
        #expect(try kinds(text) == [.punctuation(expected)])
    }

    @Test func operatorsWithoutSpaces() throws {
        #expect(try kinds("age>20&&age<40") == [.identifier, .punctuation(.greater), .integer(20), .punctuation(.and),
                                                .identifier, .punctuation(.less), .integer(40)])
    }

    static let numbers: [(String, TokenKind)] = [
        ("0", .integer(0)), ("42", .integer(42)), ("0x2A", .integer(42)), ("0X2a", .integer(42)), ("0o52", .integer(42)),
        ("0b101010", .integer(42)), ("4.5", .double(4.5)), ("9.2e-5", .double(9.2e-5)), ("1e3", .double(1000)),
        ("2E+2", .double(200)), ("9223372036854775807", .integer(.max)), ("9223372036854775808", .double(9223372036854775808.0)),
        ("0xFFFFFFFFFFFFFFFF", .double(18446744073709551615.0)), ("0x7FFFFFFFFFFFFFFF", .integer(.max)),
    ]

    @Test(arguments: numbers)
    func numberForms(text: String, expected: TokenKind) throws {
        #expect(try kinds(text) == [expected])
    }

    static let strings: [(String, String)] = [
        ("'abc'", "abc"), ("\"abc\"", "abc"), ("\"it's\"", "it's"), ("'say \"hi\"'", "say \"hi\""),
        (#"'a\nb'"#, "a\nb"), (#"'a\tb'"#, "a\tb"), (#"'a\rb'"#, "a\rb"), (#"'a\\b'"#, "a\\b"), (#"'a\'b'"#, "a'b"),
        (#""a\"b""#, "a\"b"), (#"'\101'"#, "A"), (#"'\x41'"#, "A"), (#"'\u00e9'"#, "é"), (#"'\uD83C\uDF41'"#, "🍁"),
        ("'Zoë'", "Zoë"), ("''", ""), ("'%@'", "%@"), ("'$x'", "$x"),
    ]

    @Test(arguments: strings)
    func stringLiteralsDecode(text: String, expected: String) throws {
        #expect(try decodedStrings(text) == [expected])
    }

    @Test func specifiers() throws {
        let specs = try kinds("%@ %K %d %i %u %ld %lld %lu %hi %qi %f %lf %g %x %c %s %1$@ %2$K %.2f")
        let categories: [SpecifierCategory] = [.object, .keyPath, .integer, .integer, .integer, .integer, .integer, .integer,
                                               .integer, .integer, .floatingPoint, .floatingPoint, .floatingPoint, .integer,
                                               .character, .string, .object, .keyPath, .floatingPoint]
        #expect(specs.count == categories.count)
        for (kind, category) in zip(specs, categories) {
            guard case .specifier(let s) = kind else { Issue.record("not a specifier: \(kind)"); continue }
            #expect(s.category == category)
        }
        guard case .specifier(let positional) = specs[16] else { Issue.record("not a specifier"); return }
        #expect(positional.position == 1)
    }

    @Test func variablesAndEscapedKeywords() throws {
        #expect(try kinds("$x #size #AND") == [.variable, .escapedIdentifier, .escapedIdentifier])
    }

    static let errors: [(String, DiagnosticCode, Int)] = [
        ("'abc", .unterminatedString, 0), ("\"abc", .unterminatedString, 0), (#"'a\qb'"#, .unknownEscape, 2),
        (#"'\xZZ'"#, .unknownEscape, 1), ("a ? b", .unexpectedCharacter, 2), ("1\\n+1", .unexpectedCharacter, 1),
        ("12abc", .malformedNumber, 0), ("0x", .malformedNumber, 0), ("%k", .malformedSpecifier, 0),
        ("%%", .malformedSpecifier, 0), ("%", .malformedSpecifier, 0), ("%0$@", .malformedSpecifier, 0),
        ("$ x", .emptyVariableName, 0), ("# x", .malformedKeywordEscape, 0), ("1 // c", .unsupportedComment, 2),
        ("1 /* c */", .unsupportedComment, 2), ("a;", .unexpectedCharacter, 1),
    ]

    @Test(arguments: errors)
    func lexicalErrors(text: String, code: DiagnosticCode, offset: Int) {
        #expect(throws: Diagnostic.self) { try Lexer.tokenize(SourceText(text)) }
        do {
            _ = try Lexer.tokenize(SourceText(text))
        } catch {
            #expect(error.code == code)
            #expect(error.span.start == offset)
        }
    }

    @Test func spansAreUTF8Offsets() throws {
        let (tokens, _) = try Lexer.tokenize(SourceText("Zoë == 'é'"))
        #expect(tokens[0].span.start == 0 && tokens[0].span.end == 4)
        #expect(tokens[1].span.start == 5 && tokens[1].span.end == 7)
        #expect(tokens[2].span.start == 8 && tokens[2].span.end == 12)
    }
}

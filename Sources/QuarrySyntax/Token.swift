// Tokens of the predicate language. A token is a kind plus the UTF-8 span it
// covers; text (identifiers, variables) is read back from the source bytes by
// the parser only when needed, and decoded string literals live in a side
// table, so lexing allocates almost nothing.

/// Reserved words (case-insensitive). `#word` makes any of them a plain key.
/// This list is the one in Grammar/keywords.txt; a test keeps the two equal.
public enum Keyword: String, Sendable, CaseIterable {
    case and = "AND", or = "OR", `in` = "IN", not = "NOT"
    case all = "ALL", any = "ANY", some = "SOME", none = "NONE"
    case like = "LIKE", caseInsensitive = "CASEINSENSITIVE", ci = "CI"
    case matches = "MATCHES", contains = "CONTAINS", beginsWith = "BEGINSWITH", endsWith = "ENDSWITH"
    case between = "BETWEEN"
    case null = "NULL", `nil` = "NIL", `self` = "SELF"
    case `true` = "TRUE", yes = "YES", `false` = "FALSE", no = "NO"
    case first = "FIRST", last = "LAST", size = "SIZE"
    case anyKey = "ANYKEY", subquery = "SUBQUERY", cast = "CAST"
    case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
    case utiConformsTo = "UTI-CONFORMS-TO", utiEquals = "UTI-EQUALS"
}

/// What a `%` specifier inserts.
public enum SpecifierCategory: Sendable, Equatable {
    /// `%@`: any value.
    case object
    /// `%K`: a key path.
    case keyPath
    /// `%d %i %u %o %x %ld %lld %hi %qi ...`: an integer.
    case integer
    /// `%f %e %g %lf ...`: a floating-point number.
    case floatingPoint
    /// `%c %C`: one character, given as a string or a character code.
    case character
    /// `%s %S`: a C string.
    case string
    /// `%p`: a pointer, printed as hex; accepted for completeness.
    case pointer
}

/// A `%` argument specifier as written.
public struct FormatSpecifier: Sendable, Equatable {
    /// 1-based position from `%2$@`, nil for sequential specifiers.
    public var position: Int?
    public var category: SpecifierCategory
}

/// Operator and punctuation spellings; synonyms map to one case.
public enum Punctuation: Sendable, Equatable {
    case leftParen, rightParen, leftBrace, rightBrace, leftBracket, rightBracket
    case comma, dot, colon, assign
    case equal          // = ==
    case notEqual       // != <>
    case less, lessOrEqual        // < <= =<
    case greater, greaterOrEqual  // > >= =>
    case and, or, not   // && || !
    case plus, minus, star, starStar, slash
    case ampersand, pipe, caret, tilde, shiftLeft, shiftRight
}

public enum TokenKind: Sendable, Equatable {
    case end
    case identifier
    /// `#word`: a reserved word used as a key; text is the span minus `#`.
    case escapedIdentifier
    case keyword(Keyword)
    case integer(Int64)
    case double(Double)
    /// A quoted string; the payload indexes the lexer's decoded-string table.
    case string(Int)
    /// `$name`; text is the span minus `$`.
    case variable
    case specifier(FormatSpecifier)
    case punctuation(Punctuation)
}

public struct Token: Sendable {
    public var kind: TokenKind
    public var span: SourceSpan
    /// True when whitespace separates this token from the previous one (for
    /// tools such as a formatter; the grammar itself ignores whitespace).
    public var followsSpace: Bool
}

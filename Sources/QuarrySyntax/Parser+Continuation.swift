// Parsing the clauses of one larger format: a shell statement such as
// `FETCH Employee WHERE name BEGINSWITH %@ AND salary > %d SORT BY name`
// hands each clause to the parser on its own, yet its specifiers take their
// arguments as one format string would — sequential ones (`%@`, `%d`) go on
// where the previous clause stopped, positional ones (`%2$@`) index the whole
// list. `ArgumentUse` carries the count from clause to clause, and the caller
// checks it once for the whole text with `extraArguments`, which gives the
// same A002 as a single format with too many arguments.

/// How far a text's specifiers have read into its argument list.
public struct ArgumentUse: Sendable, Equatable {
    /// Sequential specifiers (`%@`, `%d` ...) read so far.
    public var sequential = 0
    /// The highest `%N$@` position seen so far.
    public var highestPositional = 0

    public init() {}

    /// How many arguments the specifiers seen so far use.
    public var used: Int { Swift.max(sequential, highestPositional) }
}

extension Parser {
    /// Parses a predicate that is one clause of a larger text. Too few
    /// arguments is A001 at the specifier; too many is left to `extraArguments`.
    public static func parsePredicate(_ source: SourceText, arguments: [Value],
                                      continuing use: inout ArgumentUse) throws(Diagnostic) -> QueryPredicate {
        let start = use
        let (predicate, end) = try run(source, arguments: arguments, allowsExtraArguments: true) {
            (parser) throws(Diagnostic) -> (QueryPredicate, ArgumentUse) in
            parser.resume(start)
            if case .end = parser.current.kind {
                throw Diagnostic(.emptyInput, "empty predicate", at: parser.current.span, hints: ["TRUEPREDICATE matches everything"])
            }
            let predicate = try parser.parsePredicateRoot()
            try parser.expectEnd()
            return (predicate, parser.argumentUse)
        }
        use = end
        return predicate
    }

    /// Parses an expression that is one clause of a larger text (as above).
    public static func parseExpression(_ source: SourceText, arguments: [Value],
                                       continuing use: inout ArgumentUse) throws(Diagnostic) -> QueryExpression {
        let start = use
        let (expression, end) = try run(source, arguments: arguments, allowsExtraArguments: true) {
            (parser) throws(Diagnostic) -> (QueryExpression, ArgumentUse) in
            parser.resume(start)
            if case .end = parser.current.kind {
                throw Diagnostic(.emptyInput, "empty expression", at: parser.current.span)
            }
            let expression = try parser.parseExpression()
            try parser.expectEnd(after: "expression")
            return (expression, parser.argumentUse)
        }
        use = end
        return expression
    }

    /// A002 when `given` arguments are more than the text's specifiers used,
    /// located at `span` (the whole text); `strings` are the text's string
    /// literals, for the hint about a quoted '%@'.
    public static func extraArguments(given: Int, use: ArgumentUse, span: SourceSpan, strings: [String]) -> Diagnostic? {
        guard given > use.used else { return nil }
        var hints: [String] = []
        if quotedSpecifier(in: strings) {
            hints.append("'%@' inside quotes is literal text: remove the quotes to insert the argument")
        }
        let uses = use.used == 1 ? "1 specifier" : "\(use.used) specifiers"
        let values = given == 1 ? "1 argument was given" : "\(given) arguments were given"
        return Diagnostic(.extraArgument, "\(values) but the format has \(uses)",
                          at: span, hints: hints, stage: .input)
    }

    /// True when a string literal holds what looks like a specifier (`'%@'`),
    /// which is literal text: the likely reason for unused arguments.
    public static func containsQuotedSpecifier(_ strings: [String]) -> Bool { quotedSpecifier(in: strings) }

    mutating func resume(_ use: ArgumentUse) {
        nextArgument = use.sequential
        highestPositional = use.highestPositional
    }

    var argumentUse: ArgumentUse {
        var use = ArgumentUse()
        use.sequential = nextArgument
        use.highestPositional = highestPositional
        return use
    }
}

// Errors of the statement grammar. A statement's clauses are parsed by the
// language's own parser, whose `Diagnostic`s (L/P/A codes) are carried here
// unchanged; the statement grammar around them adds S codes. Both kinds have
// a span into the statement's text and render the way `Diagnostic` does, so
// a tool that parses statements (the shell, a linter, an editor plugin)
// needs nothing of the shell to report them. The shell turns a
// `StatementError` into its own `StatementError` with the same code, message,
// span and hints.

/// The statement grammar's codes. They are part of the contract (query-file
/// transcripts, `--error-format json`): never renumber one; add new ones at
/// the end. S010 and S011 are the shell's dot-command codes, so they are not
/// here; the shell's `ShellCode` repeats these values because it reports
/// some of them itself while binding statements to a model.
public enum StatementCode: String, Sendable, CaseIterable {
    case unknownStatement = "S001"
    case expectedEntity = "S002"
    case misplacedClause = "S003"
    case expectedInteger = "S004"
    case expectedBy = "S005"
    case unexpectedText = "S006"
    case malformedProperty = "S007"
    case malformedAssignment = "S008"
    case expectedKeyPath = "S009"
    case emptyClause = "S012"
}

/// A located error in a statement: a statement-grammar error (S code) or a
/// language diagnostic from one of its clauses.
public struct StatementError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        case statement(StatementCode)
        case language(DiagnosticCode)

        /// The code as printed: `S003`, `P012`.
        public var rawValue: String {
            switch self {
            case .statement(let c): return c.rawValue
            case .language(let c): return c.rawValue
            }
        }
    }

    public var code: Code
    public var message: String
    /// Byte span in the statement's text.
    public var span: SourceSpan
    public var hints: [String]
    /// The statement grammar's errors are parse errors; a clause's
    /// diagnostic keeps its own stage.
    public var stage: DiagnosticStage

    public init(_ code: StatementCode, _ message: String, at span: SourceSpan, hints: [String] = []) {
        self.code = .statement(code)
        self.message = message
        self.span = span
        self.hints = hints
        self.stage = .parse
    }

    /// A clause's diagnostic, unchanged.
    public init(_ d: Diagnostic) {
        code = .language(d.code)
        message = d.message
        span = d.span
        hints = d.hints
        stage = d.stage
    }

    /// The language diagnostic this error carries, if it is one.
    public var diagnostic: Diagnostic? {
        guard case .language(let c) = code else { return nil }
        return Diagnostic(c, message, at: span, hints: hints, stage: stage)
    }

    public var description: String { "error[\(code.rawValue)]: \(message)" }

    // Spans compare equal by design (see SourceSpan); where an error points
    // is part of what it says, as for Diagnostic.
    public static func == (a: StatementError, b: StatementError) -> Bool {
        a.code == b.code && a.message == b.message && a.hints == b.hints && a.stage == b.stage
            && a.span.start == b.span.start && a.span.end == b.span.end
    }

    /// `file:line:col: error[CODE]: message`, the source line and a caret,
    /// then the hints: `Diagnostic.rendered`'s form, for either kind of code.
    public func rendered(in source: SourceText, file: String? = nil) -> String {
        Self.render(code: code.rawValue, message: message, span: span, hints: hints, in: source, file: file)
    }

    /// The located form shared with the shell's errors (`ShellError` in QuarryShell), which
    /// carry codes of their own (R…) and so cannot be a `Diagnostic`.
    public static func render(code: String, message: String, span: SourceSpan, hints: [String],
                              in source: SourceText, file: String?) -> String {
        var out = file.map { "\($0):" } ?? ""
        let loc = source.location(of: span.start)
        out += "\(loc.line):\(loc.column): error[\(code)]: \(message)\n"
        let (lineText, lineStart) = source.line(containing: span.start)
        out += "    " + String(lineText.map { $0 == "\t" ? " " : $0 }) + "\n"
        let caretColumn = source.characterCount(from: lineStart, to: span.start)
        let lineEnd = lineStart + lineText.utf8.count
        let width = max(1, source.characterCount(from: span.start, to: min(span.end, lineEnd)))
        out += "    " + String(repeating: " ", count: caretColumn) + "^" + String(repeating: "~", count: width - 1)
        for hint in hints { out += "\nhelp: \(hint)" }
        return out
    }
}

// Errors of the shell: a code, a message, a byte span in the text that was
// being run, hints, and the exit code the run ends with. The language's own
// diagnostics (L/P/A/B/E codes from QuarrySyntax) are carried over unchanged,
// shifted to where their clause stood in the file; so are the statement
// grammar's S codes (QuarryStatements' `StatementError`). The shell adds S
// codes for dot-commands and R codes for statements that failed while
// running. Rendering is Diagnostic's form (`StatementError.render`) so that
// all kinds look the same: `file:line:col: error[CODE]: message`, the line,
// a caret.

/// Shell-level error codes. Never renumber one; add new ones at the end.
/// S001–S009 and S012 are the statement grammar's (`StatementCode` in
/// QuarryStatements, the same values); the shell reports some of them too,
/// while binding a statement to the model.
public enum ShellCode: String, Sendable, CaseIterable {
    case unknownStatement = "S001"
    case expectedEntity = "S002"
    case misplacedClause = "S003"
    case expectedInteger = "S004"
    case expectedBy = "S005"
    case unexpectedText = "S006"
    case malformedProperty = "S007"
    case malformedAssignment = "S008"
    case expectedKeyPath = "S009"
    case unknownDotCommand = "S010"
    case badDotArgument = "S011"
    case emptyClause = "S012"
    // Running
    case statementFailed = "R001"
    case cannotOpen = "R002"
    case interrupted = "R003"
    case notSupported = "R004"
    case noModel = "R005"
    /// A write the model's rules refuse (required, bounds, pattern, uniqueness, Deny).
    case validationFailed = "R006"
    /// A write that would break a constraint the store keeps (uniqueness,
    /// a relationship to an object that does not exist).
    case constraintFailed = "R007"
    /// COMMIT with no transaction, BEGIN inside one, `.open` inside one.
    case transactionState = "R008"
}

/// A located error of the shell, ready to render.
public struct ShellError: Error, Sendable, CustomStringConvertible {
    public var code: String
    public var message: String
    /// Byte span in the statement's text; `offset` moves it into the file.
    public var span: SourceSpan
    public var hints: [String]
    public var stage: String
    public var exitCode: Int32
    /// False for errors that belong to no place in a text (a missing file).
    public var located: Bool
    /// True when the error was already printed (inside `.read`): only its
    /// exit status travels on.
    public var silent = false

    public init(_ code: ShellCode, _ message: String, at span: SourceSpan = .synthesized, hints: [String] = [],
                exitCode: Int32 = ExitStatus.badInput, located: Bool = true) {
        self.code = code.rawValue
        self.message = message
        self.span = span
        self.hints = hints
        self.stage = code.rawValue.hasPrefix("S") ? "parse" : "run"
        self.exitCode = exitCode
        self.located = located
    }

    /// A language diagnostic; parse, input and bind errors are bad input (65),
    /// evaluation errors mean the statement failed (1).
    public init(_ d: Diagnostic) {
        code = d.code.rawValue
        message = d.message
        span = d.span
        hints = d.hints
        stage = d.stage.rawValue
        exitCode = d.stage == .evaluate ? ExitStatus.statementFailed : ExitStatus.badInput
        located = true
    }

    /// A statement-grammar error or a clause's diagnostic, as the statement
    /// parser reported it: always bad input (65), as in `init(_: Diagnostic)`.
    public init(_ e: StatementError) {
        if let d = e.diagnostic {
            self.init(d)
            return
        }
        // An S code: a located parse error, exit 65, as every S code the
        // shell raises; the code is the statement grammar's own.
        self.init(.unknownStatement, e.message, at: e.span, hints: e.hints)
        code = e.code.rawValue
    }

    /// An error raised while running, not tied to a column.
    public static func failed(_ message: String, code: ShellCode = .statementFailed, hints: [String] = []) -> ShellError {
        ShellError(code, message, hints: hints, exitCode: ExitStatus.statementFailed, located: false)
    }

    public var description: String { "error[\(code)]: \(message)" }

    /// The failure of a nested run whose errors are already printed.
    static func reported(_ status: Int32) -> ShellError {
        var e = ShellError.failed("")
        e.exitCode = status
        e.silent = true
        return e
    }

    func shifted(by offset: Int) -> ShellError {
        var copy = self
        copy.span = SourceSpan(start: span.start + offset, end: span.end + offset)
        return copy
    }

    /// `file:line:col: error[CODE]: message`, the source line and a caret;
    /// without a location, `file: error[CODE]: message`.
    public func rendered(in source: SourceText, file: String?) -> String {
        var out = file.map { "\($0):" } ?? ""
        guard located else {
            out += (out.isEmpty ? "" : " ") + "error[\(code)]: \(message)"
            for hint in hints { out += "\nhelp: \(hint)" }
            return out
        }
        return StatementError.render(code: code, message: message, span: span, hints: hints, in: source, file: file)
    }

    /// The `--error-format json` object: code, message, file, line, column, length, stage, hints.
    public func jsonObject(in source: SourceText, file: String?) -> String {
        var fields: [(String, JSON)] = [("code", .string(code)), ("message", .string(message))]
        fields.append(("file", file.map(JSON.string) ?? .null))
        if located {
            let loc = source.location(of: span.start)
            fields.append(("line", .int(Int64(loc.line))))
            fields.append(("column", .int(Int64(loc.column))))
            fields.append(("length", .int(Int64(max(1, source.characterCount(from: span.start, to: span.end))))))
        } else {
            fields += [("line", .null), ("column", .null), ("length", .null)]
        }
        fields.append(("stage", .string(stage)))
        fields.append(("hints", .array(hints.map(JSON.string))))
        return JSON.object(fields).serialized
    }
}

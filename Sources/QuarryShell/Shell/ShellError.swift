// Errors of the shell: a code, a message, a byte span in the text that was
// being run, hints, and the exit code the run ends with. The language's own
// diagnostics (L/P/A/B/E codes from QuarrySyntax) are carried over unchanged,
// shifted to where their clause stood in the file; the shell adds S codes for
// the statement grammar and dot-commands, and R codes for statements that
// failed while running. Rendering copies Diagnostic's so that both kinds look
// the same: `file:line:col: error[CODE]: message`, the line, a caret.

/// Shell-level error codes. Never renumber one; add new ones at the end.
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

// A statement that does not parse, as a QuarryError report: its S code (or
// the clause's language code), the span in the statement's text, the hints.
import QuarrySyntax

extension StatementError: QuarryError {
    public var report: ErrorReport { ErrorReport(code: code.rawValue, message: message, span: span, hints: hints) }
}

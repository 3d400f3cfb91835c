// One protocol for every error Quarry throws, so a caller (a server, the
// shell, an editor plugin) can handle any of them the same way: a stable
// code, a message, where in a text it points when it belongs to one, and
// hints. Each module's error types adopt it in a file of their own
// (`*+QuarryError.swift`); the codes are the ones the shell and
// `quarry eval --jsonl` print — L/P/A/B/E for the language (Diagnostic.swift),
// S for statements, R for running (ShellError.swift) — so an error reads the
// same in a library log as on the command line.
//
// The report is one requirement, not four, because the error types already
// have members called `code` of their own types (DiagnosticCode, SQLite's
// Int32 result code); `LocalizedError` comes with it, so Foundation's
// `localizedDescription` says what `description` says.
import Foundation

/// What any Quarry error says, in one shape.
public struct ErrorReport: Sendable, Equatable, CustomStringConvertible {
    /// Stable, documented: `P004`, `B002`, `R006`, …
    public var code: String
    public var message: String
    /// Bytes of the text the error points into (a format string, a statement), when it has one.
    public var span: SourceSpan?
    /// A file the error is about (a model, a factories file, a store), and a place in it.
    public var file: String?
    public var line: Int?
    public var column: Int?
    public var hints: [String]

    public init(code: String, message: String, span: SourceSpan? = nil, file: String? = nil, line: Int? = nil,
                column: Int? = nil, hints: [String] = []) {
        self.code = code
        self.message = message
        self.span = span
        self.file = file
        self.line = line
        self.column = column
        self.hints = hints
    }

    /// `error[B002]: message`, then `help: hint` lines — the shell's human form without the excerpt.
    public var description: String {
        var text = "error[\(code)]: "
        if let file { text += file + (line.map { ":\($0)" + (column.map { ":\($0)" } ?? "") } ?? "") + ": " }
        text += message
        for hint in hints { text += "\nhelp: " + hint }
        return text
    }

    // Spans compare equal whatever they hold (so syntax trees compare by
    // meaning); a report compares where it points too.
    public static func == (a: ErrorReport, b: ErrorReport) -> Bool {
        a.code == b.code && a.message == b.message && a.file == b.file && a.line == b.line && a.column == b.column
            && a.hints == b.hints && a.span?.start == b.span?.start && a.span?.end == b.span?.end
    }
}

/// Adopted by every error type of every Quarry module.
public protocol QuarryError: LocalizedError, CustomStringConvertible {
    var report: ErrorReport { get }
}

extension QuarryError {
    public var errorDescription: String? { description }
}

extension Diagnostic: QuarryError {
    public var report: ErrorReport { ErrorReport(code: code.rawValue, message: message, span: span, hints: hints) }
}

// The shell's own errors and the machine interface's JSON reader as
// QuarryError reports. A ShellError already is one in all but name; a JSON
// line that does not parse is A006, as `quarry eval --jsonl` answers it.
import QuarrySyntax

extension ShellError: QuarryError {
    public var report: ErrorReport {
        ErrorReport(code: code, message: message, span: located ? span : nil, hints: hints)
    }
}

extension JSONError: QuarryError {
    public var report: ErrorReport { ErrorReport(code: DiagnosticCode.invalidRequest.rawValue, message: description) }
}

extension ShellError {
    /// Any Quarry error as the shell reports it: its own code and hints; a
    /// refused request (an A or B code) is bad input (65), anything else a
    /// failed statement (1).
    init(reporting e: any QuarryError) {
        self = .failed(e.description)
        code = e.report.code
        hints = e.report.hints
        if !code.hasPrefix("R") { exitCode = ExitStatus.badInput }
    }
}

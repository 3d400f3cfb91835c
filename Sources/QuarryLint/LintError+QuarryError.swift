// The linter's own errors as QuarryError reports: a bad configuration or
// command line is A006 (an invalid request), a file it cannot read R002.
import QuarrySyntax

extension LintError: QuarryError {
    public var report: ErrorReport {
        switch self {
        case .usage: return ErrorReport(code: DiagnosticCode.invalidRequest.rawValue, message: description)
        case .unreadable: return ErrorReport(code: "R002", message: description)
        }
    }
}

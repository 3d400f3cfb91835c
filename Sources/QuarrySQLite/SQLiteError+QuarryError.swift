// SQLite's errors as QuarryError reports, with the shell's codes: R003 for an
// interrupted statement, R007 for a failed constraint, R002 for a file that
// cannot be opened or is not a database, E005/E006 for MATCHES patterns,
// R001 for any other failed statement. The message is SQLite's, without the
// SQL (which can hold a user's text).
import QuarrySyntax

extension SQLiteError: QuarryError {
    public var report: ErrorReport {
        let code: String
        switch kind {
        case .interrupted: code = "R003"
        case .constraint: code = "R007"
        case .notADatabase, .cannotOpen: code = "R002"
        case .invalidRegularExpression: code = DiagnosticCode.invalidRegularExpression.rawValue
        case .regularExpressionTooComplex: code = DiagnosticCode.regularExpressionTooComplex.rawValue
        case .readOnly: code = "R004"
        case .busy, .locked, .unbindableValue, .other: code = "R001"
        }
        return ErrorReport(code: code, message: message)
    }
}

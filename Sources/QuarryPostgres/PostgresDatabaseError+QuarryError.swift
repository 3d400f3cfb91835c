// PostgreSQL's errors as QuarryError reports, with the shell's codes: R003
// for a cancelled statement, R007 for an integrity violation (SQLSTATE class
// 23), R006 for a numeric value out of range (22003: a write the model's
// rules refuse), R002 for a connection that could not be made, R001 for any
// other failed statement. The server's hint, when it gave one, is a hint.
import QuarrySyntax

extension PostgresDatabaseError: QuarryError {
    public var report: ErrorReport {
        let code: String
        switch kind {
        case .canceled: code = "R003"
        case .malformedURL, .connectionFailed, .authenticationFailed, .databaseNotFound: code = "R002"
        case .server where sqlState?.hasPrefix("23") == true: code = "R007"
        case .server where sqlState == "22003": code = "R006"
        default: code = "R001"
        }
        return ErrorReport(code: code, message: message, hints: hint.map { [$0] } ?? [])
    }
}

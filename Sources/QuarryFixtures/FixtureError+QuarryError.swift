// A factories file or fixtures request that cannot be carried out, as a
// QuarryError report: A006 (an invalid request), with its file and place.
import QuarrySyntax

extension FixtureError: QuarryError {
    public var report: ErrorReport {
        ErrorReport(code: DiagnosticCode.invalidRequest.rawValue, message: message, file: file, line: line, column: column,
                    hints: suggestion.map { ["did you mean '\($0)'?"] } ?? [])
    }
}

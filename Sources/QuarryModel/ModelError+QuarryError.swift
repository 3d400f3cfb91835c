// A model that cannot be read as a QuarryError report: R005, the code the
// shell prints when it has no usable model, with the file and place the
// error names and the "did you mean" as a hint.
import QuarrySyntax

extension ModelError: QuarryError {
    public var report: ErrorReport {
        ErrorReport(code: "R005", message: message, file: file, line: line, column: column,
                    hints: suggestion.map { ["did you mean '\($0)'?"] } ?? [])
    }
}

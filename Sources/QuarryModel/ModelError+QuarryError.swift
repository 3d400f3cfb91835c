// The model layer's errors as QuarryError reports. A model that cannot be
// read is R005, the code the shell prints when it has no usable model, with
// the file and place the error names and the "did you mean" as a hint; a
// damaged property list (a Core Data model cache, a keyed archive) is R002;
// a value transformer the model names but nobody registered is R005 too, a
// transformed value that cannot be read R001.
import QuarrySyntax

extension ModelError: QuarryError {
    public var report: ErrorReport {
        ErrorReport(code: "R005", message: message, file: file, line: line, column: column,
                    hints: suggestion.map { ["did you mean '\($0)'?"] } ?? [])
    }
}

extension PropertyListError: QuarryError {
    public var report: ErrorReport { ErrorReport(code: "R002", message: description) }
}

extension ValueTransformerError: QuarryError {
    public var report: ErrorReport {
        switch self {
        case .unknownTransformer(_, _, let suggestion):
            return ErrorReport(code: "R005", message: description, hints: suggestion.map { ["did you mean '\($0)'?"] } ?? [])
        case .unreadable: return ErrorReport(code: "R001", message: description)
        case .unsupported: return ErrorReport(code: "R004", message: description)
        }
    }
}

extension Derivation.Problem: QuarryError, CustomStringConvertible {
    public var description: String { message }
    /// A derivation the model cannot keep: a model problem (R005), with what would be accepted.
    public var report: ErrorReport { ErrorReport(code: "R005", message: message, hints: [hint]) }
}

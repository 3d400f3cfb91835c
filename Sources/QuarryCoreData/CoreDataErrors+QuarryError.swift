// Opening a Core Data store as a QuarryError report: R002 (the store cannot
// be opened as asked) for every kind, R005 when there is no usable model —
// the codes the shell prints.
import QuarrySyntax

extension CoreDataError: QuarryError {
    public var report: ErrorReport {
        let code = kind == .noModel || kind == .unreadableModel ? "R005" : "R002"
        return ErrorReport(code: code, message: message, hints: hint.map { [$0] } ?? [])
    }
}

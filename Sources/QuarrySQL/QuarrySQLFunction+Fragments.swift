// Calls of Quarry's SQL functions (QuarrySQLFunction, named in QuarryBinding)
// as fragments: the text of the call with the arguments' bound values kept,
// in order, so the lowering never spells a function's name itself.
import QuarryBinding

extension QuarrySQLFunction {
    /// `name(subject, other…, flags)`: `subject` and `others` keep their
    /// bound arguments; `flags` is the integer written into the text.
    public func call(_ subject: SQLFragment, _ others: SQLFragment..., flags: Int) -> SQLFragment {
        var out = (sqlName + "(") + subject
        for o in others { out = out + ", " + o }
        return out + ", \(flags))"
    }
}

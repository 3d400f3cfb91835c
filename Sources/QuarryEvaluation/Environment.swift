// What a compiled closure sees while it runs: the `$VARIABLE` bindings the
// caller passed, and the slots that SUBQUERY variables and `$x := value`
// assignments write. Slots are resolved at compile time (lexical scoping:
// an inner SUBQUERY variable shadows an outer one of the same name), so the
// hot path never looks a bound variable up by name.
//
// The slot storage is allocated per `evaluate` call, and only for trees that
// bind variables, so a plain predicate costs no allocation per object.

/// Per-evaluation state handed to every compiled closure.
struct Env {
    let variables: [String: Value]
    let slots: SlotStorage?

    static var empty: Env { Env(variables: [:], slots: nil) }

    /// No variables and no slots, built once. (Env is not Sendable because
    /// of its slots; this one has none, so sharing it is safe.)
    nonisolated(unsafe) static let none = Env(variables: [:], slots: nil)
}

/// Values of the variables a tree binds itself (SUBQUERY, `:=`); nil = unset.
final class SlotStorage {
    var values: [Value?]
    init(count: Int) { values = Array(repeating: nil, count: count) }
}

/// A compiled expression: a value for an object in an environment.
typealias ValueClosure = @Sendable (Value, Env) throws(Diagnostic) -> Value
/// A compiled predicate.
typealias BoolClosure = @Sendable (Value, Env) throws(Diagnostic) -> Bool

/// An evaluation error pointing at the node that failed.
@inline(never)
func evaluationError(_ code: DiagnosticCode, _ message: String, at span: SourceSpan,
                     hints: [String] = []) -> Diagnostic {
    Diagnostic(code, message, at: span, hints: hints, stage: .evaluate)
}

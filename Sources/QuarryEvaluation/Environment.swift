// What a compiled closure sees while it runs: the `$VARIABLE` bindings the
// caller passed, and the slots that SUBQUERY variables and `$x := value`
// assignments write. Slots are resolved at compile time (lexical scoping:
// an inner SUBQUERY variable shadows an outer one of the same name), so the
// hot path never looks a bound variable up by name.
//
// The slot storage is allocated per `evaluate` call, and only for trees that
// bind variables, so a plain predicate costs no allocation per object.
//
// `Env` is a trivial value: it borrows the caller's variables through a
// pointer and holds the slots `unowned(unsafe)`, so handing it down the
// closure tree costs no retain and release per closure per object. That is
// safe because `Env.with` keeps both alive for the whole call and no
// compiled closure keeps an `Env` after it returns.

/// Per-evaluation state handed to every compiled closure.
@usableFromInline
struct Env {
    private let variablesPointer: UnsafePointer<[String: Value]>
    unowned(unsafe) let slots: SlotStorage?

    /// The caller's `$VARIABLE` bindings.
    var variables: [String: Value] { variablesPointer.pointee }

    /// Runs `body` with an environment over `variables` and `slots`.
    @inline(__always)
    static func with<R>(_ variables: [String: Value], slots: SlotStorage?,
                        _ body: (Env) throws(Diagnostic) -> R) throws(Diagnostic) -> R {
        try withExtendedLifetime(slots) { () throws(Diagnostic) -> R in
            try withUnsafePointer(to: variables) { (p) throws(Diagnostic) -> R in
                try body(Env(variablesPointer: p, slots: slots))
            }
        }
    }

    /// No variables, no slots: the environment of constant folding and of
    /// the common evaluation without variables. Its dictionary is allocated
    /// once and never freed, so the pointer stays valid.
    nonisolated(unsafe) static let none: Env = {
        let p = UnsafeMutablePointer<[String: Value]>.allocate(capacity: 1)
        p.initialize(to: [:])
        return Env(variablesPointer: UnsafePointer(p), slots: nil)
    }()

    static var empty: Env { none }
}

/// Values of the variables a tree binds itself (SUBQUERY, `:=`); nil = unset.
final class SlotStorage {
    var values: [Value?]
    init(count: Int) { values = Array(repeating: nil, count: count) }
}

/// A compiled expression: a value for an object in an environment.
typealias ValueClosure = @Sendable (Value, Env) throws(Diagnostic) -> Value
/// A compiled predicate.
@usableFromInline
typealias BoolClosure = @Sendable (Value, Env) throws(Diagnostic) -> Bool

/// An evaluation error pointing at the node that failed.
@inline(never)
func evaluationError(_ code: DiagnosticCode, _ message: String, at span: SourceSpan,
                     hints: [String] = []) -> Diagnostic {
    Diagnostic(code, message, at: span, hints: hints, stage: .evaluate)
}

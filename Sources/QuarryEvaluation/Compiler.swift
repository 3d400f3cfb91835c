// The compiler's state and the shapes it produces. A sub-tree compiles to a
// constant when it does not depend on the object, the variables, the clock
// or the random generator (and evaluating it raised no error: `1 / 0` stays a
// closure so that it fails only if it is reached), otherwise to a closure.
//
// Variables bound inside the tree (SUBQUERY's `$x`, `$x := value`) get slots
// resolved here, lexically: a scope per SUBQUERY, innermost first.

enum CompiledValue {
    case constant(Value)
    case dynamic(ValueClosure)

    var closure: ValueClosure {
        switch self {
        case .constant(let v): return { _, _ in v }
        case .dynamic(let f): return f
        }
    }

    var constant: Value? {
        if case .constant(let v) = self { return v }
        return nil
    }
}

enum CompiledBool {
    case constant(Bool)
    case dynamic(BoolClosure)

    var closure: BoolClosure {
        switch self {
        case .constant(let b): return { _, _ in b }
        case .dynamic(let f): return f
        }
    }

    var constant: Bool? {
        if case .constant(let b) = self { return b }
        return nil
    }
}

struct Compiler {
    let options: EvaluationOptions
    let random: RandomSource
    /// Innermost scope last: variable name → slot.
    var scopes: [[String: Int]] = [[:]]
    var slotCount = 0
    /// Compiling the tree an evaluation falls back to when the first one
    /// raises (Compiler.decidedByAnyPart): its ANDs and ORs look past an
    /// error for a part that decides them.
    var decidesPastErrors = false

    init(options: EvaluationOptions) {
        self.options = options
        self.random = RandomSource(seed: options.randomSeed)
    }

    mutating func newSlot() -> Int {
        slotCount += 1
        return slotCount - 1
    }

    func slot(for name: String) -> Int? {
        for scope in scopes.reversed() { if let s = scope[name] { return s } }
        return nil
    }

    /// Folds `closure` to a constant when all `parts` are constant and it
    /// evaluates without error.
    func fold(_ closure: @escaping ValueClosure, _ parts: [CompiledValue], pure: Bool = true) -> CompiledValue {
        if pure && parts.allSatisfy({ $0.constant != nil }) {
            do { return .constant(try closure(.null, .empty)) } catch {}
        }
        return .dynamic(closure)
    }

    func foldBool(_ closure: @escaping BoolClosure, _ parts: [CompiledValue]) -> CompiledBool {
        if parts.allSatisfy({ $0.constant != nil }) {
            do { return .constant(try closure(.null, .empty)) } catch {}
        }
        return .dynamic(closure)
    }
}

/// Looks a `$VARIABLE` up among the caller's bindings.
func variableValue(_ env: Env, _ name: String, _ span: SourceSpan) throws(Diagnostic) -> Value {
    if let v = env.variables[name] { return v }
    throw evaluationError(.missingVariable, "no value for the variable $\(name)", at: span,
                          hints: ["pass it in `variables:`, e.g. [\"\(name)\": …]"])
}

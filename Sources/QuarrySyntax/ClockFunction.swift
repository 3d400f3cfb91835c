// `now()`: the one built-in whose value is the moment a request runs rather
// than anything in its arguments. Three places must recognise it — the
// evaluator's function table, the SQL lowering (which binds the request's
// instant as a constant so every row sees the same moment), and derived
// attributes (which restamp the rows a save writes) — so its name lives
// here, once.
public enum ClockFunction {
    /// The function's name as the function table spells it.
    public static let name = "now"

    /// Whether a function expression `name(arguments)` is `now()` (a
    /// trailing colon, as in `now:`, is accepted as for every function).
    public static func isNow(_ function: String, argumentCount: Int) -> Bool {
        argumentCount == 0 && (function == name || function == name + ":")
    }
}

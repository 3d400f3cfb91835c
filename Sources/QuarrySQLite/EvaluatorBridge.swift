// The in-memory evaluator, called from inside SQLite: for the cases the byte
// fast paths cannot decide (non-ASCII text) and for MATCHES, the quarry_*
// functions ask the evaluator itself, through its public API, so that SQL
// and memory agree by construction and not only by imitation.
//
// A call site compiles `SELF <OP>[cd] %@` once, with the pattern or needle
// bound as the argument (never spliced into text), and caches the compiled
// predicate with its other per-statement state (sqlite3_set_auxdata). Each
// row is then `predicate.evaluate(.string(subject))` — exactly what a fetch
// in memory does, including the evaluator's Unicode folding table, its LIKE,
// and its MATCHES (ICU via NSRegularExpression, whole-string, time-limited).
import QuarryBinding
import QuarryEvaluation

enum EvaluatorBridge {
    /// `SELF <op><options> %@` compiled with `argument`. Throws the
    /// evaluator's diagnostic (E005 for an invalid regular expression).
    static func predicate(_ op: String, flags: Int32, argument: String,
                          regexTimeLimit: Double) throws(Diagnostic) -> CompiledPredicate {
        let predicate = try Parser.parsePredicate("SELF \(op)\(letters(flags)) %@", arguments: [.string(argument)])
        var options = EvaluationOptions()
        options.regexTimeLimit = regexTimeLimit
        return try Evaluator.compile(predicate, options: options)
    }

    /// The evaluator's answer for `subject` (UTF-8 bytes from SQLite).
    static func evaluate(_ predicate: CompiledPredicate, _ subject: UnsafeBufferPointer<UInt8>) throws(Diagnostic) -> Bool {
        try predicate.evaluate(.string(String(decoding: subject, as: UTF8.self)))
    }

    /// The comparison options a flags value stands for (1 = [c], 2 = [d]).
    static func letters(_ flags: Int32) -> String {
        switch flags & 3 {
        case 1: return "[c]"
        case 2: return "[d]"
        case 3: return "[cd]"
        default: return ""
        }
    }
}

/// A MATCHES pattern for one call site: the evaluator's compiled predicate.
final class RegexMatcher {
    /// Messages start with these, so `SQLiteError` can tell the kind.
    static let invalidPrefix = QuarrySQLFunction.matches.sqlName + ": invalid regular expression"
    static let timeoutPrefix = QuarrySQLFunction.matches.sqlName + ": regular expression took longer than"

    let key: [UInt8]
    let flags: Int32
    let timeLimit: Double
    private let predicate: CompiledPredicate

    /// Throws the SQL error message for an invalid pattern.
    init(raw: UnsafeBufferPointer<UInt8>, flags: Int32, timeLimit: Double) throws(SQLFunctionFailure) {
        key = Array(raw)
        self.flags = flags
        self.timeLimit = timeLimit
        let pattern = String(decoding: raw, as: UTF8.self)
        do throws(Diagnostic) {
            predicate = try EvaluatorBridge.predicate("MATCHES", flags: flags, argument: pattern, regexTimeLimit: timeLimit)
        } catch {
            throw RegexMatcher.failure(error, pattern: pattern, timeLimit: timeLimit)
        }
    }

    func isFor(_ raw: UnsafeBufferPointer<UInt8>, flags: Int32, timeLimit: Double) -> Bool {
        flags == self.flags && timeLimit == self.timeLimit && raw.elementsEqual(key)
    }

    func matches(_ subject: UnsafeBufferPointer<UInt8>) throws(SQLFunctionFailure) -> Bool {
        do throws(Diagnostic) {
            return try EvaluatorBridge.evaluate(predicate, subject)
        } catch {
            throw RegexMatcher.failure(error, pattern: String(decoding: key, as: UTF8.self), timeLimit: timeLimit)
        }
    }

    /// The evaluator's E005 / E006 as this module's messages (see SQLiteError.Kind).
    private static func failure(_ d: Diagnostic, pattern: String, timeLimit: Double) -> SQLFunctionFailure {
        switch d.code {
        case .invalidRegularExpression:
            return SQLFunctionFailure(message: "\(invalidPrefix) '\(pattern)'")
        case .regularExpressionTooComplex:
            return SQLFunctionFailure(message: "\(timeoutPrefix) \(timeLimit) s and was stopped (avoid nested repetition such as (a+)+)")
        default:
            return SQLFunctionFailure(message: QuarrySQLFunction.matches.sqlName + ": \(d.message)")
        }
    }
}

/// An error a quarry_* function reports to SQLite (`sqlite3_result_error`).
struct SQLFunctionFailure: Error {
    let message: String
}

/// The evaluator's predicate for a string operator that cannot fail
/// (BEGINSWITH, ENDSWITH, CONTAINS, LIKE): compiled once, tested per row.
final class CompiledPredicateBox {
    private let predicate: CompiledPredicate?

    init(_ op: String, flags: Int32, argument: String) {
        // Compiling `SELF <op> %@` with a string argument has no failure
        // path for these operators; nil would only mean an evaluator bug,
        // and then nothing matches rather than the process trapping.
        predicate = try? EvaluatorBridge.predicate(op, flags: flags, argument: argument, regexTimeLimit: 1)
    }

    func test(_ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let predicate else { return false }
        return (try? EvaluatorBridge.evaluate(predicate, subject)) ?? false
    }
}

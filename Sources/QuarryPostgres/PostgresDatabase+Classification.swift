// What a PostgreSQL error is, in the store's terms (`SQLDatabase`'s
// classification): the store and the shell ask these instead of reading
// `PostgresDatabaseError`'s kind and SQLSTATE, so a cancelled statement is
// an interruption as SQLite's is, a class-23 SQLSTATE a broken constraint,
// and 22003 both an overflow (a dictionary fetch reruns in memory) and a
// value out of range (a write the model's rules refuse).
import QuarryStore

extension PostgresDatabase {
    public func isArithmeticOverflow(_ error: any Error) -> Bool {
        // numeric_value_out_of_range: "bigint out of range" from a sum cast
        // back to BIGINT, or from BIGINT arithmetic.
        (error as? PostgresDatabaseError)?.sqlState == "22003"
    }

    /// Cancelled by `interrupt()` (or by a cancel from another session);
    /// a statement that ran past `statement_timeout` is not an interruption.
    public func isInterruption(_ error: any Error) -> Bool {
        (error as? PostgresDatabaseError)?.kind == .canceled
    }

    public func constraintViolation(in error: any Error) -> SQLConstraintViolation? {
        guard let e = error as? PostgresDatabaseError, let state = e.sqlState, state.hasPrefix("23") else { return nil }
        // The constraint's name (Employee_email_key) is the server's, not
        // the model's: not given.
        switch state {
        case "23505": return SQLConstraintViolation(.unique)
        case "23503": return SQLConstraintViolation(.foreignKey)
        case "23502": return SQLConstraintViolation(.notNull)
        case "23514": return SQLConstraintViolation(.check)
        default: return SQLConstraintViolation(.other)
        }
    }

    public func isValueOutOfRange(_ error: any Error) -> Bool {
        (error as? PostgresDatabaseError)?.sqlState == "22003"
    }

    /// The server's words with its SQLSTATE, detail and hint; never the SQL.
    public func message(for error: any Error) -> String? {
        guard let e = error as? PostgresDatabaseError else { return nil }
        var text = e.message + (e.sqlState.map { " (SQLSTATE \($0))" } ?? "")
        if let d = e.detail, !d.isEmpty { text += "\nDETAIL: \(d)" }
        if let h = e.hint, !h.isEmpty { text += "\nHINT: \(h)" }
        return text
    }
}

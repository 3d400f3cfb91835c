// A database's errors as the shell reports them, the same on every engine:
// the shell asks the store's driver what an error is (`SQLDatabase`'s
// `isInterruption`, `constraintViolation(in:)`, `isValueOutOfRange`,
// `message(for:)`) and never casts to SQLite's or PostgreSQL's error types.
// So a statement stopped by Ctrl-C is R003 "interrupted" on SQLite and on
// PostgreSQL alike; a broken constraint is R007 in the model's words; a
// value that does not fit its column (PostgreSQL) is R006; any other failure
// is R001 in the driver's words, without the SQL that failed (which can hold
// a user's text).
import QuarryStore

extension ShellSession {
    /// `error` as the shell reports it when it is `database`'s own, else nil.
    static func databaseFailure(_ error: any Error, from database: any SQLDatabase) -> ShellError? {
        if database.isInterruption(error) { return .failed("interrupted", code: .interrupted) }
        guard database.message(for: error) != nil else { return nil }
        let code: ShellCode = database.isValueOutOfRange(error) ? .validationFailed
            : database.isConstraintViolation(error) ? .constraintFailed : .statementFailed
        return .failed(databaseMessage(error, from: database), code: code)
    }

    /// What a database error says, without the SQL that failed: a broken
    /// constraint in the model's terms, anything else in the driver's words.
    static func databaseMessage(_ error: any Error, from database: any SQLDatabase) -> String {
        if let violation = database.constraintViolation(in: error) {
            let name = violation.name.map { " (\($0))" } ?? ""
            switch violation.kind {
            case .unique: return "the change would repeat a value that must be unique" + name + "; nothing was written"
            case .foreignKey: return "the change would leave a relationship pointing at no object; nothing was written"
            case .notNull: return "a required value is missing" + name + "; nothing was written"
            case .check, .other: break
            }
        }
        if database.isValueOutOfRange(error) { return "a computed value does not fit its attribute's type; nothing was written" }
        return database.message(for: error) ?? "\(error)"
    }
}

// Copying a row from one statement's result into another statement's
// parameters as SQLite holds it — the same storage class and bytes, with no
// `Value` made on the way: what a bulk copy between two databases (Quarry's
// `StoreExport`) does per row, at the cost of SQLite's own INSERT … SELECT
// loop plus one step and reset.
import CSQLite

extension SQLiteStatement {
    /// Binds columns `0..<count` of `row` (a row of another statement,
    /// current now) to parameters `first...first + count - 1` (1-based).
    public func bind(columnsOf row: SQLiteRow, count: Int, toParametersFrom first: Int = 1) throws(SQLiteError) {
        for i in 0..<count {
            let rc = sqlite3_bind_value(handle, Int32(first + i), sqlite3_column_value(row.statement.handle, Int32(i)))
            guard rc == SQLITE_OK else {
                throw SQLiteError(code: rc, message: "cannot bind column \(i) of a row to parameter \(first + i)", sql: sql, kind: .other)
            }
        }
    }
}

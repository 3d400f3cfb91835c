// Transactions: BEGIN / COMMIT / ROLLBACK, and savepoints when nested, as
// the `SQLDatabase` contract asks (commit when the body returns, roll back
// when it throws).
//
// Two PostgreSQL behaviours shape this code:
// - After any failed statement the transaction is "aborted": every later
//   statement fails until ROLLBACK, and a COMMIT then *succeeds* with the
//   command tag ROLLBACK. A body that caught an error and returned normally
//   would otherwise look committed; here that is an error.
// - COMMIT itself can fail (a deferred constraint, a serialization failure).
//   The server has then ended the transaction; a ROLLBACK is still sent so
//   the connection is certainly out of it (a ROLLBACK outside a transaction
//   is only a warning), and `isInTransaction` is false afterwards.
import PostgresNIO

extension PostgresDatabase {
    @discardableResult
    public func inTransaction<T>(_ body: () throws -> T) throws -> T {
        if transactionDepth == 0 && !manualTransaction {
            try control("BEGIN")
            transactionDepth = 1
            let result: T
            do {
                result = try body()
            } catch {
                transactionDepth = 0
                _ = try? control("ROLLBACK")
                throw error
            }
            do {
                let tag = try control("COMMIT")
                transactionDepth = 0
                if tag == "ROLLBACK" {
                    throw PostgresDatabaseError(.server, "the transaction was rolled back, not committed: a statement in it failed and the error was caught inside the transaction", sqlState: "25P02", sql: "COMMIT")
                }
            } catch {
                transactionDepth = 0
                _ = try? control("ROLLBACK")
                throw error
            }
            return result
        }

        // Nested (or inside a BEGIN the caller ran itself): a savepoint.
        let name = "quarry_savepoint_\(transactionDepth)"
        try control("SAVEPOINT \(name)")
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        let result: T
        do {
            result = try body()
        } catch {
            // Undo the body's work but keep the outer transaction going.
            _ = try? control("ROLLBACK TO SAVEPOINT \(name)")
            _ = try? control("RELEASE SAVEPOINT \(name)")
            throw error
        }
        try control("RELEASE SAVEPOINT \(name)")
        return result
    }

    /// Runs a transaction-control statement; returns its command tag.
    @discardableResult
    private func control(_ sql: String) throws -> String {
        if isClosed { throw PostgresDatabaseError(.connectionClosed, "the connection is closed", sql: sql) }
        return try perform(sql) { connection.query(sql) }.metadata.command
    }
}

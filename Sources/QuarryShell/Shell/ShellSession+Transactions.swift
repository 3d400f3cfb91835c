// BEGIN, COMMIT, ROLLBACK and savepoints on the session's store, and the
// end of a session: leaving with a transaction still open rolls it back (as
// sqlite3 and psql do) and says so. The store's own writes inside an open
// transaction run as savepoints of it (`inTransaction`), so a failed INSERT
// undoes only itself and the transaction goes on.
import Foundation

extension ShellSession {
    /// Whether the store has a transaction open now.
    public var inTransaction: Bool { openStore?.database.isInTransaction ?? false }

    func runTransaction(_ t: TransactionStatement) throws(ShellError) -> StatementOutput {
        let s = try store()
        let open = s.database.isInTransaction
        switch t {
        case .begin:
            if open {
                throw ShellError.failed("a transaction is already open", code: .transactionState,
                                        hints: ["COMMIT or ROLLBACK it first; SAVEPOINT name marks a point inside it"])
            }
        default:
            if !open {
                throw ShellError.failed("no transaction is open", code: .transactionState,
                                        hints: ["BEGIN starts one; outside a transaction each statement commits by itself"])
            }
        }
        let sql = t.sql(sqlite: s.database.dialect == .sqlite)
        try storeCall { s in try s.database.run(sql) }
        s.finishExternalWrites()   // files of a rolled-back or replaced value go once the transaction ended
        return .none
    }

    /// Ends the session's work: rolls back a transaction left open. Returns
    /// true if there was one.
    @discardableResult
    public func finish() -> Bool {
        route.close()
        guard let s = openStore, s.database.isInTransaction else { return false }
        _ = try? s.database.run("ROLLBACK")
        s.finishExternalWrites()
        errors("rolled back the open transaction (no COMMIT before the end)\n")
        return true
    }
}

extension ShellSession {
    /// A line on the error stream that is not an error (no code).
    public func reportNote(_ text: String) {
        errors(text + "\n")
    }
}

extension ShellSession {
    /// `-o FILE`: results go to FILE for the whole run.
    public func redirectOutput(to path: String) throws(ShellError) {
        do throws(ShellError) { try route.redirect(to: path, once: false) } catch {
            var e = error
            e.located = false
            throw e
        }
    }
}

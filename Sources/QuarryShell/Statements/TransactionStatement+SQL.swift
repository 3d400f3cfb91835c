// The SQL a transaction-control statement sends to the session's store. The
// statement itself (grammar, canonical text) is QuarryStatements'; what it
// means for a database is the shell's, which holds the connection.

extension TransactionStatement {
    /// The SQL sent to the store. SQLite's BEGIN IMMEDIATE takes the write
    /// lock at once (a deferred one that reads, then writes, cannot wait for
    /// another writer in WAL mode); PostgreSQL has no such distinction.
    /// Savepoint names are identifiers (checked by the parser), quoted anyway.
    func sql(sqlite: Bool) -> String {
        switch self {
        case .begin: return sqlite ? "BEGIN IMMEDIATE" : "BEGIN"
        case .commit: return "COMMIT"
        case .rollback: return "ROLLBACK"
        case .savepoint(let n): return "SAVEPOINT \"\(n.text)\""
        case .release(let n): return "RELEASE SAVEPOINT \"\(n.text)\""
        case .rollbackTo(let n): return "ROLLBACK TO SAVEPOINT \"\(n.text)\""
        }
    }
}

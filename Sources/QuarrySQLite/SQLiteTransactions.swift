// Transactions: `transaction { }` commits when the closure returns and rolls
// back when it throws, so a failure anywhere inside leaves the database as it
// was. Called inside another transaction it becomes a SAVEPOINT, which undoes
// only its own work on failure: the outer transaction can catch the error and
// go on.
//
// The outermost level uses BEGIN IMMEDIATE by default: it takes the write
// lock at the start, so waiting for another writer happens there, under the
// busy timeout. A DEFERRED transaction that reads first and writes later
// cannot wait in WAL mode — its snapshot would be stale — and fails at once
// with SQLITE_BUSY_SNAPSHOT; use `.deferred` only for reads.
//
// SQLite itself rolls a transaction back after some errors (disk full, I/O,
// an interrupted COMMIT): the rollback here checks `sqlite3_get_autocommit`
// first rather than issuing a ROLLBACK that would fail and hide the real error.
import CSQLite

extension SQLiteConnection {
    /// How the outermost transaction takes its locks.
    public enum TransactionKind: Sendable {
        /// Locks on first read / write. Read-only work only (see above).
        case deferred
        /// Takes the write lock at once (waits up to the busy timeout). Default.
        case immediate
        /// Like immediate; in WAL mode also the same for readers on other connections.
        case exclusive

        var sql: String {
            switch self {
            case .deferred: return "BEGIN DEFERRED"
            case .immediate: return "BEGIN IMMEDIATE"
            case .exclusive: return "BEGIN EXCLUSIVE"
            }
        }
    }

    /// True between BEGIN and COMMIT / ROLLBACK (whoever issued them).
    public var isInTransaction: Bool { !isClosed && sqlite3_get_autocommit(db) == 0 }

    /// Runs `body` in a transaction: committed if it returns, rolled back if
    /// it throws (the error is rethrown). Nested calls use savepoints.
    ///
    /// ```swift
    /// try db.transaction {
    ///     try db.execute("UPDATE account SET balance = balance - 10 WHERE id = 1")
    ///     try db.execute("UPDATE account SET balance = balance + 10 WHERE id = 2")
    /// }
    /// ```
    @discardableResult
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        if isInTransaction { return try savepoint(body) }
        try execute(kind.sql)
        let result: T
        do {
            result = try body()
        } catch {
            rollbackIfActive()
            throw error
        }
        do throws(SQLiteError) {
            try execute("COMMIT")
        } catch {
            // COMMIT can fail (a deferred FOREIGN KEY, a busy reader with
            // EXCLUSIVE): the transaction is then still open; end it.
            rollbackIfActive()
            throw error
        }
        return result
    }

    private func savepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        // Names are unique per depth; they never appear with user values.
        let name = "quarry_savepoint_\(savepointDepth)"
        try execute("SAVEPOINT \(name)")
        do {
            let result = try body()
            try execute("RELEASE \(name)")
            return result
        } catch {
            // ROLLBACK TO undoes the work but keeps the savepoint open; RELEASE
            // then removes it. Skip both if SQLite already ended the transaction.
            if isInTransaction {
                try? execute("ROLLBACK TO \(name)")
                try? execute("RELEASE \(name)")
            }
            throw error
        }
    }

    private func rollbackIfActive() {
        if isInTransaction { try? execute("ROLLBACK") }
    }
}

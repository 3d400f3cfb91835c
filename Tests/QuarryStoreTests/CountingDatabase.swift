// A database that counts the statements it is asked to run, then hands them
// to the real one (SQLite or PostgreSQL). Tests that promise "no query"
// (prefetched relationships, loaded batches) count here, below the context,
// so that a query the context forgot to count in its statistics still shows.
@testable import QuarryStore

final class CountingDatabase: SQLDatabase {
    let base: any SQLDatabase
    /// Every statement run, in order.
    private(set) var statements: [String] = []

    init(_ base: any SQLDatabase) { self.base = base }

    var count: Int { statements.count }

    var dialect: SQLDialect { base.dialect }
    var location: String { base.location }
    var changeCounter: Int { base.changeCounter }
    var isInTransaction: Bool { base.isInTransaction }
    var maximumArguments: Int { base.maximumArguments }
    var interrupter: @Sendable () -> Void { base.interrupter }
    func isArithmeticOverflow(_ error: any Error) -> Bool { base.isArithmeticOverflow(error) }
    func isInterruption(_ error: any Error) -> Bool { base.isInterruption(error) }
    func constraintViolation(in error: any Error) -> SQLConstraintViolation? { base.constraintViolation(in: error) }
    func isValueOutOfRange(_ error: any Error) -> Bool { base.isValueOutOfRange(error) }
    func message(for error: any Error) -> String? { base.message(for: error) }

    func run(_ sql: String, _ arguments: [Value]) throws -> Int {
        statements.append(sql)
        return try base.run(sql, arguments)
    }

    func preparedRunner(_ sql: String) throws -> ([Value]) throws -> Void {
        let runner = try base.preparedRunner(sql)
        return { [self] arguments in
            statements.append(sql)
            try runner(arguments)
        }
    }

    func query(_ sql: String, _ arguments: [Value], as kinds: [SQLValueKind]) throws -> [[Value]] {
        statements.append(sql)
        return try base.query(sql, arguments, as: kinds)
    }

    func streamRows(_ sql: String, _ arguments: [Value], as kinds: [SQLValueKind],
                    _ body: (any SQLRowReading) throws -> Void) throws {
        statements.append(sql)
        try base.streamRows(sql, arguments, as: kinds, body)
    }

    func insertReturningKey(_ sql: String, _ arguments: [Value]) throws -> Int64 {
        statements.append(sql)
        return try base.insertReturningKey(sql, arguments)
    }

    func inTransaction<T>(_ body: () throws -> T) throws -> T { try base.inTransaction(body) }
    func interrupt() { base.interrupt() }
    func restartKeys(after table: String) throws { try base.restartKeys(after: table) }
    func tableNames() throws -> [String] { try base.tableNames() }
    func close() { base.close() }
}

extension SQLStore {
    /// The same data through a counting connection (a second store object
    /// over the same database; the schema is already there).
    func counted() throws -> (SQLStore, CountingDatabase) {
        let counting = CountingDatabase(database)
        return (try SQLStore(database: counting, model: model), counting)
    }
}

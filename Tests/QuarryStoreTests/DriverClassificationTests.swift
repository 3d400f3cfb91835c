// Each driver classifies its own errors in the store's terms
// (`SQLDatabase.isInterruption`, `constraintViolation(in:)`,
// `isArithmeticOverflow`, `message(for:)`), and both classify the same
// failure the same: a statement stopped by `interrupt()`, a UNIQUE index
// broken, a sum past Int64, and a plain syntax error — provoked for real on
// SQLite and on PostgreSQL (when a server is configured). The shell and the
// store rely on these alone (DriverVocabularyGuardTests).
import Foundation
import QuarryPostgres
import QuarryPostgresTestSupport
import Testing
@testable import QuarryStore

@Suite("Drivers classify their errors alike")
struct DriverClassificationTests {
    enum Failure: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case interruption, constraintViolation, arithmeticOverflow, syntaxError
        var testDescription: String { rawValue }
    }

    /// What a driver says an error is.
    struct Classification: Equatable, CustomStringConvertible {
        var interruption = false
        var constraint: SQLConstraintViolation.Kind?
        var overflow = false
        var description: String { "interruption: \(interruption), constraint: \(constraint.map { "\($0)" } ?? "none"), overflow: \(overflow)" }
    }

    static let expected: [Failure: Classification] = [
        .interruption: Classification(interruption: true),
        .constraintViolation: Classification(constraint: .unique),
        .arithmeticOverflow: Classification(overflow: true),
        .syntaxError: Classification(),
    ]

    /// Runs `body` with an empty database of `engine`.
    func withDatabase(_ engine: TestEngine, _ body: (any SQLDatabase) throws -> Void) throws {
        switch engine {
        case .sqlite: try body(try SQLiteConnection.inMemory())
        case .postgres: try PostgresTestEnvironment.withFreshDatabase { try body($0) }
        }
    }

    /// The error `failure` makes `database` throw.
    func provoke(_ failure: Failure, on database: any SQLDatabase) throws -> any Error {
        let sqlite = database.dialect == .sqlite
        do {
            switch failure {
            case .interruption:
                // A statement that never ends by itself, interrupted until it
                // stops (an interrupt that comes before it starts is lost).
                let done = Done()
                let interrupter = database.interrupter
                // A thread of its own, not a global-queue worker that a loaded machine may not start.
                Thread {
                    while !done.value { Thread.sleep(forTimeInterval: 0.1); interrupter() }
                }.start()
                defer { done.value = true }
                _ = try database.query(sqlite ? "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
                                              : "SELECT pg_sleep(60)", [], as: [])
            case .constraintViolation:
                try database.run(#"CREATE TABLE "t" ("x" BIGINT UNIQUE)"#, [])
                try database.run(#"INSERT INTO "t" VALUES (?)"#, [.int(1)])
                try database.run(#"INSERT INTO "t" VALUES (?)"#, [.int(1)])
            case .arithmeticOverflow:
                // The sum of two Int64s past Int64.max: SQLite's SUM refuses
                // it; PostgreSQL sums exactly, and the BIGINT it is cast back to refuses it.
                _ = try database.query(sqlite ? "SELECT SUM(x) FROM (SELECT 9223372036854775807 AS x UNION ALL SELECT 1)"
                                              : "SELECT SUM(x)::bigint FROM (VALUES (9223372036854775807::bigint), (1::bigint)) v(x)",
                                       [], as: [.int])
            case .syntaxError:
                _ = try database.query("SELEC 1", [], as: [])
            }
        } catch {
            return error
        }
        throw Other(text: "\(failure) did not fail")
    }

    struct Other: Error { let text: String }

    final class Done: @unchecked Sendable {
        // @unchecked: a flag read in a polling loop; a late read costs one more interrupt.
        private let lock = NSLock()
        private var flag = false
        var value: Bool {
            get { lock.lock(); defer { lock.unlock() }; return flag }
            set { lock.lock(); flag = newValue; lock.unlock() }
        }
    }

    @Test(arguments: TestEngine.available, Failure.allCases)
    func eachDriverClassifiesTheFailureTheSame(engine: TestEngine, failure: Failure) throws {
        try withDatabase(engine) { database in
            let error = try provoke(failure, on: database)
            let classified = Classification(interruption: database.isInterruption(error),
                                            constraint: database.constraintViolation(in: error)?.kind,
                                            overflow: database.isArithmeticOverflow(error))
            #expect(classified == Self.expected[failure], "\(engine): \(error)")
            #expect(database.isConstraintViolation(error) == (classified.constraint != nil))
            // The driver's own words, never the SQL that failed.
            let message = try #require(database.message(for: error), "\(engine): \(error)")
            #expect(!message.isEmpty && !message.contains("SELEC 1") && !message.contains("INSERT INTO"), "\(message)")
            // The connection is still usable after each.
            #expect(try database.query("SELECT 1", [], as: [.int]) == [[.int(1)]])
        }
    }

    /// An error that is not the driver's is none of these.
    @Test(arguments: TestEngine.available)
    func anotherErrorIsNotTheDriversOwn(engine: TestEngine) throws {
        try withDatabase(engine) { database in
            let error = Other(text: "not a database error")
            #expect(!database.isInterruption(error) && !database.isConstraintViolation(error) && !database.isArithmeticOverflow(error)
                    && !database.isValueOutOfRange(error) && database.message(for: error) == nil)
        }
    }

    /// A value too big for its column: PostgreSQL refuses it (22003), SQLite's columns take it.
    @Test(arguments: TestEngine.available)
    func aValueOutOfRangeIsPostgreSQLsAlone(engine: TestEngine) throws {
        try withDatabase(engine) { database in
            try database.run(#"CREATE TABLE "s" ("x" SMALLINT)"#, [])
            do {
                try database.run(#"INSERT INTO "s" VALUES (?)"#, [.int(100_000)])
                #expect(engine == .sqlite)
            } catch {
                #expect(engine == .postgres && database.isValueOutOfRange(error) && !database.isConstraintViolation(error), "\(error)")
            }
        }
    }
}

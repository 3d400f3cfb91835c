// PostgresTestEnvironment: how any test target finds the PostgreSQL server
// it may test against, and what happens when there is none.
//
// The server comes from QUARRY_POSTGRES_URL (Scripts/postgres-test-server.sh
// run -- swift test sets it). Without it, PostgreSQL suites are skipped, and
// say so loudly once on stderr, because a silently skipped suite reads as a
// passing one. CI exports QUARRY_REQUIRE_POSTGRES=1: then a missing URL or an
// unreachable server makes the suites run and FAIL instead of skipping.
//
// Each test gets its own schema (`quarry_test_<random>`) on the one server,
// so suites run in parallel without seeing each other's tables.
import Foundation
import QuarryPostgres
import Testing

/// The test server, as the environment describes it.
///
/// ```swift
/// @Suite(.postgres) struct MyTests {
///     @Test func roundTrip() throws {
///         try PostgresTestEnvironment.withFreshDatabase { db in ... }
///     }
/// }
/// ```
public enum PostgresTestEnvironment {
    /// The variable naming the server.
    public static let urlVariable = "QUARRY_POSTGRES_URL"
    /// The variable that turns skipping into failing (CI sets it to 1).
    public static let requireVariable = "QUARRY_REQUIRE_POSTGRES"

    /// The server URL from the environment, if set and non-empty.
    public static var url: String? {
        guard let u = ProcessInfo.processInfo.environment[urlVariable], !u.isEmpty else { return nil }
        return u
    }

    /// True when QUARRY_REQUIRE_POSTGRES is 1 (or true/yes).
    public static var isRequired: Bool {
        let v = (ProcessInfo.processInfo.environment[requireVariable] ?? "").lowercased()
        return v == "1" || v == "true" || v == "yes"
    }

    /// True when a URL is set (whether the server answers is checked by
    /// `freshDatabase()`, so an unreachable server fails tests instead of
    /// skipping them).
    public static var isAvailable: Bool { url != nil }

    /// Whether PostgreSQL tests should run: with a URL, or when required (so
    /// that they fail). Prints the skip notice once when they will not.
    public static var shouldRun: Bool {
        if isAvailable || isRequired { return true }
        _ = skipNotice
        return false
    }

    public static let skipMessage = """
        ************************************************************************
        PostgreSQL tests SKIPPED: QUARRY_POSTGRES_URL is not set; run
            Scripts/postgres-test-server.sh run -- swift test
        (set QUARRY_REQUIRE_POSTGRES=1 to make a missing server fail the tests)
        ************************************************************************

        """

    /// Printed at most once per process (a `static let` initializer runs once, thread-safely).
    private static let skipNotice: Void = {
        FileHandle.standardError.write(Data(skipMessage.utf8))
    }()

    /// A new connection on a new, empty schema `quarry_test_<random>`.
    /// Throws a clear error when no server is configured or it cannot be reached.
    public static func freshDatabase(options: PostgresDatabase.Options = PostgresDatabase.Options()) throws -> PostgresDatabase {
        var options = options
        options.schema = freshSchemaName()
        if options.connectTimeout == nil { options.connectTimeout = 5 }
        return try PostgresDatabase(url: requireURL(), options: options)
    }

    /// The configured URL, parsed; throws when none is set.
    public static func requireURL() throws -> PostgresURL {
        guard let text = url else {
            throw PostgresDatabaseError(.connectionFailed, isRequired
                ? "\(requireVariable)=1 but \(urlVariable) is not set; run Scripts/postgres-test-server.sh run -- swift test"
                : "\(urlVariable) is not set; run Scripts/postgres-test-server.sh run -- swift test")
        }
        return try PostgresURL(text)
    }

    /// Runs `body` with a connection on a fresh schema, then drops the schema.
    @discardableResult
    public static func withFreshDatabase<T>(options: PostgresDatabase.Options = PostgresDatabase.Options(),
                                            _ body: (PostgresDatabase) throws -> T) throws -> T {
        let db = try freshDatabase(options: options)
        defer {
            if !db.isClosed {
                _ = try? db.run("DROP SCHEMA IF EXISTS \(PostgresIdentifier.quoted(db.schema)) CASCADE", [])
                db.close()
            }
        }
        return try body(db)
    }

    /// `quarry_test_` and 16 random hex digits: unique across parallel tests.
    public static func freshSchemaName() -> String {
        "quarry_test_" + String(UInt64.random(in: .min ... .max), radix: 16)
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a suite or test only when PostgreSQL tests should run
    /// (`PostgresTestEnvironment.shouldRun`): `@Suite(.postgres)`.
    public static var postgres: Self {
        .enabled(if: PostgresTestEnvironment.shouldRun,
                 "PostgreSQL tests need QUARRY_POSTGRES_URL (Scripts/postgres-test-server.sh run -- swift test)")
    }
}

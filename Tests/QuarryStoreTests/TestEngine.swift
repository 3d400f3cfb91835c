// The databases engine-level tests run on: SQLite always, PostgreSQL when a
// server is configured (Scripts/postgres-test-server.sh run -- swift test;
// CI requires it, so there a missing server fails instead of skipping).
// Tests take the engine as an argument, so every case runs on each, and the
// PostgreSQL results are also compared with SQLite's: the same seeded data
// gets the same keys on both, so equal results are equal key lists.
import Foundation
import QuarryPostgres
import QuarryPostgresTestSupport
import Testing
@testable import QuarryStore

enum TestEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    /// The engines to test on in this run.
    static var available: [TestEngine] { PostgresTestEnvironment.shouldRun ? [.sqlite, .postgres] : [.sqlite] }

    var testDescription: String { rawValue }

    /// An empty store for `model` (PostgreSQL: on a fresh schema of its own).
    func emptyStore(model: Model) throws -> SQLStore {
        switch self {
        case .sqlite: return try SQLStore(path: ":memory:", model: model)
        case .postgres: return try SQLStore(postgres: try PostgresTestEnvironment.freshDatabase(), model: model)
        }
    }
}

/// Stores made once per engine and shared by a suite's (serialized) tests;
/// a store that cannot be made fails each test that asks for it.
final class EngineStores: @unchecked Sendable {
    // @unchecked: `made` is guarded by `lock`.
    private let lock = NSLock()
    private var made: [TestEngine: Result<SQLStore, any Error>] = [:]
    private let make: @Sendable (TestEngine) throws -> SQLStore

    init(_ make: @escaping @Sendable (TestEngine) throws -> SQLStore) { self.make = make }

    func store(_ engine: TestEngine) throws -> SQLStore {
        lock.lock()
        defer { lock.unlock() }
        if let r = made[engine] { return try r.get() }
        let r = Result { try make(engine) }
        made[engine] = r
        return try r.get()
    }
}

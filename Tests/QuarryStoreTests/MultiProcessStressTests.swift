// Many writers, one counter, each writer a process of its own: eight
// `quarry-stress-writer` processes (Sources/QuarryStressWriter) increment
// the same counter in one SQLite file or one PostgreSQL schema, each over
// its own connection, under each merge policy. Nothing is shared but the
// database: no lock of this process, no queue, no notification helps — the
// version claim in each UPDATE and the database's own locks are all there
// is. The final row must be what the policy implies, the rules
// MergePolicyStressTests checks for threads (`expectFinal`), and the SQLite
// file must pass `integrity_check`.
//
// Small by default (seconds); QUARRY_PROCESS_STRESS=8x5000 runs the issue's
// 8 writers × 5,000 saves in processes.
import Foundation
import QuarryPostgresTestSupport
import QuarryStressWriting
import Testing
@testable import QuarryStore

@Suite("Merge policies under writers in separate processes", .serialized)
struct MultiProcessStressTests {
    static let size: (writers: Int, saves: Int)? = {
        let parts = (ProcessInfo.processInfo.environment["QUARRY_PROCESS_STRESS"] ?? "").split(separator: "x").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }()

    static func saves(_ engine: TestEngine) -> Int { size?.saves ?? (engine == .sqlite ? 40 : 15) }

    /// The writer program, built beside the test bundle (`swift build` builds it).
    static var writer: String? {
        let candidates = [Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("quarry-stress-writer").path,
                          URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("quarry-stress-writer").path]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(HangGuard.timeLimit(minutes: size == nil ? 3 : 60), arguments: MergePolicyStressTests.arguments)
    func writerProcessesIncrementingOneCounter(engine: TestEngine, policy: MergePolicy) throws {
        let program = try #require(Self.writer, "quarry-stress-writer is not built beside the tests")
        let shared = try MergePolicyStressTests.Shared(engine)
        let id = try shared.first.insert("Counter", ["name": "c", "value": 0])
        let writers = Self.size?.writers ?? 8
        let saves = Self.saves(engine)
        var location: [String] = []
        if let path = shared.sqlitePath { location = ["--sqlite", path] }
        if let schema = shared.postgresSchema { location = ["--postgres-schema", schema] }
        let started = ContinuousClock.now
        let processes = try (0..<writers).map { _ -> (Process, Pipe, Pipe) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = location + ["--counter", String(id.primaryKey), "--policy", policy.rawValue, "--saves", String(saves)]
            let (out, err) = (Pipe(), Pipe())
            process.standardOutput = out
            process.standardError = err
            try process.run()
            return (process, out, err)
        }
        var conflicts = 0
        for (process, out, err) in processes {
            let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let complaint = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "a writer failed: \(complaint)")
            if let n = printed.split(separator: " ").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) { conflicts += n }
        }
        let elapsed = ContinuousClock.now - started
        let rows = try shared.first.database.rows(#"SELECT "value", "_version" FROM "Counter" WHERE "_pk" = ?"#, [.int(id.primaryKey)], as: [.int, .int])
        guard case .int(let value)? = rows.first?[0], case .int(let version)? = rows.first?[1] else { Issue.record("no counter row"); return }
        print("process stress \(engine) \(policy): \(writers) processes × \(saves) saves: counter \(value), version \(version), \(conflicts) conflicts retried, \(elapsed)")
        MergePolicyStressTests.expectFinal(value: value, version: version, writes: writers * saves, policy: policy)
        if engine == .sqlite {
            #expect(try shared.first.database.rows("PRAGMA integrity_check") == [[.string("ok")]])
        }
    }
}

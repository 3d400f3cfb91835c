// Fixture runs clean up after themselves however they end (issue 19): a
// run removes `.NAME.partial-PID` temporaries left beside its destination by
// processes that no longer exist, keeps those of live ones, and a factories
// file nested deep enough to exhaust the YAML reader's stack is a located
// syntax error instead of a crash.
import Foundation
import Testing
@testable import QuarryFixtures

@Suite(.serialized) struct PartialFileTests {
    static let company = try! ModelReader.read(from: Fixtures.examples + "/Models/Company.yaml")

    /// A process id no process has: past the kernel's limit.
    static let deadPID: Int32 = 4_194_304 + 17

    @Test func staleTemporariesOfDeadRunsAreRemoved() throws {
        let folder = NSTemporaryDirectory() + "quarry-partial-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let destination = folder + "/out.json"
        let stale = folder + "/.out.json.partial-\(Self.deadPID)"
        let staleWAL = stale + "-wal"
        let staleFolder = folder + "/.out.json.partial-\(Self.deadPID + 1)"
        let live = folder + "/.out.json.partial-1"  // init: alive, not ours
        let other = folder + "/.other.json.partial-\(Self.deadPID)"
        for path in [stale, staleWAL, live, other] { FileManager.default.createFile(atPath: path, contents: Data("x".utf8)) }
        try FileManager.default.createDirectory(atPath: staleFolder, withIntermediateDirectories: true)
        _ = try FixtureGenerator(model: Self.company, seed: 1, counts: ["Department": 2, "Employee": 3, "Project": 1])
            .write(to: destination)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        #expect(left == [".out.json.partial-1", ".other.json.partial-\(Self.deadPID)", "out.json"])
    }

    @Test func aKilledRunLeavesNothingBehind() throws {
        // SIGTERM mid-run: the handler removes the temporary before dying.
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("quarry").path
        let candidates = [binary, Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("quarry").path]
        guard let quarry = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            Issue.record("needs the built quarry executable beside the tests")
            return
        }
        let folder = NSTemporaryDirectory() + "quarry-killed-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for signal in [SIGTERM, SIGINT] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: quarry)
            process.arguments = ["fixtures", "--model", Fixtures.examples + "/Models/Company.yaml", "--out", folder + "/big.ndjson",
                                 "--count", "Employee=5000000"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Wait until the temporary exists, then signal.
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, (try? FileManager.default.contentsOfDirectory(atPath: folder))?.contains(where: { $0.contains(".partial-") }) != true {
                usleep(50_000)
            }
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
            let left = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(left.isEmpty, "after signal \(signal): \(left)")
        }
    }

    @Test(arguments: [10_000, 100_000])
    func deeplyNestedFactoriesAreALocatedError(depth: Int) {
        let yaml = "entities:\n  Employee: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"
        do {
            _ = try FactoriesReader.read(yaml: yaml)
            Issue.record("accepted")
        } catch {
            #expect(error.kind == .syntax)
            #expect(error.message.contains("deeper than"), "\(error.message)")
            #expect(error.line == 2)
        }
    }
}

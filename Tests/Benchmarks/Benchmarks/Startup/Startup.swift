// Scenario 13 of PERFORMANCE.md: start-up. Runs the release `quarry`
// executable as a user would — `quarry -c 'COUNT Employee'` on the embedded
// default store, a new process each time — beside
// `sqlite3 :memory: 'select 1'` in the same run (target ≤ 5× the baseline's
// median). Both are spawned the same way (posix_spawn, output to /dev/null,
// wait for exit), so the harness's own cost is in both.
//
// The executable is the root package's release build: run
// `swift build -c release --product quarry` at the root first (or set
// QUARRY_EXECUTABLE to another build). Before measuring, each command is run
// once and its output checked, so a broken build cannot be timed.
// A quiet run (2-core shared machine, medians of 300): sqlite3 4.00 ms,
// quarry 7.08 ms = 1.77× (spawning from this process adds ~2.4 ms to both;
// `hyperfine -N` the same hour: 1.61 ms vs 4.93 ms = 3.07×).
import Benchmark
import Foundation

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let quarryPath = ProcessInfo.processInfo.environment["QUARRY_EXECUTABLE"]
    ?? root.appendingPathComponent(".build/release/quarry").path
let sqlitePath = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/bin/sqlite3"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// Runs `arguments` once and returns its standard output (for the check).
func output(_ arguments: [String]) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    let pipe = Pipe()
    process.standardOutput = pipe
    try! process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}

/// Spawns `arguments` with output to /dev/null and waits for it.
func spawnAndWait(_ arguments: [String]) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let cArguments = arguments.map { strdup($0) } + [nil]
    defer { cArguments.forEach { free($0) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, arguments[0], &actions, nil, cArguments, environ)
    precondition(rc == 0, "cannot start \(arguments[0]): \(String(cString: strerror(rc)))")
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    precondition(status == 0, "\(arguments.joined(separator: " ")) exited with status \(status)")
}

let quarryCommand = [quarryPath, "-c", "COUNT Employee"]

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock], maxDuration: .seconds(10), maxIterations: 300)

    guard FileManager.default.isExecutableFile(atPath: quarryPath) else {
        fatalError("no quarry executable at \(quarryPath): run `swift build -c release --product quarry` at the package root")
    }
    precondition(output(quarryCommand).contains("200"), "quarry -c 'COUNT Employee' did not count the 200 employees")

    Benchmark("13 quarry: quarry -c 'COUNT Employee'") { benchmark in
        for _ in benchmark.scaledIterations { spawnAndWait(quarryCommand) }
    }

    if let sqlitePath {
        precondition(output([sqlitePath, ":memory:", "select 1"]).hasPrefix("1"))
        Benchmark("13 baseline: sqlite3 :memory: 'select 1'") { benchmark in
            for _ in benchmark.scaledIterations { spawnAndWait([sqlitePath, ":memory:", "select 1"]) }
        }
    } else {
        print("sqlite3 is not installed (apt-get install sqlite3): the baseline of scenario 13 is skipped")
    }
}

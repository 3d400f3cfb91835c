// The crash tests' one move: start the built `quarry` with some arguments,
// let it run for a moment, kill it with SIGKILL (no handler, no cleanup:
// what a power cut or the OOM killer does), and hand back the process so the
// test can tell whether it had already exited.
import Foundation

enum KilledQuarry {
    /// Runs `quarry arguments…`, kills it after `delay` seconds, waits for it.
    static func run(_ arguments: [String], killedAfter delay: Double) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: REPLTerminalTests.binary!)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: delay)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process
    }
}

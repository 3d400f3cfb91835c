// An opt-in trace of what happens after a Ctrl-C, for measuring where the
// time between the key and the prompt goes (issue 17: a statement must stop
// within 100 ms). With `QUARRY_TRACE_INTERRUPT=1` each mark prints one line
// to stderr, `TRACE +12.3 ms <what>`, timed from the last Ctrl-C; without it
// a mark costs one load of a constant. Marks are placed where a phase ends:
// the signal, the stopped statement's error reaching the run loop,
// `interrupted` printed, the prompt shown, the statement's values freed.
import Foundation

enum InterruptTrace {
    static let enabled = ProcessInfo.processInfo.environment["QUARRY_TRACE_INTERRUPT"].map { !$0.isEmpty && $0 != "0" } ?? false
    // Written by the SIGINT queue, read by the others: a plain atomic-width
    // word is enough for a diagnostic that only a measurement turns on.
    nonisolated(unsafe) private static var signalled: UInt64 = 0

    /// The Ctrl-C arrived (the SIGINT watch's thread).
    static func signal() {
        guard enabled else { return }
        signalled = DispatchTime.now().uptimeNanoseconds
        mark("SIGINT")
    }

    /// New input runs: marks until the next Ctrl-C are not printed.
    static func reset() {
        guard enabled else { return }
        signalled = 0
    }

    /// A phase ended: `what` with the time since the last Ctrl-C.
    static func mark(_ what: String) {
        guard enabled, signalled != 0 else { return }
        let ms = Double(DispatchTime.now().uptimeNanoseconds - signalled) / 1e6
        FileHandle.standardError.write(Data(("TRACE +" + String(format: "%.1f", ms) + " ms \(what)\n").utf8))
    }
}

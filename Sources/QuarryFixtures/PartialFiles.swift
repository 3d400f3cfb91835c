// The hidden `.NAME.partial-PID` files a fixtures run writes into, cleaned
// up however the run ends. A failure removes its own (FixtureOutput.swift);
// this file covers the rest: on SIGINT, SIGTERM, SIGHUP or SIGQUIT the
// registered temporaries are removed before the process exits with the
// signal's status, and a run first removes temporaries left beside its
// destination by runs that no longer exist (killed with SIGKILL, which no
// handler sees).
//
// The signals are taken with Dispatch sources, so the clean-up runs on an
// ordinary thread (free to walk a CSV folder) while the writer is stopped by
// the exit that follows.
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum PartialFiles {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var registered: Set<String> = []
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Removes `path` (and SQLite's companions) if the process is signalled
    /// before `unregister(path)`.
    static func register(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        registered.insert(path)
        guard sources.isEmpty else { return }
        for sig in signals {
            signal(sig, SIG_IGN)  // the source below decides instead
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                removeRegistered()
                // Die of the signal, as a shell expects of an interrupted
                // command: default action, unblocked in this thread (Dispatch
                // blocks signals in its workers), raised here.
                signal(sig, SIG_DFL)
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, sig)
                pthread_sigmask(SIG_UNBLOCK, &set, nil)
                raise(sig)
                _exit(128 + sig)
            }
            source.resume()
            sources.append(source)
        }
    }

    static func unregister(_ path: String) {
        lock.lock()
        registered.remove(path)
        lock.unlock()
    }

    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    private static func removeRegistered() {
        lock.lock()
        let paths = registered
        lock.unlock()
        for path in paths { remove(path) }
    }

    /// Removes `.NAME.partial-PID` files (and folders) beside `destination`
    /// whose process is gone.
    static func removeStale(besides destination: URL) {
        let folder = destination.deletingLastPathComponent()
        let prefix = ".\(destination.lastPathComponent).partial-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            // The PID, then possibly a SQLite suffix such as -wal.
            let rest = name.dropFirst(prefix.count)
            guard let pid = Int32(rest.prefix { $0.isNumber }), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue }  // still running (or another user's)
            try? FileManager.default.removeItem(atPath: folder.appendingPathComponent(name).path)
        }
    }
}

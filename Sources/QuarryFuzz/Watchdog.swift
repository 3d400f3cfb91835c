// The fuzzer's guard: records the input being run (so a crash leaves it on
// disk), and from a thread of its own stops the run when one input takes
// longer than the time limit or the process grows past the memory limit.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

final class Watchdog: @unchecked Sendable {
    let path: String
    let fd: Int32
    let timeLimit: Double
    let memoryLimit: Int
    private let lock = NSLock()
    private var startedAt: Double?

    init(path: String, timeLimit: Double, memoryLimit: Int) {
        self.path = path
        self.timeLimit = timeLimit
        self.memoryLimit = memoryLimit
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let thread = Thread { [unowned self] in self.watch() }
        thread.start()
    }

    func begin(_ input: [UInt8]) {
        // Overwrite in place: the file holds exactly the input being run.
        _ = ftruncate(fd, 0)
        _ = input.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        lock.lock(); startedAt = Date().timeIntervalSince1970; lock.unlock()
    }

    func end() {
        lock.lock(); startedAt = nil; lock.unlock()
    }

    private func watch() {
        while true {
            usleep(200_000)
            lock.lock()
            let started = startedAt
            lock.unlock()
            if let started, Date().timeIntervalSince1970 - started > timeLimit {
                FileHandle.standardError.write(Data("TIMEOUT: one input ran longer than \(timeLimit) s (kept in \(path))\n".utf8))
                exit(3)
            }
            if Watchdog.residentBytes() > memoryLimit {
                FileHandle.standardError.write(Data("MEMORY: resident size past \(memoryLimit >> 20) MB (input kept in \(path))\n".utf8))
                exit(4)
            }
        }
    }

    static func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    static func peakResidentMB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss / 1024
    }
}

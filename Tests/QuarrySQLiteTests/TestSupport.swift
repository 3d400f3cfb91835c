// Helpers shared by the SQLite tests: scratch directories that clean up after
// themselves, a thread-safe flag for the concurrency tests, and the bridge to
// the in-memory evaluator that the differential function tests compare with.
import Foundation
import QuarryEvaluation
@testable import QuarrySQLite

/// A fresh directory under the system temp dir, removed on deinit.
final class ScratchDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("quarry-sqlite-tests-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A boolean shared between threads.
final class SharedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}

/// The error thrown by `body`, as a SQLiteError (nil if none, or another type).
func sqliteError(_ body: () throws -> Void) -> SQLiteError? {
    do { try body(); return nil } catch let e as SQLiteError { return e } catch { return nil }
}

/// "[c]", "[d]", "[cd]" or "" for a quarry_* flags value.
func optionLetters(_ flags: Int32) -> String {
    switch flags {
    case 1: return "[c]"
    case 2: return "[d]"
    case 3: return "[cd]"
    default: return ""
    }
}

/// What the in-memory evaluator says about `SELF <op><options> %@`.
func evaluator(_ op: String, _ subject: String, _ argument: String, flags: Int32) throws -> Bool {
    let predicate = try Parser.parsePredicate("SELF \(op)\(optionLetters(flags)) %@", arguments: [.string(argument)])
    return try Evaluator.compile(predicate).evaluate(.string(subject))
}

/// One SQL value as an optional Bool (nil for NULL), for function results.
func truth(_ v: Value) -> Bool? {
    switch v {
    case .null: return nil
    case .int(let i): return i != 0
    default: return nil
    }
}

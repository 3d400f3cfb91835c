// Paths shared by the tests: the repository's Examples folder, and fresh
// temporary paths (one folder per process, so parallel tests never meet).
import Foundation

enum Fixtures {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static let examples = repository + "/Examples"

    static let folder: String = {
        let path = NSTemporaryDirectory() + "quarry-fixtures-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        // Gone with the test process.
        atexit { try? FileManager.default.removeItem(atPath: Fixtures.folder) }
        return path
    }()

    static func temporaryPath(_ name: String) -> String {
        folder + "/" + UUID().uuidString.prefix(8) + "-" + name
    }
}

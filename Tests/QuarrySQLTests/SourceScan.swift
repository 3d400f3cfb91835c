// The source scans of the guard tests (PlannedTextGuardTests,
// FunctionNameGuardTests): every Swift file under Sources/, read once, each
// given to the guard's own line check, which returns its offending lines.
import Foundation

enum SourceScan {
    /// The files scanned and the offenders `check(text, relativePath)` found.
    static func run(_ check: (String, String) -> [String]) throws -> (files: Int, found: [String]) {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        guard let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else { return (0, []) }
        let files = enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        var found: [String] = []
        for file in files {
            let relative = file.path.replacingOccurrences(of: sources.path + "/", with: "")
            found += check(try String(contentsOf: file, encoding: .utf8), relative)
        }
        return (files.count, found)
    }
}

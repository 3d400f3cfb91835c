// `quarry lint` as a process: exit codes (0 clean, 1 error findings, 64
// usage, 66 unreadable), the config file, and the github format. Runs the
// debug binary that `swift build --build-tests` leaves in .build; says so
// and skips when it is not there.
import Foundation
import Testing

@Suite(.serialized) struct LintCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let binary = root.appendingPathComponent(".build/debug/quarry").path

    func run(_ arguments: [String], in directory: URL) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test func exitCodesConfigAndFormats() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
            print("⚠️ SKIPPED LintCommandTests: no \(Self.binary) (run swift build first)")
            return
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-lint-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try #"let p = NSPredicate(format: "name == %@", "a")"#.write(to: dir.appendingPathComponent("Sources/Clean.swift"),
                                                                   atomically: true, encoding: .utf8)
        #expect(try run(["lint", "Sources"], in: dir).0 == 0)

        try "let q = NSPredicate(format: \"age >\")\n".write(to: dir.appendingPathComponent("Sources/Bad.swift"), atomically: true, encoding: .utf8)
        let (status, output) = try run(["lint", "Sources", "--format", "github"], in: dir)
        #expect(status == 1)
        #expect(output.hasPrefix("::error file=Sources/Bad.swift,line=1,col=35,title=QL001::"), "\(output)")

        try "rules:\n  QL001: warning\n".write(to: dir.appendingPathComponent(".quarry-lint.yml"), atomically: true, encoding: .utf8)
        let (relaxed, text) = try run(["lint", "Sources"], in: dir)
        #expect(relaxed == 0)
        #expect(text.contains("Sources/Bad.swift:1:35: warning:"), "\(text)")

        #expect(try run(["lint", "Sources", "--format", "xml"], in: dir).0 == 64)
        #expect(try run(["lint", "Missing"], in: dir).0 == 66)
        #expect(try run(["lint", "Sources", "--model", "nope.xcdatamodeld"], in: dir).0 == 66)
        try "rules: {QL999: error}\n".write(to: dir.appendingPathComponent(".quarry-lint.yml"), atomically: true, encoding: .utf8)
        #expect(try run(["lint", "Sources"], in: dir).0 == 64)
    }
}

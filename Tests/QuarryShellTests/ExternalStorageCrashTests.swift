// Externally stored values survive a writer's death: the built `quarry`
// inserts 24 values of 200 KB (over the default threshold: files) into a
// SQLite store — as one transaction (`-1`) and as one transaction per
// INSERT — and is killed (SIGKILL) once it has written 1, 6, 12 or 20 of
// the files (polled: the kill falls inside the save). The reopened store
// (whose open sweeps the orphans) holds only rows whose data reads back
// whole, and its folder holds exactly the files those rows name: no row
// points at a missing or partial file, no file is left that no row names.
import Foundation
import Testing
@testable import QuarryShell

@Suite("Crash safety: external binary storage", .serialized)
struct ExternalStorageCrashTests {
    static let model = """
    entities:
      Item:
        attributes:
          name: { type: string }
          photo: { type: binary, externalStorage: true }
    """
    static let values = 24
    static let size = 200 * 1024

    /// Value `i`: `size` bytes of one letter, so a torn file shows.
    static func value(_ i: Int) -> [UInt8] { Array(repeating: UInt8(0x41 + i % 26), count: size) }

    static var script: String {
        (0..<values).map { i in "INSERT Item {name: 'v\(i)', photo: CAST('\(Data(value(i)).base64EncodedString())', 'NSData')};\n" }.joined()
    }

    @Test(.enabled(if: REPLTerminalTests.binary != nil, "needs the built quarry executable"),
          arguments: [true, false], [1, 6, 12, 20])
    func killedWriterLeavesWholeValuesAndNoOrphans(singleTransaction: Bool, filesWritten: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-external-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let modelPath = folder.appendingPathComponent("model.yaml").path
        try Self.model.write(toFile: modelPath, atomically: true, encoding: .utf8)
        let scriptPath = folder.appendingPathComponent("insert.qry").path
        try Self.script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("Items.sqlite").path
        _ = try SQLStore(path: path, model: try ModelReader.read(from: modelPath), modelFile: modelPath)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: REPLTerminalTests.binary!)
        process.arguments = ["--store", path] + (singleTransaction ? ["-1"] : []) + [scriptPath]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let external = ExternalBinaryStorage.folder(forStoreAt: path)
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline
                && ((try? FileManager.default.contentsOfDirectory(atPath: external.path)) ?? []).count < filesWritten {
            usleep(1_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        let before = ((try? FileManager.default.contentsOfDirectory(atPath: external.path)) ?? []).count
        let store = try SQLStore(path: path, model: try ModelReader.read(from: modelPath))
        let objects = try store.fetch(FetchRequest(entity: "Item"))
        for o in objects {
            guard case .string(let name)? = o.value(forKey: "name"), let i = Int(name.dropFirst()) else { Issue.record("bad row"); continue }
            #expect(o.value(forKey: "photo") == .data(Self.value(i)), "row \(name) after \(filesWritten) files")
        }
        if singleTransaction { #expect(objects.isEmpty || objects.count == Self.values, "all or nothing: \(objects.count) rows") }
        if process.terminationReason == .exit { #expect(objects.count == Self.values) }
        let files = Set((try? FileManager.default.contentsOfDirectory(atPath: external.path)) ?? [])
        let named = Set(try store.database.query("SELECT \"photo\" FROM \"Item\"", [], as: [.string]).compactMap { row -> String? in
            if case .string(let s) = row[0] { return s } else { return nil }
        })
        #expect(files == named, "after \(filesWritten) files: \(files.count) files, \(named.count) named (\(before) before the reopen)")
        #expect(named.count == objects.count)
        #expect(before >= filesWritten, "killed inside the save: \(before) files were there")
    }
}

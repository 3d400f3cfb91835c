// The store and the shell speak the driver's vocabulary (`SQLDatabase`,
// `SQLValueKind`, `SQLConstraintViolation`), not SQLite's or PostgreSQL's:
// no file under Sources/QuarryStore or Sources/QuarryShell names
// SQLiteError, SQLiteValueKind, SQLiteConnection, PostgresDatabaseError or
// postgres-nio's PostgresError, except the few allowed below, each for its
// reason. The table of lines checks the scan itself (the casts the shell
// used to make are caught; a comment, or an allowed file, is not).
import Foundation
import Testing

@Suite("The store and the shell name no driver's types")
struct DriverVocabularyGuardTests {
    /// The folders scanned, under Sources/.
    static let folders = ["QuarryStore", "QuarryShell"]

    static let pattern = try! NSRegularExpression(pattern: #"\b(SQLiteError|SQLiteValueKind|SQLiteConnection|PostgresDatabaseError|PostgresError)\b"#)

    /// The files that may name SQLite's types, each with its reason.
    static let allowed: [(file: String, why: String)] = [
        ("QuarryStore/SQLiteConnection+SQLDatabase.swift",
         "SQLite's conformance to SQLDatabase: maps the store's value kinds and classifies SQLiteError"),
        ("QuarryStore/SQLStore+SQLite.swift",
         "opens a Quarry SQLite file by its path, and hands SQLite-only callers the store's connection"),
        ("QuarryStore/SQLiteFileInspection.swift",
         "reads a file's SQLite header and tables before any store opens it (a Core Data store, a torn copy)"),
        ("QuarryStore/StoreExport+SQLite.swift",
         "the SQLite-to-SQLite export binds each source column straight into the target's prepared statement"),
        ("QuarryShell/Store/DefaultStore.swift",
         "the default store is a compiled SQLite image, loaded into an in-memory connection"),
        ("QuarryShell/Store/DefaultStore+Image.swift",
         "loads and writes that SQLite image"),
    ]

    /// The lines of `text` (from `file`, relative to Sources/) that name a driver's type.
    static func offenders(in text: String, file: String) -> [String] {
        guard folders.contains(where: { file.hasPrefix($0 + "/") }), !allowed.contains(where: { $0.file == file }) else { return [] }
        var found: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("//") { continue }
            let line = String(line)
            if pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
                found.append("\(file):\(number + 1): \(trimmed)")
            }
        }
        return found
    }

    /// (line, file, caught): what the shell and the store had before, and lines the scan leaves alone.
    static let lines: [(String, String, Bool)] = [
        ("} catch let e as SQLiteError where e.kind == .interrupted {", "QuarryShell/Shell/ShellSession+Statements.swift", true),
        ("if let e = error as? PostgresDatabaseError { return e.sqlState?.hasPrefix(\"23\") == true }", "QuarryShell/Shell/ShellSession+WriteRules.swift", true),
        ("public typealias SQLValueKind = SQLiteValueKind", "QuarryStore/SQLDatabase.swift", true),
        ("public var connection: SQLiteConnection {", "QuarryStore/SQLStore.swift", true),
        ("case PostgresError.server(let m):", "QuarryStore/Anything.swift", true),
        ("// (The names differ from SQLiteConnection's own `execute`)", "QuarryStore/SQLDatabase.swift", false),
        ("guard let e = error as? SQLiteError else { return false }", "QuarryStore/SQLiteConnection+SQLDatabase.swift", false),
        ("let connection = try SQLiteConnection.inMemory()", "QuarryShell/Store/DefaultStore.swift", false),
        // The drivers themselves are not scanned.
        ("(error as? PostgresDatabaseError)?.kind == .canceled", "QuarryPostgres/PostgresDatabase+Classification.swift", false),
        ("if database.isInterruption(error) { return .failed(\"interrupted\", code: .interrupted) }", "QuarryShell/Shell/ShellSession+DatabaseErrors.swift", false),
    ]

    @Test(arguments: lines)
    func theScanCatchesADriversType(line: String, file: String, caught: Bool) {
        #expect(Self.offenders(in: line, file: file).isEmpty != caught)
    }

    @Test func noStoreOrShellSourceNamesADriversType() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        var files = 0
        var found: [String] = []
        for folder in Self.folders {
            let root = sources.appendingPathComponent(folder)
            let enumerator = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
            for case let url as URL in enumerator where url.pathExtension == "swift" {
                files += 1
                let relative = url.path.replacingOccurrences(of: sources.path + "/", with: "")
                found += Self.offenders(in: try String(contentsOf: url, encoding: .utf8), file: relative)
            }
        }
        #expect(files > 100, "the scan found the sources")
        // Every allowed file still exists (a renamed one would leave a stale exception).
        for entry in Self.allowed {
            #expect(FileManager.default.fileExists(atPath: sources.appendingPathComponent(entry.file).path), "\(entry.file) is gone")
        }
        #expect(found.isEmpty, "a driver's type named outside its allowed files:\n\(found.joined(separator: "\n"))")
    }
}

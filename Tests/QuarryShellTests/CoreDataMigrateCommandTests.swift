// `quarry migrate` and `--writable --migrate` on a Core Data store, as a
// user meets them: a wire-ios store written by model version 2.3 (from the
// corpus, copied) is planned with `--dry-run` (nothing changes), migrated
// to version 2.4, and read with 2.4 — its users still there; the shell's
// `--migrate` refuses without `--writable` and migrates with it. Without
// the corpus the test says it skipped.
import Foundation
import Testing
@testable import QuarryShell

@Suite("quarry migrate on a Core Data store (the executable)", .serialized)
struct CoreDataMigrateCommandTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../shared/corpus").standardized
    static let store = corpus.appendingPathComponent("stores/wireapp__wire-ios-data-model/Tests__Resources__store2-3.wiredatabase").path
    static let model = corpus.appendingPathComponent("models/wireapp__wire-ios-data-model__zmessaging__zmessaging2.4.xml").path
    static let available = FileManager.default.fileExists(atPath: store) && FileManager.default.fileExists(atPath: model)

    func quarry(_ arguments: [String]) throws -> Transcript { try StoreModelCommandTests().quarry(arguments) }

    @Test(.enabled(if: !available))
    func corpusAbsent() { print("SKIPPED CoreDataMigrateCommandTests: the corpus's wire-ios store 2.3 is absent; quarry migrate on a Core Data store is NOT checked") }

    @Test(.enabled(if: available && REPLTerminalTests.binary != nil, "needs the corpus and the built quarry executable"))
    func transcript() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-cd-migrate-\(UUID().uuidString)/").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "store.sqlite", second = dir + "second.sqlite"
        try FileManager.default.copyItem(atPath: Self.store, toPath: path)
        try FileManager.default.copyItem(atPath: Self.store, toPath: second)
        let users = try quarry(["--store", path, "--csv", "-c", "COUNT User"])
        #expect(users.status == 0 && !users.out.isEmpty, "\(users)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))

        let dry = try quarry(["migrate", "--store", path, "--model", Self.model, "--dry-run"])
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.out.hasPrefix("migrate the Core Data store \(path) from the model cached in the store (Z_MODELCACHE) to \(Self.model): "), "\(dry)")
        #expect(dry.out.contains("sql:\n  ALTER TABLE") && dry.out.contains("\n  ALTER TABLE main.\"ZMESSAGE\" ADD COLUMN \"ZTRANSFERSTATE\" INTEGER\n") && dry.out.contains("\n  UPDATE Z_METADATA SET Z_PLIST = ?") && dry.out.hasSuffix("dry run: nothing was changed\n"), "\(dry)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "a dry run changes nothing")

        let done = try quarry(["migrate", "--store", path, "--model", Self.model])
        #expect(done.status == 0 && done.out.hasSuffix("migrated \(path)\n"), "\(done)")
        let read = try quarry(["--store", path, "--model", Self.model, "--csv", "-c", "COUNT User"])
        #expect(read.status == 0 && read.out == users.out, "\(read)")
        let again = try quarry(["migrate", "--store", path, "--model", Self.model])
        #expect(again.status == 0 && again.out.contains("nothing to migrate"), "\(again)")

        // The shell's --migrate writes an app's store only with --writable.
        let refused = try quarry(["--store", second, "--model", Self.model, "--migrate", "-c", "COUNT User"])
        #expect(refused.status != 0 && refused.err.contains("add --writable"), "\(refused)")
        let migrated = try quarry(["--store", second, "--model", Self.model, "--migrate", "--writable", "--csv", "-c", "COUNT User"])
        #expect(migrated.status == 0 && migrated.out == users.out && migrated.err.contains("note: migrated the Core Data store"), "\(migrated)")
    }
}

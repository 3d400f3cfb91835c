// A SQLite file Quarry did not create is never written to: opening it as a
// store (with any model) and asking it for a saved model are refused with a
// clear error, and the file, its `-wal` and its `-shm` keep every byte —
// including a database whose tables are still only in its `-wal`, and the
// real Core Data stores of the corpus (`../shared/corpus/stores/`, copied
// to a scratch folder first; skipped, loudly, when the corpus is absent).
// `SQLStore(path:)` still refuses a Core Data store (its message points to
// QuarryCoreData); reading one read-only, with the same never-written
// guarantee, is tested in Tests/QuarryCoreDataTests.
import Foundation
import QuarrySQLite
import Testing
@testable import QuarryStore

@Suite("Foreign SQLite files are never written", .serialized)
struct ForeignDatabaseTests {
    static let model = try! ModelReader.read(from: Fixture.modelPath)

    /// A database made by someone else, as the files a copy would hold.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var statements: [String]
        /// Checkpointed into the main file (no `-wal` content) or left in the `-wal`.
        var checkpointed: Bool
        /// What it must be recognised as.
        var coreData: Bool?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "Core Data store, rows in the -wal", statements: coreDataTables, checkpointed: false, coreData: true),
        Case(name: "Core Data store, checkpointed", statements: coreDataTables, checkpointed: true, coreData: true),
        Case(name: "someone's notes database, rows in the -wal", statements: [
            "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)", "INSERT INTO notes (body) VALUES ('keep me')",
        ], checkpointed: false, coreData: false),
        Case(name: "someone's notes database, checkpointed", statements: [
            "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)", "INSERT INTO notes (body) VALUES ('keep me')",
        ], checkpointed: true, coreData: false),
    ]

    static let coreDataTables = [
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        "CREATE TABLE ZEMPLOYEE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR)",
        "INSERT INTO Z_PRIMARYKEY VALUES (1, 'Employee', 0, 1)",
        "INSERT INTO ZEMPLOYEE VALUES (1, 1, 1, 'Ann')",
    ]

    /// A folder of its own, removed afterwards.
    final class Scratch {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-foreign-\(UUID().uuidString)", isDirectory: true)
        init() { try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// Every file of the folder with its bytes.
    static func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    /// Makes the database with a connection of its own and copies its files
    /// while that connection is still open, as a backup of a running app
    /// would: the `-wal` then still holds what was not checkpointed.
    static func make(_ c: Case, in scratch: Scratch) throws -> String {
        let maker = Scratch()
        let original = maker.path("db.sqlite")
        let connection = try SQLiteConnection(path: original)
        for statement in c.statements { try connection.execute(statement) }
        if c.checkpointed { try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        let path = scratch.path("db.sqlite")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: original + suffix) {
            try FileManager.default.copyItem(atPath: original + suffix, toPath: path + suffix)
        }
        connection.close()
        return path
    }

    static func expectRefused(_ path: String, coreData: Bool?, folder: URL? = nil) throws {
        let folder = folder ?? URL(fileURLWithPath: path).deletingLastPathComponent()
        let before = try snapshot(folder)
        do {
            _ = try SQLStore(path: path, model: model)
            Issue.record("\(path) was opened as a store")
        } catch let error as StoreError {
            guard case .foreignDatabase(let p, let isCoreData, let tables) = error else { Issue.record("\(error)"); return }
            #expect(p == path)
            if let coreData { #expect(isCoreData == coreData) }
            #expect(!tables.isEmpty)
            #expect(error.description.contains("nothing was changed"))
            if coreData == true { #expect(error.description.contains("QuarryCoreData")) }
        }
        #expect(throws: StoreError.self) { _ = try SQLStore.storedModel(at: path) }
        let after = try snapshot(folder)
        #expect(after.keys.sorted() == before.keys.sorted(), "files appeared or vanished: \(before.keys.sorted()) → \(after.keys.sorted())")
        for (name, bytes) in before { #expect(after[name] == bytes, "\(name) changed") }
    }

    /// A symbolic link to a foreign database is the database: it is looked
    /// into and refused like the file itself (the inspection once took a
    /// link for a special file and let the open go ahead).
    @Test(arguments: cases.filter(\.checkpointed))
    func aLinkToAForeignDatabaseIsRefusedToo(_ c: Case) throws {
        let scratch = Scratch()
        let target = try Self.make(c, in: scratch)
        let link = scratch.path("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let kind = try SQLiteFileInspection.kind(of: link)
        #expect(kind == (try SQLiteFileInspection.kind(of: target)), "\(kind)")
        try Self.expectRefused(link, coreData: c.coreData)
    }

    /// A `file:` URI opens the file it names (connections open names as
    /// URIs): it is looked into and refused like the plain path (the
    /// inspection once skipped URIs, and `--store file:/…/App.sqlite` wrote
    /// Quarry's tables into a Core Data store).
    @Test(arguments: cases.filter(\.checkpointed), ["file:%@", "file://%@", "file://localhost%@", "file:%@?mode=rw", "file:%@#x"])
    func aURIToAForeignDatabaseIsRefusedToo(_ c: Case, form: String) throws {
        let scratch = Scratch()
        let path = try Self.make(c, in: scratch)
        let uri = form.replacingOccurrences(of: "%@", with: SQLiteFilePath.uriPath(path))
        #expect(try SQLiteFileInspection.kind(of: uri) == (try SQLiteFileInspection.kind(of: path)), "\(uri)")
        try Self.expectRefused(uri, coreData: c.coreData, folder: scratch.url)
    }

    @Test(arguments: cases)
    func aForeignDatabaseIsRefusedAndKeepsEveryByte(_ c: Case) throws {
        let scratch = Scratch()
        let path = try Self.make(c, in: scratch)
        if !c.checkpointed {
            // The case it is about: the main file alone shows nothing.
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        }
        let kind = try SQLiteFileInspection.kind(of: path)
        switch kind {
        case .coreData: #expect(c.coreData == true)
        case .other: #expect(c.coreData == false)
        default: Issue.record("\(c.name) seen as \(kind)")
        }
        try Self.expectRefused(path, coreData: c.coreData)
    }

    @Test
    func emptyFilesAndQuarryStoresStillOpen() throws {
        let scratch = Scratch()
        // An empty file is an empty database: the store is made there.
        let empty = scratch.path("empty.sqlite")
        FileManager.default.createFile(atPath: empty, contents: Data())
        #expect(try SQLiteFileInspection.kind(of: empty) == .empty)
        let store = try SQLStore(path: empty, model: Self.model)
        try store.insert("Department", ["name": .string("Sales")])
        store.database.close()
        // Reopened: Quarry's own store.
        #expect(try SQLiteFileInspection.kind(of: empty) == .quarry)
        let again = try SQLStore(path: empty, model: Self.model)
        #expect(try again.count(FetchRequest(entity: "Department")) == 1)
        again.database.close()
        // A path with characters a URI would misread.
        let odd = scratch.path("odd ?#%name.sqlite")
        let made = try SQLStore(path: odd, model: Self.model)
        made.database.close()
        #expect(try SQLiteFileInspection.kind(of: odd) == .quarry)
        #expect(try SQLiteFileInspection.kind(of: scratch.path("absent.sqlite")) == .empty)
        #expect(try SQLiteFileInspection.kind(of: scratch.url.path) == .special)
    }

    static var corpusStores: [String] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../shared/corpus/stores").standardized
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("stores.json")),
              let rows = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            print("ForeignDatabaseTests: ../shared/corpus/stores is absent; the real Core Data stores were SKIPPED")
            return []
        }
        return rows.compactMap { $0["store"] as? String }.map { folder.appendingPathComponent($0).path }
    }

    @Test
    func theCorpusCoreDataStoresAreRefusedAndKeepEveryByte() throws {
        let stores = Self.corpusStores
        for original in stores {
            let scratch = Scratch()
            let path = scratch.path("store.sqlite")
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: original + suffix) {
                try FileManager.default.copyItem(atPath: original + suffix, toPath: path + suffix)
            }
            guard case .coreData = try SQLiteFileInspection.kind(of: path) else {
                Issue.record("\(original) not recognised as a Core Data store")
                continue
            }
            try Self.expectRefused(path, coreData: true)
        }
        if !stores.isEmpty { #expect(stores.count >= 60) }
    }
}

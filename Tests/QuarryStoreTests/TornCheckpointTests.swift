// A store whose writer was killed while it checkpointed: pages of the main
// file were being overwritten from the `-wal`, so the main file alone is
// damaged while the file and its `-wal` together are a consistent database.
// SQLite itself recovers such a store on open; Quarry's look at the file
// before opening it (SQLiteFileInspection, which reads the main file alone,
// immutable) must not refuse it as "malformed". Found by the migration crash
// test: a `quarry migrate` killed at the wrong moment left a store that
// `SQLStore.storedModel(at:)` could not read.
//
// The torn checkpoint is made by hand: a store is written with automatic
// checkpoints off (everything it holds is in the `-wal`), its files are
// copied while its connection is open, and page 1 of the copy's main file
// (the schema's root) is overwritten with garbage past the header.
import Foundation
import QuarrySQLite
import Testing
@testable import QuarryStore

@Suite("A checkpoint cut short", .serialized)
struct TornCheckpointTests {
    static let model = try! ModelReader.read(from: Fixture.modelPath)

    static func tornStore(in scratch: ForeignDatabaseTests.Scratch) throws -> String {
        let maker = ForeignDatabaseTests.Scratch()
        let original = maker.path("store.sqlite")
        let store = try SQLStore(path: original, model: model)
        _ = try store.database.run("PRAGMA wal_autocheckpoint = 0")
        _ = try store.insert("Department", ["name": .string("Sales"), "budget": .int(10)])
        let path = scratch.path("store.sqlite")
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: original + suffix) {
            try FileManager.default.copyItem(atPath: original + suffix, toPath: path + suffix)
        }
        // Page 1 past the 100-byte header: the schema table's root page.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 3_000))
        try handle.close()
        return path
    }

    @Test func theMainFileAloneDoesNotRead() throws {
        let scratch = ForeignDatabaseTests.Scratch()
        let path = try Self.tornStore(in: scratch)
        // The premise: the main file alone (immutable, as the inspection
        // first reads it) is damaged.
        #expect(throws: SQLiteError.self) {
            let c = try SQLiteConnection(path: "file:\(SQLiteFilePath.uriPath(path))?immutable=1",
                                         options: .init(readOnly: true, create: false))
            defer { c.close() }
            _ = try c.tableNames()
        }
        #expect(try SQLiteFileInspection.kind(of: path) == .quarry)
    }

    @Test func theStoreOpensWithItsModelAndItsRows() throws {
        let scratch = ForeignDatabaseTests.Scratch()
        let path = try Self.tornStore(in: scratch)
        #expect(try SQLStore.storedModel(at: path) != nil)
        let store = try SQLStore(path: path, model: Self.model)
        #expect(try store.count(FetchRequest(entity: "Department")) == 1)
    }
}

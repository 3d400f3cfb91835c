// The metadata rows a store keeps in `_quarry_metadata`, read once at an
// open and written by one upsert (StoreMetadataRows.swift): the upsert
// replaces a key's value or adds the key, on every engine; a value that is
// not text reads as absent; and the copy a migration updates is what the
// checks after it see — a migrated store keeps its history switch and
// opens again with the new model, the rows in the database being exactly
// those the copy holds.
import Foundation
import QuarryPostgres
import QuarryPostgresTestSupport
import Testing
@testable import QuarryStore

@Suite("Store metadata rows")
struct StoreMetadataRowsTests {
    typealias M = MigrationModels

    @Test(arguments: TestEngine.available)
    func oneWriteReplacesAKeyAndAddsAnother(engine: TestEngine) throws {
        let store = try engine.emptyStore(model: try M.model([]))
        defer { store.database.close() }
        let before = try StoreMetadataRows.read(in: store.database)
        #expect(before["entities"] == "Department,Employee")
        #expect(before["format"] == "quarry-1")
        #expect(before["history"] == nil)
        try store.database.inTransaction {
            try StoreMetadataRows.write([("entities", "Employee,Department"), ("history", "off")], in: store.database)
        }
        let after = try StoreMetadataRows.read(in: store.database)
        #expect(after["entities"] == "Employee,Department")
        #expect(after["history"] == "off")
        #expect(after["model"] == before["model"])
        let entityRows = try store.database.rows("SELECT count(*) FROM \(StoreMapping.quotedMetadataTable) WHERE \"key\" = 'entities'")
        #expect(entityRows == [[.int(1)]])
    }

    @Test func aValueThatIsNotTextReadsAsAbsent() throws {
        let store = try SQLStore(path: ":memory:", model: try M.model([]))
        try store.database.run("UPDATE \(StoreMapping.quotedMetadataTable) SET \"value\" = X'00FF' WHERE \"key\" = 'entities'", [])
        let rows = try StoreMetadataRows.read(in: store.database)
        #expect(rows["entities"] == nil)
        #expect(rows["format"] == "quarry-1")
    }

    @Test func aDatabaseWithoutTheTableHasNoRows() throws {
        let connection = try SQLiteConnection.inMemory()
        let rows = try StoreMetadataRows.read(in: connection)
        #expect(rows["format"] == nil)
        #expect(try SQLStore.storedModel(in: connection) == nil)
        #expect(try SQLStore.storedLayout(in: connection) == nil)
    }

    /// Each case migrates a store that records history; what the open saw
    /// after the migration must be what the database holds.
    static let migrations = [[M.renameNickname], [M.addProject, M.addEmailDefault], [M.removeNickname]]

    @Test(arguments: TestEngine.available, migrations.indices)
    func aMigratedStoreSeesTheRowsItWrote(engine: TestEngine, migration i: Int) throws {
        let edits = Self.migrations[i]
        let location = try MigrationLocation.fresh(engine)
        defer { location.remove() }
        do {
            let store = try location.open(try M.model([]))
            try store.setHistoryTracking(true)
            store.database.close()
        }
        let new = try M.model(edits)
        let migrated = try location.open(new, migration: .automatic)
        #expect(migrated.recordsHistory, "the history switch survives the migration")
        let rows = try StoreMetadataRows.read(in: migrated.database)
        #expect(rows["entities"] == new.entityNames.joined(separator: ","))
        #expect(try SQLStore.storedModel(in: migrated.database) == new)
        #expect(try SQLStore.storedLayout(in: migrated.database) == migrated.mapping.layoutRecord)
        migrated.database.close()
        let reopened = try location.open(new)
        #expect(reopened.recordsHistory)
        reopened.database.close()
    }
}

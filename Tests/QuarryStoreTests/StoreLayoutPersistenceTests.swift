// The layout record in the store (SQLStore+Layout.swift), on every engine:
// a new store saves the record of its mapping; a store made before stores
// kept theirs (simulated by deleting the `layout` key) opens, gets the
// record written and reads the same (a read-only file opens without it);
// a migration saves the record of the model it migrated to and plans no
// rename for an added sibling; an export of a store whose names differ from
// what its model derives writes them under the source's names; a store
// whose tables lack a column its record names, or whose record does not
// read, is refused, naming it.
import Foundation
import QuarryPostgres
import QuarryPostgresTestSupport
import Testing
@testable import QuarryStore

@Suite("The layout record in the store", .serialized)
struct StoreLayoutPersistenceTests {
    typealias L = LayoutModels

    static func deleteLayout(_ store: SQLStore) throws {
        try store.database.run("DELETE FROM \"_quarry_metadata\" WHERE \"key\" = ?", [.string(StoreLayoutRecord.metadataKey)])
    }

    @Test(arguments: TestEngine.available)
    func aNewStoreSavesItsLayout(engine: TestEngine) throws {
        let store = try engine.emptyStore(model: try L.model([]))
        defer { store.database.close() }
        #expect(try SQLStore.storedLayout(in: store.database) == store.mapping.layoutRecord)
        #expect(try SQLStore.storedLayout(in: store.database)?.entities["Book"]?.table == "Item")
    }

    @Test(arguments: TestEngine.available)
    func aStoreWithoutItsLayoutGetsItOnceAndReadsTheSame(engine: TestEngine) throws {
        let location = try MigrationLocation.fresh(engine)
        defer { location.remove() }
        let model = try L.model([])
        let made = try location.open(model)
        try L.populate(made)
        let record = made.mapping.layoutRecord
        let rows = try L.dump(made, keys: model)
        try Self.deleteLayout(made)
        #expect(try SQLStore.storedLayout(in: made.database) == nil)
        made.database.close()

        if engine == .sqlite {
            // Read-only: derived, not saved.
            let connection = try SQLiteConnection(path: location.place, options: .init(readOnly: true, create: false))
            let readOnly = try SQLStore(database: connection, model: model)
            #expect(try L.dump(readOnly, keys: model) == rows)
            #expect(try SQLStore.storedLayout(in: readOnly.database) == nil)
            connection.close()
        }
        let reopened = try location.open(model)
        #expect(try SQLStore.storedLayout(in: reopened.database) == record)
        #expect(reopened.mapping.layoutRecord == record)
        #expect(try L.dump(reopened, keys: model) == rows)
        reopened.database.close()
    }

    /// A store from before layouts were saved, migrated to a model with a
    /// sibling before Book: the old names are derived from the old model,
    /// kept, and the new record saved with the migration.
    @Test(arguments: TestEngine.available)
    func aMigrationSavesTheNewLayout(engine: TestEngine) throws {
        let location = try MigrationLocation.fresh(engine)
        defer { location.remove() }
        let base = try L.model([]), new = try L.model(L.additions[1].1)
        let made = try location.open(base)
        try L.populate(made)
        try Self.deleteLayout(made)
        made.database.close()
        let migrated = try location.open(new, migration: .automatic)
        defer { migrated.database.close() }
        #expect(try SQLStore.storedLayout(in: migrated.database) == migrated.mapping.layoutRecord)
        #expect(migrated.mapping.column(for: "code", of: "Book") == "code")
        #expect(migrated.mapping.column(for: "code", of: "Album") == "Album_code")
        try migrated.insert("Album", ["title": .string("Blue"), "code": .int(3)])
        let albums = try migrated.fetch(FetchRequest(entity: "Album", predicate: try Parser.parsePredicate("code == 3")))
        #expect(albums.count == 1)
    }

    @Test func theMigrationOfAnAddedSiblingRenamesNoColumn() throws {
        let difference = ModelDifference(from: try L.model([]), to: try L.model(L.additions[1].1))
        let steps = try Migration(difference, dialect: .sqlite).steps.map(\.sql)
        #expect(steps == [#"ALTER TABLE "Item" ADD COLUMN "Album_code" INTEGER"#])
    }

    /// A migrated store keeps `code` for Book and gives Album `Album_code`,
    /// where a new store of the model would do the reverse: the export's
    /// new store (a file, or an empty PostgreSQL schema) takes the source's
    /// names, saves them, and answers as the source does.
    @Test(arguments: TestEngine.available)
    func anExportKeepsTheSourcesNames(engine: TestEngine) throws {
        let location = try MigrationLocation.fresh(.sqlite)
        defer { location.remove() }
        let new = try L.model(L.additions[1].1)
        let made = try location.open(try L.model([]))
        try L.populate(made)
        made.database.close()
        let source = try location.open(new, migration: .automatic)
        defer { source.database.close() }
        try source.insert("Album", ["title": .string("Blue"), "code": .int(3)])
        #expect(source.mapping.layoutRecord != StoreMapping(model: new).layoutRecord)
        let rows = try L.dump(source, keys: new)
        let target: SQLStore
        let file = NSTemporaryDirectory() + "quarry-layout-export-\(getpid())-\(UInt32.random(in: 0 ... .max)).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
        switch engine {
        case .sqlite:
            try StoreExport.copy(from: source, toFile: file)
            target = try SQLStore(path: file, model: new)
        case .postgres:
            target = try SQLStore(postgres: try PostgresTestEnvironment.freshDatabase(), model: new, layout: source.mapping.layoutRecord)
            try StoreExport.copy(from: source, to: target)
        }
        defer { target.database.close() }
        #expect(try SQLStore.storedLayout(in: target.database) == source.mapping.layoutRecord)
        #expect(try L.dump(target, keys: new) == rows)
        // A target laid out the way the model derives it is refused before anything is written.
        let fresh = try SQLStore(path: ":memory:", model: new)
        #expect(throws: ExportError.self) { try StoreExport.copy(from: source, to: fresh) }
    }

    /// (what is changed behind Quarry's back, SQLite statement, PostgreSQL statement, what the refusal names).
    static let tampered: [(String, String, String)] = [
        ("an attribute's column renamed", #"ALTER TABLE "Item" RENAME COLUMN "code" TO "kode""#, #""Item"."code""#),
        ("a foreign key renamed", #"ALTER TABLE "Badge" RENAME COLUMN "holder" TO "owner""#, #""Badge"."holder""#),
        ("a join table's key column renamed", #"ALTER TABLE "_Person_tags" RENAME COLUMN "source" TO "src""#, #""_Person_tags"."source""#),
    ]

    static var tamperedMatrix: [(TestEngine, Int)] { TestEngine.available.flatMap { e in tampered.indices.map { (e, $0) } } }

    @Test(arguments: tamperedMatrix)
    func aStoreThatLacksARecordedColumnIsRefused(engine: TestEngine, index: Int) throws {
        let (what, statement, named) = Self.tampered[index]
        let location = try MigrationLocation.fresh(engine)
        defer { location.remove() }
        let model = try L.model([])
        let made = try location.open(model)
        try made.database.run(statement, [])
        made.database.close()
        do {
            let store = try location.open(model)
            store.database.close()
            Issue.record("\(what): opened")
        } catch let error as StoreError {
            guard case .layoutMismatch = error else { Issue.record("\(what): \(error)"); return }
            #expect(error.description.contains(named), "\(what): \(error)")
            #expect(error.code == "R002")
        }
    }

    @Test(arguments: TestEngine.available)
    func aLayoutThatDoesNotReadIsRefused(engine: TestEngine) throws {
        let location = try MigrationLocation.fresh(engine)
        defer { location.remove() }
        let model = try L.model([])
        let made = try location.open(model)
        try made.database.run("UPDATE \"_quarry_metadata\" SET \"value\" = ? WHERE \"key\" = ?", [.string("{"), .string(StoreLayoutRecord.metadataKey)])
        made.database.close()
        do {
            let store = try location.open(model)
            store.database.close()
            Issue.record("opened")
        } catch let error as StoreError {
            guard case .layoutMismatch(_, let problem) = error else { Issue.record("\(error)"); return }
            #expect(problem.contains("does not read"), "\(error)")
        }
    }
}

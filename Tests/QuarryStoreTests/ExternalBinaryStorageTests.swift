// Binary attributes that allow external storage, on SQLite (a file store,
// threshold lowered to 16 bytes so small values test it) and PostgreSQL
// (values stay inline in bytea: the same answers). Every write path (store
// insert, batch insert, context insert and update, batch update) and every
// read path (store fetch, context fetch, faults, batched fetches,
// prefetching, dictionaries) gives back the bytes written; long values are
// files named by a TEXT column, short ones BLOBs. Predicates give the
// memory engine's answer (a table, both engines, both databases); sorts are
// refused everywhere. Consistency: replaced and deleted values' files go
// after COMMIT (context save, batch update and delete, cascades), files of a
// rolled-back or failed write go, orphans go at open, a missing file is an
// error naming the row; a store made before the flag reads its bytes as
// they were (values starting with Core Data's tag bytes included).
import Foundation
import Testing
@testable import QuarryStore

enum ExternalBinary {
    static let yaml = """
    entities:
      Item:
        attributes:
          name: { type: string }
          rank: { type: integer64 }
          photo: { type: binary, externalStorage: true }
        relationships:
          box: { to: Box, inverse: items }
      Box:
        attributes:
          label: { type: string }
        relationships:
          items: { to: Item, many: true, inverse: box, delete: cascade }
    """
    static var model: Model { get throws { try ModelReader.read(yaml: yaml) } }
    /// The same model without the flag: a store made before it.
    static var plainModel: Model { get throws { try ModelReader.read(yaml: yaml.replacingOccurrences(of: ", externalStorage: true", with: "")) } }

    static let threshold = 16
    static let large: [UInt8] = (0..<64).map { UInt8($0) }
    static let other: [UInt8] = (0..<40).map { UInt8(255 - $0) }
    static let small: [UInt8] = [1, 2, 3]
    /// Starts as Core Data's "external" tag does: still inline bytes here.
    static let tagged: [UInt8] = [2] + Array("0A6D2F4E-1B3C-4D5E-8F90-A1B2C3D4E5F6".utf8)

    /// A fresh folder for a SQLite store file.
    static func path() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-external-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("Items.sqlite").path
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
    }

    /// An empty store: a SQLite file with the threshold lowered, or a fresh PostgreSQL schema.
    static func emptyStore(_ engine: TestEngine, path: String, model: Model? = nil) throws -> SQLStore {
        let model = try model ?? self.model
        switch engine {
        case .sqlite:
            let store = try SQLStore(path: path, model: model)
            store.externalStorageThreshold = threshold
            return store
        case .postgres:
            return try engine.emptyStore(model: model)
        }
    }

    /// Five items in two boxes: long values (two equal), a short one, nil, one with a tag-like first byte.
    static func store(_ engine: TestEngine, path: String) throws -> SQLStore {
        let store = try emptyStore(engine, path: path)
        let a = try store.insert("Box", ["label": "A"])
        let b = try store.insert("Box", ["label": "B"])
        try store.insert("Item", ["name": "i1", "rank": 1, "photo": .data(large)], toOne: ["box": a])
        try store.insert("Item", ["name": "i2", "rank": 2, "photo": .data(small)], toOne: ["box": a])
        try store.insert("Item", ["name": "i3", "rank": 3, "photo": .data(other)], toOne: ["box": b])
        try store.insert("Item", ["name": "i4", "rank": 4], toOne: ["box": b])
        try store.insert("Item", ["name": "i5", "rank": 5, "photo": .data(large)])
        try store.insert("Item", ["name": "i6", "rank": 6, "photo": .data(tagged)])
        return store
    }

    static func names(_ objects: [StoredObject]) -> [String] {
        objects.compactMap { if case .string(let s)? = $0.value(forKey: "name") { return s } else { return nil } }.sorted()
    }

    /// The files in the store's folder (none on PostgreSQL).
    static func files(_ store: SQLStore) -> Set<String> {
        guard let folder = store.externalDataFolder else { return [] }
        return Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
    }

    /// The file names the rows hold (TEXT values of the column).
    static func referenced(_ store: SQLStore) throws -> Set<String> {
        guard store.database.dialect == .sqlite else { return [] }
        let rows = try store.database.query("SELECT \"photo\" FROM \"Item\" WHERE typeof(\"photo\") = 'text'", [], as: [.string])
        return Set(rows.compactMap { if case .string(let s) = $0[0] { return s } else { return nil } })
    }

    /// Every file is named by a row and every named file is there.
    static func expectConsistent(_ store: SQLStore, files expected: Int, _ comment: Comment? = nil) throws {
        let files = files(store)
        #expect(files == (try referenced(store)), comment)
        #expect(files.count == (store.database.dialect == .sqlite ? expected : 0), comment)
    }
}

@Suite("External binary storage", .serialized)
struct ExternalBinaryStorageTests {
    static let values: [[UInt8]] = [ExternalBinary.large, ExternalBinary.small, [], ExternalBinary.tagged, Array(repeating: 7, count: 2_000)]

    @Test(arguments: TestEngine.available, 0..<values.count)
    func everyWritePathStoresAndEveryReadPathReadsBack(engine: TestEngine, index: Int) throws {
        let value = Value.data(Self.values[index])
        let external = Self.values[index].count > ExternalBinary.threshold
        let path = try ExternalBinary.path()
        defer { ExternalBinary.remove(path) }
        let store = try ExternalBinary.emptyStore(engine, path: path)
        let box = try store.insert("Box", ["label": "A"])
        try store.insert("Item", ["name": "store", "photo": value], toOne: ["box": box])
        _ = try store.batchInsert("Item", objects: [["name": "batch", "photo": value]])
        let context = Context(store: store)
        let inserted = try context.insert("Item")
        try inserted.setValue("context", forKey: "name")
        try inserted.setValue(value, forKey: "photo")
        try context.save()
        try store.insert("Item", ["name": "updated", "photo": .data([9])])
        try store.insert("Item", ["name": "batchUpdated"])
        let updated = try #require(try context.fetch(FetchRequest(entity: "Item", predicate: try Parser.parsePredicate("name == 'updated'"))).first)
        try updated.setValue(value, forKey: "photo")
        try context.save()
        _ = try store.batchUpdate(entity: "Item", predicate: try Parser.parsePredicate("name == 'batchUpdated'"),
                                  set: [("photo", QueryExpression(.constant(value)))])
        try ExternalBinary.expectConsistent(store, files: external ? 5 : 0)
        if engine == .sqlite {
            let classes = try store.database.query("SELECT DISTINCT typeof(\"photo\") FROM \"Item\"", [], as: [.string])
            #expect(classes.map { $0[0] } == [.string(external ? "text" : "blob")])
            #expect(store.externalDataFolder?.path == URL(fileURLWithPath: path).deletingLastPathComponent().path + "/.Items_SUPPORT/_EXTERNAL_DATA")
        } else {
            #expect(store.externalDataFolder == nil)
        }

        store.forgetObjects()
        let all = try store.fetch(FetchRequest(entity: "Item"))
        #expect(all.count == 5)
        for o in all { #expect(o.value(forKey: "photo") == value, "\(o.value(forKey: "name") ?? .null)") }
        for o in try Context(store: store).fetch(FetchRequest(entity: "Item")) { #expect(o["photo"] == value) }
        var asFaults = FetchRequest(entity: "Item")
        asFaults.returnsObjectsAsFaults = true
        asFaults.fetchBatchSize = 2
        for o in try Context(store: store).fetchBatched(asFaults) { #expect(o["photo"] == value) }
        var dictionaries = FetchRequest(entity: "Item")
        dictionaries.propertiesToFetch = [try FetchProperty(keyPath: "photo"), try FetchProperty(keyPath: "name")]
        for row in try store.fetchDictionaries(dictionaries) { #expect(row["photo"] == value) }
        // Prefetched through the box, and faulted in from it.
        #expect(try store.count(FetchRequest(entity: "Item", predicate: try Parser.parsePredicate("box != nil"))) == 1)
        var boxes = FetchRequest(entity: "Box")
        boxes.relationshipKeyPathsForPrefetching = ["items"]
        let prefetching = Context(store: store), faulting = Context(store: store)
        let a = try #require(try prefetching.fetch(boxes).first)
        #expect(a.objects(forKey: "items").map { $0["photo"] } == [value])
        let b = try #require(try faulting.fetch(FetchRequest(entity: "Box")).first)
        #expect(b.objects(forKey: "items").map { $0["photo"] } == [value])
        // A reopened store reads them too.
        if engine == .sqlite {
            let reopened = try SQLStore(path: path, model: try ExternalBinary.model)
            for o in try reopened.fetch(FetchRequest(entity: "Item")) { #expect(o.value(forKey: "photo") == value) }
            try ExternalBinary.expectConsistent(reopened, files: external ? 5 : 0)
        }
    }

    /// Predicates on the attribute: (predicate, names selected). Nil tests
    /// are SQL; the rest runs in memory on the values read back.
    static let predicates: [(String, [String])] = [
        ("photo == nil", ["i4"]),
        ("photo != nil", ["i1", "i2", "i3", "i5", "i6"]),
        ("nil == photo", ["i4"]),
        ("photo == nil AND rank > 1", ["i4"]),
        ("photo != nil OR rank == 4", ["i1", "i2", "i3", "i4", "i5", "i6"]),
        ("photo == %@", ["i1", "i5"]),
        ("photo != %@", ["i2", "i3", "i4", "i6"]),
        ("photo IN %@", ["i1", "i2", "i5"]),
        ("NOT (photo == %@)", ["i2", "i3", "i4", "i6"]),
        ("photo == %@ AND rank < 5", ["i1"]),
        ("ANY box.items.photo == %@", ["i1", "i2"]),
        ("ANY box.items.photo == nil", ["i3", "i4"]),
        ("box.label == 'B' AND photo != nil", ["i3"]),
        ("SUBQUERY(box.items, $i, $i.photo == %@).@count > 0", ["i1", "i2"]),
    ]

    /// A store named by a `file:` URI keeps its files beside the file the
    /// URI opens (the folder was once derived from the URI's text: under the
    /// working directory), and reads them back through the plain path too.
    @Test func aStoreNamedByAURIKeepsItsFilesBesideIt() throws {
        let path = try ExternalBinary.path()
        defer { ExternalBinary.remove(path) }
        let uri = "file:" + SQLiteFilePath.uriPath(path) + "?cache=private"
        do {
            let store = try ExternalBinary.emptyStore(.sqlite, path: uri)
            try store.insert("Item", ["name": "big", "photo": .data(ExternalBinary.large)])
            store.database.close()
        }
        let folder = ExternalBinaryStorage.folder(forStoreAt: path).path
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 1)
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/file:"))
        let reopened = try SQLStore(path: path, model: try ExternalBinary.model)
        #expect(try reopened.fetch(FetchRequest(entity: "Item")).first?.value(forKey: "photo") == .data(ExternalBinary.large))
    }

    @Test(arguments: TestEngine.available, 0..<predicates.count)
    func predicatesGiveTheMemoryEnginesAnswer(engine: TestEngine, index: Int) throws {
        let (text, expected) = Self.predicates[index]
        let path = try ExternalBinary.path()
        defer { ExternalBinary.remove(path) }
        let store = try ExternalBinary.store(engine, path: path)
        let argument: Value = text.contains(" IN ") ? .array([.data(ExternalBinary.large), .data(ExternalBinary.small)]) : .data(ExternalBinary.large)
        let predicate = try Parser.parsePredicate(text, arguments: text.contains("%@") ? [argument] : [])
        let request = FetchRequest(entity: "Item", predicate: predicate)
        #expect(ExternalBinary.names(try store.fetch(request, engine: .sql)) == expected, "SQL: \(text)")
        #expect(ExternalBinary.names(try store.fetch(request, engine: .memory)) == expected, "memory: \(text)")
        #expect(try store.count(request) == expected.count)
        #expect(try Context(store: store).fetch(request).count == expected.count)
        #expect(try Context(store: store).fetch(request, engine: .memory).count == expected.count)
        var dictionaries = FetchRequest(entity: "Item", predicate: predicate)
        dictionaries.propertiesToFetch = [try FetchProperty(keyPath: "name")]
        #expect(try store.fetchDictionaries(dictionaries).compactMap { $0["name"] }.count == expected.count)
    }

    @Test(arguments: TestEngine.available)
    func nilTestsAreSQLAndComparisonsAreResiduals(engine: TestEngine) throws {
        let path = try ExternalBinary.path()
        defer { ExternalBinary.remove(path) }
        let store = try ExternalBinary.store(engine, path: path)
        let nilTest = try store.explain(FetchRequest(entity: "Item", predicate: try Parser.parsePredicate("photo != nil")))
        #expect(nilTest.residual == nil)
        #expect(nilTest.sql.sql.contains("IS NOT NULL"))
        let other = try store.explain(FetchRequest(entity: "Item", predicate: try Parser.parsePredicate("rank > 1 AND photo == %@", arguments: [.data(ExternalBinary.large)])))
        #expect(other.residual != nil)
        #expect(!other.sql.sql.contains("\"photo\" ="))
    }

    @Test(arguments: TestEngine.available, FetchEngine.allCases)
    func sortsAreRefusedOnEveryEngine(engine: TestEngine, fetchEngine: FetchEngine) throws {
        let path = try ExternalBinary.path()
        defer { ExternalBinary.remove(path) }
        let store = try ExternalBinary.store(engine, path: path)
        let request = FetchRequest(entity: "Item", sortDescriptors: [QuerySortDescriptor("photo")])
        do {
            _ = try store.fetch(request, engine: fetchEngine)
            Issue.record("sorted by an externally stored attribute")
        } catch let d as Diagnostic {
            #expect(d.code == .bindTypeMismatch)
            #expect(d.message.contains("Item.photo allows external storage"), "\(d.message)")
        }
        #expect(throws: Diagnostic.self) { _ = try Context(store: store).fetch(request, engine: fetchEngine) }
        var dictionaries = FetchRequest(entity: "Item", sortDescriptors: [QuerySortDescriptor("photo")])
        dictionaries.propertiesToFetch = [try FetchProperty(keyPath: "name")]
        #expect(throws: Diagnostic.self) { _ = try store.fetchDictionaries(dictionaries, engine: fetchEngine) }
    }

    /// Writes that drop a file's last reference: (what, statement), each
    /// on the six-item store (four long values: i1, i3, i5, i6), then the
    /// number of files left. The files go after COMMIT, whoever dropped them.
    nonisolated(unsafe) static let drops: [(String, Int, (SQLStore) throws -> Void)] = [
        ("context update", 4, { store in
            let c = Context(store: store)
            let o = try #require(try c.fetch(FetchRequest(entity: "Item", predicate: try Parser.parsePredicate("name == 'i1'"))).first)
            try o.setValue(.data(ExternalBinary.other), forKey: "photo")   // a new file, the old one goes
            try c.save()
        }),
        ("context update to a short value", 3, { store in
            let c = Context(store: store)
            let o = try #require(try c.fetch(FetchRequest(entity: "Item", predicate: try Parser.parsePredicate("name == 'i1'"))).first)
            try o.setValue(.data([1]), forKey: "photo")
            try c.save()
        }),
        ("context delete", 3, { store in
            let c = Context(store: store)
            for o in try c.fetch(FetchRequest(entity: "Item", predicate: try Parser.parsePredicate("name == 'i3'"))) { try c.delete(o) }
            try c.save()
        }),
        ("batch update to nil", 2, { store in
            _ = try store.batchUpdate(entity: "Item", predicate: try Parser.parsePredicate("rank < 4"), set: [("photo", QueryExpression(.constant(.null)))])
        }),
        ("batch update to a long value", 6, { store in
            // One new file per row written, the old ones go.
            _ = try store.batchUpdate(entity: "Item", predicate: try Parser.parsePredicate("rank <= 4"), set: [("photo", QueryExpression(.constant(.data(ExternalBinary.other))))])
        }),
        ("batch delete", 2, { store in _ = try store.batchDelete(entity: "Item", predicate: try Parser.parsePredicate("rank < 4")) }),
        ("batch delete by a compared value", 2, { store in
            _ = try store.batchDelete(entity: "Item", predicate: try Parser.parsePredicate("photo == %@", arguments: [.data(ExternalBinary.large)]))
        }),
        ("cascade from a batch delete", 3, { store in _ = try store.batchDelete(entity: "Box", predicate: try Parser.parsePredicate("label == 'A'")) }),
        ("cascade from a context delete", 3, { store in
            let c = Context(store: store)
            for o in try c.fetch(FetchRequest(entity: "Box", predicate: try Parser.parsePredicate("label == 'B'"))) { try c.delete(o) }
            try c.save()
        }),
    ]

    @Test(arguments: TestEngine.available, 0..<drops.count)
    func filesOfReplacedAndDeletedValuesGoAfterCommit(engine: TestEngine, index: Int) throws {
        let (what, left, write) = Self.drops[index]
        let path = try ExternalBinary.path()
        defer { ExternalBinary.remove(path) }
        let store = try ExternalBinary.store(engine, path: path)
        try ExternalBinary.expectConsistent(store, files: 4, "\(what): before")
        try write(store)
        try ExternalBinary.expectConsistent(store, files: left, "\(what): after")
        // What is left reads back whole.
        for o in try Context(store: store).fetch(FetchRequest(entity: "Item")) {
            if case .data(let bytes)? = o["photo"] { #expect(bytes.count > 0) }
        }
    }

    @Test(arguments: TestEngine.available)
    func rollbacksAndFailedWritesLeaveNoFile(engine: TestEngine) throws {
        let path = try ExternalBinary.path()
        defer { ExternalBinary.remove(path) }
        let store = try ExternalBinary.store(engine, path: path)
        // A context rolled back never wrote anything.
        let c = Context(store: store)
        let o = try c.insert("Item")
        try o.setValue(.data(ExternalBinary.other), forKey: "photo")
        c.rollback()
        try c.save()
        try ExternalBinary.expectConsistent(store, files: 4, "context rollback")
        // A save that fails in SQL after its files were written (a trigger refuses the row).
        guard engine == .sqlite else { return }
        let failing = Context(store: store)
        let item = try failing.insert("Item")
        try item.setValue(.data(ExternalBinary.other), forKey: "photo")
        try item.setValue(.int(99), forKey: "rank")
        try store.database.run("CREATE TRIGGER refuse BEFORE INSERT ON \"Item\" WHEN NEW.\"rank\" = 99 BEGIN SELECT RAISE(ABORT, 'refused'); END", [])
        #expect(throws: (any Error).self) { try failing.save() }
        #expect(throws: (any Error).self) { try store.insert("Item", ["rank": 99, "photo": .data(ExternalBinary.other)]) }
        #expect(throws: (any Error).self) { _ = try store.batchInsert("Item", objects: [["name": "x", "photo": .data(ExternalBinary.other)], ["rank": 99, "photo": .data(ExternalBinary.other)]]) }
        try ExternalBinary.expectConsistent(store, files: 4, "failed saves")
        // An explicit transaction rolled back (the shell's ROLLBACK): the files go once it ended.
        try store.database.run("BEGIN IMMEDIATE", [])
        try store.insert("Item", ["name": "rolled back", "photo": .data(ExternalBinary.other)])
        #expect(ExternalBinary.files(store).count == 5, "written before COMMIT")
        try store.database.run("ROLLBACK", [])
        store.finishExternalWrites()
        try ExternalBinary.expectConsistent(store, files: 4, "rolled back")
        #expect(try store.count(FetchRequest(entity: "Item")) == 6)
    }

    @Test func orphansGoAtOpenAndOtherFilesStay() throws {
        let path = try ExternalBinary.path()
        defer { ExternalBinary.remove(path) }
        let folder: URL
        do {
            let store = try ExternalBinary.store(.sqlite, path: path)
            folder = try #require(store.externalDataFolder)
            store.database.close()
        }
        let orphan = folder.appendingPathComponent(UUID().uuidString)
        let foreign = folder.appendingPathComponent("README")
        try Data([1, 2]).write(to: orphan)
        try Data([3]).write(to: foreign)
        let reopened = try SQLStore(path: path, model: try ExternalBinary.model)
        #expect(!FileManager.default.fileExists(atPath: orphan.path))
        #expect(FileManager.default.fileExists(atPath: foreign.path), "only files named as ours are swept")
        #expect(ExternalBinary.files(reopened).subtracting(["README"]) == (try ExternalBinary.referenced(reopened)))
    }

    /// The sweep after a write checks only the names the write dropped and
    /// the files it wrote (ExternalBinaryStorage+Sweep.swift): a name dropped
    /// by any statement on the connection goes, one a rolled-back delete
    /// restored stays, and a file nobody on this connection dropped (another
    /// writer's orphan) waits for the next open.
    @Test func theSweepAfterAWriteChecksWhatTheWriteDropped() throws {
        let path = try ExternalBinary.path()
        defer { ExternalBinary.remove(path) }
        let store = try ExternalBinary.store(.sqlite, path: path)
        let folder = try #require(store.externalDataFolder)
        try ExternalBinary.expectConsistent(store, files: 4, "before")
        let orphan = folder.appendingPathComponent(UUID().uuidString)
        try Data([1, 2]).write(to: orphan)
        try store.insert("Item", ["name": "small"])
        #expect(FileManager.default.fileExists(atPath: orphan.path), "a write that dropped no name checks no other file")
        #expect(ExternalBinary.files(store).count == 5)
        // A delete rolled back: the noted name is un-noted with the row restored.
        try store.database.run("BEGIN IMMEDIATE", [])
        try store.database.run("DELETE FROM \"Item\" WHERE \"rank\" = 1", [])
        try store.database.run("ROLLBACK", [])
        store.finishExternalWrites()
        #expect(try ExternalBinary.referenced(store).count == 4)
        #expect(try ExternalBinary.referenced(store).isSubset(of: ExternalBinary.files(store)), "no row names a missing file")
        // Any statement on the connection is noted, not only Quarry's write paths.
        try store.database.run("DELETE FROM \"Item\" WHERE \"rank\" = 1", [])
        try store.database.run("UPDATE \"Item\" SET \"photo\" = NULL WHERE \"rank\" = 3", [])
        store.finishExternalWrites()
        #expect(ExternalBinary.files(store).count == 3, "two dropped names went, the orphan stayed")
        store.database.close()
        let reopened = try SQLStore(path: path, model: try ExternalBinary.model)
        #expect(!FileManager.default.fileExists(atPath: orphan.path), "the orphan goes at open")
        try ExternalBinary.expectConsistent(reopened, files: 2, "after reopening")
    }

    @Test func aMissingFileIsAnErrorNamingTheRow() throws {
        let path = try ExternalBinary.path()
        defer { ExternalBinary.remove(path) }
        let store = try ExternalBinary.store(.sqlite, path: path)
        let name = try #require(try store.database.query("SELECT \"photo\" FROM \"Item\" WHERE \"name\" = 'i3'", [], as: [.string]).first?.first)
        guard case .string(let file) = name else { Issue.record("not a name: \(name)"); return }
        try FileManager.default.removeItem(at: store.externalDataFolder!.appendingPathComponent(file))
        store.forgetObjects()
        do {
            _ = try store.fetch(FetchRequest(entity: "Item", predicate: try Parser.parsePredicate("name == 'i3'")))
            Issue.record("read a missing file")
        } catch let e as ExternalBinaryError {
            guard case .missingFile(let entity, let key, let pk, _) = e else { Issue.record("\(e)"); return }
            #expect(entity == "Item" && key == "photo" && pk != nil)
            #expect(e.report.code == "R001")
        }
    }

    /// A store made before the model allowed external storage: its bytes
    /// (one starting as Core Data's tag 0x02 does, one long) read as they
    /// were once the flag is on, with no migration; new long values go to files.
    @Test func aStoreMadeBeforeTheFlagReadsItsBytesUnchanged() throws {
        let path = try ExternalBinary.path()
        defer { ExternalBinary.remove(path) }
        let old: [(String, [UInt8])] = [("tagged", ExternalBinary.tagged), ("one", [1] + ExternalBinary.large), ("long", ExternalBinary.large)]
        do {
            let store = try SQLStore(path: path, model: try ExternalBinary.plainModel)
            for (name, bytes) in old { try store.insert("Item", ["name": .string(name), "photo": .data(bytes)]) }
            store.database.close()
        }
        // No migration: the flag changes no column.
        let store = try SQLStore(path: path, model: try ExternalBinary.model)
        store.externalStorageThreshold = ExternalBinary.threshold
        for (name, bytes) in old {
            let o = try #require(try store.fetch(FetchRequest(entity: "Item", predicate: try Parser.parsePredicate("name == %@", arguments: [.string(name)]))).first)
            #expect(o.value(forKey: "photo") == .data(bytes), "\(name)")
        }
        try store.insert("Item", ["name": "new", "photo": .data(ExternalBinary.other)])
        #expect(ExternalBinary.files(store).count == 1)
        #expect(try store.fetch(FetchRequest(entity: "Item", predicate: try Parser.parsePredicate("photo == %@", arguments: [.data(ExternalBinary.other)]))).count == 1)
    }

    /// A unique attribute stays inline: SQL's UNIQUE compares the column,
    /// and two files of equal bytes have different names.
    @Test(arguments: TestEngine.available)
    func aUniqueAttributeStaysInlineSoEqualValuesAreRefused(engine: TestEngine) throws {
        let model = try ModelReader.read(yaml: """
        entities:
          Item:
            attributes:
              name: { type: string }
              photo: { type: binary, externalStorage: true, unique: true }
        """)
        let path = try ExternalBinary.path()
        defer { ExternalBinary.remove(path) }
        let store = try ExternalBinary.emptyStore(engine, path: path, model: model)
        try store.insert("Item", ["name": "a", "photo": .data(ExternalBinary.large)])
        #expect(throws: (any Error).self) { try store.insert("Item", ["name": "b", "photo": .data(ExternalBinary.large)]) }
        #expect(try store.count(FetchRequest(entity: "Item")) == 1)
        #expect(ExternalBinary.files(store).isEmpty)
    }

    /// A model that drops the flag while rows name files is refused at
    /// open, naming the attribute: reading the names as bytes would be a
    /// silent wrong answer. The files stay; the model with the flag reads them.
    @Test func removingTheFlagFromAttributesWithFilesIsRefused() throws {
        let path = try ExternalBinary.path()
        defer { ExternalBinary.remove(path) }
        do {
            let store = try ExternalBinary.store(.sqlite, path: path)
            store.database.close()
        }
        do {
            _ = try SQLStore(path: path, model: try ExternalBinary.plainModel)
            Issue.record("opened with the flag removed")
        } catch let e as ExternalBinaryError {
            guard case .flagRemoved(let entity, let key, let rows, _) = e else { Issue.record("\(e)"); return }
            #expect(entity == "Item" && key == "photo" && rows == 4)
        }
        let again = try SQLStore(path: path, model: try ExternalBinary.model)
        #expect(ExternalBinary.files(again).count == 4)
        #expect(try again.fetch(FetchRequest(entity: "Item", predicate: try Parser.parsePredicate("photo == %@", arguments: [.data(ExternalBinary.large)]))).count == 2)
    }

    @Test func theThresholdIsCoreDatasAndTestsLowerIt() throws {
        #expect(ExternalBinaryStorage.defaultThreshold == 100 * 1024)
        let path = try ExternalBinary.path()
        defer { ExternalBinary.remove(path) }
        let store = try SQLStore(path: path, model: try ExternalBinary.model)
        #expect(store.externalStorageThreshold == ExternalBinaryStorage.defaultThreshold)
        try store.insert("Item", ["name": "at", "photo": .data(Array(repeating: 1, count: 100 * 1024))])
        try store.insert("Item", ["name": "over", "photo": .data(Array(repeating: 1, count: 100 * 1024 + 1))])
        #expect(ExternalBinary.files(store).count == 1)
        let lowered = try ExternalBinaryStorage.$thresholdOverride.withValue(10) { try SQLStore(path: path, model: try ExternalBinary.model) }
        #expect(lowered.externalStorageThreshold == 10)
        // In memory and on a server: no folder, values inline.
        #expect(try SQLStore(path: ":memory:", model: try ExternalBinary.model).externalDataFolder == nil)
    }
}

@Suite("External binary storage: export", .serialized)
struct ExternalBinaryExportTests {
    /// `quarry export` of a store with files: every value reaches the
    /// target whole (inline there), on a SQLite file and a PostgreSQL schema.
    @Test(arguments: TestEngine.available)
    func exportCopiesTheFilesBytes(engine: TestEngine) throws {
        let path = try ExternalBinary.path()
        defer { ExternalBinary.remove(path) }
        let source = try ExternalBinary.store(.sqlite, path: path)
        #expect(ExternalBinary.files(source).count == 4)
        let target: SQLStore
        switch engine {
        case .sqlite:
            let targetPath = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("Copy.sqlite").path
            try StoreExport.copy(from: source, toFile: targetPath)
            target = try SQLStore(path: targetPath, model: try ExternalBinary.model)
        case .postgres:
            target = try engine.emptyStore(model: try ExternalBinary.model)
            try StoreExport.copy(from: source, to: target)
        }
        let expected = Dictionary(uniqueKeysWithValues: try source.fetch(FetchRequest(entity: "Item")).map { ($0.value(forKey: "name")!, $0.value(forKey: "photo")) })
        let copied = Dictionary(uniqueKeysWithValues: try target.fetch(FetchRequest(entity: "Item")).map { ($0.value(forKey: "name")!, $0.value(forKey: "photo")) })
        #expect(copied == expected)
        #expect(copied.count == 6)
        #expect(ExternalBinary.files(target).isEmpty, "inline in the target")
    }
}

/// The cost of files: 200 values of 200 KB saved by one context save and
/// read back, with the flag (files) and without (inline BLOBs), on a store
/// file. Run with QUARRY_EXTERNAL_BENCH=1 (prints the times).
@Suite("External binary storage: cost", .serialized)
struct ExternalBinaryCostTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["QUARRY_EXTERNAL_BENCH"] != nil, "set QUARRY_EXTERNAL_BENCH=1 to measure"))
    func twoHundredValuesOf200KB() throws {
        for external in [false, true] {
            let path = try ExternalBinary.path()
            defer { ExternalBinary.remove(path) }
            let store = try SQLStore(path: path, model: external ? try ExternalBinary.model : try ExternalBinary.plainModel)
            let values = (0..<200).map { i in Value.data(Array(repeating: UInt8(i % 251), count: 200 * 1024)) }
            let context = Context(store: store)
            for (i, v) in values.enumerated() {
                let o = try context.insert("Item")
                try o.setValue(.string("v\(i)"), forKey: "name")
                try o.setValue(v, forKey: "photo")
            }
            let start = Date()
            try context.save()
            let saved = Date()
            store.forgetObjects()
            let back = try store.fetch(FetchRequest(entity: "Item"))
            let read = Date()
            #expect(back.count == 200)
            #expect(ExternalBinary.files(store).count == (external ? 200 : 0))
            print(String(format: "external-cost %@: save %.3f s, fetch %.3f s", external ? "files " : "inline", saved.timeIntervalSince(start), read.timeIntervalSince(saved)))
        }
    }

    /// The sweep after each write beside 10,000 files: a small insert (no
    /// name dropped: nothing to check), and an update replacing one file.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["QUARRY_EXTERNAL_BENCH"] != nil, "set QUARRY_EXTERNAL_BENCH=1 to measure"))
    func aSmallSaveBesideTenThousandFiles() throws {
        let path = try ExternalBinary.path()
        defer { ExternalBinary.remove(path) }
        let store = try SQLStore(path: path, model: try ExternalBinary.model)
        store.externalStorageThreshold = 4
        _ = try store.batchInsert("Item", objects: (0..<10_000).map { i in ["name": .string("v\(i)"), "photo": .data(Array(repeating: UInt8(i % 251), count: 8))] })
        #expect(ExternalBinary.files(store).count == 10_000)
        let start = Date()
        for i in 0..<20 { try store.insert("Item", ["name": .string("small \(i)")]) }
        let perSave = Date().timeIntervalSince(start) / 20
        print(String(format: "external-cost sweep beside 10,000 files: %.1f ms per insert", perSave * 1000))
        // A write that replaces a file: its old file is a candidate, checked against every row.
        let replaced = Date()
        for i in 0..<20 {
            _ = try store.batchUpdate(entity: "Item", predicate: try Parser.parsePredicate("name == %@", arguments: [.string("v\(i)")]),
                                      set: [("photo", QueryExpression(.constant(.data(Array(repeating: 9, count: 8)))))])
        }
        print(String(format: "external-cost sweep beside 10,000 files: %.1f ms per update replacing one file",
                     Date().timeIntervalSince(replaced) / 20 * 1000))
        #expect(ExternalBinary.files(store).count == 10_000, "each replaced file went")
    }
}

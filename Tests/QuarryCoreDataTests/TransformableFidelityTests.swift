// Transformable values in Core Data stores, written by Quarry as Core Data's
// own transformers would: every value the corpus stores hold under a keyed-
// archive transformer (NSSecureUnarchiveFromData, the default) decodes, and
// Quarry's archiver writes it back as the same property list — the same
// objects in the same order with the same references and class
// descriptions; only the serialised order of dictionary keys differs (CF's
// hash order against Quarry's sorted one, which no reader depends on). That
// is the evidence for letting a writable Core Data store take such values
// (CoreDataViews.swift). Then: a synthetic store written that way reads
// back through Quarry and through Foundation's own unarchiver; an ordered
// set, which NSSecureUnarchiveFromData would not decode, is refused with
// the file unchanged; an app's own transformer stays refused
// (CoreDataWritableTests.aRefusedWriteLeavesTheFileAsItWas).
import Foundation
import QuarryCoreData
import QuarryModel
import QuarrySQLite
import QuarryStore
import Testing

@Suite struct TransformableFidelityTests {
    @Test(.enabled(if: !CoreDataCorpus.stores.isEmpty, "needs ../shared/corpus"))
    func everyArchivedValueOfTheCorpusIsWrittenBackAsTheSamePropertyList() throws {
        var values = 0, stores = 0
        for s in CoreDataCorpus.stores {
            guard let modelPath = CoreDataCorpus.modelPath(s) else { continue }
            // Only stores whose model has a transformable attribute: opening
            // every corpus store here held a test thread for minutes in CI.
            if let text = try? String(contentsOfFile: modelPath, encoding: .utf8), !text.contains("Transformable") { continue }
            let scratch = Scratch()
            let path = try scratch.copyStore(CoreDataCorpus.storesFolder.appendingPathComponent(s.store).path, as: "s.sqlite")
            // Stores Quarry does not open with their model are other tests' business.
            guard let opening = try? CoreDataStore.open(path: path, modelPath: modelPath) else { continue }
            let store = opening.store
            defer { store.database.close() }
            var found = 0
            for e in store.model.entities {
                for a in e.attributes where a.type == .transformable
                    && ValueTransformerRegistry.keyedArchiveNames.contains(a.valueTransformerName ?? ValueTransformerRegistry.defaultName) {
                    guard let table = store.mapping.table(for: e.name), let column = store.mapping.column(for: a.name, of: e.name) else { continue }
                    let rows = try store.database.query(#"SELECT "\#(column)" FROM "\#(table)" WHERE "\#(column)" IS NOT NULL AND "_entity" = ?"#,
                                                        [.string(e.name)], as: [.data])
                    for row in rows {
                        guard case .data(let bytes) = row[0] else { continue }
                        let value = try KeyedArchiveValues.decode(bytes)
                        let again = try KeyedArchiveValues.encode(value)
                        #expect(try BinaryPropertyList.read(again) == BinaryPropertyList.read(bytes), "\(s.store) \(e.name).\(a.name)")
                        found += 1
                    }
                }
            }
            values += found
            if found > 0 { stores += 1 }
        }
        print("TRANSFORMABLE-FIDELITY \(values) archived values in \(stores) corpus stores written back as the same property list")
        #expect(values > 0, "the corpus holds archived values: none were found")
    }

    /// The synthetic store (SyntheticStoreTests) with a transformable
    /// `Tag.extra` (`transformer`: its name, nil for the default), made in
    /// `scratch`: its path and model.
    static func transformableTagStore(in scratch: Scratch, transformer: String? = nil) throws -> (path: String, model: Model) {
        let named = transformer.map { " valueTransformerName=\"\($0)\"" } ?? ""
        let modelXML = SyntheticStoreTests.modelXML.replacingOccurrences(
            of: "<entity name=\"Tag\">\n        <attribute name=\"name\" optional=\"YES\" attributeType=\"String\"/>",
            with: "<entity name=\"Tag\">\n        <attribute name=\"extra\" optional=\"YES\" attributeType=\"Transformable\"\(named)/>\n        <attribute name=\"name\" optional=\"YES\" attributeType=\"String\"/>")
        #expect(modelXML != SyntheticStoreTests.modelXML)
        let statements = SyntheticStoreTests.statements.map {
            $0.replacingOccurrences(of: "CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR)",
                                    with: "CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZEXTRA BLOB, ZNAME VARCHAR)")
                .replacingOccurrences(of: "INSERT INTO ZTAG VALUES (1, 4, 1, 'red'), (2, 4, 1, 'blue')",
                                      with: "INSERT INTO ZTAG VALUES (1, 4, 1, NULL, 'red'), (2, 4, 1, NULL, 'blue')")
        }
        return (try SyntheticStoreTests.make(in: scratch, checkpointed: true, statements: statements), try ModelReader.read(xml: modelXML))
    }

    /// That store opened writable, under the default transformer.
    static func store(in scratch: Scratch) throws -> (SQLStore, String) {
        let (path, model) = try transformableTagStore(in: scratch)
        return (try SQLStore(coreDataStore: path, model: model, writable: true), path)
    }

    static let written: Value = ["colors": ["red", "blue"], "weight": 2.5, "count": 3, "on": true, "id": .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)]

    @Test func aValueWrittenIntoACoreDataStoreReadsBackThroughQuarryAndFoundation() throws {
        let scratch = Scratch()
        let (store, path) = try Self.store(in: scratch)
        let context = Context(store: store)
        let tag = try context.insert("Tag")
        try tag.setValue("new", forKey: "name")
        try tag.setValue(Self.written, forKey: "extra")
        try context.save()
        store.database.close()
        // The Z column holds a keyed archive: Foundation's unarchiver reads it.
        let raw = try SQLiteConnection(path: path)
        defer { raw.close() }
        let rows = try raw.query("SELECT ZEXTRA, Z_OPT FROM ZTAG WHERE ZNAME = 'new'", [], as: [SQLiteValueKind.data, SQLiteValueKind.int])
        guard case .data(let bytes)? = rows.first?[0] else { Issue.record("no archive in ZEXTRA: \(rows)"); return }
        #expect(rows.first?[1] == .int(1))
        // As NSSecureUnarchiveFromData reads it: only its allowed classes.
        let object = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSDictionary.self, NSArray.self, NSSet.self, NSString.self, NSNumber.self,
                                                                        NSDate.self, NSData.self, NSUUID.self, NSNull.self], from: Data(bytes))
        let dictionary = try #require(object as? NSDictionary)
        #expect(dictionary["colors"] as? [String] == ["red", "blue"])
        #expect(dictionary["weight"] as? Double == 2.5)
        // Reopened, Quarry reads the value it wrote.
        let again = try SQLStore(coreDataStore: path, model: store.model, writable: false)
        defer { again.database.close() }
        let read = try again.fetch(FetchRequest(entity: "Tag", predicate: try Parser.parsePredicate("name == 'new'"))).first
        #expect(read?.value(forKey: "extra") == Self.written)
    }

    @Test func anOrderedSetWhichTheSecureTransformerCannotReadIsRefused() throws {
        let scratch = Scratch()
        let (store, path) = try Self.store(in: scratch)
        defer { store.database.close() }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let context = Context(store: store)
        let tag = try context.insert("Tag")
        try tag.setValue("ordered", forKey: "name")
        try tag.setValue(.array([.orderedSet(["a", "b"])]), forKey: "extra")
        #expect { try context.save() } throws: { "\($0)".contains("NSOrderedSet") || "\($0)".contains("ordered set") }
        #expect(try store.count(FetchRequest(entity: "Tag")) == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}

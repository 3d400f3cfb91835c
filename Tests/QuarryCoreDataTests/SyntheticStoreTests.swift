// A store written by hand in Core Data's layout, so every rule of the
// translation is checked against known values: inheritance (an abstract
// root, Z_ENT filtering), a same-named attribute on two siblings (ZTITLE /
// ZTITLE1), a to-one with its Z<n>_ companion column, one-to-many through
// the inverse key, a many-to-many join table `Z_1TAGS`, value encodings
// (dates, booleans, UUID blobs, binary data tagged inline 0x01 and external
// 0x02 with its file in `.App_SUPPORT/_EXTERNAL_DATA`), rows still in the
// `-wal`; writes refused; and the errors (not SQLite, not Core Data, no
// model, a model that does not match), each leaving every file as it was.
import Foundation
import QuarryCoreData
import QuarryModel
import QuarrySQLite
import QuarryStore
import QuarrySyntax
import Testing

@Suite("A hand-made Core Data store", .serialized)
struct SyntheticStoreTests {
    static let modelXML = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="7">
        <entity name="Party" isAbstract="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="parties" inverseEntity="Tag"/>
        </entity>
        <entity name="Company" parentEntity="Party">
            <attribute name="founded" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="staff" optional="YES" toMany="YES" deletionRule="Nullify" ordered="YES" destinationEntity="Person" inverseName="employer" inverseEntity="Person"/>
        </entity>
        <entity name="Person" parentEntity="Party">
            <attribute name="active" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
            <attribute name="birth" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
            <attribute name="id" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>
            <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
            <attribute name="score" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="employer" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Company" inverseName="staff" inverseEntity="Company"/>
            <relationship name="friend" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Party"/>
        </entity>
        <entity name="Tag">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="parties" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Party" inverseName="tags" inverseEntity="Party"/>
        </entity>
    </model>
    """
    static let model = try! ModelReader.read(xml: modelXML)
    static let uuid = UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!
    static let externalName = "0F8E3C44-2F0B-4C59-9D6E-0A1B2C3D4E5F"

    /// Core Data's numbering: roots by name, each followed by its sub-entities.
    static let statements = [
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        "CREATE TABLE ZPARTY (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZACTIVE INTEGER, ZFOUNDED INTEGER, ZSCORE FLOAT, ZEMPLOYER INTEGER, ZFRIEND INTEGER, Z1_FRIEND INTEGER, Z_FOK_EMPLOYER INTEGER, ZBIRTH TIMESTAMP, ZNAME VARCHAR, ZTITLE VARCHAR, ZTITLE1 VARCHAR, ZID BLOB, ZPHOTO BLOB)",
        "CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR)",
        "CREATE TABLE Z_1TAGS (Z_1PARTIES INTEGER, Z_4TAGS INTEGER, PRIMARY KEY (Z_1PARTIES, Z_4TAGS))",
        "INSERT INTO Z_PRIMARYKEY VALUES (1, 'Party', 0, 3), (2, 'Company', 1, 0), (3, 'Person', 1, 0), (4, 'Tag', 0, 2)",
        "INSERT INTO Z_METADATA VALUES (1, 'D3A1F3E0-0000-4000-8000-000000000001', NULL)",
        // Ann (Person 3): inline photo, employer Acme, friend Bob (a Person: Z1_FRIEND = 3).
        "INSERT INTO ZPARTY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZACTIVE, ZBIRTH, ZID, ZPHOTO, ZSCORE, ZTITLE1, ZEMPLOYER, Z_FOK_EMPLOYER, ZFRIEND, Z1_FRIEND) VALUES (1, 3, 1, 'Ann', 1, -86400.5, x'6BA7B8109DAD11D180B400C04FD430C8', x'01DEADBEEF', 1.5, 'Dr', 3, 2048, 2, 3)",
        // Bob: photo in an external file; first of Acme's (ordered) staff
        // by Z_FOK_EMPLOYER, though his key is higher than Ann's.
        "INSERT INTO ZPARTY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZACTIVE, ZPHOTO, ZEMPLOYER, Z_FOK_EMPLOYER) VALUES (2, 3, 1, 'Bob', 0, CAST(x'02' || CAST('\(externalName)' AS BLOB) AS BLOB), 3, 1024)",
        "INSERT INTO ZPARTY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZFOUNDED, ZTITLE) VALUES (3, 2, 1, 'Acme', 1999, 'Inc')",
        "INSERT INTO ZTAG VALUES (1, 4, 1, 'red'), (2, 4, 1, 'blue')",
        "INSERT INTO Z_1TAGS VALUES (1, 1), (1, 2), (3, 1)",
    ]

    /// The store as an app's backup would hold it: copied while the app's
    /// connection is open, so (unless checkpointed) its rows are only in the -wal.
    static func make(in scratch: Scratch, checkpointed: Bool, statements: [String] = statements) throws -> String {
        let maker = Scratch()
        let original = maker.path("App.sqlite")
        let connection = try SQLiteConnection(path: original)
        for s in statements { try connection.execute(s) }
        if checkpointed { try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        let path = try scratch.copyStore(original, as: "App.sqlite")
        connection.close()
        let folder = scratch.path(".App_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder + "/" + externalName, contents: Data("external bytes".utf8))
        return path
    }

    static func one(_ store: SQLStore, _ entity: String, _ predicate: String) throws -> StoredObject {
        let objects = try store.fetch(FetchRequest(entity: entity, predicate: try Parser.parsePredicate(predicate)))
        try #require(objects.count == 1, "\(entity) WHERE \(predicate): \(objects.count) objects")
        return objects[0]
    }

    static func names(_ v: Value?, sorted: Bool = true) -> [String] {
        let items: [Value]
        switch v {
        case .array(let a)?, .orderedSet(let a)?, .set(let a)?: items = a
        case .object?: items = [v!]
        default: items = []
        }
        let found = items.compactMap { item -> String? in
            guard case .object(let r) = item, case .string(let s)? = (r.object as? StoredObject)?.value(forKey: "name") else { return nil }
            return s
        }
        return sorted ? found.sorted() : found
    }

    @Test(arguments: [false, true])
    func readsEveryRuleOfTheLayout(checkpointed: Bool) throws {
        let scratch = Scratch()
        let path = try Self.make(in: scratch, checkpointed: checkpointed)
        if !checkpointed { #expect(((try FileManager.default.attributesOfItem(atPath: path + "-wal"))[.size] as? NSNumber)?.intValue ?? 0 > 0) }
        let before = try scratch.snapshot()
        let opened = try CoreDataStore.open(path: path, model: Self.model)
        let store = opened.store
        #expect(opened.metadata.uuid == "D3A1F3E0-0000-4000-8000-000000000001")

        for (entity, n) in [("Party", 3), ("Person", 2), ("Company", 1), ("Tag", 2)] {
            #expect(try store.count(FetchRequest(entity: entity)) == n, "COUNT \(entity)")
        }
        let ann = try Self.one(store, "Person", "name == 'Ann'")
        #expect(ann.value(forKey: "birth") == .date(-86400.5))
        #expect(ann.value(forKey: "active") == .bool(true))
        #expect(ann.value(forKey: "id") == .uuid(Self.uuid))
        #expect(ann.value(forKey: "photo") == .data([0xDE, 0xAD, 0xBE, 0xEF]))
        #expect(ann.value(forKey: "score") == .double(1.5))
        #expect(ann.value(forKey: "title") == .string("Dr"))
        let bob = try Self.one(store, "Person", "name == 'Bob'")
        #expect(bob.value(forKey: "photo") == .data(Array("external bytes".utf8)))
        #expect(bob.value(forKey: "active") == .bool(false))
        let acme = try Self.one(store, "Company", "title == 'Inc'")
        #expect(acme.value(forKey: "founded") == .int(1999))

        // Relationships, both ways.
        #expect(Self.names(ann.value(forKey: "employer")) == ["Acme"])
        #expect(Self.names(acme.value(forKey: "staff")) == ["Ann", "Bob"])
        // In the store's order (Z_FOK_EMPLOYER), not key order.
        #expect(Self.names(acme.value(forKey: "staff"), sorted: false) == ["Bob", "Ann"])
        #expect(Self.names(ann.value(forKey: "friend")) == ["Bob"])
        #expect(Self.names(ann.value(forKey: "tags")) == ["blue", "red"])
        let red = try Self.one(store, "Tag", "name == 'red'")
        #expect(Self.names(red.value(forKey: "parties")) == ["Acme", "Ann"])

        // Predicates through key paths, on both engines.
        for (entity, predicate, expected) in [
            ("Person", "employer.name == 'Acme' AND active == YES", ["Ann"]),
            ("Party", "ANY tags.name == 'red'", ["Acme", "Ann"]),
            ("Party", "tags.@count == 0", ["Bob"]),
            ("Person", "birth < CAST(0, 'NSDate')", ["Ann"]),
            ("Company", "staff.@count == 2", ["Acme"]),
            ("Company", "staff[FIRST].name == 'Bob' AND staff[LAST].name == 'Ann'", ["Acme"]),
            ("Company", "staff[0].name == 'Ann'", []),
            ("Person", "photo != nil AND title == nil", ["Bob"]),
        ] {
            let request = FetchRequest(entity: entity, predicate: try Parser.parsePredicate(predicate), sortDescriptors: [QuerySortDescriptor("name")])
            for engine in FetchEngine.allCases {
                store.forgetObjects()
                let got = try store.fetch(request, engine: engine).compactMap { o -> String? in
                    if case .string(let s)? = o.value(forKey: "name") { return s } else { return nil }
                }
                #expect(got == expected, "\(engine) \(entity) WHERE \(predicate)")
            }
        }

        // Every write refused before anything runs.
        let refusal = StoreError.readOnly(location: store.database.location, reason: CoreDataStore.readOnlyReason)
        #expect(throws: refusal) { _ = try store.insert("Tag", ["name": .string("green")]) }
        #expect(throws: refusal) { _ = try store.batchUpdate(entity: "Tag", predicate: nil, set: [("name", try Parser.parseExpression("'x'"))]) }
        #expect(throws: refusal) { _ = try store.batchDelete(entity: "Tag", predicate: nil) }
        #expect(throws: refusal) { _ = try store.batchInsert("Tag", objects: [["name": .string("x")]]) }
        let context = Context(store: store)
        let tag = try context.fetch(FetchRequest(entity: "Tag")).first!
        try tag.setValue(.string("renamed"), forKey: "name")
        #expect(throws: refusal) { try context.save() }
        #expect(try store.count(FetchRequest(entity: "Tag", predicate: try Parser.parsePredicate("name == 'renamed'"))) == 0)

        // The library's other door.
        let again = try SQLStore(coreDataStore: path, model: Self.model)
        #expect(try again.count(FetchRequest(entity: "Party")) == 3)
        again.database.close()
        store.database.close()

        let after = try scratch.snapshot()
        #expect(after.keys.sorted() == before.keys.sorted())
        for (name, bytes) in before { #expect(after[name] == bytes, "\(name) changed") }
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        let name: String
        let kind: CoreDataError.Kind
        let words: String
        var testDescription: String { name }
    }

    /// Through a symbolic link from another folder, a store reads as
    /// itself: the rows still in its `-wal` and its externally stored data
    /// are beside the store, not beside the link (the reader once looked
    /// for `link-wal`, found none, and read the main file alone: stale rows,
    /// silently), and nothing of it is written.
    @Test(arguments: [false, true])
    func aLinkReadsTheStoreItPointsTo(checkpointed: Bool) throws {
        let scratch = Scratch(), elsewhere = Scratch()
        let path = try Self.make(in: scratch, checkpointed: checkpointed)
        let link = elsewhere.path("Link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let before = try scratch.snapshot()
        let direct = try CoreDataStore.open(path: path, model: Self.model).store
        let linked = try CoreDataStore.open(path: link, model: Self.model).store
        for (entity, n) in [("Party", 3), ("Person", 2), ("Company", 1), ("Tag", 2)] {
            #expect(try linked.count(FetchRequest(entity: entity)) == n, "COUNT \(entity) through the link")
            #expect(try direct.count(FetchRequest(entity: entity)) == n, "COUNT \(entity)")
        }
        #expect(try Self.one(linked, "Person", "name == 'Bob'").value(forKey: "photo") == .data(Array("external bytes".utf8)))
        linked.database.close()
        direct.database.close()
        #expect(try scratch.snapshot() == before, "the store's files changed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.url.path) == ["Link.sqlite"])
    }

    @Test(arguments: [
        Refusal(name: "not SQLite (an encrypted store looks like this)", kind: .unreadableStore, words: "not a SQLite database"),
        Refusal(name: "SQLite but not Core Data", kind: .notCoreData, words: "not a Core Data store"),
        Refusal(name: "no model given, none cached", kind: .noModel, words: "--model"),
        Refusal(name: "a model that does not match", kind: .modelMismatch, words: "Person.nickname has no column ZNICKNAME in ZPARTY"),
        Refusal(name: "damaged after the header", kind: .unreadableStore, words: "damaged"),
        Refusal(name: "named by a file: URI", kind: .unreadableStore, words: "is a URI; a Core Data store is opened by its path; hint: use --store /"),
        Refusal(name: "siblings' same-named columns the other way round", kind: .modelMismatch,
                words: "ZPARTY.ZTITLE should hold Company.title but has a value in a row of entity number 3"),
    ])
    func refusesWithAClearMessageAndWritesNothing(_ r: Refusal) throws {
        let scratch = Scratch()
        var path = scratch.path("App.sqlite")
        var model: Model? = nil
        switch r.name {
        case let n where n.hasPrefix("not SQLite"):
            var random = SeededRandom(state: 7)
            _ = FileManager.default.createFile(atPath: path, contents: Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &random) }))
        case let n where n.hasPrefix("SQLite but not"):
            path = try Self.make(in: scratch, checkpointed: true, statements: ["CREATE TABLE notes (body TEXT)", "INSERT INTO notes VALUES ('keep')"])
        case let n where n.hasPrefix("no model"):
            path = try Self.make(in: scratch, checkpointed: true)
        case let n where n.hasPrefix("named by"):
            path = "file:" + SQLiteFilePath.uriPath(try Self.make(in: scratch, checkpointed: true)) + "?mode=rw"
        case let n where n.hasPrefix("siblings'"):
            // Ann (a Person, entity 3) holds her title in ZTITLE, which the
            // naming gives Company (entity 2): the columns are swapped.
            path = try Self.make(in: scratch, checkpointed: true, statements: Self.statements.map {
                $0.hasPrefix("INSERT INTO ZPARTY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZACTIVE") ? $0.replacingOccurrences(of: "ZTITLE1", with: "ZTITLE") : $0
            })
            model = Self.model
        case let n where n.hasPrefix("a model"):
            path = try Self.make(in: scratch, checkpointed: true)
            model = try ModelReader.read(xml: Self.modelXML.replacingOccurrences(
                of: "<attribute name=\"score\"", with: "<attribute name=\"nickname\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"score\""))
        default:
            path = try Self.make(in: scratch, checkpointed: true)
            // Keep the header and the first page; garble the rest.
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            for i in 100..<bytes.count { bytes[i] = UInt8(truncatingIfNeeded: i &* 31) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        let before = try scratch.snapshot()
        do {
            _ = try CoreDataStore.open(path: path, model: model)
            Issue.record("\(r.name): opened")
        } catch let error as CoreDataError {
            #expect(error.kind == r.kind, "\(r.name): \(error)")
            #expect(error.description.contains(r.words), "\(r.name): \(error)")
        }
        let after = try scratch.snapshot()
        #expect(after == before, "\(r.name): files changed")
    }
}

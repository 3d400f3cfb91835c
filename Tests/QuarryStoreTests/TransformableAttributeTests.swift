// Transformable attributes in Quarry stores, on SQLite and PostgreSQL: a
// value goes in through every write path (store insert, batch insert, batch
// update with a constant, a context's insert and update) encoded by the
// transformer the model names, and comes back decoded through every read
// path (store fetch, context fetch, faults, dictionary results); nil stays
// NULL; the stored bytes are what Core Data's archive reader reads. In
// predicates, nil tests are SQL and everything else gives the memory
// engine's answer (a table of predicates, both engines, both databases);
// sorts are refused alike on every engine; an unknown transformer is refused
// when the store opens, naming the attribute.
import Foundation
import Testing
@testable import QuarryStore

enum Transformables {
    static let yaml = """
    entities:
      Item:
        attributes:
          name: { type: string }
          rank: { type: integer64 }
          tags: { type: transformable }
          settings: { type: transformable, transformer: JSON }
          plist: { type: transformable, transformer: PropertyList }
        relationships:
          box: { to: Box, inverse: items }
      Box:
        attributes:
          label: { type: string }
        relationships:
          items: { to: Item, many: true, inverse: box }
    """
    static var model: Model { get throws { try ModelReader.read(yaml: yaml) } }

    static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    /// (attribute, value): every one must come back equal, on every path.
    static let values: [(String, Value)] = [
        ("tags", .array([.string("red"), .string("blue")])),
        ("tags", .dictionary(["k": .double(2.5), "list": .array([.int(1), .bool(true)])])),
        ("tags", .string("Zoë")),
        ("tags", .int(42)),
        ("tags", .bool(false)),
        ("tags", .date(123_456.5)),
        ("tags", .data([0, 1, 254, 255])),
        ("tags", .uuid(uuid)),
        ("tags", .array([])),
        ("settings", .dictionary(["theme": .string("dark"), "sizes": .array([.int(1), .int(2)]), "beta": .bool(true)])),
        ("settings", .string("plain")),
        ("plist", .dictionary(["d": .date(10), "b": .data([9]), "l": .array([.int(7), .string("s")])])),
        ("plist", .double(-0.25)),
    ]

    /// Five items in two boxes, with a mix of values and nils.
    static func store(_ engine: TestEngine) throws -> SQLStore {
        let store = try engine.emptyStore(model: try model)
        let a = try store.insert("Box", ["label": "A"])
        let b = try store.insert("Box", ["label": "B"])
        try store.insert("Item", ["name": "i1", "rank": 1, "tags": ["red", "blue"], "settings": ["theme": "dark"]], toOne: ["box": a])
        try store.insert("Item", ["name": "i2", "rank": 2, "tags": ["green"], "settings": ["theme": "light"]], toOne: ["box": a])
        try store.insert("Item", ["name": "i3", "rank": 3, "tags": .string("red"), "plist": ["x": 1]], toOne: ["box": b])
        try store.insert("Item", ["name": "i4", "rank": 4], toOne: ["box": b])
        try store.insert("Item", ["name": "i5", "rank": 5, "tags": .int(7)])
        return store
    }

    static func names(_ objects: [StoredObject]) -> [String] {
        objects.compactMap { if case .string(let s)? = $0.value(forKey: "name") { return s } else { return nil } }.sorted()
    }
}

@Suite("Transformable attributes", .serialized)
struct TransformableAttributeTests {
    @Test(arguments: TestEngine.available, 0..<Transformables.values.count)
    func everyWritePathEncodesAndEveryReadPathDecodes(engine: TestEngine, index: Int) throws {
        let (key, value) = Transformables.values[index]
        let store = try engine.emptyStore(model: try Transformables.model)
        // Store insert, batch insert, context insert.
        try store.insert("Item", ["name": "store", key: value])
        _ = try store.batchInsert("Item", objects: [["name": "batch", key: value]])
        let context = Context(store: store)
        let inserted = try context.insert("Item")
        try inserted.setValue("context", forKey: "name")
        try inserted.setValue(value, forKey: key)
        try context.save()
        // Context update (one changed attribute: the batched one-column UPDATE) and batch update with a constant.
        try store.insert("Item", ["name": "updated"])
        try store.insert("Item", ["name": "batchUpdated"])
        let updated = try #require(try context.fetch(FetchRequest(entity: "Item", predicate: try Parser.parsePredicate("name == 'updated'"))).first)
        try updated.setValue(value, forKey: key)
        try context.save()
        _ = try store.batchUpdate(entity: "Item", predicate: try Parser.parsePredicate("name == 'batchUpdated'"),
                                  set: [(key, QueryExpression(.constant(value)))])

        // Read back: store fetch, a fresh context's fetch, faults, dictionaries.
        store.forgetObjects()
        let all = try store.fetch(FetchRequest(entity: "Item"))
        #expect(all.count == 5)
        for o in all { #expect(o.value(forKey: key) == value, "\(o.value(forKey: "name") ?? .null)") }
        let fresh = Context(store: store)
        for o in try fresh.fetch(FetchRequest(entity: "Item")) { #expect(o[key] == value) }
        let faulting = Context(store: store)
        var asFaults = FetchRequest(entity: "Item")
        asFaults.returnsObjectsAsFaults = true
        asFaults.fetchBatchSize = 2
        for o in try faulting.fetchBatched(asFaults) { #expect(o[key] == value) }
        var dictionaries = FetchRequest(entity: "Item")
        dictionaries.propertiesToFetch = [try FetchProperty(keyPath: key)]
        for row in try store.fetchDictionaries(dictionaries) { #expect(row[key] == value) }
    }

    @Test(arguments: TestEngine.available)
    func nilStaysNullAndTheBytesAreAKeyedArchive(engine: TestEngine) throws {
        let store = try Transformables.store(engine)
        let rows = try store.database.query("SELECT \"name\", \"tags\" FROM \"Item\" ORDER BY \"name\"", [], as: [.string, .data])
        #expect(rows.map { $0[1].isNull } == [false, false, false, true, false])
        // Core Data's reader of NSSecureUnarchiveFromData archives reads what Quarry wrote.
        guard case .data(let bytes) = rows[0][1] else { Issue.record("not bytes: \(rows[0][1])"); return }
        #expect(Array(bytes.prefix(8)) == Array("bplist00".utf8))
        #expect(try KeyedArchiveValues.decode(bytes) == .array(["red", "blue"]))
        // JSON is JSON.
        let json = try store.database.query("SELECT \"settings\" FROM \"Item\" WHERE \"name\" = 'i1'", [], as: [.data])
        #expect(json.first?.first == .data(Array(#"{"theme":"dark"}"#.utf8)))
    }

    @Test(arguments: TestEngine.available)
    func prefetchedAndFaultedRelatedObjectsComeDecoded(engine: TestEngine) throws {
        let store = try Transformables.store(engine)
        let context = Context(store: store)
        var request = FetchRequest(entity: "Box", sortDescriptors: [QuerySortDescriptor("label")])
        request.relationshipKeyPathsForPrefetching = ["items"]
        let boxes = try context.fetch(request)
        let a = try #require(boxes.first)
        let tags = a.objects(forKey: "items").sorted { "\($0["name"] ?? .null)" < "\($1["name"] ?? .null)" }.map { $0["tags"] }
        #expect(tags == [.array(["red", "blue"]), .array(["green"])])
        // Walking a to-one from a fresh context faults the item's row in.
        let other = Context(store: store)
        let b = try #require(try other.fetch(FetchRequest(entity: "Box", predicate: try Parser.parsePredicate("label == 'B'"))).first)
        #expect(Set(b.objects(forKey: "items").map { "\($0["tags"] ?? .null)" }) == ["\(Value.string("red"))", "\(Value.null)"])
    }

    @Test(arguments: TestEngine.available)
    func codableValuesGoThroughTheJSONTransformer(engine: TestEngine) throws {
        struct Settings: Codable, Equatable { var theme: String; var sizes: [Int] }
        let store = try engine.emptyStore(model: try Transformables.model)
        let context = Context(store: store)
        let item = try context.insert("Item")
        try item.setValue(try JSONValueTransformer.encode(Settings(theme: "dark", sizes: [3, 4])), forKey: "settings")
        try context.save()
        let back = try #require(try Context(store: store).fetch(FetchRequest(entity: "Item")).first)
        #expect(try JSONValueTransformer.decode(Settings.self, from: back["settings"] ?? .null) == Settings(theme: "dark", sizes: [3, 4]))
    }

    /// Values the attribute's transformer cannot encode: refused, nothing written.
    static let unencodable: [(String, Value)] = [
        ("settings", .date(5)),          // JSON has no dates
        ("plist", .uuid(Transformables.uuid)),
    ]

    @Test(arguments: TestEngine.available, 0..<unencodable.count)
    func aValueItsTransformerCannotEncodeIsRefused(engine: TestEngine, index: Int) throws {
        let (key, value) = Self.unencodable[index]
        let store = try engine.emptyStore(model: try Transformables.model)
        #expect(throws: TransformableError.self) { try store.insert("Item", ["name": "x", key: value]) }
        let context = Context(store: store)
        let item = try context.insert("Item")
        try item.setValue(value, forKey: key)
        #expect(throws: (any Error).self) { try context.save() }
        #expect(try store.count(FetchRequest(entity: "Item")) == 0)
    }

    /// Predicates on transformables: (predicate, names selected). SQL gets
    /// the nil tests; the rest runs in memory on the decoded values. (A key
    /// after a transformable, `settings.theme`, is a bind error on every
    /// engine, B005, as after any attribute.)
    static let predicates: [(String, [String])] = [
        ("tags == nil", ["i4"]),
        ("tags != nil", ["i1", "i2", "i3", "i5"]),
        ("nil == tags", ["i4"]),
        ("tags == nil AND rank > 1", ["i4"]),
        ("tags != nil OR rank == 4", ["i1", "i2", "i3", "i4", "i5"]),
        ("tags == 'red'", ["i3"]),
        ("tags != 'red'", ["i1", "i2", "i4", "i5"]),
        ("tags == 7", ["i5"]),
        ("tags > 5", ["i5"]),
        ("tags CONTAINS 'red'", ["i1", "i3"]),
        ("'green' IN tags", ["i2"]),
        ("NOT (tags CONTAINS 'red')", ["i2", "i4", "i5"]),
        ("ANY box.items.tags == nil", ["i3", "i4"]),
        ("box.label == 'A' AND tags CONTAINS 'blue'", ["i1"]),
        ("SUBQUERY(box.items, $i, $i.tags == 'red').@count > 0", ["i3", "i4"]),
        ("tags == %@", ["i1"]),
        ("settings == %@", ["i2"]),
        ("tags IN {'red', 7}", ["i3", "i5"]),
        ("tags BEGINSWITH 're'", ["i3"]),
        ("tags BETWEEN {5, 10}", ["i5"]),
    ]

    @Test(arguments: TestEngine.available, 0..<predicates.count)
    func predicatesGiveTheMemoryEnginesAnswer(engine: TestEngine, index: Int) throws {
        let (text, expected) = Self.predicates[index]
        let store = try Transformables.store(engine)
        let argument: Value = text.hasPrefix("settings") ? ["theme": "light"] : ["red", "blue"]
        let predicate = try Parser.parsePredicate(text, arguments: text.contains("%@") ? [argument] : [])
        let request = FetchRequest(entity: "Item", predicate: predicate)
        let sql = Transformables.names(try store.fetch(request, engine: .sql))
        let memory = Transformables.names(try store.fetch(request, engine: .memory))
        #expect(sql == expected, "SQL: \(text)")
        #expect(memory == expected, "memory: \(text)")
        #expect(try store.count(request) == expected.count)
        let context = Context(store: store)
        #expect(try context.fetch(request).count == expected.count)
        #expect(try context.fetch(request, engine: .memory).count == expected.count)
    }

    @Test(arguments: TestEngine.available)
    func nilTestsAreSQLAndOtherComparisonsAreResiduals(engine: TestEngine) throws {
        let store = try Transformables.store(engine)
        let nilTest = try store.explain(FetchRequest(entity: "Item", predicate: try Parser.parsePredicate("tags == nil")))
        #expect(nilTest.residual == nil)
        #expect(nilTest.sql.sql.contains("IS NULL"))
        let other = try store.explain(FetchRequest(entity: "Item", predicate: try Parser.parsePredicate("rank > 1 AND tags == 'red'")))
        #expect(other.residual != nil)
        #expect(!other.sql.sql.contains("\"tags\" ="))
    }

    @Test(arguments: TestEngine.available, FetchEngine.allCases)
    func sortsByATransformableAreRefusedOnEveryEngine(engine: TestEngine, fetchEngine: FetchEngine) throws {
        let store = try Transformables.store(engine)
        let request = FetchRequest(entity: "Item", sortDescriptors: [QuerySortDescriptor("tags")])
        do {
            _ = try store.fetch(request, engine: fetchEngine)
            Issue.record("sorted by a transformable")
        } catch let d as Diagnostic {
            #expect(d.code == .bindTypeMismatch)
            #expect(d.message.contains("Item.tags is transformable"))
        }
        #expect(throws: Diagnostic.self) { _ = try Context(store: store).fetch(request, engine: fetchEngine) }
        var dictionaries = FetchRequest(entity: "Item", sortDescriptors: [QuerySortDescriptor("tags")])
        dictionaries.propertiesToFetch = [try FetchProperty(keyPath: "name")]
        #expect(throws: Diagnostic.self) { _ = try store.fetchDictionaries(dictionaries, engine: fetchEngine) }
    }

    /// A transformer nobody registered (an app's own, or a misspelling)
    /// does not stop the store from opening: its column keeps bytes, and the
    /// first value that needs the transformer is refused, naming it and the
    /// closest registered name; nothing is written.
    @Test func anUnknownTransformerKeepsBytesAndRefusesOtherValuesNamingIt() throws {
        let model = try ModelReader.read(yaml: """
        entities:
          Item:
            attributes:
              name: { type: string }
              tags: { type: transformable, transformer: JSOM }
        """)
        let store = try SQLStore(path: ":memory:", model: model)
        try store.insert("Item", ["name": .string("raw"), "tags": .data([1, 2, 3])])
        do {
            try store.insert("Item", ["name": .string("array"), "tags": .array([.string("red")])])
            Issue.record("wrote an array through a transformer nobody registered")
        } catch let e as TransformableError {
            guard case .cannotEncode(let entity, let key, let transformer, let reason) = e else { Issue.record("\(e)"); return }
            #expect(entity == "Item" && key == "tags" && transformer == "JSOM")
            #expect(reason.contains("no value transformer named 'JSOM' is registered; did you mean 'JSON'?"), "\(reason)")
        }
        let rows = try store.fetch(FetchRequest(entity: "Item"))
        #expect(rows.map { $0.values["tags"] } == [.data([1, 2, 3])])
    }

    @Test(arguments: TestEngine.available)
    func undecodableBytesAreAnErrorNamingTheAttribute(engine: TestEngine) throws {
        let store = try Transformables.store(engine)
        try store.database.run("UPDATE \"Item\" SET \"tags\" = ? WHERE \"name\" = 'i1'", [.data([1, 2, 3])])
        store.forgetObjects()
        do {
            _ = try store.fetch(FetchRequest(entity: "Item"))
            Issue.record("read garbage")
        } catch let e as TransformableError {
            #expect("\(e)".contains("Item.tags"))
        }
    }
}

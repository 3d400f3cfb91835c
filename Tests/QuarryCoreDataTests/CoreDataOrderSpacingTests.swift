// The values Quarry writes in ordered to-manys' ordering columns. Core Data
// numbers each owner's members 2048, 3072, 4096, … (2048 + 1024·i) in
// `Z_FOK_<INVERSE>` (one-to-many, on the destination's table) and in the
// join table's `Z_FOK_<n><REL>` (many-to-many); a store Quarry writes in
// Core Data's layout must look the same. Each case of the table is one of
// the two places, and runs the same story: a context save of a new list,
// a reorder, members appended by the store itself (both ways a store can
// link), then the file's Z-tables read with plain SQLite and the store
// reopened read-only through Quarry. Also: a Core Data fixture store has
// spaced values, one past a value near Int64.max is refused (nothing
// written), the spacing's arithmetic never traps, and Quarry's own store
// still writes 0, 1, 2.
import Foundation
import QuarryFixtures
import QuarryModel
import QuarrySQL
import QuarrySQLite
import QuarryStore
import Testing
@testable import QuarryCoreData

@Suite("Core Data's spacing of ordering values", .serialized)
struct CoreDataOrderSpacingTests {
    /// One place Core Data keeps an order.
    struct Case: CustomStringConvertible, Sendable {
        let description: String
        /// A writable Core Data store (path) of `model` in `scratch`.
        let make: @Sendable (Scratch) throws -> String
        let model: Model
        let owner: String
        /// Attributes of a new owner (a unique title, say).
        let ownerValues: [String: Value]
        let relationship: String
        let member: String
        /// (member name, ordering value) of the owner's members, ordered by
        /// the value: plain SQL on the Z-tables, the owner's key bound.
        let zOrder: String
        /// The two ways a store appends `member` (by key) to `owner`.
        let appendA: @Sendable (SQLStore, ObjectID, String) throws -> Void
        let appendB: @Sendable (SQLStore, ObjectID, String) throws -> Void
    }

    static let cases: [Case] = [
        Case(description: "one-to-many: Company.staff in ZPARTY.Z_FOK_EMPLOYER (hand-made store)",
             make: { try SyntheticStoreTests.make(in: $0, checkpointed: true) },
             model: SyntheticStoreTests.model, owner: "Company", ownerValues: ["name": .string("Owner")], relationship: "staff", member: "Person",
             zOrder: "SELECT ZNAME, Z_FOK_EMPLOYER FROM ZPARTY WHERE ZEMPLOYER = ? ORDER BY Z_FOK_EMPLOYER",
             // A member inserted with its to-one; a link made from the owner's side.
             appendA: { store, owner, name in _ = try store.insert("Person", ["name": .string(name)], toOne: ["employer": owner]) },
             appendB: { store, owner, name in try store.link(owner, "staff", try store.insert("Person", ["name": .string(name)])) }),
        Case(description: "many-to-many: Item.tags in Z_1TAGS.Z_FOK_6TAGS (created store)",
             make: { scratch in
                 let path = scratch.path("Sample.sqlite")
                 try CoreDataStore.create(model: CoreDataStoreCreationTests.sample, at: path)
                 return path
             },
             model: CoreDataStoreCreationTests.sample, owner: "Item", ownerValues: ["title": .string("Owner")], relationship: "tags", member: "Tag",
             zOrder: "SELECT t.ZNAME, j.Z_FOK_6TAGS FROM Z_1TAGS j JOIN ZTAG t ON t.Z_PK = j.Z_6TAGS WHERE j.Z_1ITEMS = ? ORDER BY j.Z_FOK_6TAGS",
             // A link made from the owner's side; one made from the member's
             // (no position given: the view's trigger puts it last).
             appendA: { store, owner, name in try store.link(owner, "tags", try store.insert("Tag", ["name": .string(name)])) },
             appendB: { store, owner, name in try store.link(try store.insert("Tag", ["name": .string(name)]), "items", owner) }),
    ]

    static func zOrder(_ path: String, _ c: Case, owner: Int64) throws -> [String] {
        let z = try CoreDataWritableTests.Z(path)
        defer { z.c.close() }
        return try z.c.query(c.zOrder, [.int(owner)]).map { row in
            let name: String
            if case .string(let s) = row[0] { name = s } else { name = "?" }
            return "\(name)=\(row[1])"
        }
    }

    static func entry(_ name: String, _ value: Int64) -> String { "\(name)=\(Value.int(value))" }

    @Test(arguments: cases)
    func quarryWritesCoreDataSpacing(_ c: Case) throws {
        let scratch = Scratch()
        let path = try c.make(scratch)

        // A context save of a new list: c, a, b.
        var store = try SQLStore(coreDataStore: path, model: c.model, writable: true)
        var context = Context(store: store)
        let owner = try context.insert(c.owner)
        for (k, v) in c.ownerValues { try owner.setValue(v, forKey: k) }
        var members: [String: ManagedObject] = [:]
        for name in ["a", "b", "c"] {
            let m = try context.insert(c.member)
            try m.setValue(.string(name), forKey: "name")
            members[name] = m
        }
        try owner.add(members["a"]!, to: c.relationship)
        try owner.add(members["b"]!, to: c.relationship)
        try owner.insert(members["c"]!, at: 0, into: c.relationship)
        try context.save()
        let ownerKey = owner.objectID.primaryKey
        store.database.close()
        #expect(try Self.zOrder(path, c, owner: ownerKey) == [Self.entry("c", 2048), Self.entry("a", 3072), Self.entry("b", 4096)], "saved")

        // A reorder rewrites the values in the new order: b, c, a.
        store = try SQLStore(coreDataStore: path, model: c.model, writable: true)
        context = Context(store: store)
        let again = try #require(try context.fetch(FetchRequest(entity: c.owner)).first { $0.objectID.primaryKey == ownerKey })
        try again.move(from: 2, to: 0, in: c.relationship)
        try context.save()
        store.database.close()
        #expect(try Self.zOrder(path, c, owner: ownerKey) == [Self.entry("b", 2048), Self.entry("c", 3072), Self.entry("a", 4096)], "reordered")

        // Members the store appends: one step past the largest, each way.
        store = try SQLStore(coreDataStore: path, model: c.model, writable: true)
        let ownerID = ObjectID(entity: c.owner, primaryKey: ownerKey)
        try c.appendA(store, ownerID, "d")
        try c.appendB(store, ownerID, "e")
        store.database.close()
        #expect(try Self.zOrder(path, c, owner: ownerKey)
                == [Self.entry("b", 2048), Self.entry("c", 3072), Self.entry("a", 4096), Self.entry("d", 5120), Self.entry("e", 6144)], "appended")

        // Read back through Quarry, read-only: the same order.
        let reopened = try SQLStore(coreDataStore: path, model: c.model)
        defer { reopened.database.close() }
        let read = try #require(try reopened.fetch(FetchRequest(entity: c.owner)).first { $0.id.primaryKey == ownerKey })
        #expect(SyntheticStoreTests.names(read.value(forKey: c.relationship), sorted: false) == ["b", "c", "a", "d", "e"])
        let fresh = Context(store: reopened)
        let faulted = try #require(try fresh.fetch(FetchRequest(entity: c.owner)).first { $0.objectID.primaryKey == ownerKey })
        #expect(CoreDataWritableTests.names(faulted.objects(forKey: c.relationship)) == ["b", "c", "a", "d", "e"])
    }

    /// One past a value within a step of Int64.max has no value: the store
    /// refuses the append and writes nothing, rather than a wrapped or
    /// floating value (a silent wrong order).
    @Test func anAppendPastTheLargestIntegerIsRefused() throws {
        let scratch = Scratch()
        let path = try SyntheticStoreTests.make(in: scratch, checkpointed: true)
        do {
            let raw = try SQLiteConnection(path: path)
            try raw.execute("UPDATE ZPARTY SET Z_FOK_EMPLOYER = 9223372036854775000 WHERE ZNAME = 'Ann'")
            raw.close()
        }
        let store = try SQLStore(coreDataStore: path, model: SyntheticStoreTests.model, writable: true)
        let acme = ObjectID(entity: "Company", primaryKey: 3)
        #expect(throws: (any Error).self) { _ = try store.insert("Person", ["name": .string("Zed")], toOne: ["employer": acme]) }
        #expect(throws: (any Error).self) { try store.link(acme, "staff", try store.insert("Person", ["name": .string("Zoe")])) }
        store.database.close()
        let z = try CoreDataWritableTests.Z(path)
        defer { z.c.close() }
        #expect(try z.int("SELECT count(*) FROM ZPARTY WHERE ZNAME IN ('Zed', 'Zoe') AND ZEMPLOYER IS NOT NULL") == 0)
        #expect(try z.int("SELECT count(*) FROM ZPARTY WHERE Z_FOK_EMPLOYER IS NOT NULL AND typeof(Z_FOK_EMPLOYER) <> 'integer'") == 0)
        #expect(try z.int("SELECT Z_FOK_EMPLOYER FROM ZPARTY WHERE ZNAME = 'Ann'") == 9_223_372_036_854_775_000)
    }

    /// A many-to-many ordered on both sides (wire's Conversation ↔ User
    /// participants) has a `Z_FOK_` column per side. Quarry keeps the
    /// owner's order; a new row also gets the member's side, last in the
    /// member's list (as Core Data's inverse maintenance appends), not NULL.
    @Test func bothSidesOrderedGetsTheMembersSideToo() throws {
        let model = Model(entities: [
            Entity(name: "Crew", attributes: [Attribute(name: "name", type: .string)],
                   relationships: [Relationship(name: "ships", destination: "Ship", isToMany: true, isOrdered: true, inverse: "crews")]),
            Entity(name: "Ship", attributes: [Attribute(name: "name", type: .string)],
                   relationships: [Relationship(name: "crews", destination: "Crew", isToMany: true, isOrdered: true, inverse: "ships")]),
        ])
        let scratch = Scratch()
        let path = scratch.path("Both.sqlite")
        try CoreDataStore.create(model: model, at: path)
        let store = try SQLStore(coreDataStore: path, model: model, writable: true)
        let context = Context(store: store)
        func make(_ entity: String, _ name: String) throws -> ManagedObject {
            let o = try context.insert(entity)
            try o.setValue(.string(name), forKey: "name")
            return o
        }
        let red = try make("Crew", "red"), blue = try make("Crew", "blue")
        let s1 = try make("Ship", "s1"), s2 = try make("Ship", "s2")
        try red.add(s1, to: "ships")
        try red.add(s2, to: "ships")
        try blue.add(s1, to: "ships")
        try context.save()
        store.database.close()
        let z = try CoreDataWritableTests.Z(path)
        defer { z.c.close() }
        let joins = try z.c.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%' ESCAPE '\\' AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')")
        try #require(joins.count == 1, "\(joins)")
        guard case .string(let join) = joins[0][0] else { Issue.record("no join table"); return }
        let columns = try z.c.query("SELECT name FROM pragma_table_info(?)", [.string(join)]).compactMap { row -> String? in if case .string(let s) = row[0] { s } else { nil } }
        let foks = columns.filter { $0.hasPrefix("Z_FOK_") }
        try #require(foks.count == 2, "\(columns)")
        // Every row has both values, each side numbered 2048, 3072, … per owner.
        #expect(try z.int("SELECT count(*) FROM \"\(join)\" WHERE \"\(foks[0])\" IS NULL OR \"\(foks[1])\" IS NULL") == 0)
        for fok in foks {
            // Z_FOK_<X> orders the X column's keys within each key of the other column.
            let owner = try #require(columns.first { !$0.hasPrefix("Z_FOK_") && "Z_FOK_" + $0.dropFirst(2) != fok })
            let lists = try z.c.query("SELECT group_concat(v) FROM (SELECT \"\(owner)\" AS k, \"\(fok)\" AS v FROM \"\(join)\" ORDER BY 1, 2) GROUP BY k")
            #expect(Set(lists.map { $0[0] }) == [.string("2048,3072"), .string("2048")], "\(fok) by \(owner)")
        }
    }

    /// (spacing, index, value): checked arithmetic, nil instead of a trap.
    static let values: [(StoreMapping.OrderSpacing, Int, Int64?)] = [
        (.quarry, 0, 0), (.quarry, 7, 7), (.quarry, Int.max, Int64.max), (.quarry, -1, nil),
        (.coreData, 0, 2048), (.coreData, 1, 3072), (.coreData, 5, 7168),
        (.coreData, Int(Int64.max / 1024) - 2, (Int64.max / 1024 - 2) * 1024 + 2048),
        (.coreData, Int(Int64.max / 1024), nil), (.coreData, Int.max, nil), (.coreData, -1, nil),
    ]

    @Test(arguments: values.indices)
    func theSpacingsArithmeticNeverTraps(_ i: Int) {
        let (spacing, index, expected) = Self.values[i]
        #expect(spacing.value(at: index) == expected, "\(spacing) at \(index)")
    }

    /// Quarry's own store keeps 0, 1, 2 (and max + 1 for an append): its
    /// bytes do not change. OrderedRelationshipTests checks the order read
    /// back, not the values, so they are checked here.
    @Test func quarrysOwnStoreStillWritesZeroOneTwo() throws {
        let scratch = Scratch()
        let store = try SQLStore(path: scratch.path("quarry.sqlite"), model: CoreDataStoreCreationTests.sample)
        defer { store.database.close() }
        #expect(store.mapping.orderSpacing == .quarry)
        let context = Context(store: store)
        let item = try context.insert("Item")
        try item.setValue(.string("Owner"), forKey: "title")
        var tags: [ManagedObject] = [], parts: [ManagedObject] = []
        for name in ["a", "b", "c"] {
            let t = try context.insert("Tag")
            try t.setValue(.string(name), forKey: "name")
            tags.append(t)
            let p = try context.insert("Part")
            try p.setValue(.double(Double(parts.count)), forKey: "weight")
            parts.append(p)
        }
        for t in tags { try item.add(t, to: "tags") }
        for p in parts { try item.add(p, to: "parts") }
        try context.save()
        try store.link(item.objectID, "tags", try store.insert("Tag", ["name": .string("d")]))
        _ = try store.insert("Part", ["weight": .double(3)], toOne: ["item": item.objectID])
        func ints(_ sql: String, _ arguments: [Value] = []) throws -> [Int64] {
            try store.database.query(sql, arguments, as: [.int]).map { if case .int(let v) = $0[0] { v } else { -1 } }
        }
        guard case .joinTable(let join, let source, _)? = store.mapping.storage(of: "tags", of: "Item"),
              let order = store.mapping.orderColumn(of: "parts", of: "Item") else {
            Issue.record("the sample's ordered relationships are not where expected"); return
        }
        #expect(try ints("SELECT \(StoreMapping.quotedJoinPosition) FROM \(SQLIdentifier.quoted(join)) WHERE \(SQLIdentifier.quoted(source)) = ? ORDER BY 1", [.int(item.objectID.primaryKey)]) == [0, 1, 2, 3])
        #expect(try ints("SELECT \(SQLIdentifier.quoted(order)) FROM \"Part\" ORDER BY 1") == [0, 1, 2, 3])
    }

    /// An ordered one-to-many and an ordered many-to-many, as fixtures.
    static let catalogue = """
    entities:
      Item:
        attributes:
          title: string
        relationships:
          tags: { to: Tag, many: true, ordered: true, inverse: items }
          parts: { to: Part, many: true, ordered: true, inverse: item }
      Tag:
        attributes:
          name: string
        relationships:
          items: { to: Item, many: true, inverse: tags }
      Part:
        attributes:
          weight: double
        relationships:
          item: { to: Item, inverse: parts }
    """

    @Test func aCoreDataFixtureStoreHasSpacedValues() throws {
        let folder = try CoreDataFixturesTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let modelPath = folder + "/catalogue.yaml"
        try Self.catalogue.write(toFile: modelPath, atomically: true, encoding: .utf8)
        let quarry = folder + "/quarry.sqlite", coreData = folder + "/coredata.sqlite"
        for (out, format) in [(quarry, "sqlite"), (coreData, "coredata")] {
            let outcome = FixturesCommand.run(model: modelPath, out: out, counts: ["Item=12", "Tag=20", "Part=60"], seed: 5, format: format)
            try #require(outcome.exitCode == 0, "\(format): \(outcome.stderr)")
        }
        let sql = try SQLiteConnection(path: coreData, options: .init(readOnly: true, create: false))
        defer { sql.close() }
        /// Per owner, its members' values in `order`, as text.
        func lists(_ query: String) throws -> [String] {
            try sql.query(query).map { row in if case .string(let s) = row[0] { s } else { "\(row[0])" } }
        }
        func spaced(_ n: Int) -> String { (0..<n).map { String(2048 + 1024 * $0) }.joined(separator: ",") }
        // One-to-many: numbered in key order (the order both stores read).
        let parts = try lists("SELECT group_concat(Z_FOK_ITEM) FROM (SELECT ZITEM, Z_FOK_ITEM FROM ZPART WHERE ZITEM IS NOT NULL ORDER BY ZITEM, Z_PK) GROUP BY ZITEM")
        #expect(!parts.isEmpty)
        for list in parts { #expect(list == spaced(list.split(separator: ",").count), "ZPART.Z_FOK_ITEM \(list)") }
        #expect(try sql.query("SELECT count(*) FROM ZPART WHERE ZITEM IS NOT NULL AND Z_FOK_ITEM IS NULL").first?.first == .int(0))
        // Many-to-many: the generator's positions, spaced.
        let tags = try lists("SELECT group_concat(Z_FOK_3TAGS) FROM (SELECT Z_1ITEMS, Z_FOK_3TAGS FROM Z_1TAGS ORDER BY Z_1ITEMS, Z_FOK_3TAGS) GROUP BY Z_1ITEMS")
        #expect(!tags.isEmpty)
        for list in tags { #expect(list == spaced(list.split(separator: ",").count), "Z_1TAGS.Z_FOK_3TAGS \(list)") }

        // Read through Quarry, both stores give every list in the same order.
        let model = try ModelReader.read(from: modelPath)
        let opened = try CoreDataStore.open(path: coreData, model: model)
        defer { opened.store.database.close() }
        let expected = try CoreDataFixturesTests.dump(try SQLStore(path: quarry, model: model))
        let actual = try CoreDataFixturesTests.dump(opened.store)
        #expect(expected["Item"]?.isEmpty == false)
        #expect(actual["Item"] == expected["Item"], "Item's ordered lists")
    }
}

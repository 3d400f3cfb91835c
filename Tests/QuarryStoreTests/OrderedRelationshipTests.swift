// Ordered to-many relationships, on SQLite and PostgreSQL: the order the
// context keeps (append by default, insert at an index, move, remove) is
// saved and read back by faults, prefetching and store objects alike, and
// `[FIRST]`, `[LAST]` and `[n]` in predicates give the same objects whether
// the fetch runs in SQL or in memory. Both layouts are covered: an order
// column on the destination (the inverse is to-one) and a join table's
// `position` (many-to-many). A model without ordered relationships gets no
// new column. An export keeps the order.
import Foundation
import Testing
@testable import QuarryStore

enum OrderedModel {
    static let model = Model(entities: [
        Entity(name: "Playlist", attributes: [Attribute(name: "name", type: .string)], relationships: [
            Relationship(name: "songs", destination: "Song", isToMany: true, isOrdered: true, inverse: "playlist"),
            Relationship(name: "tags", destination: "Tag", isToMany: true, isOrdered: true, inverse: "playlists"),
            Relationship(name: "fans", destination: "Fan", isToMany: true, inverse: "favourite"),
        ]),
        Entity(name: "Song", attributes: [Attribute(name: "title", type: .string)],
               relationships: [Relationship(name: "playlist", destination: "Playlist", inverse: "songs")]),
        Entity(name: "Tag", attributes: [Attribute(name: "name", type: .string)],
               relationships: [Relationship(name: "playlists", destination: "Playlist", isToMany: true, inverse: "tags")]),
        Entity(name: "Fan", attributes: [Attribute(name: "name", type: .string)],
               relationships: [Relationship(name: "favourite", destination: "Playlist", inverse: "fans")]),
    ])

    /// Two playlists; songs s1…s5 and tags t1…t3 inserted in key order, then
    /// linked out of key order.
    static func store(_ engine: TestEngine) throws -> (SQLStore, Context) {
        let store = try engine.emptyStore(model: model)
        let c = Context(store: store)
        let rock = try c.insert("Playlist"), jazz = try c.insert("Playlist")
        try rock.setValue(.string("rock"), forKey: "name")
        try jazz.setValue(.string("jazz"), forKey: "name")
        var songs: [ManagedObject] = []
        for i in 1...5 {
            let s = try c.insert("Song")
            try s.setValue(.string("s\(i)"), forKey: "title")
            songs.append(s)
        }
        var tags: [ManagedObject] = []
        for i in 1...3 {
            let t = try c.insert("Tag")
            try t.setValue(.string("t\(i)"), forKey: "name")
            tags.append(t)
        }
        for i in [3, 1, 4] { try rock.add(songs[i - 1], to: "songs") }
        try jazz.add(songs[4], to: "songs")
        try songs[1].setValue(jazz, forKey: "playlist")      // appended to jazz through the inverse
        for i in [3, 1] { try rock.add(tags[i - 1], to: "tags") }
        for i in [2, 3] { try jazz.add(tags[i - 1], to: "tags") }
        try c.save()
        return (store, c)
    }

    static func titles(_ o: ManagedObject, _ key: String) -> [String] {
        o.objects(forKey: key).map { o in
            if case .string(let s)? = o["title"] ?? nil { return s }
            if case .string(let s)? = o["name"] ?? nil { return s }
            return "?"
        }
    }

    static func playlist(_ c: Context, _ name: String) throws -> ManagedObject {
        try #require(try c.fetch(FetchRequest(entity: "Playlist", predicate: try Parser.parsePredicate("name == %@", arguments: [.string(name)]))).first)
    }
}

@Suite("Ordered to-many relationships", .serialized)
struct OrderedRelationshipTests {
    @Test(arguments: TestEngine.available)
    func theOrderIsSavedAndReadBack(engine: TestEngine) throws {
        let (store, c) = try OrderedModel.store(engine)
        let rock = try OrderedModel.playlist(c, "rock")
        #expect(OrderedModel.titles(rock, "songs") == ["s3", "s1", "s4"])
        // A fresh context reads the saved order: faults, then prefetching.
        let fresh = Context(store: store)
        #expect(OrderedModel.titles(try OrderedModel.playlist(fresh, "rock"), "songs") == ["s3", "s1", "s4"])
        #expect(OrderedModel.titles(try OrderedModel.playlist(fresh, "jazz"), "songs") == ["s5", "s2"])
        #expect(OrderedModel.titles(try OrderedModel.playlist(fresh, "rock"), "tags") == ["t3", "t1"])
        var request = FetchRequest(entity: "Playlist", sortDescriptors: [QuerySortDescriptor("name")])
        request.relationshipKeyPathsForPrefetching = ["songs", "tags"]
        let prefetching = Context(store: store)
        let prefetched = try prefetching.fetch(request)
        #expect(prefetched.map { OrderedModel.titles($0, "songs") } == [["s5", "s2"], ["s3", "s1", "s4"]])
        #expect(prefetched.map { OrderedModel.titles($0, "tags") } == [["t2", "t3"], ["t3", "t1"]])
        #expect(prefetching.statistics.relationshipLoads == 0)
        // Store-level objects read it too.
        let stored = try #require(try store.fetch(FetchRequest(entity: "Playlist", predicate: try Parser.parsePredicate("name == 'rock'"))).first)
        guard case .array(let songs)? = stored.value(forKey: "songs") else { Issue.record("no songs"); return }
        #expect(songs.compactMap { v -> String? in
            if case .object(let r) = v, case .string(let t)? = (r.object as? StoredObject)?.value(forKey: "title") { return t }
            return nil
        } == ["s3", "s1", "s4"])
    }

    /// An export copies the order columns too: before, the copy's
    /// one-to-many lists came back in key order (join tables kept theirs).
    @Test(arguments: TestEngine.available)
    func anExportKeepsTheOrder(engine: TestEngine) throws {
        let (store, _) = try OrderedModel.store(engine)
        let target = try engine.emptyStore(model: OrderedModel.model)
        try StoreExport.copy(from: store, to: target)
        let c = Context(store: target)
        #expect(OrderedModel.titles(try OrderedModel.playlist(c, "rock"), "songs") == ["s3", "s1", "s4"])
        #expect(OrderedModel.titles(try OrderedModel.playlist(c, "jazz"), "songs") == ["s5", "s2"])
        #expect(OrderedModel.titles(try OrderedModel.playlist(c, "rock"), "tags") == ["t3", "t1"])
    }

    @Test(arguments: TestEngine.available)
    func insertMoveAndRemoveAreSaved(engine: TestEngine) throws {
        let (store, c) = try OrderedModel.store(engine)
        let rock = try OrderedModel.playlist(c, "rock"), jazz = try OrderedModel.playlist(c, "jazz")
        let s5 = try #require(jazz.objects(forKey: "songs").first)
        try rock.insert(s5, at: 0, into: "songs")                  // moves s5 from jazz to the front of rock
        #expect(OrderedModel.titles(rock, "songs") == ["s5", "s3", "s1", "s4"])
        #expect(OrderedModel.titles(jazz, "songs") == ["s2"])
        try rock.move(from: 3, to: 1, in: "songs")
        #expect(OrderedModel.titles(rock, "songs") == ["s5", "s4", "s3", "s1"])
        try rock.remove(try #require(rock.objects(forKey: "songs").last), from: "songs")
        let t2 = try #require(jazz.objects(forKey: "tags").first)
        try rock.insert(t2, at: 1, into: "tags")
        try c.save()
        let fresh = Context(store: store)
        #expect(OrderedModel.titles(try OrderedModel.playlist(fresh, "rock"), "songs") == ["s5", "s4", "s3"])
        #expect(OrderedModel.titles(try OrderedModel.playlist(fresh, "jazz"), "songs") == ["s2"])
        #expect(OrderedModel.titles(try OrderedModel.playlist(fresh, "rock"), "tags") == ["t3", "t2", "t1"])
        // Undo puts the order back.
        try rock.move(from: 0, to: 2, in: "songs")
        #expect(OrderedModel.titles(rock, "songs") == ["s4", "s3", "s5"])
        try c.undo()
        #expect(OrderedModel.titles(rock, "songs") == ["s5", "s4", "s3"])
    }

    @Test(arguments: TestEngine.available)
    func editsOfAnUnorderedRelationshipOrOutOfRangeAreRefused(engine: TestEngine) throws {
        let (_, c) = try OrderedModel.store(engine)
        let rock = try OrderedModel.playlist(c, "rock")
        let fan = try c.insert("Fan")
        #expect(throws: OrderedRelationshipError.self) { try rock.insert(fan, at: 0, into: "fans") }
        let s = try #require(rock.objects(forKey: "songs").first)
        #expect(throws: OrderedRelationshipError.self) { try rock.move(from: 0, to: 7, in: "songs") }
        #expect(throws: OrderedRelationshipError.self) { try rock.insert(s, at: 9, into: "songs") }
    }

    /// Subscripts on ordered to-manys: (entity, predicate, names expected).
    static let subscripts: [(String, String, [String])] = [
        ("Playlist", "songs[FIRST].title == 's3'", ["rock"]),
        ("Playlist", "songs[LAST].title == 's2'", ["jazz"]),
        ("Playlist", "songs[1].title == 's1'", ["rock"]),
        ("Playlist", "songs[SIZE] == 3", ["rock"]),
        ("Playlist", "tags[FIRST].name == 't3' OR tags[LAST].name == 't3'", ["jazz", "rock"]),
        ("Playlist", "tags[0].name == 't2'", ["jazz"]),
    ]

    @Test(arguments: TestEngine.available, subscripts.indices)
    func subscriptsAgreeInSQLAndMemory(engine: TestEngine, index: Int) throws {
        let (entity, predicate, expected) = Self.subscripts[index]
        let (store, _) = try OrderedModel.store(engine)
        let request = FetchRequest(entity: entity, predicate: try Parser.parsePredicate(predicate), sortDescriptors: [QuerySortDescriptor("name")])
        func names(_ objects: [ManagedObject]) -> [String] { objects.map { if case .string(let s)? = $0["name"] ?? nil { return s } else { return "?" } } }
        #expect(names(try Context(store: store).fetch(request)) == expected, "\(predicate)")
        #expect(names(try Context(store: store).fetch(request, engine: .memory)) == expected, "\(predicate)")
        let stored = try store.fetch(request).compactMap { o -> String? in if case .string(let s)? = o.value(forKey: "name") { return s } else { return nil } }
        #expect(stored == expected, "\(predicate)")
    }

    @Test func aModelWithoutOrderedRelationshipsHasNoOrderColumn() throws {
        let ordered = SchemaBuilder.createStatements(for: StoreMapping(model: OrderedModel.model))
        #expect(ordered.contains { $0.contains("\"_order_Playlist_songs\" INTEGER NOT NULL DEFAULT 0") && $0.hasPrefix("CREATE TABLE \"Song\"") })
        #expect(ordered.contains { $0.hasPrefix("CREATE TABLE \"_Playlist_tags\"") && $0.contains("\"position\"") })
        var plain = OrderedModel.model
        for e in plain.entities.indices {
            for r in plain.entities[e].relationships.indices { plain.entities[e].relationships[r].isOrdered = false }
        }
        let statements = SchemaBuilder.createStatements(for: StoreMapping(model: plain))
        #expect(!statements.contains { $0.contains("_order_") || $0.contains("position") })
    }

    /// Links the store makes itself join the end of the order.
    @Test(arguments: TestEngine.available)
    func storeInsertsAndLinksAppend(engine: TestEngine) throws {
        let (store, c) = try OrderedModel.store(engine)
        let rock = try OrderedModel.playlist(c, "rock")
        let s0 = try store.insert("Song", ["title": .string("s0")], toOne: ["playlist": rock.objectID])
        let t0 = try store.insert("Tag", ["name": .string("t0")])
        try store.link(rock.objectID, "tags", t0)
        let fresh = Context(store: store)
        #expect(OrderedModel.titles(try OrderedModel.playlist(fresh, "rock"), "songs") == ["s3", "s1", "s4", "s0"])
        #expect(OrderedModel.titles(try OrderedModel.playlist(fresh, "rock"), "tags") == ["t3", "t1", "t0"])
        _ = s0
    }
}

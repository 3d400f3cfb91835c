// Migrating Core Data stores (CoreDataMigration.swift). The oracle is Core
// Data itself: the wire-ios corpus holds stores written by successive
// versions of one model, so a store of version N migrated by Quarry to
// version N+1's model must have the tables, columns and Z_PRIMARYKEY of the
// store version N+1 wrote, and every object with its values. A hand-made
// store checks the rest: renumbered entities, a renamed attribute, a
// widened type, a new required attribute's default, links and order kept,
// keys handed out after the old Z_MAX, metadata, and refusals that leave
// the file byte-identical.
import Foundation
@testable import QuarryCoreData
import QuarryModel
import QuarrySQLite
import QuarryStore
import QuarrySyntax
import Testing

@Suite("Migrating a Core Data store", .serialized)
struct CoreDataMigrationTests {
    /// Consecutive wire-ios stores, each paired with its model version.
    static let wirePairs: [WirePair] = {
        func version(_ s: CorpusStore) -> [Int] {
            guard let r = s.store.range(of: "store") else { return [] }
            return s.store[r.upperBound...].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        }
        let wire = CoreDataCorpus.stores.filter { $0.store.hasPrefix("wireapp__") && $0.model != nil && $0.how.hasPrefix("NSStoreModelVersionIdentifiers") }
            .sorted { version($0).lexicographicallyPrecedes(version($1)) }
        return zip(wire, wire.dropFirst()).map { WirePair(old: $0, new: $1) }
    }()

    struct WirePair: Sendable, CustomTestStringConvertible {
        let old: CorpusStore, new: CorpusStore
        var testDescription: String { "\(old.store) → \(new.store)" }
    }

    /// Tables → columns and Z_PRIMARYKEY rows (numbers, names, parents). A
    /// self-referential many-to-many's join table (both key columns
    /// `Z_<n>…` of one entity) is keyed by its columns, not its name: Core
    /// Data names it after either side, unpredictably (COREDATA-STORES.md
    /// §4: its own fixtures flip between versions), and a migration keeps
    /// the store's choice.
    static func layout(_ path: String) throws -> (tables: [String: [String]], entities: [String]) {
        let c = try SQLiteConnection(path: path, options: .init(readOnly: true, create: false))
        defer { c.close() }
        var tables: [String: [String]] = [:]
        for row in try c.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'Z_MODELCACHE'") {
            guard case .string(let name) = row[0] else { continue }
            let columns: [String] = try c.query("SELECT name FROM pragma_table_info(?)", [.string(name)]).compactMap {
                if case .string(let s) = $0[0] { return s.uppercased() } else { return nil }
            }.sorted()
            let keys = columns.filter { !$0.hasPrefix("Z_FOK_") }
            let numbers = Set(keys.map { $0.dropFirst(2).prefix { $0.isNumber } })
            let selfJoin = name.uppercased().hasPrefix("Z_") && keys.count == 2 && keys.allSatisfy { $0.hasPrefix("Z_") } && numbers.count == 1
            tables[selfJoin ? "self-join " + keys.joined(separator: " ") : name.uppercased()] = columns
        }
        let entities = try c.query("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT").map { "\($0)" }
        return (tables, entities)
    }

    /// Every table's rows, its columns in name order (a column's place in
    /// its table aside), rows in order.
    static func contents(_ path: String) throws -> [String: [[Value]]] {
        let c = try SQLiteConnection(path: path, options: .init(readOnly: true, create: false))
        defer { c.close() }
        var out: [String: [[Value]]] = [:]
        for row in try c.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
            guard case .string(let name) = row[0] else { continue }
            let columns = try c.query("SELECT name FROM pragma_table_info(?)", [.string(name)]).compactMap { r -> String? in
                if case .string(let s) = r[0] { return s } else { return nil }
            }.sorted()
            let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            out[name.uppercased()] = try c.query("SELECT \(list) FROM \"\(name)\" ORDER BY \(list)")
        }
        return out
    }

    /// Whether a table is an entity table (it has `Z_OPT`).
    static func isEntityTable(_ table: String, in path: String) throws -> Bool {
        let c = try SQLiteConnection(path: path, options: .init(readOnly: true, create: false))
        defer { c.close() }
        return try c.query("SELECT 1 FROM pragma_table_info(?) WHERE name = 'Z_OPT'", [.string(table)]).count == 1
    }

    /// A value compared across stores: an object by its key.
    static func comparable(_ v: Value) -> Value {
        if case .object(let ref) = v, let o = ref.object as? StoredObject { return .int(o.id.primaryKey) }
        return v
    }

    /// Each object's stored attributes, by entity and key, through Quarry's read path.
    static func objects(_ store: SQLStore, entity: String, keys: [String]) throws -> [Int64: [Value]] {
        var out: [Int64: [Value]] = [:]
        for o in try store.fetch(FetchRequest(entity: entity)) where o.id.entity == entity {
            out[o.id.primaryKey] = keys.map { o.value(forKey: $0) ?? .null }
        }
        return out
    }

    @Test(.enabled(if: CoreDataCorpus.stores.isEmpty))
    func corpusAbsent() {
        print("SKIPPED CoreDataMigrationTests wire pairs: ../shared/corpus is absent; migrating real Core Data stores is NOT checked")
    }

    @Test(arguments: wirePairs)
    func aWireStoreMigratesToWhatCoreDataWroteForTheNextVersion(pair: WirePair) throws {
        let scratch = Scratch()
        let original = CoreDataCorpus.storesFolder.appendingPathComponent(pair.old.store).path
        let path = try scratch.copyStore(original, as: "old.sqlite")
        let modelPath = try #require(CoreDataCorpus.modelPath(pair.new))
        let oldOpened = try CoreDataStore.open(path: try scratch.copyStore(original, as: "before.sqlite"))
        defer { oldOpened.store.database.close() }

        let migration = try CoreDataStore.migrate(path: path, modelPath: modelPath)
        // The copy, forced, must leave what the in-place path left.
        let copied = try scratch.copyStore(original, as: "copied.sqlite")
        if migration.inPlace {
            let byCopy = try CoreDataStore.migrate(path: copied, modelPath: modelPath, fromModelPath: nil, dryRun: false, forceCopy: true)
            #expect(!byCopy.inPlace && byCopy.steps.count > migration.steps.count)
        } else if !migration.isCurrent {
            try FileManager.default.removeItem(atPath: copied)
            try FileManager.default.copyItem(atPath: path, toPath: copied)
        }
        // Entity tables through the read path (a column another entity of the
        // table owns may keep a value in place that the copy leaves NULL:
        // nothing reads it); the other tables row for row.
        let (inPlaceRows, copiedRows) = (try Self.contents(path), try Self.contents(copied))
        let differing = Set(inPlaceRows.keys).union(copiedRows.keys).filter { inPlaceRows[$0] != copiedRows[$0] }
            .filter { !(inPlaceRows[$0]?.isEmpty == false && (try? Self.isEntityTable($0, in: path)) == true) }.sorted()
        #expect(differing.isEmpty, "in place (\(migration.inPlace)) and by copy: the same join tables, keys and metadata; differing: \(differing)")
        if migration.inPlace {
            let a = try CoreDataStore.open(path: path, modelPath: modelPath), b = try CoreDataStore.open(path: copied, modelPath: modelPath)
            defer { a.store.database.close(); b.store.database.close() }
            for entity in a.store.model.entities where !entity.isAbstract {
                let keys = entity.allAttributes(in: a.store.model).filter { !$0.isTransient }.map(\.name)
                    + entity.allRelationships(in: a.store.model).filter { !$0.isTransient && !$0.isToMany }.map(\.name)
                let left = try Self.objects(a.store, entity: entity.name, keys: keys), right = try Self.objects(b.store, entity: entity.name, keys: keys)
                #expect(left.mapValues { $0.map(Self.comparable) } == right.mapValues { $0.map(Self.comparable) }, "\(entity.name): in place and by copy, the same objects")
            }
        }
        let z = try SQLiteConnection(path: path, options: .init(readOnly: true, create: false))
        #expect(try z.query("PRAGMA integrity_check").first?.first == .string("ok"))
        z.close()

        // The layout Core Data gave the next version's own store — but for
        // store2-65, which has two columns its paired model version lacks
        // (the fixture was written by a later model).
        let native = try Self.layout(CoreDataCorpus.storesFolder.appendingPathComponent(pair.new.store).path)
        let migrated = try Self.layout(path)
        let known = pair.old.store.contains("store2-64-0.")
        if !known {
            #expect(migrated.tables == native.tables, "tables and columns as Core Data laid out \(pair.new.store)")
        }
        #expect(migrated.entities == native.entities || migration.isCurrent, "Z_PRIMARYKEY as in \(pair.new.store)")
        if !migration.isCurrent {
            let cache = try SQLiteConnection(path: path, options: .init(readOnly: true, create: false))
            #expect(try cache.query("SELECT count(*) FROM Z_MODELCACHE").first?.first == .int(0), "the cached model, the old one's, is gone")
            cache.close()
        }

        // Every object, with every attribute both versions store, through the read path.
        let newOpened = try CoreDataStore.open(path: path, modelPath: modelPath)
        defer { newOpened.store.database.close() }
        var compared = 0
        for entity in newOpened.store.model.entities where !entity.isAbstract {
            guard let was = migration.difference.oldEntity(for: entity.name) ?? (migration.isCurrent ? oldOpened.store.model.entity(named: entity.name) : nil)
            else { continue }
            let keys = entity.allAttributes(in: newOpened.store.model).filter { a in
                !a.isTransient && a.type != .transformable
                    && was.allAttributes(in: oldOpened.store.model).contains { $0.name == a.name && $0.type == a.type }
            }.map(\.name)
            let before = try Self.objects(oldOpened.store, entity: was.name, keys: keys)
            let after = try Self.objects(newOpened.store, entity: entity.name, keys: keys)
            #expect(after == before, "\(entity.name): objects and values kept")
            compared += before.count
        }
        print("CORE-DATA-MIGRATION \(pair.testDescription): \(migration.difference.changes.count) changes, \(migration.isCurrent ? "already current" : migration.inPlace ? "in place" : "by copy"), \(migration.steps.count) statements, \(compared) objects compared")
    }

    // MARK: - A hand-made store

    /// Version 8 of SyntheticStoreTests' model: a new entity that sorts first
    /// (every number moves up one), Person.title renamed (its elementID), a
    /// required Person.rank with a default, Company.founded widened to Double.
    static let version8 = SyntheticStoreTests.modelXML
        .replacingOccurrences(of: "userDefinedModelVersionIdentifier=\"7\"", with: "userDefinedModelVersionIdentifier=\"8\"")
        .replacingOccurrences(of: "<entity name=\"Party\" isAbstract=\"YES\">", with: """
            <entity name="Album">
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>
                <entity name="Party" isAbstract="YES">
            """)
        .replacingOccurrences(of: "<attribute name=\"founded\" optional=\"YES\" attributeType=\"Integer 32\" usesScalarValueType=\"YES\"/>",
                              with: "<attribute name=\"founded\" optional=\"YES\" attributeType=\"Double\" usesScalarValueType=\"YES\"/>")
        .replacingOccurrences(of: "<attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/>\n        <relationship name=\"employer\"",
                              with: "<attribute name=\"honorific\" optional=\"YES\" attributeType=\"String\" elementID=\"title\"/>\n        <attribute name=\"rank\" attributeType=\"Integer 16\" defaultValueString=\"3\" usesScalarValueType=\"YES\"/>\n        <relationship name=\"employer\"")

    static func write(_ text: String, in scratch: Scratch, as name: String) throws -> String {
        let path = scratch.path(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aHandMadeStoreMigratesWithEveryObjectLinkAndKey() throws {
        let scratch = Scratch()
        let path = try SyntheticStoreTests.make(in: scratch, checkpointed: false)
        #expect(Self.version8.contains("honorific") && Self.version8.contains("Album") && Self.version8.contains("\"Double\""))
        let v7 = try Self.write(SyntheticStoreTests.modelXML, in: scratch, as: "v7.xml")
        let v8 = try Self.write(Self.version8, in: scratch, as: "v8.xml")
        // The copy read as version 7 takes the external data files along.
        let copy = try scratch.copyStore(path, as: "before.sqlite")
        try FileManager.default.copyItem(at: ExternalBinaryStorage.folder(forStoreAt: path), to: ExternalBinaryStorage.folder(forStoreAt: copy))
        let before = try SQLStore(coreDataStore: copy, model: SyntheticStoreTests.model)
        defer { before.database.close() }

        let migration = try CoreDataStore.migrate(path: path, modelPath: v8, fromModelPath: v7)
        #expect(!migration.isCurrent)
        let z = try CoreDataWritableTests.Z(path)
        #expect(try z.value("PRAGMA integrity_check") == .string("ok"))
        // Album is 1 now; Party 2 (Company 3, Person 4); Tag 5. Keys kept: Party's Z_MAX was 3.
        let keys = try z.keys()
        #expect(keys.mapValues(\.name) == [1: "Album", 2: "Party", 3: "Company", 4: "Person", 5: "Tag"])
        #expect(keys[2]?.max == 3 && keys[5]?.max == 2)
        #expect(try z.int("SELECT count(*) FROM ZPARTY WHERE Z_ENT NOT IN (3, 4)") == 0)
        // The join table follows Party's and Tag's new numbers.
        let schema = try z.schema()
        #expect(schema["Z_2TAGS"] == "table" && schema["Z_1TAGS"] == nil)
        let oldZ = try CoreDataWritableTests.Z(scratch.path("before.sqlite"))
        let oldLinks = try oldZ.int("SELECT count(*) FROM Z_1TAGS")
        oldZ.c.close()
        let newLinks = try z.int("SELECT count(*) FROM Z_2TAGS")
        #expect(oldLinks ?? 0 > 0 && newLinks == oldLinks)
        // Metadata: the new model's hashes and identifier; the cache, which described v7, is gone.
        let opened = try CoreDataStore.open(path: path, modelPath: v8)
        defer { opened.store.database.close() }
        let model8 = try ModelReader.read(xml: Self.version8)
        #expect(opened.metadata.versionHashes == CoreDataVersionHash.coveredHashes(model8))
        #expect(opened.metadata.versionIdentifiers == ["8"])
        z.c.close()

        // Every object and value, through the read path of each version.
        let people = try Self.objects(before, entity: "Person", keys: ["name", "title", "birth", "score", "photo"])
        let migrated = try Self.objects(opened.store, entity: "Person", keys: ["name", "honorific", "birth", "score", "photo"])
        #expect(!people.isEmpty && migrated == people)
        #expect(people.values.contains { $0[4] == .data(Array("external bytes".utf8)) }, "an externally stored photo is read through the migrated store")
        let ranks = try Self.objects(opened.store, entity: "Person", keys: ["rank"])
        #expect(ranks.values.allSatisfy { $0 == [.int(3)] })
        let founded = try Self.objects(opened.store, entity: "Company", keys: ["founded"])
        let foundedBefore = try Self.objects(before, entity: "Company", keys: ["founded"])
        #expect(founded.mapValues { $0.map { v -> Value in if case .double(let d) = v { return .int(Int64(d)) } else { return v } } } == foundedBefore)
        // Links: tags, the ordered staff, the to-one into the hierarchy (its companion renumbered).
        let context = Context(store: opened.store), old = Context(store: before)
        for entity in ["Company", "Person", "Tag"] {
            for (o, w) in zip(try context.fetch(FetchRequest(entity: entity, sortDescriptors: [QuerySortDescriptor("name")])),
                              try old.fetch(FetchRequest(entity: entity, sortDescriptors: [QuerySortDescriptor("name")]))) {
                for r in ["tags", "staff", "parties", "friend", "employer"] where o.entity.relationship(named: r, in: opened.store.model) != nil {
                    #expect(Self.links(o.value(forKey: r)) == Self.links(w.value(forKey: r)), "\(entity).\(r) of \(String(describing: o.value(forKey: "name")))")
                }
            }
        }
        #expect(try friendCompanion(path) == 4, "Person.friend's Z2_FRIEND holds Ann's new entity number")
    }

    /// The keys an object's relationship holds: in order for an ordered one,
    /// sorted for a set.
    static func links(_ value: Value?) -> [Int64] {
        func key(_ v: Value) -> Int64? {
            if case .object(let ref) = v, let o = ref.object as? ManagedObject { return o.objectID.primaryKey }
            return nil
        }
        switch value ?? .null {
        case .object: return key(value!).map { [$0] } ?? []
        case .array(let vs), .orderedSet(let vs): return vs.compactMap(key)
        case .set(let vs): return vs.compactMap(key).sorted()
        default: return []
        }
    }

    /// The entity number in Ann's friend column's companion (a row whose friend is set).
    private func friendCompanion(_ path: String) throws -> Int64? {
        let z = try CoreDataWritableTests.Z(path)
        defer { z.c.close() }
        return try z.int("SELECT Z2_FRIEND FROM ZPARTY WHERE ZFRIEND IS NOT NULL LIMIT 1")
    }

    @Test func aStoreMigratedWritableHandsOutKeysAfterTheOldOnes() throws {
        let scratch = Scratch()
        let path = try SyntheticStoreTests.make(in: scratch, checkpointed: true)
        let v7 = try Self.write(SyntheticStoreTests.modelXML, in: scratch, as: "v7.xml")
        let v8 = try Self.write(Self.version8, in: scratch, as: "v8.xml")
        try CoreDataStore.migrate(path: path, modelPath: v8, fromModelPath: v7)
        let store = try SQLStore(coreDataStore: path, model: try ModelReader.read(xml: Self.version8), writable: true)
        let context = Context(store: store)
        let dee = try context.insert("Person")
        try dee.setValue(.string("Dee"), forKey: "name")
        let album = try context.insert("Album")
        try album.setValue(.string("Blue"), forKey: "name")
        try context.save()
        #expect(dee.objectID.primaryKey == 4, "Party's keys go on from its old Z_MAX (3)")
        #expect(album.objectID.primaryKey == 1)
        #expect(try store.count(FetchRequest(entity: "Person", predicate: try Parser.parsePredicate("rank == 3"))) == 3)
        store.database.close()
    }

    /// In place where only columns change: a new attribute with its default,
    /// a rename; and the copy when a new attribute takes a renamed one's old
    /// column name (in place, the old column would still be there).
    @Test(arguments: [
        ("a new attribute with a default", "<attribute name=\"score\" optional=\"YES\"",
         "<attribute name=\"level\" attributeType=\"Integer 16\" defaultValueString=\"7\" usesScalarValueType=\"YES\"/>\n        <attribute name=\"score\" optional=\"YES\"", true),
        ("a rename", "<attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/>\n        <relationship name=\"employer\"",
         "<attribute name=\"honorific\" optional=\"YES\" attributeType=\"String\" elementID=\"title\"/>\n        <relationship name=\"employer\"", true),
        ("a rename whose old name a new attribute takes", "<attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/>\n        <relationship name=\"employer\"",
         "<attribute name=\"honorific\" optional=\"YES\" attributeType=\"String\" elementID=\"title\"/>\n        <attribute name=\"title\" optional=\"YES\" attributeType=\"String\" elementID=\"newTitle\"/>\n        <relationship name=\"employer\"", false),
    ])
    func columnChangesAreMadeInPlaceWhereTheyCanBe(label: String, from: String, to: String, inPlace: Bool) throws {
        let scratch = Scratch()
        let path = try SyntheticStoreTests.make(in: scratch, checkpointed: true)
        #expect(SyntheticStoreTests.modelXML.contains(from), "\(label): the edit applies")
        let v7 = try Self.write(SyntheticStoreTests.modelXML, in: scratch, as: "v7.xml")
        let text = SyntheticStoreTests.modelXML.replacingOccurrences(of: from, with: to)
        let v8 = try Self.write(text, in: scratch, as: "v8.xml")
        let before = try SQLStore(coreDataStore: try scratch.copyStore(path, as: "before.sqlite"), model: SyntheticStoreTests.model)
        defer { before.database.close() }
        let migration = try CoreDataStore.migrate(path: path, modelPath: v8, fromModelPath: v7)
        #expect(migration.inPlace == inPlace, "\(label)")
        let z = try CoreDataWritableTests.Z(path)
        #expect(try z.value("PRAGMA integrity_check") == .string("ok"))
        z.c.close()
        let opened = try CoreDataStore.open(path: path, modelPath: v8)
        defer { opened.store.database.close() }
        let renamed = text.contains("honorific")
        let people = try Self.objects(opened.store, entity: "Person", keys: ["name", renamed ? "honorific" : "title", "score"])
        #expect(people == (try Self.objects(before, entity: "Person", keys: ["name", "title", "score"])), "\(label): every person's values")
        if text.contains("level") {
            #expect(try Self.objects(opened.store, entity: "Person", keys: ["level"]).values.allSatisfy { $0 == [.int(7)] })
        }
        if text.contains("newTitle") {
            #expect(try Self.objects(opened.store, entity: "Person", keys: ["title"]).values.allSatisfy { $0 == [.null] }, "the new title starts empty")
        }
    }

    /// Refusals: nothing runs, the file stays byte-identical.
    @Test(arguments: [
        ("a to-one made to-many", "<relationship name=\"friend\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Party\"/>",
         "<relationship name=\"friend\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\" destinationEntity=\"Party\"/>", "friend"),
        ("a string made a date", "<attribute name=\"name\" optional=\"YES\" attributeType=\"String\"/>\n        <relationship name=\"parties\"",
         "<attribute name=\"name\" optional=\"YES\" attributeType=\"Date\"/>\n        <relationship name=\"parties\"", "Tag.name"),
        ("a new required attribute without a default", "<attribute name=\"score\" optional=\"YES\"",
         "<attribute name=\"level\" attributeType=\"Integer 16\" usesScalarValueType=\"YES\"/>\n        <attribute name=\"score\" optional=\"YES\"", "level"),
    ])
    func aChangeTheCopyCannotMakeIsRefusedWithNothingWritten(label: String, from: String, to: String, named: String) throws {
        let scratch = Scratch()
        let path = try SyntheticStoreTests.make(in: scratch, checkpointed: false)
        #expect(SyntheticStoreTests.modelXML.contains(from), "\(label): the edit applies")
        let v7 = try Self.write(SyntheticStoreTests.modelXML, in: scratch, as: "v7.xml")
        let v8 = try Self.write(SyntheticStoreTests.modelXML.replacingOccurrences(of: from, with: to), in: scratch, as: "v8.xml")
        let files = { try ["", "-wal", "-shm"].map { FileManager.default.contents(atPath: path + $0) } }
        let before = try files()
        #expect(throws: MigrationError.self, "\(label)") { try CoreDataStore.migrate(path: path, modelPath: v8, fromModelPath: v7) }
        do { try CoreDataStore.migrate(path: path, modelPath: v8, fromModelPath: v7) } catch {
            #expect("\(error)".contains(named) && "\(error)".contains("nothing was changed"), "\(label): \(error)")
        }
        #expect(try files() == before, "\(label): the store's files are byte-identical")
    }

    @Test func aDryRunPlansAndWritesNothing() throws {
        let scratch = Scratch()
        let path = try SyntheticStoreTests.make(in: scratch, checkpointed: false)
        let v7 = try Self.write(SyntheticStoreTests.modelXML, in: scratch, as: "v7.xml")
        let v8 = try Self.write(Self.version8, in: scratch, as: "v8.xml")
        let files = { try ["", "-wal", "-shm"].map { FileManager.default.contents(atPath: path + $0) } }
        let before = try files()
        let plan = try CoreDataStore.migrate(path: path, modelPath: v8, fromModelPath: v7, dryRun: true)
        #expect(plan.steps.contains { $0.sql.hasPrefix("CREATE TABLE ZALBUM") })
        #expect(plan.steps.contains { $0.sql.hasPrefix("INSERT INTO ZPARTY") && $0.sql.contains("ZTITLE") })
        #expect(try files() == before)
        // Migrating to the model the store already has does nothing.
        #expect(try CoreDataStore.migrate(path: path, modelPath: v7, fromModelPath: v7).isCurrent)
        #expect(try files() == before)
    }
}

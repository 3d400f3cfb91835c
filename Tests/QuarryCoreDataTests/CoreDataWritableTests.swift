// A Core Data store opened writable (`SQLStore(coreDataStore:model:writable:
// true)`): a context's saves and the batch requests write the Z-tables, and
// every invariant Core Data relies on is checked by hand-written SQL on the
// file afterwards — keys from the root entity's Z_PRIMARYKEY.Z_MAX (moved,
// never reused; sub-entities' rows untouched), Z_ENT, Z_OPT (1 after
// insert, +1 per save), the to-one companion column, join rows, ordering
// columns, values as Core Data encodes them, Z_METADATA byte-identical,
// nothing but Core Data's tables in sqlite_master, integrity_check ok — and
// the store reopened read-only reads back what was written, on both
// engines. A refused write (a value for an app's own transformer) leaves the file as it
// was. On the hand-made store (SyntheticStoreTests: inheritance, a
// companion column, an ordered to-many, a many-to-many, tagged binary, rows
// in the -wal) and on corpus stores (Moody's hierarchy; a wire store's
// ordered many-to-many). All on copies in a scratch folder.
import Foundation
@testable import QuarryCoreData
import QuarryModel
import QuarrySQLite
import QuarryStore
import QuarrySyntax
import Testing

@Suite("Writing a Core Data store", .serialized)
struct CoreDataWritableTests {
    /// The hand-written side: the file's Z-tables read with plain SQL.
    struct Z {
        let c: SQLiteConnection
        init(_ path: String) throws { c = try SQLiteConnection(path: path, options: .init(readOnly: true, create: false)) }
        func int(_ sql: String, _ arguments: [Value] = []) throws -> Int64? {
            if case .int(let n)? = try c.query(sql, arguments).first?.first { return n }
            return nil
        }
        func value(_ sql: String, _ arguments: [Value] = []) throws -> Value? { try c.query(sql, arguments).first?.first }
        func rows(_ sql: String) throws -> [[Value]] { try c.query(sql) }
        /// name → type of every schema object.
        func schema() throws -> [String: String] {
            var out: [String: String] = [:]
            for row in try c.query("SELECT name, type FROM sqlite_master") {
                if case .string(let n) = row[0], case .string(let t) = row[1] { out[n] = t }
            }
            return out
        }
        /// Z_PRIMARYKEY: Z_ENT → (name, super, max).
        func keys() throws -> [Int64: (name: String, parent: Int64, max: Int64)] {
            var out: [Int64: (String, Int64, Int64)] = [:]
            for row in try c.query("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY") {
                if case .int(let e) = row[0], case .string(let n) = row[1], case .int(let s) = row[2], case .int(let m) = row[3] { out[e] = (n, s, m) }
            }
            return out
        }
        func bookkeeping() throws -> [[Value]] { try c.query("SELECT * FROM Z_METADATA") + ((try? c.query("SELECT * FROM Z_MODELCACHE")) ?? []) }
    }

    /// What must hold of any store Quarry wrote, against the same store before.
    static func checkInvariants(_ path: String, before: (schema: [String: String], keys: [Int64: (name: String, parent: Int64, max: Int64)], bookkeeping: [[Value]]),
                                label: String) throws {
        let z = try Z(path)
        defer { z.c.close() }
        #expect(try z.value("PRAGMA integrity_check") == .string("ok"), "\(label): integrity_check")
        #expect(try z.schema() == before.schema, "\(label): sqlite_master changed (nothing of Quarry's may be created)")
        #expect(try z.bookkeeping() == before.bookkeeping, "\(label): Z_METADATA / Z_MODELCACHE changed")
        let keys = try z.keys()
        for (number, row) in keys where number < 16000 {
            if row.parent != 0 {
                // Core Data advances the root's row only (every corpus store with inheritance).
                #expect(row.max == before.keys[number]?.max, "\(label): \(row.name)'s Z_MAX moved (sub-entity)")
                continue
            }
            #expect(row.max >= before.keys[number]?.max ?? 0, "\(label): \(row.name)'s Z_MAX went back")
            let table = "Z" + row.name.uppercased()
            guard before.schema[table] == "table" else { continue }
            let highest = try z.int("SELECT max(Z_PK) FROM \"\(table)\"") ?? 0
            #expect(row.max >= highest, "\(label): \(table) holds Z_PK \(highest) above Z_MAX \(row.max)")
            let badOpt = try z.int("SELECT count(*) FROM \"\(table)\" WHERE Z_OPT IS NULL OR Z_OPT < 1") ?? -1
            #expect(badOpt == 0, "\(label): \(table) rows without a Z_OPT")
        }
    }

    static func state(_ path: String) throws -> (schema: [String: String], keys: [Int64: (name: String, parent: Int64, max: Int64)], bookkeeping: [[Value]]) {
        let z = try Z(path)
        defer { z.c.close() }
        return (try z.schema(), try z.keys(), try z.bookkeeping())
    }

    static func sha256(_ path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "absent" }
        return SHA2.sha256(Array(data)).map { String(format: "%02x", $0) }.joined()
    }

    static func names(_ objects: [ManagedObject], _ key: String = "name") -> [String] {
        objects.compactMap { if case .string(let s)? = $0.value(forKey: key) { return s } else { return nil } }
    }

    // MARK: - The hand-made store

    @Test func contextSaveKeepsTheInvariants() throws {
        let scratch = Scratch()
        // Rows still in the -wal: the real file is opened, so they are seen.
        let path = try SyntheticStoreTests.make(in: scratch, checkpointed: false)
        #expect(((try FileManager.default.attributesOfItem(atPath: path + "-wal"))[.size] as? NSNumber)?.intValue ?? 0 > 0, "the app's rows are in the -wal")
        let before = try Self.state(path)
        let store = try SQLStore(coreDataStore: path, model: SyntheticStoreTests.model, writable: true)
        #expect(try store.count(FetchRequest(entity: "Party")) == 3, "the rows still in the -wal are seen")
        let context = Context(store: store)
        let acme = try #require(try context.fetch(FetchRequest(entity: "Company")).first)
        let ann = try #require(try context.fetch(FetchRequest(entity: "Person", predicate: try Parser.parsePredicate("name == 'Ann'"))).first)
        let bob = try #require(try context.fetch(FetchRequest(entity: "Person", predicate: try Parser.parsePredicate("name == 'Bob'"))).first)
        let red = try #require(try context.fetch(FetchRequest(entity: "Tag", predicate: try Parser.parsePredicate("name == 'red'"))).first)
        let birth = Date(timeIntervalSinceReferenceDate: 123_456.25)
        let id = UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF")!
        let cy = try context.insert("Person")
        try cy.setValue(.string("Cy"), forKey: "name")
        try cy.setValue(.bool(true), forKey: "active")
        try cy.setValue(.date(birth.timeIntervalSinceReferenceDate), forKey: "birth")
        try cy.setValue(.uuid(id), forKey: "id")
        try cy.setValue(.data([0x00, 0xFF, 0x41]), forKey: "photo")
        try cy.setValue(.double(2.5), forKey: "score")
        try cy.setValue(.string("Prof"), forKey: "title")
        try cy.setValue(ann, forKey: "friend")
        try cy.add(red, to: "tags")
        // First in Acme's ordered staff.
        try acme.insert(cy, at: 0, into: "staff")
        let beta = try context.insert("Company")
        try beta.setValue(.string("Beta"), forKey: "name")
        try ann.setValue(.string("Anne"), forKey: "name")
        try context.delete(bob)
        try context.save()
        store.database.close()

        try Self.checkInvariants(path, before: before, label: "hand-made")
        let z = try Z(path)
        defer { z.c.close() }
        // Keys 4 and 5 from Party's Z_MAX (3), which is now 5; Tag's untouched.
        let keys = try z.keys()
        #expect(keys[1]?.max == 5 && keys[2]?.max == 0 && keys[3]?.max == 0 && keys[4]?.max == 2)
        let cyRow = try z.c.query("SELECT Z_PK, Z_ENT, Z_OPT, ZACTIVE, ZBIRTH, ZID, ZPHOTO, ZSCORE, ZTITLE1, ZFRIEND, Z1_FRIEND, ZEMPLOYER, Z_FOK_EMPLOYER FROM ZPARTY WHERE ZNAME = 'Cy'")
        let row = try #require(cyRow.first)
        #expect([4, 5].contains(row[0]), "Cy's Z_PK: \(row[0])")
        #expect(row[1] == .int(3) && row[2] == .int(1), "Z_ENT Person, Z_OPT 1 after insert")
        #expect(row[3] == .int(1))
        #expect(row[4] == .date(123_456.25), "a date as seconds since 2001 (TIMESTAMP reads back as a date)")
        #expect(try z.value("SELECT typeof(ZBIRTH) || ':' || ZBIRTH FROM ZPARTY WHERE ZNAME = 'Cy'") == .string("real:123456.25"))
        #expect(row[5] == .data(withUnsafeBytes(of: id.uuid) { Array($0) }), "UUID as 16 raw bytes")
        #expect(row[6] == .data([0x01, 0x00, 0xFF, 0x41]), "external-storage binary inline behind the 0x01 tag")
        #expect(row[7] == .double(2.5))
        #expect(row[8] == .string("Prof"), "Person's title is ZTITLE1")
        #expect(row[9] == .int(1) && row[10] == .int(3), "friend Ann with her Z_ENT in Z1_FRIEND")
        #expect(row[11] == .int(3))
        let betaRow = try z.c.query("SELECT Z_PK, Z_ENT, Z_OPT FROM ZPARTY WHERE ZNAME = 'Beta'")
        #expect(betaRow.first?[1] == .int(2) && betaRow.first?[2] == .int(1))
        #expect(Set([row[0], betaRow.first?[0]]) == [.int(4), .int(5)])
        // Ann updated: Z_OPT 2; Bob deleted, with his join rows.
        #expect(try z.int("SELECT Z_OPT FROM ZPARTY WHERE ZNAME = 'Anne'") == 2)
        #expect(try z.int("SELECT count(*) FROM ZPARTY WHERE Z_PK = 2") == 0)
        // Acme's staff in order Cy, Ann by Z_FOK_EMPLOYER.
        let staff = try z.c.query("SELECT ZNAME FROM ZPARTY WHERE ZEMPLOYER = 3 ORDER BY Z_FOK_EMPLOYER")
        #expect(staff.map { $0[0] } == [.string("Cy"), .string("Anne")])
        #expect(try z.int("SELECT count(*) FROM Z_1TAGS WHERE Z_1PARTIES = ? AND Z_4TAGS = 1", [row[0]]) == 1)
        #expect(try z.int("SELECT count(*) FROM Z_1TAGS") == 4)

        // Read back, read-only, on both engines.
        let reopened = try SQLStore(coreDataStore: path, model: SyntheticStoreTests.model)
        defer { reopened.database.close() }
        for engine in FetchEngine.allCases {
            reopened.forgetObjects()
            let people = try reopened.fetch(FetchRequest(entity: "Person", predicate: try Parser.parsePredicate("name == 'Cy'")), engine: engine)
            let p = try #require(people.first)
            #expect(p.value(forKey: "birth") == .date(123_456.25))
            #expect(p.value(forKey: "id") == .uuid(id))
            #expect(p.value(forKey: "photo") == .data([0x00, 0xFF, 0x41]))
            #expect(p.value(forKey: "active") == .bool(true))
            #expect(SyntheticStoreTests.names(p.value(forKey: "friend")) == ["Anne"])
            #expect(SyntheticStoreTests.names(p.value(forKey: "tags")) == ["red"])
            let company = try reopened.fetch(FetchRequest(entity: "Company", predicate: try Parser.parsePredicate("name == 'Acme'")), engine: engine)
            #expect(SyntheticStoreTests.names(company.first?.value(forKey: "staff"), sorted: false) == ["Cy", "Anne"])
            let all = try reopened.fetch(FetchRequest(entity: "Party", sortDescriptors: [QuerySortDescriptor("name")]), engine: engine)
            #expect(all.compactMap { if case .string(let s)? = $0.value(forKey: "name") { return s } else { return nil } } == ["Acme", "Anne", "Beta", "Cy"])
        }
    }

    @Test func batchRequestsKeepTheInvariants() throws {
        let scratch = Scratch()
        let path = try SyntheticStoreTests.make(in: scratch, checkpointed: true)
        let before = try Self.state(path)
        let store = try SQLStore(coreDataStore: path, model: SyntheticStoreTests.model, writable: true)
        #expect(try store.batchUpdate(entity: "Person", predicate: try Parser.parsePredicate("name == 'Ann'"), set: [("score", try Parser.parseExpression("9"))]) == 1)
        let inserted = try store.batchInsert("Tag", objects: [["name": .string("green")], ["name": .string("grey")]], resultType: .objectIDs)
        #expect(inserted == .objectIDs([ObjectID(entity: "Tag", primaryKey: 3), ObjectID(entity: "Tag", primaryKey: 4)]))
        _ = try store.insert("Person", ["name": .string("Dee")])
        #expect(try store.batchDelete(entity: "Tag", predicate: try Parser.parsePredicate("name == 'red'")) == 1)
        store.database.close()

        try Self.checkInvariants(path, before: before, label: "hand-made, batches")
        let z = try Z(path)
        defer { z.c.close() }
        #expect(try z.int("SELECT Z_OPT FROM ZPARTY WHERE ZNAME = 'Ann'") == 2, "batch update: Z_OPT + 1")
        #expect(try z.value("SELECT ZSCORE FROM ZPARTY WHERE ZNAME = 'Ann'") == .double(9))
        #expect(try z.int("SELECT Z_OPT FROM ZPARTY WHERE ZNAME = 'Bob'") == 1, "rows not written keep their Z_OPT")
        #expect(try z.rows("SELECT Z_PK, Z_ENT, Z_OPT FROM ZTAG WHERE ZNAME IN ('green', 'grey') ORDER BY Z_PK")
                == [[.int(3), .int(4), .int(1)], [.int(4), .int(4), .int(1)]])
        #expect(try z.rows("SELECT Z_PK, Z_ENT, Z_OPT FROM ZPARTY WHERE ZNAME = 'Dee'") == [[.int(4), .int(3), .int(1)]])
        let keys = try z.keys()
        #expect(keys[4]?.max == 4 && keys[1]?.max == 4)
        #expect(try z.int("SELECT count(*) FROM ZTAG WHERE ZNAME = 'red'") == 0)
        #expect(try z.int("SELECT count(*) FROM Z_1TAGS WHERE Z_4TAGS = 1") == 0, "the deleted tag's join rows")
    }

    /// A key is never reused: a deleted row's key stays spent.
    @Test func keysAreNeverReused() throws {
        let scratch = Scratch()
        let path = try SyntheticStoreTests.make(in: scratch, checkpointed: true)
        let store = try SQLStore(coreDataStore: path, model: SyntheticStoreTests.model, writable: true)
        let first = try store.insert("Tag", ["name": .string("a")])
        _ = try store.batchDelete(objectIDs: [first])
        let second = try store.insert("Tag", ["name": .string("b")])
        #expect(first.primaryKey == 3 && second.primaryKey == 4)
        store.database.close()
        let z = try Z(path)
        defer { z.c.close() }
        #expect(try z.keys()[4]?.max == 4)
    }

    /// What Core Data could not read back is refused, and nothing is written:
    /// the store's file and -wal hash the same before and after.
    @Test func aRefusedWriteLeavesTheFileAsItWas() throws {
        let scratch = Scratch()
        // Tag.extra under an app's own transformer: Quarry cannot write its format.
        let (path, model) = try TransformableFidelityTests.transformableTagStore(in: scratch, transformer: "AppColorTransformer")
        let store = try SQLStore(coreDataStore: path, model: model, writable: true)
        let hashes = { [Self.sha256(path), Self.sha256(path + "-wal")] }
        let before = hashes()
        let context = Context(store: store)
        let tag = try context.insert("Tag")
        try tag.setValue(.string("new"), forKey: "name")
        try tag.setValue(.data([1, 2, 3]), forKey: "extra")
        let ann = try #require(try context.fetch(FetchRequest(entity: "Person", predicate: try Parser.parsePredicate("name == 'Ann'"))).first)
        try ann.setValue(.string("changed"), forKey: "name")
        do {
            try context.save()
            Issue.record("a transformable value was written")
        } catch {
            #expect("\(error)".contains("transformable"), "\(error)")
        }
        #expect(hashes() == before, "the refused save changed the store")
        #expect(try store.count(FetchRequest(entity: "Person", predicate: try Parser.parsePredicate("name == 'changed'"))) == 0)
        // A batch update of the transformable column is refused the same way.
        #expect(throws: (any Error).self) {
            _ = try store.batchUpdate(entity: "Tag", predicate: nil, set: [("extra", try Parser.parseExpression("'x'"))])
        }
        // Persistent history would need Quarry's tables in the file.
        #expect(throws: HistoryError.self) { try store.setHistoryTracking(true) }
        #expect(hashes() == before)
        store.database.close()
    }

    /// A store writing cannot keep Core Data's invariants in (an entity
    /// table without Z_OPT) is refused writable, with nothing written, and
    /// still opens read-only.
    @Test func aStoreWithoutZOPTIsRefusedWritable() throws {
        let scratch = Scratch()
        let statements = SyntheticStoreTests.statements.map {
            $0.replacingOccurrences(of: "CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR)",
                                    with: "CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZNAME VARCHAR)")
                .replacingOccurrences(of: "INSERT INTO ZTAG VALUES (1, 4, 1, 'red'), (2, 4, 1, 'blue')",
                                      with: "INSERT INTO ZTAG VALUES (1, 4, 'red'), (2, 4, 'blue')")
        }
        #expect(statements != SyntheticStoreTests.statements)
        let path = try SyntheticStoreTests.make(in: scratch, checkpointed: true, statements: statements)
        let hashes = { [Self.sha256(path), Self.sha256(path + "-wal")] }
        let before = hashes()
        do {
            _ = try SQLStore(coreDataStore: path, model: SyntheticStoreTests.model, writable: true)
            Issue.record("opened writable without Z_OPT")
        } catch let error as CoreDataError {
            #expect(error.kind == .notWritable)
            #expect(error.message.contains("ZTAG has no Z_OPT column"), "\(error)")
        }
        #expect(hashes() == before)
        let readOnly = try SQLStore(coreDataStore: path, model: SyntheticStoreTests.model)
        #expect(try readOnly.count(FetchRequest(entity: "Tag")) == 2)
        readOnly.database.close()
    }

    /// The read-only default is untouched by all of this.
    @Test func readOnlyStaysTheDefault() throws {
        let scratch = Scratch()
        let path = try SyntheticStoreTests.make(in: scratch, checkpointed: false)
        let before = try scratch.snapshot()
        let store = try SQLStore(coreDataStore: path, model: SyntheticStoreTests.model, writable: false)
        #expect(store.readOnlyReason == CoreDataStore.readOnlyReason)
        #expect(throws: StoreError.self) { _ = try store.insert("Tag", ["name": .string("x")]) }
        store.database.close()
        #expect(try scratch.snapshot() == before)
    }

    // MARK: - Corpus stores

    static func corpusStore(_ suffix: String) -> CorpusStore? { CoreDataCorpus.stores.first { $0.store.hasSuffix(suffix) } }

    @Test(.enabled(if: CoreDataCorpus.stores.isEmpty))
    func corpusAbsent() {
        print("SKIPPED CoreDataWritableTests corpus: \(CoreDataCorpus.storesFolder.path) is absent; writing real Core Data stores is NOT checked")
    }

    /// Moody: GeographicRegion → Continent, Country (single-table inheritance).
    /// Each concrete entity gets a copy of one of its rows (batch insert, and
    /// a context insert), a row is updated and one deleted.
    @Test(.enabled(if: corpusStore("Moody.moody") != nil))
    func inheritanceInACorpusStore() throws {
        let s = try #require(Self.corpusStore("Moody.moody"))
        try Self.cloneUpdateDelete(s, entities: ["Continent", "Country", "Mood"])
    }

    /// A wire store: the Message hierarchy, and ordered many-to-manys.
    @Test(.enabled(if: corpusStore("store2-89-0.wiredatabase") != nil))
    func wireStore() throws {
        let s = try #require(Self.corpusStore("store2-89-0.wiredatabase"))
        try Self.cloneUpdateDelete(s, entities: ["SystemMessage", "ClientMessage", "User"])
        try Self.orderedManyToMany(s)
    }

    static func copy(_ s: CorpusStore, in scratch: Scratch) throws -> String {
        try scratch.copyStore(CoreDataCorpus.storesFolder.appendingPathComponent(s.store).path, as: "App.sqlite")
    }

    static func cloneUpdateDelete(_ s: CorpusStore, entities: [String]) throws {
        let scratch = Scratch()
        let path = try copy(s, in: scratch)
        let before = try state(path)
        let store = try SQLStore(coreDataStore: path, model: nil, writable: true)
        let model = store.model
        var inserted: [(entity: String, key: Int64, viaContext: Bool)] = []
        var updated: [(table: String, key: Int64, opt: Int64)] = []
        let opts = try Z(path)
        defer { opts.c.close() }
        for name in entities {
            let entity = try #require(model.entity(named: name))
            let attributes = entity.allAttributes(in: model).filter { !$0.isTransient && $0.derivation == nil && $0.type != .transformable }
            guard let sample = try store.fetch(FetchRequest(entity: name)).first(where: { $0.id.entity == name }) else { continue }
            var values: [String: Value] = [:]
            for a in attributes { if let v = sample.value(forKey: a.name), !v.isNull { values[a.name] = v } }
            // Batch insert: a copy of the row's attribute values.
            if case .objectIDs(let ids) = try store.batchInsert(name, objects: [values], resultType: .objectIDs), let id = ids.first {
                inserted.append((name, id.primaryKey, false))
            }
            // Context: update the sample (a save bumps its Z_OPT by one).
            let context = Context(store: store)
            let object = context.object(with: sample.id)
            if let a = attributes.first(where: { $0.type == .string }) {
                var root = try #require(model.entity(named: name))
                while let p = root.parent, let up = model.entity(named: p) { root = up }
                let table = "Z" + root.name.uppercased()
                let opt = try #require(try opts.int("SELECT Z_OPT FROM \"\(table)\" WHERE Z_PK = ?", [.int(sample.id.primaryKey)]))
                try object.setValue(.string("written by Quarry"), forKey: a.name)
                try context.save()
                updated.append((table, sample.id.primaryKey, opt))
            }
        }
        #expect(inserted.count == entities.count, "\(s.store): inserted \(inserted.map(\.entity))")
        // Batch update: every row of the first entity with a string
        // attribute gets one more Z_OPT; batch delete: the last copy goes.
        var deleted: (entity: String, key: Int64)?
        if let last = inserted.last {
            #expect(try store.batchDelete(objectIDs: [ObjectID(entity: last.entity, primaryKey: last.key)]) == 1)
            inserted.removeLast()
            deleted = (last.entity, last.key)
        }
        var batch: (entity: String, table: String, numbers: [Int64], optSum: Int64, rows: Int64)?
        if let name = entities.first(where: { n in model.entity(named: n)!.allAttributes(in: model).contains { !$0.isTransient && $0.derivation == nil && $0.type == .string } }) {
            let entity = model.entity(named: name)!
            let key = entity.allAttributes(in: model).first { !$0.isTransient && $0.derivation == nil && $0.type == .string }!.name
            var root = entity
            while let p = root.parent, let up = model.entity(named: p) { root = up }
            let table = "Z" + root.name.uppercased()
            let numbers = try opts.keys().filter { $0.value.name == name }.map(\.key)
            let list = numbers.map(String.init).joined(separator: ", ")
            let sum = try opts.int("SELECT sum(Z_OPT) FROM \"\(table)\" WHERE Z_ENT IN (\(list))") ?? 0
            let count = try opts.int("SELECT count(*) FROM \"\(table)\" WHERE Z_ENT IN (\(list))") ?? 0
            let changed = try store.batchUpdate(entity: name, predicate: nil, set: [(key, try Parser.parseExpression("'batch'"))])
            #expect(Int64(changed) == count, "\(s.store): batch update of \(name)")
            batch = (name, table, numbers, sum, count)
        }

        print("WRITABLE \(s.store): inserted \(inserted.map { "\($0.entity)/\($0.key)" }), updated \(updated.map { "\($0.table)/\($0.key)" })")
        store.database.close()
        try checkInvariants(path, before: before, label: s.store)
        let z = try Z(path)
        defer { z.c.close() }
        let keys = try z.keys()
        for item in inserted {
            let number = try #require(keys.first { $0.value.name == item.entity }?.key)
            var root = number
            while let parent = keys[root]?.parent, parent != 0 { root = parent }
            let table = "Z" + keys[root]!.name.uppercased()
            #expect(try z.rows("SELECT Z_ENT, Z_OPT FROM \"\(table)\" WHERE Z_PK = \(item.key)") == [[.int(number), .int(batch?.entity == item.entity ? 2 : 1)]], "\(s.store): \(item.entity) \(item.key): Z_OPT 1 after insert (2 after the batch update)")
            #expect(item.key > before.keys[root]!.max, "\(s.store): key \(item.key) reused (Z_MAX was \(before.keys[root]!.max))")
        }
        if let deleted {
            var root = try #require(model.entity(named: deleted.entity))
            while let p = root.parent, let up = model.entity(named: p) { root = up }
            #expect(try z.int("SELECT count(*) FROM \"Z\(root.name.uppercased())\" WHERE Z_PK = ?", [.int(deleted.key)]) == 0, "\(s.store): batch delete")
        }
        if let batch {
            let list = batch.numbers.map(String.init).joined(separator: ", ")
            let sum = try z.int("SELECT sum(Z_OPT) FROM \"\(batch.table)\" WHERE Z_ENT IN (\(list))")
            #expect(sum == batch.optSum + batch.rows, "\(s.store): batch update bumps every row's Z_OPT by one")
        }
        for u in updated {
            let now = try z.int("SELECT Z_OPT FROM \"\(u.table)\" WHERE Z_PK = ?", [.int(u.key)]) ?? 0
            #expect(now == u.opt + 1 || (batch?.table == u.table && now == u.opt + 2), "\(s.store): a save bumps Z_OPT by one (\(u.opt) → \(now))")
        }
        // Read back read-only: SQL and memory agree on every entity written.
        let reopened = try SQLStore(coreDataStore: path, model: nil)
        defer { reopened.database.close() }
        for name in entities {
            let sql = try reopened.fetch(FetchRequest(entity: name), engine: .sql).map(\.id.primaryKey).sorted()
            reopened.forgetObjects()
            let memory = try reopened.fetch(FetchRequest(entity: name), engine: .memory).map(\.id.primaryKey).sorted()
            #expect(sql == memory, "\(s.store): \(name) SQL and memory differ")
            for item in inserted where item.entity == name { #expect(sql.contains(item.key)) }
        }
    }

    /// Conversation.lastServerSyncedActiveParticipants (ordered, many-to-many):
    /// two users linked in a chosen order land in the join table with
    /// increasing Z_FOK_ values, and read back in that order.
    static func orderedManyToMany(_ s: CorpusStore) throws {
        let scratch = Scratch()
        let path = try copy(s, in: scratch)
        let before = try state(path)
        let store = try SQLStore(coreDataStore: path, model: nil, writable: true)
        let model = store.model
        let conversation = try #require(model.entity(named: "Conversation"))
        let r = try #require(conversation.relationship(named: "lastServerSyncedActiveParticipants", in: model))
        #expect(r.isOrdered && r.isToMany)
        let context = Context(store: store)
        let c = try #require(try context.fetch(FetchRequest(entity: "Conversation")).first)
        let users = try context.fetch(FetchRequest(entity: "User"))
        try #require(users.count >= 2)
        let existing = c.objects(forKey: r.name)
        let newcomers = users.filter { u in !existing.contains { $0 === u } }.prefix(2)
        try #require(newcomers.count == 2)
        try c.insert(newcomers[newcomers.startIndex + 1], at: 0, into: r.name)
        try c.insert(newcomers[newcomers.startIndex], at: 0, into: r.name)
        let expected = [newcomers[newcomers.startIndex], newcomers[newcomers.startIndex + 1]].map(\.objectID.primaryKey) + existing.map(\.objectID.primaryKey)
        try context.save()
        let cKey = c.objectID.primaryKey
        store.database.close()
        try checkInvariants(path, before: before, label: s.store + " m2m")
        let z = try Z(path)
        defer { z.c.close() }
        let table = try #require(try z.c.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%LASTSERVERSYNCEDACTIVEPARTICIPANTS' ESCAPE '\\'").first?.first)
        guard case .string(let join) = table else { Issue.record("no join table"); return }
        let columns = try z.c.query("SELECT name FROM pragma_table_info(?)", [.string(join)]).compactMap { row -> String? in if case .string(let s) = row[0] { return s } else { return nil } }
        let fok = try #require(columns.first { $0.hasPrefix("Z_FOK_") })
        let conversationColumn = try #require(columns.first { !$0.hasPrefix("Z_FOK_") && $0.hasSuffix("CONVERSATIONS") })
        let userColumn = try #require(columns.first { !$0.hasPrefix("Z_FOK_") && $0 != conversationColumn })
        let order = try z.c.query("SELECT \"\(userColumn)\" FROM \"\(join)\" WHERE \"\(conversationColumn)\" = ? ORDER BY \"\(fok)\"", [.int(cKey)])
        #expect(order.map { $0[0] } == expected.map { Value.int($0) }, "\(join) order")
        let reopened = try SQLStore(coreDataStore: path, model: nil)
        defer { reopened.database.close() }
        let read = try reopened.fetch(FetchRequest(entity: "Conversation")).first { $0.id.primaryKey == cKey }
        let members = read?.value(forKey: r.name)
        var keys: [Int64] = []
        switch members {
        case .orderedSet(let items)?, .array(let items)?:
            for case .object(let o) in items { if let so = o.object as? StoredObject { keys.append(so.id.primaryKey) } }
        default:
            Issue.record("\(r.name) read as \(String(describing: members))")
        }
        #expect(keys == expected, "read back in order")
    }
}

// Every real Core Data store of the corpus, opened read-only through the
// translation layer: with its paired model and with the model cached in the
// store; for every entity the count equals hand-written SQL on its Z-table
// with the right Z_ENT values; every relationship traverses both ways to the
// same pairs; seeded random predicates give the same objects on the SQL and
// the memory engine; and afterwards the store, its -wal and -shm (and every
// other file beside them) keep every byte.
import Foundation
import QuarryCoreData
import QuarryModel
import QuarrySQLite
import QuarryStore
import QuarrySyntax
import Testing

@Suite("Core Data corpus stores", .serialized)
struct CorpusStoreTests {
    @Test(.enabled(if: CoreDataCorpus.stores.isEmpty))
    func corpusAbsent() {
        print("SKIPPED CorpusStoreTests: \(CoreDataCorpus.storesFolder.path) is absent; the real Core Data stores are NOT checked")
    }

    @Test(arguments: CoreDataCorpus.stores)
    func opensReadOnlyAndAgreesWithHandWrittenSQL(_ s: CorpusStore) throws {
        let scratch = Scratch()
        let path = try scratch.copyStore(CoreDataCorpus.storesFolder.appendingPathComponent(s.store).path, as: "App.sqlite")
        let oracleScratch = Scratch()
        let oracle = try Oracle(copyOf: path, in: oracleScratch)
        let before = try scratch.snapshot()
        var opened = 0

        if let modelPath = CoreDataCorpus.modelPath(s) {
            do {
                let o = try CoreDataStore.open(path: path, modelPath: modelPath)
                try check(o, oracle: oracle, label: "\(s.store) with \(s.model!)")
                opened += 1
                print("CORPUS \(s.store): paired model opened")
            } catch let error as CoreDataError {
                // A model paired by structure alone may not be the one that
                // wrote the store: then, and only then, a clear refusal.
                // (the manifest counts mismatched columns; or the model's
                // entities are not the store's Z_PRIMARYKEY names).
                let modelEntities = Set((try ModelReader.read(from: modelPath)).entityNames)
                let notTheWriter = s.mismatchedColumns > 0 || modelEntities != Set(oracle.entities.keys)
                #expect(notTheWriter && error.kind == .modelMismatch, "\(s.store) with \(s.model!) (\(s.how)): \(error)")
                print("CORPUS \(s.store): paired model refused: \(error.message)")
                #expect(error.description.contains("hint"))
            }
        }
        if s.modelCache {
            let o = try CoreDataStore.open(path: path)
            #expect(o.modelSource.contains("Z_MODELCACHE"))
            // The cached model is the model file the store names, property
            // for property (the file paired by identifier is that model).
            if s.how.hasPrefix("NSStoreModelVersionIdentifiers"), let modelPath = CoreDataCorpus.modelPath(s) {
                let cached = Self.shape(o.store.model), file = Self.shape(try ModelReader.read(from: modelPath))
                // Except where the model file was edited after the store was
                // written under the same identifier (wire 2.65.0 lost two
                // attributes): then the cached model has more, and the
                // store has their columns — the cache is the truth.
                let differing = Set(cached.keys).union(file.keys).filter { cached[$0] != file[$0] }.sorted().compactMap { e -> String? in
                    let extra = Set(cached[e] ?? []).subtracting(file[e] ?? []), missing = Set(file[e] ?? []).subtracting(cached[e] ?? [])
                    let stale = missing.isEmpty && extra.allSatisfy { line in
                        let column = "Z" + line.prefix { $0 != ":" && $0 != " " }.uppercased()
                        return (try? oracle.connection.scalar("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND sql LIKE ?", [.string("% \(column) %")])) != .int(0)
                    }
                    return stale ? nil : "\(e): cached \(extra.sorted()), file \(missing.sorted())"
                }
                #expect(differing.isEmpty, "\(s.store): cached model ≠ \(s.model!): \(differing)")
            }
            try check(o, oracle: oracle, label: "\(s.store) with its cached model")
            opened += 1
            print("CORPUS \(s.store): cached model opened")
        } else {
            #expect(throws: CoreDataError.self) { _ = try CoreDataStore.open(path: path) }
        }
        #expect(opened > 0 || (s.model == nil && !s.modelCache), "\(s.store) opened no way at all")

        let after = try scratch.snapshot()
        #expect(after.keys.sorted() == before.keys.sorted(), "files appeared or vanished beside \(s.store)")
        for (name, bytes) in before { #expect(after[name] == bytes, "\(s.store): \(name) changed") }
    }

    /// Counts, relationships both ways, SQL against memory.
    func check(_ opened: CoreDataOpening, oracle: Oracle, label: String) throws {
        let store = opened.store
        defer { store.database.close() }
        for entity in store.model.entities {
            let quarry = try store.count(FetchRequest(entity: entity.name))
            // The Z_PRIMARYKEY name differs only for an entity renamed in place.
            let stored = opened.storedEntityNames[entity.name] ?? entity.name
            #expect(stored == entity.name || oracle.entities[entity.name] == nil)
            #expect(quarry == (try oracle.count(stored)), "\(label): COUNT \(entity.name) (\(stored) in the store)")
        }
        try checkRelationships(store, label: label)
        let order = try checkOrder(opened, oracle: oracle, label: label)   // CorpusStoreTests+Order.swift
        if order.relationships > 0 {
            print("CORPUS \(label): \(order.relationships) ordered to-many(s) read in Z_FOK_ order, \(order.reordered) list(s) not in key order")
        }
        try checkPredicates(store, label: label)
        // Writes are refused before anything runs.
        if let entity = store.model.entities.first(where: { !$0.isAbstract }) {
            #expect(throws: StoreError.readOnly(location: store.database.location, reason: CoreDataStore.readOnlyReason)) {
                _ = try store.insert(entity.name, [:])
            }
            #expect(throws: StoreError.self) { _ = try store.batchDelete(entity: entity.name, predicate: nil) }
        }
    }

    /// What the translation depends on, per entity: parent, abstract, and
    /// each declared stored property's name, type or destination, to-many,
    /// ordered and inverse, sorted.
    static func shape(_ model: Model) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for e in model.entities {
            var lines = ["parent \(e.parent ?? "-") abstract \(e.isAbstract)"]
            lines += e.attributes.filter { !$0.isTransient }.map { "\($0.name): \($0.type.rawValue) external \($0.allowsExternalBinaryDataStorage)" }
            lines += e.relationships.filter { !$0.isTransient }.map {
                "\($0.name) -> \($0.destination) many \($0.isToMany) ordered \($0.isOrdered) inverse \($0.inverse ?? "-")"
            }
            out[e.name] = lines.sorted()
        }
        return out
    }

    static func id(_ v: Value?) -> ObjectID? { if case .object(let r)? = v { return (r.object as? StoredObject)?.id } else { return nil } }
    static func ids(_ v: Value?) -> [ObjectID] {
        switch v {
        case .array(let items)?, .orderedSet(let items)?, .set(let items)?: return items.compactMap { id($0) }
        case .object?: return id(v).map { [$0] } ?? []
        default: return []
        }
    }

    /// From every object of every entity (declaring the relationship), the
    /// pairs its relationship reaches; each must be reached back through the
    /// inverse, and the pair counts of both sides must agree.
    func checkRelationships(_ store: SQLStore, label: String) throws {
        let model = store.model
        for entity in model.entities {
            for r in entity.relationships where !r.isTransient {
                let sources = try store.fetch(FetchRequest(entity: entity.name))
                var pairs = Set<[Int64]>()
                for o in sources {
                    for t in Self.ids(o.value(forKey: r.name)) { pairs.insert([o.id.primaryKey, t.primaryKey]) }
                }
                guard let inverse = r.inverse, let destination = model.entity(named: r.destination),
                      destination.relationship(named: inverse, in: model) != nil else { continue }
                var back = Set<[Int64]>()
                for o in try store.fetch(FetchRequest(entity: r.destination)) {
                    for t in Self.ids(o.value(forKey: inverse)) {
                        // Only pairs whose source is of this entity (the inverse may
                        // point at a parent entity's other sub-entities).
                        if sources.contains(where: { $0.id.primaryKey == t.primaryKey && $0.id.entity == t.entity }) {
                            back.insert([t.primaryKey, o.id.primaryKey])
                        }
                    }
                }
                #expect(pairs == back, "\(label): \(entity.name).\(r.name) ↔ \(r.destination).\(inverse): \(pairs.count) pairs one way, \(back.count) back")
            }
        }
    }

    /// Seeded random predicates over each entity's attributes (values taken
    /// from its own rows) and relationships: the SQL engine and the memory
    /// engine must select the same objects.
    func checkPredicates(_ store: SQLStore, label: String) throws {
        var random = SeededRandom(state: UInt64(truncatingIfNeeded: label.utf8.reduce(5381) { $0 &* 33 &+ Int($1) }))
        for entity in store.model.entities {
            // Objects stay registered from one entity's check to the next:
            // one fetched through its parent entity must read its own
            // columns afterwards (wire: SystemMessage.text and
            // TextMessage.text, stored apart; SiblingColumnsTests).
            let objects = try store.fetch(FetchRequest(entity: entity.name))
            let clauses = PredicateSampler.clauses(for: entity, in: store.model, objects: objects, random: &random)
            guard !clauses.isEmpty else { continue }
            for _ in 0..<12 {
                let text = PredicateSampler.combine(clauses, random: &random)
                let predicate: QueryPredicate
                do { predicate = try Parser.parsePredicate(text) } catch {
                    Issue.record("\(label): generated predicate does not parse: \(text): \(error)")
                    continue
                }
                let request = FetchRequest(entity: entity.name, predicate: predicate)
                let sql = try store.fetch(request, engine: .sql).map(\.id.primaryKey).sorted()
                let memory = try store.fetch(request, engine: .memory).map(\.id.primaryKey).sorted()
                #expect(sql == memory, "\(label): \(entity.name) WHERE \(text): SQL \(sql.count) rows, memory \(memory.count)")
            }
        }
    }
}

// `StoreExport`: every corpus store that opens (and the hand-made one) is
// exported to a new Quarry SQLite file, and the export must answer as the
// source does: per entity the COUNT, every object with every attribute and
// relationship printed canonically, and seeded random predicates (same
// objects from both stores); the source's files keep every byte. Errors: a
// failure in the middle (injected) leaves no file, not even a temporary one;
// a reference to a row the source lacks is refused by name; a target of
// another model is refused. (The command's own refusals and
// output: QuarryShellTests/ExportCommandTests.swift.)
import Foundation
import QuarryCoreData
import QuarryModel
import QuarrySQLite
import QuarryStore
import QuarrySyntax
import Testing

@Suite("Exporting a Core Data store", .serialized)
struct ExportTests {
    @Test(.enabled(if: CoreDataCorpus.stores.isEmpty))
    func corpusAbsent() {
        print("SKIPPED ExportTests corpus: \(CoreDataCorpus.storesFolder.path) is absent; exports of real Core Data stores are NOT checked")
    }

    @Test(arguments: CoreDataCorpus.stores)
    func exportAnswersAsTheSourceDoes(_ s: CorpusStore) throws {
        let scratch = Scratch()
        let path = try scratch.copyStore(CoreDataCorpus.storesFolder.appendingPathComponent(s.store).path, as: "App.sqlite")
        let before = try scratch.snapshot()
        let opened: CoreDataOpening
        if s.modelCache {
            opened = try CoreDataStore.open(path: path)
        } else if let modelPath = CoreDataCorpus.modelPath(s), let o = try? CoreDataStore.open(path: path, modelPath: modelPath) {
            opened = o
        } else {
            print("EXPORT \(s.store): does not open (no cached model, paired model refused); not exported")
            return
        }
        let source = opened.store
        defer { source.database.close() }
        let out = Scratch()
        let target = out.path("export.sqlite")
        let summary = try StoreExport.copy(from: source, toFile: target)
        #expect(try out.snapshot().keys.sorted() == ["export.sqlite"], "\(s.store): only the exported file is left")
        let exported = try SQLStore(path: target, model: source.model)
        defer { exported.database.close() }
        try Self.compare(source, exported, label: s.store)
        // The summary counts what is there.
        var objects = 0
        for entity in source.model.entities where entity.parent == nil {
            objects += try source.count(FetchRequest(entity: entity.name))
        }
        #expect(summary.objectCount == objects, "\(s.store): summary \(summary.objectCount) objects, store \(objects)")
        let after = try scratch.snapshot()
        #expect(after.keys.sorted() == before.keys.sorted(), "files appeared or vanished beside \(s.store)")
        for (name, bytes) in before { #expect(after[name] == bytes, "\(s.store): \(name) changed") }
        print("EXPORT \(s.store): \(summary.objectCount) objects, \(summary.links) links")
    }

    @Test(arguments: [false, true])
    func handMadeStoreExportsEveryRuleOfTheLayout(checkpointed: Bool) throws {
        let scratch = Scratch()
        let path = try SyntheticStoreTests.make(in: scratch, checkpointed: checkpointed)
        let before = try scratch.snapshot()
        let source = try SQLStore(coreDataStore: path, model: SyntheticStoreTests.model)
        defer { source.database.close() }
        let out = Scratch()
        let summary = try StoreExport.copy(from: source, toFile: out.path("e.sqlite"))
        #expect(summary.objects == ["Company": 1, "Person": 2, "Tag": 2])
        #expect(summary.links == 3)
        let exported = try SQLStore(path: out.path("e.sqlite"), model: source.model)
        defer { exported.database.close() }
        try Self.compare(source, exported, label: "hand-made")
        // Values as decoded from Core Data's encodings, external data included.
        let bob = try SyntheticStoreTests.one(exported, "Person", "name == 'Bob'")
        #expect(bob.value(forKey: "photo") == .data(Array("external bytes".utf8)))
        let ann = try SyntheticStoreTests.one(exported, "Person", "name == 'Ann'")
        #expect(ann.value(forKey: "id") == .uuid(SyntheticStoreTests.uuid))
        #expect(ann.value(forKey: "birth") == .date(-86400.5))
        #expect(SyntheticStoreTests.names(ann.value(forKey: "tags")) == ["blue", "red"])
        #expect(try scratch.snapshot() == before)
    }

    /// A failure in the middle (injected before the second table) leaves no
    /// file: neither the target nor a temporary beside it; an existing
    /// target keeps its bytes.
    @Test(arguments: [false, true])
    func failureInTheMiddleLeavesNothing(targetExists: Bool) throws {
        let scratch = Scratch()
        let path = try SyntheticStoreTests.make(in: scratch, checkpointed: true)
        let source = try SQLStore(coreDataStore: path, model: SyntheticStoreTests.model)
        defer { source.database.close() }
        let out = Scratch()
        let target = out.path("e.sqlite")
        if targetExists { _ = FileManager.default.createFile(atPath: target, contents: Data("old bytes".utf8)) }
        let before = try out.snapshot()
        struct Injected: Error {}
        var tables: [String] = []
        StoreExport.beforeTable = { table in
            tables.append(table)
            if tables.count == 2 { throw Injected() }
        }
        defer { StoreExport.beforeTable = nil }
        #expect(throws: Injected.self) { try StoreExport.copy(from: source, toFile: target) }
        #expect(tables.count == 2)
        #expect(try out.snapshot() == before, "the folder is as it was")
    }

    /// Core Data declares no foreign keys: a to-one pointing at a row the
    /// store does not have is refused with the row named, and no file is left.
    @Test func aDanglingReferenceIsRefusedByName() throws {
        let scratch = Scratch()
        let statements = SyntheticStoreTests.statements + ["UPDATE ZPARTY SET ZEMPLOYER = 99 WHERE Z_PK = 2"]
        let path = try SyntheticStoreTests.make(in: scratch, checkpointed: true, statements: statements)
        let source = try SQLStore(coreDataStore: path, model: SyntheticStoreTests.model)
        defer { source.database.close() }
        let out = Scratch()
        do {
            try StoreExport.copy(from: source, toFile: out.path("e.sqlite"))
            Issue.record("a dangling reference was exported")
        } catch let error as ExportError {
            #expect(error.message == "the source holds 1 reference to rows it does not have (first: Party row 2 → Party); nothing was exported")
        }
        #expect(try out.snapshot().isEmpty)
    }

    @Test func aTargetOfAnotherModelIsRefused() throws {
        let scratch = Scratch()
        let path = try SyntheticStoreTests.make(in: scratch, checkpointed: true)
        let source = try SQLStore(coreDataStore: path, model: SyntheticStoreTests.model)
        defer { source.database.close() }
        let other = try ModelReader.read(yaml: "entities:\n  Thing:\n    attributes:\n      name: { type: string }\n")
        let target = try SQLStore(path: ":memory:", model: other)
        #expect(throws: ExportError.self) { try StoreExport.copy(from: source, to: target) }
    }

    // MARK: comparing two stores

    /// Both stores answer alike: COUNT per entity, every object's values
    /// and relationships, seeded random predicates.
    static func compare(_ a: SQLStore, _ b: SQLStore, label: String) throws {
        for entity in a.model.entities {
            let request = FetchRequest(entity: entity.name)
            #expect(try a.count(request) == (try b.count(request)), "\(label): COUNT \(entity.name)")
            let left = try dump(a, entity), right = try dump(b, entity)
            #expect(left == right, "\(label): \(entity.name) objects differ: \(zip(left, right).first { $0 != $1 }.map { "\($0.0) ≠ \($0.1)" } ?? "counts \(left.count) vs \(right.count)")")
        }
        var random = SeededRandom(state: UInt64(truncatingIfNeeded: label.utf8.reduce(5381) { $0 &* 33 &+ Int($1) }))
        for entity in a.model.entities {
            let objects = try a.fetch(FetchRequest(entity: entity.name))
            let clauses = PredicateSampler.clauses(for: entity, in: a.model, objects: objects, random: &random)
            guard !clauses.isEmpty else { continue }
            for _ in 0..<6 {
                let text = PredicateSampler.combine(clauses, random: &random)
                guard let predicate = try? Parser.parsePredicate(text) else { continue }
                let request = FetchRequest(entity: entity.name, predicate: predicate)
                let left = try a.fetch(request).map(\.id.primaryKey).sorted()
                let right = try b.fetch(request).map(\.id.primaryKey).sorted()
                #expect(left == right, "\(label): \(entity.name) WHERE \(text): source \(left.count), export \(right.count)")
            }
        }
    }

    /// Every object of `entity` in key order, one line each: entity, key,
    /// every stored attribute and relationship (keys of the objects reached;
    /// sorted unless ordered).
    static func dump(_ store: SQLStore, _ entity: Entity) throws -> [String] {
        let model = store.model
        return try store.fetch(FetchRequest(entity: entity.name)).sorted { $0.id.primaryKey < $1.id.primaryKey }.map { o in
            guard let own = model.entity(named: o.id.entity) else { return "\(o.id)" }
            var line = "\(o.id.entity)#\(o.id.primaryKey)"
            for a in own.allAttributes(in: model) where !a.isTransient {
                line += " \(a.name)=\(canonical(o.value(forKey: a.name)))"
            }
            for r in own.allRelationships(in: model) where !r.isTransient {
                var keys = CorpusStoreTests.ids(o.value(forKey: r.name)).map { "\($0.entity)#\($0.primaryKey)" }
                if !r.isOrdered { keys.sort() }
                line += " \(r.name)=[\(keys.joined(separator: ","))]"
            }
            return line
        }
    }

    static func canonical(_ v: Value?) -> String {
        guard let v else { return "absent" }
        switch v {
        case .double(let d): return "double(\(d.bitPattern))"
        case .date(let d): return "date(\(d.bitPattern))"
        default: return "\(v)"
        }
    }
}

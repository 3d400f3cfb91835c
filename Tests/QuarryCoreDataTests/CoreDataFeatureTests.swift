// "Everything works on it": on an opened Core Data store (the hand-made one
// and a spread of corpus stores), the library's features beyond plain
// fetches — a FetchedResultsController with sections, dictionary results
// with GROUP BY, EXPLAIN — run and agree with the memory engine: the
// controller's sections (names, objects in order) equal sections computed
// from a memory-engine fetch with the same sorts; the grouped dictionary
// rows are the same from SQL and from memory; EXPLAIN's SQL reads the
// store's Quarry-layout views. The shell's SECTIONS / GROUP BY / EXPLAIN on
// corpus stores: QuarryShellTests/ExportCommandTests.swift.
import Foundation
import QuarryCoreData
import QuarryModel
import QuarryStore
import QuarrySyntax
import Testing

@Suite("Everything works on a Core Data store", .serialized)
struct CoreDataFeatureTests {
    /// A spread of corpus stores that carry their model.
    static let corpus: [CorpusStore] = {
        let cached = CoreDataCorpus.stores.filter(\.modelCache)
        let step = max(1, cached.count / 8)
        return Array(stride(from: 0, to: cached.count, by: step).prefix(8).map { cached[$0] })
    }()

    @Test(.enabled(if: CoreDataCorpus.stores.isEmpty))
    func corpusAbsent() {
        print("SKIPPED CoreDataFeatureTests corpus: \(CoreDataCorpus.storesFolder.path) is absent; only the hand-made store is checked")
    }

    @Test func handMadeStore() throws {
        let scratch = Scratch()
        let path = try SyntheticStoreTests.make(in: scratch, checkpointed: false)
        let before = try scratch.snapshot()
        let store = try SQLStore(coreDataStore: path, model: SyntheticStoreTests.model)
        defer { store.database.close() }
        let checked = try Self.checkFeatures(store, label: "hand-made")
        #expect(checked >= 3, "string-keyed entities checked: \(checked)")
        // Sections of the hierarchy by a key its two sub-entities share.
        let context = Context(store: store)
        let controller = FetchedResultsController(fetchRequest: FetchRequest(entity: "Party", sortDescriptors: [QuerySortDescriptor("name")]),
                                                  context: context, sectionNameKeyPath: "name")
        try controller.performFetch()
        #expect(controller.sections?.map(\.name) == ["Acme", "Ann", "Bob"])
        #expect(try scratch.snapshot() == before)
    }

    @Test(arguments: corpus)
    func corpusStore(_ s: CorpusStore) throws {
        let scratch = Scratch()
        let path = try scratch.copyStore(CoreDataCorpus.storesFolder.appendingPathComponent(s.store).path, as: "App.sqlite")
        let before = try scratch.snapshot()
        let opened = try CoreDataStore.open(path: path)
        defer { opened.store.database.close() }
        let checked = try Self.checkFeatures(opened.store, label: s.store)
        print("FEATURES \(s.store): \(checked) entities with a string key checked")
        #expect(try scratch.snapshot() == before, "\(s.store): files changed")
    }

    /// Per entity with a stored string attribute `k`: sections by `k`,
    /// GROUP BY `k` with a count, EXPLAIN. Returns how many entities.
    static func checkFeatures(_ store: SQLStore, label: String) throws -> Int {
        let model = store.model
        var checked = 0
        for entity in model.entities {
            guard let key = entity.allAttributes(in: model).first(where: { !$0.isTransient && $0.type == .string })?.name else { continue }
            checked += 1
            // Sections: the controller's against a memory-engine fetch.
            let sorts = [QuerySortDescriptor(key)]
            let request = FetchRequest(entity: entity.name, sortDescriptors: sorts)
            let context = Context(store: store)
            let controller = FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: key)
            try controller.performFetch()
            let sections = controller.sections ?? []
            let memory = try store.fetch(request, engine: .memory)
            var expected: [(name: String, keys: [Int64])] = []
            for o in memory {
                let name: String
                switch o.value(forKey: key) {
                case .string(let s)?: name = s
                default: name = ""
                }
                if expected.last?.name == name { expected[expected.count - 1].keys.append(o.id.primaryKey) } else { expected.append((name, [o.id.primaryKey])) }
            }
            #expect(sections.map(\.name) == expected.map(\.name), "\(label): \(entity.name) sections by \(key)")
            // Within a section the order is the sort's, ties by key on both sides.
            #expect(sections.map { $0.objects.map(\.objectID.primaryKey).sorted() } == expected.map { $0.keys.sorted() },
                    "\(label): \(entity.name) section members by \(key)")

            // Dictionary results grouped by the key, with a count.
            var grouped = FetchRequest(entity: entity.name, sortDescriptors: sorts)
            grouped.propertiesToFetch = [try FetchProperty(keyPath: key),
                                         FetchProperty(name: "c", expression: try Parser.parseExpression("count:(\(key))"))]
            grouped.propertiesToGroupBy = [try FetchProperty(keyPath: key)]
            let sqlRows = try store.fetchDictionaries(grouped, engine: .sql)
            let memoryRows = try store.fetchDictionaries(grouped, engine: .memory)
            #expect(sqlRows == memoryRows, "\(label): \(entity.name) GROUP BY \(key): SQL \(sqlRows.count) rows, memory \(memoryRows.count)")
            let total = sqlRows.reduce(0) { sum, row in
                if case .int(let n)? = row.values.last { return sum + Int(n) } else { return sum }
            }
            // Every object is in one group (nil is a group of its own, whose
            // count:(key) counts its rows: Quarry's rule on both engines).
            let all = try store.count(FetchRequest(entity: entity.name))
            #expect(total == all, "\(label): \(entity.name) counts per \(key) add up to \(total), not \(all)")

            // EXPLAIN: the plan reads the view of the entity's table.
            let plan = try store.explain(FetchRequest(entity: entity.name, predicate: try Parser.parsePredicate("\(key) != nil"), sortDescriptors: sorts))
            let table = store.mapping.table(for: entity.name) ?? "?"
            #expect(plan.sql.sql.contains(SQLIdentifier.quoted(table)), "\(label): EXPLAIN \(entity.name): \(plan.sql.sql)")
        }
        return checked
    }
}

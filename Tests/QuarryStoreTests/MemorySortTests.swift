// Sorting in memory (MemorySorter.swift) must give exactly SQLite's order:
// each case fetches the same request with `sortsInMemory` on and off, from
// the store and through contexts (fresh, and one whose objects are already
// registered), and the key lists must be equal — and equal to the memory
// engine's order. On PostgreSQL the planner never offers a memory sort, so
// the same cases check that the flag changes nothing there. Stores whose
// numeric columns hold other storage classes (REALs among integers, text,
// integers past 2^53) are written with raw SQL and go through the same checks.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Sorting in memory gives SQLite's order", .serialized)
struct MemorySortTests {
    static let stores = EngineStores { try Fixture.store(engine: $0) }

    /// Sort keys, "-" for descending. `age` and `startDate` hold NULLs.
    static let sorts: [[String]] = [
        ["age"], ["-age"], ["salary"], ["-salary"], ["startDate"], ["-startDate"], ["active", "-age"],
        ["age", "-salary"], ["-active", "startDate"], ["-startDate", "-age"],
        ["-active", "startDate", "age"],
        // More keys than a sort record holds: SQL sorts.
        ["-active", "startDate", "age", "-salary"],
    ]
    static let predicates: [String?] = [nil, "salary > 50000", "department.name == 'Sales'", "age == nil OR active == NO"]

    static func request(_ sorts: [String], _ predicate: String?) throws -> FetchRequest {
        FetchRequest(entity: "Employee", predicate: try predicate.map { try Parser.parsePredicate($0) },
                     sortDescriptors: sorts.map { QuerySortDescriptor(String($0.trimmingPrefix("-")), ascending: !$0.hasPrefix("-")) })
    }

    /// The orders of `request`: SQL's, then memory's, from the store, a
    /// fresh context and a context that fetched it before; the memory
    /// engine's must match too.
    static func check(_ store: SQLStore, _ request: FetchRequest, _ label: String) throws {
        func keys(_ objects: [StoredObject]) -> [Int64] { objects.map(\.id.primaryKey) }
        func keys(_ objects: [ManagedObject]) -> [Int64] { objects.map(\.objectID.primaryKey) }
        defer { store.sortsInMemory = true }
        store.sortsInMemory = false
        let bySQL = keys(try store.fetch(request))
        let bySQLInAContext = keys(try Context(store: store).fetch(request))
        store.sortsInMemory = true
        #expect(bySQLInAContext == bySQL, "\(label): a context's SQL order")
        #expect(keys(try store.fetch(request)) == bySQL, "\(label): the store")
        let context = Context(store: store)
        #expect(keys(try context.fetch(request)) == bySQL, "\(label): a fresh context")
        #expect(keys(try context.fetch(request)) == bySQL, "\(label): a context that holds the objects")
        #expect(keys(try store.fetch(request, engine: .memory)) == bySQL, "\(label): the memory engine")
    }

    @Test(arguments: TestEngine.available, sorts)
    func sameOrderAsSQL(engine: TestEngine, sorts: [String]) throws {
        let store = try Self.stores.store(engine)
        for predicate in Self.predicates {
            let request = try Self.request(sorts, predicate)
            // Memory sorts only on SQLite (PostgreSQL sorts on the server).
            #expect((try store.explain(request).memorySort != nil) == (engine == .sqlite && sorts.count <= 3))
            try Self.check(store, request, "\(sorts) where \(predicate ?? "-")")
        }
    }

    /// Raw SQL that stores other storage classes in Employee's numeric
    /// columns of a fresh store (INTEGER affinity keeps a REAL with a
    /// fraction as REAL and text as TEXT), and the sorts to check afterwards.
    static let oddColumns: [([String], [[String]])] = [
        // REALs among integers: compared as numbers, 40.5 between 40 and 41.
        ([#"UPDATE "Employee" SET "age" = "age" + 0.5 WHERE "_pk" % 5 = 0"#], [["age"], ["-age"], ["active", "age"]]),
        // Negative numbers, and zeros (SQLite stores -0.0 as 0.0).
        ([#"UPDATE "Employee" SET "age" = -("age" + 0.25) WHERE "_pk" % 4 = 0"#], [["age"], ["-age"], ["active", "age"]]),
        ([#"UPDATE "Employee" SET "startDate" = -0.0 WHERE "_pk" % 6 = 0"#], [["startDate"], ["-startDate"]]),
        // Text in a numeric column: memory gives up, SQL's order is used.
        ([#"UPDATE "Employee" SET "age" = 'old' WHERE "_pk" % 11 = 0"#], [["age"], ["-age"], ["active", "age"]]),
        // Integers past 2^53 alone compare exactly as integers...
        ([#"UPDATE "Employee" SET "salary" = 9007199254740993 + "_pk" % 3 WHERE "_pk" % 7 = 0"#], [["salary"], ["-salary", "age"]]),
        // ...and with a REAL among them, not as doubles: SQL's order.
        ([#"UPDATE "Employee" SET "salary" = 9007199254740993 + "_pk" % 3 WHERE "_pk" % 7 = 0"#,
          #"UPDATE "Employee" SET "salary" = 9007199254740993.5 WHERE "_pk" = 10"#], [["salary"], ["-salary", "age"]]),
        // The smallest integer encodes as NULL does: alone it is exact, in a
        // column with NULLs memory asks SQL.
        ([#"UPDATE "Employee" SET "salary" = -9223372036854775808 WHERE "_pk" % 13 = 0"#], [["salary"], ["-salary"]]),
        ([#"UPDATE "Employee" SET "age" = -9223372036854775808 WHERE "_pk" % 13 = 1"#], [["age"], ["-age", "salary"]]),
    ]

    @Test(arguments: oddColumns)
    func oddStorageClassesStillSortAsSQLite(updates: [String], sortLists: [[String]]) throws {
        let store = try Fixture.store()
        for update in updates { try store.connection.execute(update) }
        for sorts in sortLists {
            for predicate in [nil, "salary > 50000"] as [String?] {
                let request = try Self.request(sorts, predicate)
                #expect(try store.explain(request).memorySort != nil)
                try Self.checkSQLiteOnly(store, request, "\(sorts) after \(updates)")
            }
        }
    }

    /// Seeded random stores: every numeric key column gets a random mix of
    /// NULLs, small and huge integers, REALs (fractions, negative zero,
    /// values equal to an integer elsewhere) and repeats, and random lists
    /// of sort keys must come back in SQL's order.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func randomStoresSortAsSQLite(seed: UInt64) throws {
        let store = try Fixture.store(seed: seed)
        var rng = Seeded(state: seed &* 7919)
        let keys = store.connection
        let samples: [Value] = [.null, .int(0), .int(-1), .int(7), .int(40), .int(Int64.max), .int(Int64.min + 1),
                                .int(9_007_199_254_740_993), .double(40.0), .double(40.5), .double(-0.0), .double(-7.25), .double(1e300)]
        for pk in 1...160 {
            for column in ["age", "startDate"] where Int.random(in: 0..<3, using: &rng) == 0 {
                try keys.execute(#"UPDATE "Employee" SET "\#(column)" = ? WHERE "_pk" = ?"#,
                                 [samples[Int.random(in: 0..<samples.count, using: &rng)], .int(Int64(pk))])
            }
        }
        let columns = ["age", "startDate", "salary", "active"]
        for _ in 0..<25 {
            let sorts = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
                (Bool.random(using: &rng) ? "-" : "") + columns[Int.random(in: 0..<columns.count, using: &rng)]
            }
            try Self.checkSQLiteOnly(store, try Self.request(sorts, nil), "seed \(seed): \(sorts)")
        }
    }

    /// Sub-entities sharing a table, and a to-one whose destination has
    /// sub-entities (its key waits for the row's entity): the objects a
    /// memory-sorted fetch makes after sorting keep both right.
    static let shapes = Model(entities: [
        Entity(name: "Animal", isAbstract: true, attributes: [Attribute(name: "name", type: .string), Attribute(name: "age", type: .integer32)]),
        Entity(name: "Dog", parent: "Animal", attributes: [Attribute(name: "barks", type: .boolean)]),
        Entity(name: "Cat", parent: "Animal", attributes: [Attribute(name: "lives", type: .integer16)]),
        Entity(name: "Owner", attributes: [Attribute(name: "rank", type: .integer32)],
               relationships: [Relationship(name: "mascot", destination: "Animal")]),
    ])

    @Test(arguments: TestEngine.available)
    func subEntitiesAndUnresolvedKeysSurviveTheSort(engine: TestEngine) throws {
        let store = try engine.emptyStore(model: Self.shapes)
        let context = Context(store: store)
        var animals: [ManagedObject] = []
        for i in 0..<40 {
            let animal = try context.insert(i % 3 == 0 ? "Cat" : "Dog")
            try animal.setValue(.string("A\(i)"), forKey: "name")
            try animal.setValue(.int(Int64((i * 17) % 11)), forKey: "age")
            animals.append(animal)
            let owner = try context.insert("Owner")
            try owner.setValue(.int(Int64((i * 7) % 13)), forKey: "rank")
            try owner.setValue(animal, forKey: "mascot")
        }
        try context.save()
        let byAge = FetchRequest(entity: "Animal", sortDescriptors: [QuerySortDescriptor("age", ascending: false)])
        let byRank = FetchRequest(entity: "Owner", sortDescriptors: [QuerySortDescriptor("rank")])
        #expect((try store.explain(byRank).memorySort != nil) == (engine == .sqlite))
        func text(_ v: Value?) -> String {
            switch v {
            case .string(let s)?: return s
            case .int(let n)?: return String(n)
            default: return "-"
            }
        }
        var results: [[String]] = []
        for inMemory in [false, true] {
            store.sortsInMemory = inMemory
            let fresh = Context(store: store)
            let fetched = try fresh.fetch(byAge)
            #expect(fetched.count == 40)
            let owners = try fresh.fetch(byRank)
            // Each mascot is found with its own entity: Cat or Dog, as saved.
            let described = owners.map { o -> String in
                let mascot = o.object(forKey: "mascot")
                return "\(text(o["rank"])) \(mascot?.entity.name ?? "-") \(text(mascot?["name"]))"
            }
            results.append(fetched.map { "\($0.entity.name) \(text($0["name"]))" } + described)
        }
        store.sortsInMemory = true
        #expect(results[0] == results[1])
        #expect(results[1].contains("Cat A0") && results[1].contains { $0.hasSuffix("Cat A3") })
    }

    /// `check` without the memory engine, whose evaluator compares text
    /// with numbers by Apple's rules, not SQLite's.
    static func checkSQLiteOnly(_ store: SQLStore, _ request: FetchRequest, _ label: String) throws {
        defer { store.sortsInMemory = true }
        store.forgetObjects()
        store.sortsInMemory = false
        let bySQL = try store.fetch(request).map(\.id.primaryKey)
        store.sortsInMemory = true
        store.forgetObjects()
        #expect(try store.fetch(request).map(\.id.primaryKey) == bySQL, "\(label): the store")
        #expect(try Context(store: store).fetch(request).map(\.objectID.primaryKey) == bySQL, "\(label): a context")
    }

    /// The sorter on its own: a permutation of every row, whatever the keys.
    @Test func reorderMovesEveryItemOnce() {
        var items = (0 ..< 1000).map { "item \($0)" }
        let order = (0 ..< 1000).map { Int32((($0 * 7919) % 1000)) }
        MemorySorter.reorder(&items, by: order)
        #expect(items == order.map { "item \($0)" })
    }
}

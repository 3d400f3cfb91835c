// Prefetching (`relationshipKeyPathsForPrefetching`): after the fetch, one
// query per path segment (per chunk of keys), and then reading the
// prefetched relationships — and the related objects' attributes — runs no
// query at all. Queries are counted by the database itself (a counting
// connection under the store), not only by the context's statistics. What
// is read must equal what a context without prefetching reads (through
// faults and relationship loads), for to-one, to-many and many-to-many
// relationships, inheritance, one-to-one and join tables without inverse.
import Foundation
import Testing
@testable import QuarryStore

/// What reading `path` from `objects` sees: each related object's ID and
/// name (or, for the shapes model, entity), level by level, in order.
func walk(_ objects: [ManagedObject], _ path: String) -> [String] {
    var level = objects
    var seen: [String] = []
    for key in path.split(separator: ".").map(String.init) {
        var next: [ManagedObject] = []
        for o in level {
            var related: [ManagedObject] = []
            switch o.value(forKey: key) {
            case .object(let ref)?: related.append(ref.object as! ManagedObject)
            case .array(let items)?: for case .object(let ref) in items { related.append(ref.object as! ManagedObject) }
            default: break
            }
            seen.append("\(o.objectID).\(key): " + related.map(\.objectID.description).joined(separator: ","))
            next += related
        }
        level = next
        seen += level.map { "\($0.objectID) \($0["name"].map(Printer.format) ?? "-") \($0.entity.name)" }
    }
    return seen
}

@Suite("Context: prefetching relationship key paths", .serialized)
struct PrefetchTests {
    static let stores = EngineStores { try Fixture.store(engine: $0) }

    /// (paths to prefetch, paths read afterwards, how many queries the prefetch adds)
    static let cases: [([String], [String], Int)] = [
        (["department"], ["department"], 1),
        (["projects"], ["projects"], 1),
        (["department", "department.employees"], ["department.employees"], 2),
        (["department.employees"], ["department", "department.employees"], 2),
        (["projects.members"], ["projects.members", "projects"], 2),
        (["projects.members.department"], ["projects.members.department", "department"], 3),
    ]

    @Test(arguments: TestEngine.available, cases.indices)
    func prefetchedRelationshipsReadWithoutAQuery(engine: TestEngine, index: Int) throws {
        let (paths, reads, extra) = Self.cases[index]
        let (store, db) = try Self.stores.store(engine).counted()
        var request = FetchRequest(entity: "Employee", sortDescriptors: [QuerySortDescriptor("name"), QuerySortDescriptor("salary")])
        request.relationshipKeyPathsForPrefetching = paths

        // Without prefetching, reading runs queries (so "none" below means something).
        let lazy = Context(store: store)
        let lazyObjects = try lazy.fetch({ var r = request; r.relationshipKeyPathsForPrefetching = []; return r }())
        let start = db.count
        let expected = reads.map { walk(lazyObjects, $0) }
        #expect(db.count > start)

        let context = Context(store: store)
        let before = db.count
        let objects = try context.fetch(request)
        #expect(db.count == before + 1 + extra, "\(db.statements[before...].joined(separator: "\n"))")
        #expect(context.statistics.prefetchLoads == extra && context.statistics.queries == 1 + extra)
        let after = db.count
        let statistics = context.statistics
        #expect(reads.map { walk(objects, $0) } == expected)
        #expect(db.count == after, "reading prefetched relationships ran: \(db.statements[after...].joined(separator: "\n"))")
        #expect(context.statistics == statistics)
    }

    @Test(arguments: TestEngine.available)
    func keysGoInChunksUnderTheArgumentLimit(engine: TestEngine) throws {
        let (store, db) = try Self.stores.store(engine).counted()
        let context = Context(store: store)
        context.keyChunkLimit = 7
        var request = FetchRequest(entity: "Employee", sortDescriptors: [QuerySortDescriptor("name")])
        request.relationshipKeyPathsForPrefetching = ["projects"]
        let before = db.count
        let objects = try context.fetch(request)
        #expect(objects.count == 160)
        // 160 employees' keys, 7 to a query.
        #expect(db.count == before + 1 + (160 + 6) / 7)
        #expect(db.statements[(before + 1)...].allSatisfy { $0.contains("IN (?, ?, ?, ?, ?, ?, ?)") || $0.contains("IN (?, ?, ?, ?, ?, ?)") })
        let after = db.count
        let total = objects.reduce(0) { $0 + $1.objects(forKey: "projects").count }
        #expect(total > 0 && db.count == after)
        let join = SQLIdentifier.quoted(try #require(store.mapping.joinTables.first).table)
        #expect(try store.database.rows("SELECT count(*) FROM \(join)").first?.first == .int(Int64(total)))
    }

    static let badPaths: [(String, ContextError)] = [
        ("departmnt", .invalidPrefetchKeyPath(index: 1, path: "departmnt", key: "departmnt", entity: "Employee", reason: .unknownKey, suggestion: "department")),
        ("name", .invalidPrefetchKeyPath(index: 1, path: "name", key: "name", entity: "Employee", reason: .notARelationship, suggestion: nil)),
        ("department.employes", .invalidPrefetchKeyPath(index: 1, path: "department.employes", key: "employes", entity: "Department",
                                                       reason: .unknownKey, suggestion: "employees")),
        ("department.name.x", .invalidPrefetchKeyPath(index: 1, path: "department.name.x", key: "name", entity: "Department",
                                                     reason: .notARelationship, suggestion: nil)),
        ("department..employees", .invalidPrefetchKeyPath(index: 1, path: "department..employees", key: "", entity: "Department",
                                                         reason: .unknownKey, suggestion: nil)),
        ("", .invalidPrefetchKeyPath(index: 1, path: "", key: "", entity: "Employee", reason: .unknownKey, suggestion: nil)),
    ]

    @Test(arguments: TestEngine.available, badPaths.indices)
    func badKeyPathsAreClearErrorsBeforeAnyQuery(engine: TestEngine, index: Int) throws {
        let (path, expected) = Self.badPaths[index]
        let (store, db) = try Self.stores.store(engine).counted()
        let context = Context(store: store)
        var request = FetchRequest(entity: "Employee")
        request.relationshipKeyPathsForPrefetching = ["projects", path]
        let before = db.count
        #expect(throws: expected) { try context.fetch(request) }
        request.fetchBatchSize = 10
        #expect(throws: expected) { try context.fetch(request) }
        #expect(throws: expected) { try context.fetchBatched(request) }
        #expect(db.count == before, "a bad path must fail before the fetch runs")
    }

    @Test func errorMessagesNameThePathAndSuggest() {
        let messages = Self.badPaths.map(\.1.description)
        #expect(messages[0] == "relationshipKeyPathsForPrefetching[1] 'departmnt': Employee has no relationship 'departmnt'; did you mean 'department'?")
        #expect(messages[1] == "relationshipKeyPathsForPrefetching[1] 'name': Employee.name is not a relationship; only relationships can be prefetched")
        #expect(messages[2].hasSuffix("Department has no relationship 'employes'; did you mean 'employees'?"))
        #expect(messages[4] == "relationshipKeyPathsForPrefetching[1] 'department..employees': a key path cannot have an empty key")
    }

    @Test(arguments: TestEngine.available)
    func batchesPrefetchAsTheyLoad(engine: TestEngine) throws {
        let (store, db) = try Self.stores.store(engine).counted()
        var request = FetchRequest(entity: "Employee", sortDescriptors: [QuerySortDescriptor("salary")])
        request.fetchBatchSize = 20
        request.relationshipKeyPathsForPrefetching = ["department", "projects"]
        let reference = Context(store: store)
        let whole = try reference.fetch(request)
        let expected = (walk(whole, "department") + walk(whole, "projects")).sorted()

        // A batched result: each batch brings its relationships, one query
        // per path at most (none when the batch's departments are all loaded).
        let context = Context(store: store)
        let result = try context.fetchBatched(request)
        var seen: [String] = []
        for b in 0..<result.batchCount {
            let before = db.count
            let objects = try result.batch(at: b)
            if b == 0 { #expect(db.count == before + 3, "rows, departments, projects") } else { #expect((2...3).contains(db.count - before)) }
            let loaded = db.count
            seen += walk(objects, "department") + walk(objects, "projects")
            #expect(db.count == loaded, "batch \(b): \(db.statements[loaded...].joined(separator: "\n"))")
        }
        #expect(seen.sorted() == expected)

        // Faults of a batched `fetch`: the first touch loads the batch and its relationships.
        let faults = Context(store: store)
        let objects = try faults.fetch(request)
        let before = db.count
        _ = objects[45]["name"]
        #expect(db.count == before + 3)
        let after = db.count
        _ = walk(Array(objects[40..<60]), "projects")
        _ = walk(Array(objects[40..<60]), "department")
        #expect(db.count == after)
    }

    @Test(arguments: TestEngine.available)
    func pendingChangesStillPrefetchSavedObjects(engine: TestEngine) throws {
        let (store, db) = try Self.stores.store(engine).counted()
        let context = Context(store: store)
        let new = try context.insert("Employee")
        try new.setValue(.string("Zed"), forKey: "name")
        var request = FetchRequest(entity: "Employee", sortDescriptors: [QuerySortDescriptor("name")])
        request.relationshipKeyPathsForPrefetching = ["department"]
        let objects = try context.fetch(request)
        #expect(objects.contains(new) && objects.count == 161)
        let after = db.count
        let seen = walk(objects.filter { $0 !== new }, "department")
        #expect(db.count == after)
        let reference = Context(store: store)
        #expect(seen == walk(try reference.fetch(request), "department"))
        #expect(new.object(forKey: "department") == nil)
        context.rollback()
    }

    // MARK: - Other model shapes

    @Test(arguments: TestEngine.available)
    func inheritanceOneToOneAndJoinTablesWithoutInverse(engine: TestEngine) throws {
        let base = try engine.emptyStore(model: ContextModelShapesTests.model)
        let setUp = Context(store: base)
        for i in 0..<12 {
            let owner = try setUp.insert("Owner")
            try owner.setValue(.string("Owner \(i)"), forKey: "name")
            let pet = try setUp.insert(i % 2 == 0 ? "Dog" : "Cat")
            try pet.setValue(.string("Pet \(i)"), forKey: "name")
            if i % 3 != 0 { try owner.setValue(pet, forKey: "pet") }
            let other = try setUp.insert(i % 3 == 0 ? "Dog" : "Cat")
            try other.setValue(.string("Other \(i)"), forKey: "name")
            if i % 4 != 0 { try owner.setValue(other, forKey: "mascot") }
            try owner.add(other, to: "favourites")
            if i % 2 == 1 { try owner.add(pet, to: "favourites") }
        }
        try setUp.save()
        let (store, db) = try base.counted()
        for (entity, paths) in [("Owner", ["pet", "mascot", "favourites", "pet.owner"]), ("Animal", ["owner", "owner.favourites"])] {
            var request = FetchRequest(entity: entity, sortDescriptors: [QuerySortDescriptor("name")])
            let reference = Context(store: store)
            let expected = try paths.map { walk(try reference.fetch(request), $0) }
            request.relationshipKeyPathsForPrefetching = paths
            let context = Context(store: store)
            let objects = try context.fetch(request)
            let after = db.count
            #expect(try paths.map { walk(objects, $0) } == expected, "\(entity)")
            #expect(db.count == after, "\(entity): \(db.statements[after...].joined(separator: "\n"))")
            #expect(context.statistics.relationshipLoads == 0 && context.statistics.faultLoads == 0)
        }
    }
}

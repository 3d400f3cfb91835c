// The context's registry (ContextRegistry.swift): objects registered one at
// a time sit in a dictionary, the new objects of a key-ordered fetch in runs
// searched by key. Whatever mix of the two holds an ID, the registry must
// answer as one dictionary would — checked against a plain dictionary under
// seeded random operations — and a context over it must keep uniquing,
// removal on delete and eviction exactly as before, for fetches big enough
// to be kept as runs. Objects find their context through a link the
// context clears as it goes (ContextLink): any object that outlives it reads
// `context` as nil.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Context: registry and lifetime")
struct ContextRegistryTests {
    @Test(arguments: 1...10)
    func registryBehavesAsADictionary(seed: UInt64) throws {
        var generator = Seeded(state: seed)
        let context = Context(store: try emptyCompanyStore())
        let entities = ["Employee", "Department"]
        func make(_ id: ObjectID) -> ManagedObject { ManagedObject(id: id, info: context.entityInfo(named: id.entity), context: context) }
        var registry = ContextRegistry()
        // The reference holds identities only: a strong reference there would
        // make every object look shared to eviction.
        var reference: [ObjectID: ObjectIdentifier] = [:]
        // Objects the test keeps alive on purpose (a caller's variables).
        var pinned: [ObjectID: ManagedObject] = [:]
        func someID() -> ObjectID {
            ObjectID(entity: entities.randomElement(using: &generator)!, primaryKey: Int64.random(in: 1...2000, using: &generator))
        }
        for step in 0..<400 {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0, 1:
                // A fetch's new objects: one entity, unregistered keys, in order.
                let entity = entities.randomElement(using: &generator)!
                let size = [3, 40, 63, 64, 65, 200, 700].randomElement(using: &generator)!
                let keys = Set((0..<size).map { _ in Int64.random(in: 1...2000, using: &generator) })
                    .filter { reference[ObjectID(entity: entity, primaryKey: $0)] == nil }.sorted()
                let objects = keys.map { make(ObjectID(entity: entity, primaryKey: $0)) }
                if Bool.random(using: &generator) {
                    registry.register(run: objects, entity: entity)
                } else {
                    // A sorted fetch's: in any order, with a key table when
                    // its keys are dense enough; refused (nothing registered)
                    // when too few or too sparse, and when a key repeats.
                    var shuffled = objects.shuffled(using: &generator)
                    let repeated = shuffled.count > 1 && Int.random(in: 0..<4, using: &generator) == 0
                    if repeated { shuffled.append(make(shuffled[0].objectID)) }
                    let span = (keys.last ?? 0) - (keys.first ?? 0)
                    let expected = !repeated && keys.count >= ContextRegistry.minimumRun && span < Int64(4 * shuffled.count)
                    #expect(registry.register(unorderedRun: shuffled, entity: entity) == expected, "step \(step)")
                    if !expected {
                        for o in objects { registry[o.objectID] = o }
                    }
                }
                for o in objects { reference[o.objectID] = ObjectIdentifier(o) }
            case 2, 3:
                let id = reference.keys.randomElement(using: &generator).map { Bool.random(using: &generator) ? $0 : someID() } ?? someID()
                let object = make(id)
                registry[id] = object
                reference[id] = ObjectIdentifier(object)
            case 4, 5:
                let id = reference.keys.randomElement(using: &generator) ?? someID()
                registry[id] = nil
                reference[id] = nil
            case 6:
                // Pin some objects (as a caller's variable would), release others.
                for id in reference.keys where Int.random(in: 0..<4, using: &generator) == 0 {
                    pinned[id] = registry[id]
                }
                if Bool.random(using: &generator) { pinned = [:] }
            case 7:
                let odd = Bool.random(using: &generator)
                let evictable: (ManagedObject) -> Bool = { ($0.primaryKey % 2 == 1) == odd }
                // Only `pinned` holds objects besides the registry.
                let expected = reference.filter { id, identity in
                    (id.primaryKey % 2 == 1) == odd && pinned[id].map(ObjectIdentifier.init) != identity
                }
                let evicted: Int
                if Bool.random(using: &generator) {
                    evicted = registry.evict(where: evictable)
                } else {
                    let ids = Array(reference.keys) + [someID()]
                    evicted = registry.evict(ids, where: evictable)
                }
                #expect(evicted == expected.count, "step \(step)")
                for id in expected.keys { reference[id] = nil }
            default:
                let id = Bool.random(using: &generator) ? (reference.keys.randomElement(using: &generator) ?? someID()) : someID()
                #expect(registry[id].map(ObjectIdentifier.init) == reference[id], "step \(step) lookup \(id)")
            }
            #expect(registry.count == reference.count, "step \(step)")
            #expect(registry.isEmpty == reference.isEmpty, "step \(step)")
            if step % 10 == 0 {
                let values = Array(registry.values)
                #expect(values.count == reference.count, "step \(step)")
                #expect(Dictionary(uniqueKeysWithValues: values.map { ($0.objectID, ObjectIdentifier($0)) }) == reference, "step \(step)")
                #expect(Set(registry.keys) == Set(reference.keys), "step \(step)")
                for (id, identity) in reference { #expect(registry[id].map(ObjectIdentifier.init) == identity, "step \(step) \(id)") }
            }
        }
        registry.removeAll()
        #expect(registry.isEmpty && Array(registry.values).isEmpty)
    }

    /// `count` employees with increasing keys (ages 20...69).
    private func staff(_ engine: TestEngine, _ count: Int) throws -> (SQLStore, [ObjectID]) {
        let store = try emptyCompanyStore(engine)
        var ids: [ObjectID] = []
        for i in 0..<count {
            ids.append(try store.insert("Employee", ["name": .string("E\(i)"), "salary": .int(Int64(1000 + i)), "age": .int(Int64(20 + i % 50))]))
        }
        return (store, ids)
    }

    @Test(arguments: TestEngine.available)
    func aBigFetchStaysUniqued(engine: TestEngine) throws {
        let (store, ids) = try staff(engine, 300)
        let context = Context(store: store)
        // In key order: kept as one run.
        let objects = try context.fetch(FetchRequest(entity: "Employee"))
        #expect(objects.map(\.objectID) == ids)
        #expect(context.registeredObjects.count == 300)
        for (i, id) in ids.enumerated() {
            #expect(context.object(with: id) === objects[i])
            #expect(context.registeredObject(for: id) === objects[i])
        }
        #expect(context.registeredObject(for: ObjectID(entity: "Employee", primaryKey: 1_000_000)) == nil)
        // Fetched again, sorted otherwise or in part: the same objects.
        var bySalary = FetchRequest(entity: "Employee")
        bySalary.sortDescriptors = [QuerySortDescriptor("salary", ascending: false)]
        #expect(try context.fetch(bySalary).map(ObjectIdentifier.init) == objects.reversed().map(ObjectIdentifier.init))
        let some = try context.fetch(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("age < 25")))
        #expect(some.count == 30 && some.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
        #expect(Set(some.map(ObjectIdentifier.init)).isSubset(of: Set(objects.map(ObjectIdentifier.init))))
        // A second big fetch of other rows, of another entity, is a run of its own.
        for i in 0..<100 { _ = try store.insert("Department", ["name": .string("D\(i)")]) }
        let departments = try context.fetch(FetchRequest(entity: "Department"))
        #expect(departments.count == 100 && context.registeredObjects.count == 400)
        #expect(departments.allSatisfy { context.object(with: $0.objectID) === $0 })
        #expect(Set(context.registeredObjects.map(ObjectIdentifier.init)) == Set((objects + departments).map(ObjectIdentifier.init)))
    }

    @Test(arguments: TestEngine.available)
    func aBigSortedFetchStaysUniqued(engine: TestEngine) throws {
        let (store, ids) = try staff(engine, 300)
        let context = Context(store: store)
        // Not in key order: kept as one run with a key table.
        var byAge = FetchRequest(entity: "Employee")
        byAge.sortDescriptors = [QuerySortDescriptor("age"), QuerySortDescriptor("salary", ascending: false)]
        let objects = try context.fetch(byAge)
        #expect(Set(objects.map(\.objectID)) == Set(ids) && objects.map(\.objectID) != ids)
        #expect(context.registeredObjects.count == 300)
        for object in objects { #expect(context.object(with: object.objectID) === object) }
        #expect(context.registeredObject(for: ObjectID(entity: "Employee", primaryKey: 0)) == nil)
        #expect(context.registeredObject(for: ObjectID(entity: "Employee", primaryKey: 1_000_000)) == nil)
        #expect(context.registeredObject(for: ObjectID(entity: "Department", primaryKey: ids[0].primaryKey)) == nil)
        // Fetched again in key order: the same objects.
        #expect(try context.fetch(FetchRequest(entity: "Employee")).map(ObjectIdentifier.init)
                == ids.map { ObjectIdentifier(context.object(with: $0)) })
        // Deleting most of them leaves the rest registered, and found.
        let doomed = objects.filter { $0.primaryKey % 3 != 0 }
        for o in doomed { try context.delete(o) }
        try context.save()
        #expect(doomed.allSatisfy { context.registeredObject(for: $0.objectID) == nil })
        let kept = objects.filter { $0.primaryKey % 3 == 0 }
        #expect(kept.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
        #expect(context.registeredObjects.count == kept.count)
    }

    @Test(arguments: TestEngine.available)
    func deletingMostOfARunLeavesTheRestRegistered(engine: TestEngine) throws {
        let (store, ids) = try staff(engine, 300)
        let context = Context(store: store)
        let objects = try context.fetch(FetchRequest(entity: "Employee"))
        // Deleted and saved: they leave the registry (past half of the run).
        let doomed = objects.enumerated().filter { $0.offset % 4 != 0 }.map(\.element)
        for o in doomed { try context.delete(o) }
        try context.save()
        #expect(doomed.allSatisfy { $0.context == nil && context.registeredObject(for: $0.objectID) == nil })
        let kept = objects.enumerated().filter { $0.offset % 4 == 0 }.map(\.element)
        #expect(kept.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
        #expect(context.registeredObjects.count == 75)
        // A row fetched anew is the kept object, and a deleted key is new.
        #expect(try context.fetch(FetchRequest(entity: "Employee")).map(ObjectIdentifier.init) == kept.map(ObjectIdentifier.init))
        #expect(try Context(store: store).fetch(FetchRequest(entity: "Employee")).map(\.objectID) == ids.enumerated().filter { $0.offset % 4 == 0 }.map(\.element))
        // An insert gets a permanent ID and is found under it.
        let new = try context.insert("Employee")
        try new.setValue(.string("New"), forKey: "name")
        try new.setValue(.int(1), forKey: "salary")
        try context.save()
        #expect(context.registeredObject(for: new.objectID) === new && context.registeredObjects.count == 76)
    }

    @Test(arguments: TestEngine.available)
    func evictionReachesARunOnceTheResultIsDropped(engine: TestEngine) throws {
        let (store, _) = try staff(engine, 200)
        let context = Context(store: store)
        var all: [ManagedObject]? = try context.fetch(FetchRequest(entity: "Employee"))
        let kept = all![10]
        try all![20].setValue(.int(99), forKey: "age")
        let edited = all![20]
        #expect(context.evictUnreferencedObjects() == 0, "the result array holds every object")
        #expect(context.registeredObjects.count == 200)
        all = nil
        #expect(context.evictUnreferencedObjects() == 198)
        #expect(context.registeredObject(for: kept.objectID) === kept)
        #expect(context.registeredObject(for: edited.objectID) === edited && edited["age"] == .int(99))
        #expect(context.registeredObjects.count == 2)
        try context.save()
        context.reset()
        #expect(context.registeredObjects.isEmpty && kept.context == nil)
    }

    @Test(arguments: TestEngine.available)
    func objectsOutlivingTheirContextHaveNone(engine: TestEngine) throws {
        let (store, _) = try staff(engine, 100)
        var context: Context? = Context(store: store)
        weak var gone = context
        let fetched = try context!.fetch(FetchRequest(entity: "Employee"))
        let inserted = try context!.insert("Department")
        try inserted.setValue(.string("New"), forKey: "name")
        let unregistered = fetched[5]
        try context!.delete(unregistered)
        try context!.save()
        #expect(fetched[0].context === context && inserted.context === context && unregistered.context == nil)
        context = nil
        #expect(gone == nil, "objects do not keep their context alive")
        #expect(fetched.allSatisfy { $0.context == nil } && inserted.context == nil)
        // Reads of saved values still answer; edits are refused.
        #expect(fetched[0]["name"] == .string("E0"))
        #expect(throws: ContextError.objectNotInContext(fetched[1].objectID)) { try fetched[1].setValue(.int(1), forKey: "age") }
    }
}

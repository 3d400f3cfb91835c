// The store's uniquing table (`ObjectRegistry`) against a plain dictionary
// over random sequences of registrations, lookups, removals and appends that
// are indexed only when looked up; and store fetches over it: one object per
// row across fetches, whatever order and slab (runs of 128 rows) the rows
// came in, with every value where the row put it.
import Foundation
import Testing
@testable import QuarryStore

final class Token: Registrable {
    let id: ObjectID
    init(_ id: ObjectID) { self.id = id }
}

@Suite("Object registry")
struct ObjectRegistryTests {
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func randomOperationsMatchADictionary(seed: UInt64) {
        var rng = Seeded(state: seed)
        var registry = ObjectRegistry<Token>()
        var reference: [ObjectID: Token] = [:]
        for _ in 0..<4_000 {
            // Few keys, two entities with overlapping keys: collisions, reuse, holes.
            let id = ObjectID(entity: Bool.random(using: &rng) ? "A" : "B", primaryKey: Int64.random(in: -20...300, using: &rng))
            switch Int.random(in: 0..<10, using: &rng) {
            case 0...2:
                #expect(registry[id] === reference[id])
            case 3...4:
                let token = Token(id)
                registry[id] = token
                reference[id] = token
            case 5...6:
                registry[id] = nil
                reference[id] = nil
            default:
                // A fetch's append: the first object of an ID stays.
                let token = Token(id)
                registry.append(token)
                if reference[id] == nil { reference[id] = token }
            }
            if Int.random(in: 0..<200, using: &rng) == 0 {
                registry.removeAll()
                reference.removeAll()
            }
        }
        for (id, token) in reference { #expect(registry[id] === token) }
        #expect(registry.count == reference.count)
        #expect(registry.isEmpty == reference.isEmpty)
    }

    @Test
    func removeAllReleasesEveryObject() {
        weak var first: Token?
        weak var last: Token?
        var registry = ObjectRegistry<Token>()
        do {
            let tokens = (0..<1_000).map { Token(ObjectID(entity: "A", primaryKey: Int64($0))) }
            first = tokens.first
            last = tokens.last
            for t in tokens { registry.append(t) }
            _ = registry[ObjectID(entity: "A", primaryKey: 3)]
            for t in tokens where t.id.primaryKey % 3 == 0 { registry[t.id] = nil }
            for t in tokens where t.id.primaryKey % 3 == 0 { registry[t.id] = t }
        }
        #expect(first != nil && last != nil)
        registry.removeAll()
        #expect(first == nil && last == nil)
        #expect(registry.isEmpty)
    }
}

@Suite("Store fetches: uniquing and values across slabs")
struct StoreUniquingTests {
    /// A store with `count` employees whose values follow from their number.
    static func store(_ count: Int) throws -> SQLStore {
        let store = try SQLStore(path: ":memory:", model: try ModelReader.read(from: Fixture.modelPath))
        try store.connection.transaction {
            for i in 0..<count {
                var values: [String: Value] = ["name": .string("E\(i) \(Fixture.names[i % Fixture.names.count])"), "salary": .int(Int64(i * 37 % 1_000))]
                if i % 5 != 0 { values["age"] = .int(Int64(20 + i % 40)) }
                try store.insert("Employee", values)
            }
        }
        return store
    }

    @Test(arguments: [1, 127, 128, 129, 1_000])
    func objectsAreUniqueAndHoldTheirRowsValues(count: Int) throws {
        let store = try Self.store(count)
        let bySalary = FetchRequest(entity: "Employee", sortDescriptors: [QuerySortDescriptor("salary", ascending: false)])
        let first = try store.fetch(bySalary)
        #expect(first.count == count)
        for object in first {
            guard case .string(let name)? = object.value(forKey: "name"), let n = Int(name.dropFirst().prefix { $0 != " " }) else {
                Issue.record("no name in \(object)"); continue
            }
            #expect(object.value(forKey: "salary") == .int(Int64(n * 37 % 1_000)))
            #expect(object.value(forKey: "age") == (n % 5 != 0 ? .int(Int64(20 + n % 40)) : .null))
            #expect(object.values["name"] == .string(StoredText.composed("E\(n) \(Fixture.names[n % Fixture.names.count])")))
        }
        // Another fetch, another order, part of the rows: the same objects.
        let byKey = try store.fetch(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary < 500"),
                                                 sortDescriptors: [QuerySortDescriptor("name")]))
        let firstByID = Dictionary(uniqueKeysWithValues: first.map { ($0.id, $0) })
        for object in byKey { #expect(firstByID[object.id] === object) }
        #expect(Set(byKey.map(ObjectIdentifier.init)).count == byKey.count)
        // Forgotten: fresh objects, the same values.
        store.forgetObjects()
        let again = try store.fetch(bySalary)
        #expect(zip(again, first).allSatisfy { $0 !== $1 && $0.id == $1.id && $0.values == $1.values })
    }
}

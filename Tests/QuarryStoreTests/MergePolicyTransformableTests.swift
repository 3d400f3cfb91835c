// Merge policies over a transformable attribute, on SQLite and PostgreSQL:
// the row a conflict re-reads is decoded as every row the context reads, so
// the policies compare decoded values and what the store's side keeps is the
// value, never the transformer's bytes. Context A reads an item, another
// context changes its `tags` and saves, A changes only its name and saves.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Merge policies over transformable attributes", .serialized)
struct MergePolicyTransformableTests {
    static let red: Value = .array([.string("red")])
    static let blue: Value = .array([.string("blue")])

    /// (policy, tags A reads after its save, tags a fresh context reads)
    static let cases: [(MergePolicy, Value, Value)] = [
        (.mergeByPropertyObjectTrump, blue, blue),
        (.mergeByPropertyStoreTrump, blue, blue),
        // The object's whole state is written, the tags it read included.
        (.overwrite, red, red),
    ]

    @Test(arguments: TestEngine.available, cases)
    func theStoresSideIsTheDecodedValue(engine: TestEngine, c: (MergePolicy, Value, Value)) throws {
        let store = try engine.emptyStore(model: try Transformables.model)
        let id = try store.insert("Item", ["name": .string("one"), "tags": Self.red])
        let a = Context(store: store)
        let item = try #require(try a.fetch(FetchRequest(entity: "Item")).first)
        #expect(item.value(forKey: "tags") == Self.red)

        let b = Context(store: store)
        try b.object(with: id).setValue(Self.blue, forKey: "tags")
        try b.save()

        a.mergePolicy = c.0
        try item.setValue(.string("renamed"), forKey: "name")
        try a.save()
        #expect(item.value(forKey: "tags") == c.1)
        let fresh = try #require(try Context(store: store).fetch(FetchRequest(entity: "Item")).first)
        #expect(fresh.value(forKey: "tags") == c.2)
        #expect(fresh.value(forKey: "name") == .string("renamed"))
    }

    @Test(arguments: TestEngine.available)
    func theErrorListsDecodedValues(engine: TestEngine) throws {
        let store = try engine.emptyStore(model: try Transformables.model)
        let id = try store.insert("Item", ["name": .string("one"), "tags": Self.red])
        let a = Context(store: store)
        let item = try #require(try a.fetch(FetchRequest(entity: "Item")).first)
        _ = item.value(forKey: "tags")
        let b = Context(store: store)
        try b.object(with: id).setValue(Self.blue, forKey: "tags")
        try b.save()
        try item.setValue(.string("renamed"), forKey: "name")
        let error = try #require(throws: MergeConflictError.self) { try a.save() }
        let tags = try #require(error.conflicts.first?.keys.first { $0.key == "tags" })
        #expect(tags.read == Self.red && tags.store == Self.blue && tags.new == nil)
    }
}

// An object read from a store. Attributes come with the row; relationships
// are faults, loaded from the store the first time a key path touches them
// (to-one through the foreign key, to-many with one query). The evaluator
// reads it through `KeyValueAccessible`, so any predicate can run on fetched
// objects in memory — the residual of a fetch, and the `memory` engine that
// checks SQL results against the evaluator's.
//
// Values sit in an array laid out like the SELECT's columns; one layout,
// shared by every object of a fetch, maps names to positions. That keeps a
// fetched object to two allocations, which matters at a million rows.
//
// Like a managed object, a stored object belongs to the thread that fetched it.

/// Where each named value sits in a stored object's value array.
final class ObjectLayout: @unchecked Sendable {
    let names: [String]
    let index: [String: Int]

    init(names: [String]) {
        self.names = names
        var index: [String: Int] = [:]
        for (i, n) in names.enumerated() { index[n] = i }
        self.index = index
    }
}

/// An object of a store.
public final class StoredObject: KeyValueAccessible, @unchecked Sendable, CustomStringConvertible {
    public let id: ObjectID
    let layout: ObjectLayout
    private(set) var storage: ContiguousArray<Value>
    private unowned let store: SQLStore
    private var loadedRelationships: [String: Value]?

    init(id: ObjectID, layout: ObjectLayout, storage: ContiguousArray<Value>, store: SQLStore) {
        self.id = id
        self.layout = layout
        self.storage = storage
        self.store = store
    }

    public var entity: String { id.entity }

    /// Attribute values, and to-one foreign keys under `_fk_<relationship>`, by name.
    public var values: [String: Value] {
        Dictionary(uniqueKeysWithValues: zip(layout.names, storage))
    }

    public func value(forKey key: String) -> Value? {
        if let i = layout.index[key] { return storage[i] }
        if let loaded = loadedRelationships?[key] { return loaded }
        guard let property = store.model.entity(named: id.entity)?.property(named: key, in: store.model) else { return nil }
        switch property {
        case .attribute:
            return .null
        case .relationship(let r):
            let value = (try? store.relationshipValue(r, of: self)) ?? .null
            loadedRelationships = loadedRelationships ?? [:]
            loadedRelationships![key] = value
            return value
        case .fetchedProperty:
            return nil
        }
    }

    /// A stored foreign key (nil when the relationship holds none).
    func foreignKey(_ relationship: String) -> Value? {
        layout.index["_fk_" + relationship].map { storage[$0] }
    }

    public var description: String {
        let fields = zip(layout.names, storage).sorted { $0.0 < $1.0 }.map { "\($0.0): \(Printer.format($0.1))" }
        return "\(id) {\(fields.joined(separator: ", "))}"
    }
}

// An object read from a store. Attributes come with the row; relationships
// are faults, loaded from the store the first time a key path touches them
// (to-one through the foreign key, to-many with one query). The evaluator
// reads it through `KeyValueAccessible`, so any predicate can run on fetched
// objects in memory — the residual of a fetch, and the `memory` engine that
// checks SQL results against the evaluator's.
//
// Like a managed object, a stored object belongs to the thread that fetched it.

/// An object of a store.
public final class StoredObject: KeyValueAccessible, @unchecked Sendable, CustomStringConvertible {
    public let id: ObjectID
    /// Attribute values and to-one foreign keys, by name.
    public private(set) var values: [String: Value]
    private unowned let store: SQLiteStore
    private var loadedRelationships: [String: Value] = [:]

    init(id: ObjectID, values: [String: Value], store: SQLiteStore) {
        self.id = id
        self.values = values
        self.store = store
    }

    public var entity: String { id.entity }

    public func value(forKey key: String) -> Value? {
        if let loaded = loadedRelationships[key] { return loaded }
        guard let property = store.model.entity(named: id.entity)?.property(named: key, in: store.model) else { return nil }
        switch property {
        case .attribute:
            return values[key] ?? .null
        case .relationship(let r):
            let value = (try? store.relationshipValue(r, of: self)) ?? .null
            loadedRelationships[key] = value
            return value
        case .fetchedProperty:
            return nil
        }
    }

    public var description: String {
        let fields = values.keys.sorted().map { "\($0): \(Printer.format(values[$0]!))" }
        return "\(id) {\(fields.joined(separator: ", "))}"
    }
}

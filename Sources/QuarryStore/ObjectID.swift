// Object identity in a store: the entity and the row's primary key. IDs are
// plain values (Sendable), so they cross threads and contexts; objects do not.

/// A stored object's permanent identity.
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    public let entity: String
    public let primaryKey: Int64

    public init(entity: String, primaryKey: Int64) {
        self.entity = entity
        self.primaryKey = primaryKey
    }

    public var description: String { "\(entity)/\(primaryKey)" }

    // Keys are unique within a table and entities are few: hashing the key
    // alone is enough and spares hashing a string for every row of a fetch.
    public func hash(into hasher: inout Hasher) { hasher.combine(primaryKey) }
}

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

    // What Set and Dictionary actually call. The default runs the whole
    // SipHash of `hash(into:)` — about a third of the cost of registering a
    // million fetched objects for uniquing. Keys are database row keys, not
    // attacker-chosen strings, so a fast integer mix keyed by the table's
    // per-instance seed (splitmix64's finaliser) spreads them as well.
    // `_rawHashValue(seed:)` is Hashable's own (underscored) requirement for
    // exactly this; equal IDs still hash equally, as `==` needs.
    public func _rawHashValue(seed: Int) -> Int {
        var z = UInt64(bitPattern: primaryKey) &+ UInt64(bitPattern: Int64(seed)) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(bitPattern: UInt(z ^ (z >> 31)))
    }
}

// An object read from a store. Attributes come with the row; relationships
// are faults, loaded from the store the first time a key path touches them
// (to-one through the foreign key, to-many with one query). The evaluator
// reads it through `KeyValueAccessible`, so any predicate can run on fetched
// objects in memory — the residual of a fetch, and the `memory` engine that
// checks SQL results against the evaluator's.
//
// Values are laid out like the SELECT's columns; one layout, shared by every
// object of a fetch, maps names to positions. They sit in a slab shared by a
// run of rows (`ValueSlab`), so that a fetched object is one allocation of
// its own, which matters at a million rows.
//
// Like a managed object, a stored object belongs to the thread that fetched it.

/// Where each named value sits in a stored object's value array.
final class ObjectLayout: @unchecked Sendable {
    let names: [String]
    /// Each name's position: its only column, or (for a name several
    /// columns share) the first, which `perEntity` overrides.
    let index: [String: Int]
    /// Entity → name → position, for names that sibling sub-entities store
    /// in different columns: a row reads its own entity's column, never a
    /// sibling's (which, for it, is NULL or stale).
    let perEntity: [String: [String: Int]]

    /// The layout of `columns`, each under its name (to-ones under
    /// `toOnePrefix` + name).
    init(columns: [PlannedColumn], toOnePrefix: String = "") {
        names = columns.map { c in
            if case .toOne = c.kind { return toOnePrefix + c.name }
            return c.name
        }
        var index: [String: Int] = [:]
        var perEntity: [String: [String: Int]] = [:]
        for (i, n) in names.enumerated() {
            if index[n] == nil { index[n] = i }
            for entity in columns[i].onlyFor ?? [] { perEntity[entity, default: [:]][n] = i }
        }
        self.index = index
        self.perEntity = perEntity
    }

    /// The position of `name` for an object of `entity`.
    @inline(__always)
    func slot(_ name: String, for entity: String) -> Int? {
        if !perEntity.isEmpty, let i = perEntity[entity]?[name] { return i }
        return index[name]
    }
}

/// The values of a run of consecutive rows of one fetch, in one allocation:
/// row `r`'s values start at `r * width`. A fetched object keeps its slab
/// alive (so one object kept from a big fetch keeps its run's values, at
/// most `rowsPerSlab` rows' worth), and in exchange a million-row fetch makes
/// and frees one allocation per object instead of two — the frees dominate
/// when the objects are dropped.
final class ValueSlab {
    static let rowsPerSlab = 128
    let values: UnsafeMutablePointer<Value>
    let capacity: Int
    private(set) var count = 0
    /// What every object of the slab shares: one fetch's layout and store
    /// (kept here, not in each object: smaller objects, fewer reference counts).
    let layout: ObjectLayout
    unowned let store: SQLStore

    init(layout: ObjectLayout, store: SQLStore) {
        self.layout = layout
        self.store = store
        capacity = max(layout.names.count, 1) * Self.rowsPerSlab
        values = .allocate(capacity: capacity)
    }

    /// Whether another row's values would not fit.
    var isFull: Bool { count + layout.names.count > capacity }

    /// Room for one more row's values (the slab must not be full); returns
    /// where they start.
    func reserveRow() -> Int {
        precondition(!isFull, "a full slab")
        defer { count += layout.names.count }
        return count
    }

    deinit {
        // Only values that may hold a reference are destroyed one by one:
        // numbers, dates and NULLs (most of a row) need nothing, and the
        // generic `deinitialize(count:)` would call Value's destroy for each.
        for i in 0..<count {
            switch values[i] {
            case .null, .bool, .int, .double, .date, .decimal, .uuid: continue
            default: (values + i).deinitialize(count: 1)
            }
        }
        values.deallocate()
    }
}

/// An object of a store.
public final class StoredObject: KeyValueAccessible, Registrable, @unchecked Sendable, CustomStringConvertible {
    public let id: ObjectID
    private let slab: ValueSlab
    private let offset: Int
    /// Relationships read so far. They reference other objects of the
    /// store, which often reference this one back (an inverse), so the
    /// store's registry clears them when it lets go of the object
    /// (`unregistered()`): a cycle of objects would never be freed.
    private var loadedRelationships: [String: Value]?

    /// A new object whose values `initialize` sets, every one of the
    /// layout's, straight into the next row of `slab`, which must have room
    /// (see `ValueSlab.isFull`).
    init(id: ObjectID, slab: ValueSlab, initialize: (UnsafeMutablePointer<Value>) -> Void) {
        self.id = id
        self.slab = slab
        self.offset = slab.reserveRow()
        // `reserveRow` counted the values as set: set them before anything can fail.
        initialize(slab.values + offset)
    }

    var layout: ObjectLayout { slab.layout }
    private var store: SQLStore { slab.store }

    /// The object's values, in layout order.
    private var storage: UnsafeBufferPointer<Value> {
        UnsafeBufferPointer(start: slab.values + offset, count: layout.names.count)
    }

    public var entity: String { id.entity }

    /// The value at position `slot` of the layout.
    subscript(slot slot: Int) -> Value { slab.values[offset + slot] }

    /// Attribute values, and to-one foreign keys under `_fk_<relationship>`, by name.
    public var values: [String: Value] {
        // Not the row's version (`value(forKey: StoreMapping.versionColumn)` reads it): no attribute.
        Dictionary(uniqueKeysWithValues: zip(layout.names, storage).filter { $0.0 != StoreMapping.versionColumn })
    }

    public func value(forKey key: String) -> Value? {
        if let i = layout.slot(key, for: id.entity) { return storage[i] }
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

    /// Out of the store's registry (forgotten, a batch change, or the store
    /// gone): drops the related objects it holds. Read again while the
    /// store is open, a relationship reloads.
    func unregistered() {
        if loadedRelationships != nil { loadedRelationships = nil }
    }

    /// A stored foreign key (nil when the relationship holds none).
    func foreignKey(_ relationship: String) -> Value? {
        layout.slot("_fk_" + relationship, for: id.entity).map { storage[$0] }
    }

    public var printedIdentity: String? { id.description }

    public var description: String {
        let fields = zip(layout.names, storage).filter { $0.0 != StoreMapping.versionColumn }.sorted { $0.0 < $1.0 }.map { "\($0.0): \(Printer.format($0.1))" }
        return "\(id) {\(fields.joined(separator: ", "))}"
    }
}

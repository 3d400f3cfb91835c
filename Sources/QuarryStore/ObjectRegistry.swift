// The store's uniquing table: one object per row ID, held strongly, kept in
// the order the objects were registered.
//
// Two costs of a plain `[ObjectID: Object]` dominate a million-row fetch
// whose objects are used once and dropped:
// - inserting: every insert is a cache miss somewhere in a table of tens of
//   megabytes. So a fetch only appends its new objects (`append`), and the
//   hash index over them is built on the first lookup that needs it: a
//   fetch that is never followed by a lookup never pays for it, and one that
//   is pays once per object, as before.
// - dropping: a dictionary releases its values in hash order, a random walk
//   over the objects' memory. Here the strong references sit in an array in
//   registration order (the order they were allocated in), and the index
//   maps IDs to positions only, so dropping everything releases the objects
//   front to back.
//
// The registry owns its objects, and the references objects hold to one
// another (a stored object's loaded relationships) are caches under that
// ownership: related objects point at each other both ways, so those
// references form cycles that Swift never frees. Every object the registry
// lets go of is told so (`unregistered()`) and drops its caches, which
// breaks the cycles; the store empties its registry when it goes.

/// An object the registry can hold: it knows its own ID, so the registry
/// need not keep a copy of every key beside it.
protocol Registrable: AnyObject {
    var id: ObjectID { get }
    /// The registry no longer holds the object: it must let go of the
    /// other registered objects it references (or they and it leak as a
    /// cycle). It stays usable, reloading what it dropped when asked.
    func unregistered()
}

extension Registrable {
    func unregistered() {}
}

struct ObjectRegistry<Object: Registrable> {
    /// The registered objects in registration order; nil where one was removed.
    private var slots: ContiguousArray<Object?> = []
    /// Position of each ID, for the slots before `indexed`.
    private var positions: [ObjectID: Int] = [:]
    /// Slots from here on are appended but not yet in `positions`.
    private var indexed = 0
    /// Objects registered (slots that are not nil).
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// The object registered under `id`. Mutating: it indexes pending objects first.
    subscript(id: ObjectID) -> Object? {
        mutating get {
            indexPending()
            return positions[id].flatMap { slots[$0] }
        }
        set {
            indexPending()
            if let object = newValue {
                if let position = positions[id] {
                    if slots[position] == nil { count += 1 }
                    slots[position] = object
                } else {
                    // Under the ID asked for, which is the object's own.
                    precondition(object.id == id, "an object registered under another ID than its own")
                    append(object)
                    indexPending()
                }
            } else if let position = positions.removeValue(forKey: id) {
                slots[position]?.unregistered()
                slots[position] = nil
                count -= 1
                compactIfSparse()
            }
        }
    }

    /// Registers a new object whose ID the caller knows is not registered
    /// (not looked up: the index takes it on the next lookup). Should the ID
    /// be registered after all, the earlier object stays registered.
    mutating func append(_ object: Object) {
        slots.append(object)
        count += 1
    }

    /// `append` for each of `objects`.
    mutating func append<S: Sequence>(contentsOf objects: S) where S.Element == Object {
        // One by one: appending a lazily mapped sequence retains each object
        // twice and releases it once. Room grows geometrically, as appends do.
        let before = slots.count, needed = before + objects.underestimatedCount
        if slots.capacity < needed { slots.reserveCapacity(Swift.max(needed, 2 * slots.capacity)) }
        for object in objects { slots.append(object) }
        count += slots.count - before
    }

    /// Forgets every object, releasing them in registration order.
    mutating func removeAll() {
        positions = [:]
        // Released front to back by a loop of our own: dropping the array
        // would release each element through the generic destroy witness.
        for i in slots.indices {
            slots[i]?.unregistered()
            slots[i] = nil
        }
        slots = []
        indexed = 0
        count = 0
    }

    private mutating func indexPending() {
        guard indexed < slots.count else { return }
        positions.reserveCapacity(count)
        for i in indexed..<slots.count {
            guard let id = slots[i]?.id else { continue }
            if positions[id] == nil {
                positions[id] = i
            } else {
                // Registered twice: the first object stays the row's object.
                slots[i]?.unregistered()
                slots[i] = nil
                count -= 1
            }
        }
        indexed = slots.count
    }

    /// Removals leave holes; once they are most of the array, close them up.
    private mutating func compactIfSparse() {
        guard slots.count > 64, count * 2 < slots.count else { return }
        var newSlots = ContiguousArray<Object?>()
        newSlots.reserveCapacity(count)
        for case let object? in slots {
            positions[object.id] = newSlots.count
            newSlots.append(object)
        }
        slots = newSlots
        indexed = slots.count
    }
}

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

struct ObjectRegistry<Object: AnyObject> {
    /// The registered objects in registration order; nil where one was removed.
    private var slots: ContiguousArray<Object?> = []
    /// The ID of each slot.
    private var keys: ContiguousArray<ObjectID> = []
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
                    append(object, id: id)
                    indexPending()
                }
            } else if let position = positions.removeValue(forKey: id) {
                slots[position] = nil
                count -= 1
                compactIfSparse()
            }
        }
    }

    /// Registers a new object whose ID the caller knows is not registered
    /// (not looked up: the index takes it on the next lookup). Should the ID
    /// be registered after all, the earlier object stays registered.
    mutating func append(_ object: Object, id: ObjectID) {
        slots.append(object)
        keys.append(id)
        count += 1
    }

    /// Forgets every object, releasing them in registration order.
    mutating func removeAll() {
        positions = [:]
        keys = []
        slots = []
        indexed = 0
        count = 0
    }

    private mutating func indexPending() {
        guard indexed < slots.count else { return }
        positions.reserveCapacity(count)
        for i in indexed..<slots.count where slots[i] != nil {
            if positions[keys[i]] == nil {
                positions[keys[i]] = i
            } else {
                // Registered twice: the first object stays the row's object.
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
        var newKeys = ContiguousArray<ObjectID>()
        newSlots.reserveCapacity(count)
        newKeys.reserveCapacity(count)
        for (i, slot) in slots.enumerated() where slot != nil {
            positions[keys[i]] = newSlots.count
            newSlots.append(slot)
            newKeys.append(keys[i])
        }
        slots = newSlots
        keys = newKeys
        indexed = slots.count
    }
}

// A managed object's saved values, by property name. A fetch fills hundreds
// of thousands of objects of one entity with the same properties, so they
// are laid out by a `ValueSlots` shared by every object of the entity,
// instead of a dictionary per object that hashes every name on the way in,
// and the values of consecutive objects share one `ValueBlock` rather than
// an array each (one allocation and one free per block, not per object). Properties outside the layout (relationships loaded later, values
// of a row read by name) go to a small dictionary beside it. Reads and
// writes look like a dictionary's: a nil slot is an absent key. The layout
// is the entity's (`EntityInfo.slots`), so a resolved property knows its
// position and reads it without hashing its name.

/// Property names → positions, shared by every object of one entity in a
/// context (one thread: the memo below needs no lock).
final class ValueSlots {
    let names: [String]
    let index: [String: Int]
    // The name looked up last: loops over many objects use one key at a time.
    // Unchecked exclusivity: one context, one thread, short accesses (ContextObject.swift).
    @exclusivity(unchecked) private var lastName = ""
    @exclusivity(unchecked) private var lastPosition: Int?

    init(names: [String]) {
        self.names = names
        var index: [String: Int] = [:]
        for (i, n) in names.enumerated() where index[n] == nil { index[n] = i }
        self.index = index
    }

    func position(of name: String) -> Int? {
        if let lastPosition, name == lastName { return lastPosition }
        guard let found = index[name] else { return nil }
        lastName = name
        lastPosition = found
        return found
    }
}

/// The saved values of consecutive objects filled by one plan, `width`
/// (the slots' count) per object, side by side: one allocation for many
/// objects instead of an array each, and nothing to free per object.
/// Blocks start small and double (a fault loaded alone wastes little), up
/// to `maxRows` objects, so that an object kept alive holds at most that
/// many objects' values in memory with it.
final class ValueBlock {
    static let maxRows = 256
    let slots: ValueSlots
    let width: Int
    let rows: Int
    /// `rows * width` slots, initialized row by row as rows are claimed and
    /// filled (`Context.fill` writes every slot of its row). Memory of its own rather than
    /// an array: an array's storage is freed by the runtime's generic
    /// destroy, a call through the type's witnesses per slot (~100
    /// instructions), where `deinit` below moves each value out and drops
    /// it: a switch on its case, releasing only what holds a reference.
    let values: UnsafeMutablePointer<PropertyValue?>
    // Unchecked: one context, one thread, short accesses (ContextObject.swift).
    @exclusivity(unchecked) private(set) var used = 0

    init(slots: ValueSlots, rows: Int) {
        self.slots = slots
        self.width = slots.names.count
        self.rows = rows
        values = .allocate(capacity: rows * width)
    }

    deinit {
        // Slots past the rows claimed were never initialized.
        // (`deinitialize(count:)` would go through the witnesses too.)
        for i in 0 ..< used * width { _ = (values + i).move() }
        values.deallocate()
    }

    var isFull: Bool { used == rows }

    /// Claims the next object's row; returns where its values start. The
    /// caller must initialize all `width` slots of it before anything reads them.
    func claim() -> Int {
        defer { used += 1 }
        return used * width
    }
}

struct SavedValues: Sequence, ExpressibleByDictionaryLiteral {
    /// Where the laid-out values are: `block.values[base ..< base + width]`.
    private var block: ValueBlock?
    private var base = 0
    /// Values outside the layout; nil while there are none (the usual
    /// case: nil costs nothing to make, copy or free, where even an empty
    /// dictionary is a reference counted on each).
    private var others: [String: PropertyValue]?

    init() {}

    init(dictionaryLiteral elements: (String, PropertyValue)...) {
        for (key, value) in elements { self[key] = value }
    }

    /// Values laid out by the block's slots, from `base` (nil where there is none).
    init(block: ValueBlock, base: Int) {
        self.block = block
        self.base = base
    }

    subscript(key: String) -> PropertyValue? {
        get {
            if let block, let i = block.slots.position(of: key) { return block.values[base + i] }
            return others?[key]
        }
        set {
            if let block, let i = block.slots.position(of: key) {
                block.values[base + i] = newValue
            } else if others != nil {
                others![key] = newValue
                if others!.isEmpty { others = nil }
            } else if let newValue {
                others = [key: newValue]
            }
        }
    }

    /// The value of a resolved property: straight from its slot when these
    /// values are laid out as its entity's (they are, for a filled object).
    subscript(property: PropertyInfo) -> PropertyValue? {
        get {
            if let i = property.slot, let block, block.slots === property.slots { return block.values[base + i] }
            return self[property.name]
        }
        set {
            if let i = property.slot, let block, block.slots === property.slots {
                block.values[base + i] = newValue
            } else {
                self[property.name] = newValue
            }
        }
    }

    /// The attribute value in a resolved property's slot, when it has one
    /// there (a filled object's attributes do): nil otherwise.
    func slotAttribute(_ property: PropertyInfo) -> QuarrySyntax.Value? {
        guard let i = property.slot, let block, block.slots === property.slots,
              case .attribute(let value)? = block.values[base + i] else { return nil }
        return value
    }

    /// Never given a value (cheaper to ask than `isEmpty`).
    var isPristine: Bool { block == nil && others == nil }

    /// No value at all (a fault that never loaded anything).
    var isEmpty: Bool {
        guard others == nil else { return false }
        guard let block else { return true }
        return !(base ..< base + block.width).contains { block.values[$0] != nil }
    }

    /// The laid-out values first, then the others. (A write to the key just
    /// read, while iterating, is safe: each slot is read before its turn.)
    func makeIterator() -> Iterator {
        Iterator(block: block, base: base, others: others?.makeIterator())
    }

    struct Iterator: IteratorProtocol {
        let block: ValueBlock?
        let base: Int
        var others: Dictionary<String, PropertyValue>.Iterator?
        var i = 0

        init(block: ValueBlock?, base: Int, others: Dictionary<String, PropertyValue>.Iterator?) {
            self.block = block
            self.base = base
            self.others = others
        }

        mutating func next() -> (key: String, value: PropertyValue)? {
            if let block {
                while i < block.width {
                    defer { i += 1 }
                    if let value = block.values[base + i] { return (block.slots.names[i], value) }
                }
            }
            return others?.next()
        }
    }
}

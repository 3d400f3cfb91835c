// A managed object's saved values, by property name. A fetch fills hundreds
// of thousands of objects of one entity with the same properties, so they
// sit in an array laid out by a `ValueSlots` shared by every object of the
// fetch, instead of a dictionary per object that hashes every name on the
// way in. Properties outside the layout (relationships loaded later, values
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

struct SavedValues: Sequence, ExpressibleByDictionaryLiteral {
    private var slots: ValueSlots?
    private var values: ContiguousArray<PropertyValue?>
    private var others: [String: PropertyValue] = [:]

    init(dictionaryLiteral elements: (String, PropertyValue)...) {
        slots = nil
        values = []
        for (key, value) in elements { others[key] = value }
    }

    /// Values laid out by `slots` (one per name, nil where there is none).
    init(slots: ValueSlots, values: ContiguousArray<PropertyValue?>) {
        self.slots = slots
        self.values = values
    }

    subscript(key: String) -> PropertyValue? {
        get {
            if let slots, let i = slots.position(of: key) { return values[i] }
            return others.isEmpty ? nil : others[key]
        }
        set {
            if let slots, let i = slots.position(of: key) { values[i] = newValue } else { others[key] = newValue }
        }
    }

    /// The value of a resolved property: straight from its slot when these
    /// values are laid out as its entity's (they are, for a filled object).
    subscript(property: PropertyInfo) -> PropertyValue? {
        get {
            if let i = property.slot, slots === property.slots { return values[i] }
            return self[property.name]
        }
        set {
            if let i = property.slot, slots === property.slots { values[i] = newValue } else { self[property.name] = newValue }
        }
    }

    /// No value at all (a fault that never loaded anything).
    var isEmpty: Bool { others.isEmpty && (values.isEmpty || !values.contains { $0 != nil }) }

    func makeIterator() -> Iterator {
        Iterator(names: slots?.names ?? [], values: values, others: others.makeIterator())
    }

    /// The laid-out values first, then the others.
    struct Iterator: IteratorProtocol {
        let names: [String]
        let values: ContiguousArray<PropertyValue?>
        var others: Dictionary<String, PropertyValue>.Iterator
        var i = 0

        init(names: [String], values: ContiguousArray<PropertyValue?>, others: Dictionary<String, PropertyValue>.Iterator) {
            self.names = names
            self.values = values
            self.others = others
        }

        mutating func next() -> (key: String, value: PropertyValue)? {
            while i < values.count {
                defer { i += 1 }
                if let value = values[i] { return (names[i], value) }
            }
            return others.next()
        }
    }
}

// A managed object's unsaved values, by property name. Most edited objects
// carry one change (a save of 500k objects that each had one attribute set
// is the common bulk case), so the first change sits inline in the object
// and only a second one brings in a dictionary: an edit of a clean object
// then allocates nothing, hashes nothing (a key is compared with `==`, which
// for the short names of properties is a compare of two words) and frees
// nothing when the save clears it. Reads and writes look like a
// dictionary's: assigning nil removes a key. The order of iteration is not
// specified, as a dictionary's is not.

struct ChangedValues: Sequence, ExpressibleByDictionaryLiteral {
    // Not private: `ManagedObject.onlyChange` reads the fields one by one
    // (a read of the whole struct out of the object would copy it).
    /// The only change, while there is at most one (`table` is then nil).
    fileprivate(set) var single: (key: String, value: PropertyValue)?
    /// Every change, once there have been two at the same time; nil while
    /// there are not (nil costs nothing to make, copy or free, where even an
    /// empty dictionary is a reference counted on each).
    fileprivate(set) var table: [String: PropertyValue]?

    init() {}

    init(dictionaryLiteral elements: (String, PropertyValue)...) {
        for (key, value) in elements { self[key] = value }
    }

    var isEmpty: Bool { single == nil && table == nil }
    var count: Int { single == nil ? table?.count ?? 0 : 1 }

    subscript(key: String) -> PropertyValue? {
        get {
            if let single { return single.key == key ? single.value : nil }
            return table?[key]
        }
        set {
            guard table != nil else {
                if single == nil || single!.key == key {
                    single = newValue.map { (key, $0) }
                    return
                }
                guard let newValue else { return }
                // A second key: both move to the dictionary.
                table = [single!.key: single!.value, key: newValue]
                single = nil
                return
            }
            table![key] = newValue
            if table!.isEmpty { table = nil }
        }
    }

    var keys: [String] { map(\.key) }

    /// The attribute value of the only change, when that change is to `key`
    /// (read in place: no copy of the key and of the whole change).
    func attributeValue(ifOnly key: String) -> QuarrySyntax.Value? {
        // Through optional chaining, which reads the fields in place (a
        // binding of `single` would copy the whole pair first).
        guard single?.key == key, case .attribute(let value)? = single?.value else { return nil }
        return value
    }

    func contains(key: String) -> Bool { self[key] != nil }

    mutating func removeAll() {
        single = nil
        table = nil
    }

    /// Empties the changes when there is exactly one, handing it over (nil
    /// when there are none or several: those stay, for the caller to iterate).
    mutating func takeSingle() -> (key: String, value: PropertyValue)? {
        // Moved out, not copied out and then cleared.
        if single != nil { return single.take() }
        guard let table, table.count == 1, let (key, value) = table.first else { return nil }
        self.table = nil
        return (key, value)
    }

    func makeIterator() -> Iterator {
        Iterator(single: single, rest: table?.makeIterator())
    }

    struct Iterator: IteratorProtocol {
        var single: (key: String, value: PropertyValue)?
        var rest: Dictionary<String, PropertyValue>.Iterator?

        mutating func next() -> (key: String, value: PropertyValue)? {
            if let s = single {
                single = nil
                return s
            }
            guard let (key, value) = rest?.next() else { return nil }
            return (key, value)
        }
    }
}

extension ManagedObject {
    /// The object's one change, when it has exactly one, read in place.
    var onlyChange: (key: String, value: PropertyValue)? {
        if let single = changes.single { return single }
        guard let table = changes.table, table.count == 1 else { return nil }
        return table.first.map { ($0.key, $0.value) }
    }
}

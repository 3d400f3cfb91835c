// A table by name that remembers the entry it found last. A big save
// changes the same property object after object, so the writer and the
// validation look the same name up half a million times in a row: with the
// last entry remembered, each lookup after the first is a string compare
// (usually of identical storage) instead of a hash and a probe.

struct RememberingTable<Entry> {
    let entries: [String: Entry]
    private var lastName = ""
    private var lastFound: Entry?

    init(_ entries: [String: Entry]) { self.entries = entries }

    /// The entry named `name`, if any.
    mutating func find(_ name: String) -> Entry? {
        if let lastFound, name == lastName { return lastFound }
        guard let found = entries[name] else { return nil }
        lastName = name
        lastFound = found
        return found
    }
}

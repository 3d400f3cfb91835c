// The context's registry: its one object per ID (uniquing). Objects
// registered one at a time go to a dictionary by ID. The new objects of a
// big fetch are kept instead as a *run*: the fetch's own result array
// (shared, not copied). A fetch whose rows come in key order — every fetch
// without sort descriptors: the planner orders those by primary key — is
// searched by binary search on the key; a sorted fetch gets a key table, an
// array addressed by key (`KeyTable`), when its keys are distinct and dense
// enough (saved keys count up from 1, so nearly always). Registering the
// 500k objects of a big fetch then costs nothing or one array write per
// object, where hashing them into a table of a million buckets cost ~85 ms
// (a cache miss per object), and releasing the context then walked the
// objects in hash order, a cache miss each once more; the lookups that do
// come later (a relationship pointing at one of them, a second fetch of the
// same rows) cost a binary search or one array read instead of a hash probe.
//
// Reads and writes look like a dictionary's: `registry[id]` finds the
// object wherever it is; assigning registers it (in the dictionary) and
// assigning nil removes it. A run never changes its array: an object removed
// from it is marked in a bit set (and the run is rebuilt from its live
// objects once half of it is gone), so the caller's array stays shared.
// Invariant: an ID is registered at most once — live in one run, or in the
// dictionary; a run's objects are of one entity, with distinct keys that
// never change (they are saved rows), in strictly increasing key order
// unless the run has a key table.

struct ContextRegistry {
    private var table: [ObjectID: ManagedObject] = [:]
    private var runs: [Run] = []
    /// Live objects in runs.
    private var runCount = 0

    /// Fewer objects than this are simply hashed: a run is for big fetches.
    static let minimumRun = 64
    /// More runs than this and the smallest is hashed (lookups search each run of an entity).
    static let maximumRuns = 8

    /// Objects of one entity: in strictly increasing key order, or found through `table`.
    private struct Run {
        let entity: String
        var objects: [ManagedObject]
        /// Nil when the objects are in key order.
        var table: KeyTable?
        /// Bit i set: objects[i] is no longer registered. Empty until the first removal.
        var removed: [UInt64] = []
        var removedCount = 0

        var liveCount: Int { objects.count - removedCount }

        func isRemoved(_ i: Int) -> Bool {
            !removed.isEmpty && removed[i >> 6] & (1 << UInt64(i & 63)) != 0
        }

        mutating func remove(_ i: Int) {
            if removed.isEmpty { removed = Array(repeating: 0, count: (objects.count + 63) >> 6) }
            removed[i >> 6] |= 1 << UInt64(i & 63)
            removedCount += 1
        }

        /// Where the live object with key `key` is.
        func index(of key: Int64) -> Int? {
            if let table {
                guard let i = table.position(of: key), !isRemoved(i) else { return nil }
                return i
            }
            var low = 0, high = objects.count
            while low < high {
                let mid = (low + high) >> 1
                let k = objects[mid].primaryKey
                if k == key { return isRemoved(mid) ? nil : mid }
                if k < key { low = mid + 1 } else { high = mid }
            }
            return nil
        }

        /// The live objects, in order.
        var live: [ManagedObject] {
            guard removedCount > 0 else { return objects }
            return objects.indices.filter { !isRemoved($0) }.map { objects[$0] }
        }
    }

    init() {}

    var count: Int { table.count + runCount }
    var isEmpty: Bool { count == 0 }

    subscript(id: ObjectID) -> ManagedObject? {
        get {
            if !table.isEmpty, let found = table[id] { return found }
            guard let (r, i) = locate(id) else { return nil }
            return runs[r].objects[i]
        }
        set {
            if let (r, i) = locate(id) { removeFromRun(r, i) }
            table[id] = newValue
        }
    }

    /// The run and position of a live object in a run.
    private func locate(_ id: ObjectID) -> (Int, Int)? {
        guard runCount > 0 else { return nil }
        for r in runs.indices where runs[r].entity == id.entity {
            if let i = runs[r].index(of: id.primaryKey) { return (r, i) }
        }
        return nil
    }

    private mutating func removeFromRun(_ r: Int, _ i: Int) {
        runs[r].remove(i)
        runCount -= 1
        // Half gone: the live rest makes a smaller run (or goes to the table).
        if runs[r].removedCount * 2 > runs[r].objects.count {
            rebuild(runs.remove(at: r))
        }
    }

    /// Registers `objects`, new to the registry: all of `entity`, in
    /// strictly increasing key order (the caller checked), as one run.
    mutating func register(run objects: [ManagedObject], entity: String) {
        add(objects, entity: entity, table: nil)
    }

    /// Registers `objects`, new to the registry and all of `entity`, in any
    /// order, as one run with a key table — unless they are too few, their
    /// keys too sparse, or a key repeats: then it registers nothing and
    /// returns false (the caller hashes them, and settles repeats).
    mutating func register(unorderedRun objects: [ManagedObject], entity: String) -> Bool {
        guard objects.count >= Self.minimumRun, let keys = KeyTable(objects) else { return false }
        add(objects, entity: entity, table: keys)
        return true
    }

    /// A run taken out of `runs` registered again with its live objects only.
    private mutating func rebuild(_ run: Run) {
        runCount -= run.liveCount
        let live = run.live
        // Live objects of a tabled run are still distinct; a table of fewer keys may be too sparse.
        if run.table != nil, live.count >= Self.minimumRun, let keys = KeyTable(live) {
            add(live, entity: run.entity, table: keys)
        } else if run.table != nil {
            hash(live)
        } else {
            add(live, entity: run.entity, table: nil)
        }
    }

    private mutating func hash(_ objects: [ManagedObject]) {
        table.reserveCapacity(table.count + objects.count)
        for object in objects { table[object.objectID] = object }
    }

    private mutating func add(_ objects: [ManagedObject], entity: String, table keys: KeyTable?) {
        guard objects.count >= Self.minimumRun else { return hash(objects) }
        runs.append(Run(entity: entity, objects: objects, table: keys))
        runCount += objects.count
        if runs.count > Self.maximumRuns, let smallest = runs.indices.min(by: { runs[$0].liveCount < runs[$1].liveCount }) {
            let run = runs.remove(at: smallest)
            runCount -= run.liveCount
            hash(run.live)
        }
    }

    mutating func reserveCapacity(_ n: Int) {
        table.reserveCapacity(n - runCount)
    }

    mutating func removeAll() {
        table = [:]
        runs = []
        runCount = 0
    }

    /// Every registered object (in no particular order).
    var values: Values { Values(registry: self) }

    /// Every registered ID.
    var keys: [ObjectID] { values.map(\.objectID) }

    struct Values: Sequence {
        fileprivate let registry: ContextRegistry

        func makeIterator() -> Iterator { Iterator(registry: registry) }

        struct Iterator: IteratorProtocol {
            fileprivate let registry: ContextRegistry
            fileprivate var table: Dictionary<ObjectID, ManagedObject>.Values.Iterator
            fileprivate var run = 0
            fileprivate var index = 0

            fileprivate init(registry: ContextRegistry) {
                self.registry = registry
                table = registry.table.values.makeIterator()
            }

            mutating func next() -> ManagedObject? {
                if let object = table.next() { return object }
                while run < registry.runs.count {
                    let r = registry.runs[run]
                    while index < r.objects.count {
                        defer { index += 1 }
                        if !r.isRemoved(index) { return r.objects[index] }
                    }
                    run += 1
                    index = 0
                }
                return nil
            }
        }
    }

    // MARK: - Eviction

    /// Removes the objects for which `evictable` holds and that the registry
    /// alone references; returns how many went.
    mutating func evict(where evictable: (ManagedObject) -> Bool) -> Int {
        var doomed: [ObjectID] = []
        // By index, not over `table.values`: that would hold a second
        // reference to the storage, and the in-place access below would
        // then copy the whole dictionary first.
        var i = table.startIndex
        while i != table.endIndex {
            if isKnownUniquelyReferenced(&table.values[i]) && evictable(table.values[i]) { doomed.append(table.keys[i]) }
            table.formIndex(after: &i)
        }
        for id in doomed { table[id] = nil }
        var evicted = doomed.count
        var r = runs.count - 1
        while r >= 0 {
            defer { r -= 1 }
            var gone: [Int] = []
            for j in runs[r].objects.indices where !runs[r].isRemoved(j) {
                // While the caller still holds the fetch's array, this copies
                // it first (and then nothing in it is the registry's alone).
                if isKnownUniquelyReferenced(&runs[r].objects[j]) && evictable(runs[r].objects[j]) { gone.append(j) }
            }
            guard !gone.isEmpty else { continue }
            evicted += gone.count
            for j in gone { runs[r].remove(j) }
            runCount -= gone.count
            rebuild(runs.remove(at: r))
        }
        return evicted
    }

    /// `evict(where:)` for the objects of `ids` only.
    mutating func evict<S: Sequence<ObjectID>>(_ ids: S, where evictable: (ManagedObject) -> Bool) -> Int {
        var evicted = 0
        for id in ids {
            if let i = table.index(forKey: id) {
                if isKnownUniquelyReferenced(&table.values[i]) && evictable(table.values[i]) {
                    table.remove(at: i)
                    evicted += 1
                }
            } else if let (r, j) = locate(id) {
                if isKnownUniquelyReferenced(&runs[r].objects[j]) && evictable(runs[r].objects[j]) {
                    removeFromRun(r, j)
                    evicted += 1
                }
            }
        }
        return evicted
    }
}

/// Where each object of an unordered run is, addressed by key: the position
/// of key `base + k` is `positions[k]` (-1: no such key). Built only for
/// distinct keys spanning at most a few times their count, so it costs at
/// most a few bytes per object and one write each.
private struct KeyTable {
    let base: Int64
    let positions: [Int32]

    /// Keys spread wider than this many times their count are hashed instead.
    static let maximumSpread = 4

    /// Nil when the keys are too sparse or one repeats.
    init?(_ objects: [ManagedObject]) {
        guard !objects.isEmpty, objects.count < Int(Int32.max) else { return nil }
        var low = Int64.max, high = Int64.min
        for object in objects {
            low = Swift.min(low, object.primaryKey)
            high = Swift.max(high, object.primaryKey)
        }
        let (span, overflow) = high.subtractingReportingOverflow(low)
        guard !overflow, span < Int64(Self.maximumSpread * objects.count) else { return nil }
        var positions = [Int32](repeating: -1, count: Int(span) + 1)
        for (i, object) in objects.enumerated() {
            let slot = Int(object.primaryKey - low)
            guard positions[slot] < 0 else { return nil }
            positions[slot] = Int32(i)
        }
        base = low
        self.positions = positions
    }

    func position(of key: Int64) -> Int? {
        let (slot, overflow) = key.subtractingReportingOverflow(base)
        guard !overflow, slot >= 0, slot < Int64(positions.count) else { return nil }
        let position = positions[Int(slot)]
        return position < 0 ? nil : Int(position)
    }
}

// The context's bookkeeping lists: objects with unsaved changes, and saved
// objects changed since the last `objectsDidChange` event. Each is a list
// plus a stamp on the object rather than a dictionary or set by ID, because
// every edit notes its object in both: with a stamp that is a test and, the
// first time, an append — not a hash, a probe and now and then a rehash of
// hundreds of thousands of entries, as a 500k-object save used to pay twice
// per edit. An object belongs to one context, so one set of stamps suffices.
// A list is emptied by moving to a new stamp: the objects it held are not
// visited (they were, once per save and once per announcement, to clear a
// flag each).
//
// An object that stops being pending (an edit undone, a revert to the saved
// value) keeps its place in the list with `isPending` cleared; `values` skips
// it and re-pending it does not append it twice, so the list never holds
// more than the objects touched since the last save, rollback or reset.

/// Objects with unsaved changes, in the order they first changed.
struct PendingObjects {
    private var list: [ManagedObject] = []
    private(set) var count = 0
    /// An object is in `list` when its `pendingStamp` is this; emptying the
    /// list moves to the next stamp (64 bits: it never comes round again),
    /// so a save of 500k objects does not visit each one to clear a flag.
    private var stamp: UInt64 = PendingObjects.firstStamp

    /// Stamps start past 0, the stamp of an object never listed.
    static let firstStamp: UInt64 = 1

    var isEmpty: Bool { count == 0 }

    mutating func insert(_ object: ManagedObject) {
        if object.pendingStamp == stamp {
            guard !object.isPending else { return }
        } else {
            object.pendingStamp = stamp
            list.append(object)
        }
        object.isPending = true
        count += 1
    }

    mutating func remove(_ object: ManagedObject) {
        guard object.pendingStamp == stamp, object.isPending else { return }
        object.isPending = false
        count -= 1
    }

    /// Whether `object` is pending here.
    func contains(_ object: ManagedObject) -> Bool { object.pendingStamp == stamp && object.isPending }

    /// The pending objects, in the order they first changed.
    var values: [ManagedObject] {
        count == list.count ? list : list.filter(\.isPending)
    }

    func contains(where predicate: (ManagedObject) throws -> Bool) rethrows -> Bool {
        try list.contains { try $0.isPending && predicate($0) }
    }

    mutating func removeAll() {
        list = []
        count = 0
        stamp += 1
    }
}

/// Saved objects updated since the last `objectsDidChange` event (stamped
/// as `PendingObjects` are: taking the list visits none of its objects).
///
/// The list itself is kept only while the context has observers: with none,
/// the event is built for no one, and an edit only stamps its object (no
/// append, no reference taken and dropped per object of a bulk edit). The
/// first observer to arrive has the list rebuilt from the registered
/// objects that bear the current stamp (`startListing`) — the same objects,
/// but for one touched without being changed (a value set back to the saved
/// one) and since evicted or removed by a merge, which is not reported.
struct UnannouncedUpdates {
    private var list: [ManagedObject] = []
    private var stamp: UInt64 = PendingObjects.firstStamp
    /// Whether `list` holds every object stamped since the last `take`.
    private(set) var isListing = false

    mutating func insert(_ object: ManagedObject) {
        guard object.unannouncedStamp != stamp else { return }
        object.unannouncedStamp = stamp
        if isListing { list.append(object) }
    }

    /// Whether `object` was updated since the last `take`.
    func contains(_ object: ManagedObject) -> Bool { object.unannouncedStamp == stamp }

    /// Lists from now on, starting with `stamped` (the objects `contains`).
    mutating func startListing(_ stamped: [ManagedObject]) {
        list = stamped
        isListing = true
    }

    /// Only stamps from now on.
    mutating func stopListing() {
        list = []
        isListing = false
    }

    /// Empties the list, returning what it held (nothing, if not listing).
    mutating func take() -> [ManagedObject] {
        let taken = list
        list = []
        stamp += 1
        return taken
    }
}

// The context's bookkeeping lists: objects with unsaved changes, and saved
// objects changed since the last `objectsDidChange` event. Each is a list
// plus a flag on the object rather than a dictionary or set by ID, because
// every edit notes its object in both: with a flag that is a test and, the
// first time, an append — not a hash, a probe and now and then a rehash of
// hundreds of thousands of entries, as a 500k-object save used to pay twice
// per edit. An object belongs to one context, so one set of flags suffices.
//
// An object that stops being pending (an edit undone, a revert to the saved
// value) keeps its place in the list with its flag cleared; `values` skips
// it and re-pending it does not append it twice, so the list never holds
// more than the objects touched since the last save, rollback or reset.

/// Objects with unsaved changes, in the order they first changed.
struct PendingObjects {
    private var list: [ManagedObject] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func insert(_ object: ManagedObject) {
        guard !object.isPending else { return }
        object.isPending = true
        count += 1
        if !object.isInPendingList {
            object.isInPendingList = true
            list.append(object)
        }
    }

    mutating func remove(_ object: ManagedObject) {
        guard object.isPending else { return }
        object.isPending = false
        count -= 1
    }

    /// The pending objects, in the order they first changed.
    var values: [ManagedObject] {
        count == list.count ? list : list.filter(\.isPending)
    }

    func contains(where predicate: (ManagedObject) throws -> Bool) rethrows -> Bool {
        try list.contains { try $0.isPending && predicate($0) }
    }

    mutating func removeAll() {
        for object in list {
            object.isPending = false
            object.isInPendingList = false
        }
        list = []
        count = 0
    }
}

/// Saved objects updated since the last `objectsDidChange` event.
struct UnannouncedUpdates {
    private var list: [ManagedObject] = []

    mutating func insert(_ object: ManagedObject) {
        guard !object.isUnannouncedUpdate else { return }
        object.isUnannouncedUpdate = true
        list.append(object)
    }

    /// Empties the list, returning what it held.
    mutating func take() -> [ManagedObject] {
        let taken = list
        list = []
        for object in taken { object.isUnannouncedUpdate = false }
        return taken
    }
}

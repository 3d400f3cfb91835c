// Evicting objects nobody uses: the context's registry (uniquing) holds its
// objects strongly, so that a row loaded once — a department read through
// every employee, the rows a relationship query brought — is not queried
// again. But an object that only the registry still references and that has
// no unsaved change is a cache entry, nothing more: dropping it changes no
// answer (the next read of its row makes a new object, and no one holds the
// old one to notice), and frees its memory. Core Data goes further and holds
// clean objects weakly; Quarry evicts at chosen moments instead, because a
// weak registry would drop the related objects a fetch just loaded before
// anyone read them, and pay for a weak reference per object on every fetch.
//
// The moments: a batched fetch result drops a batch (its objects, at once,
// and — when the registry has doubled since the last sweep — everything
// unreferenced, so the rows read through relationships while iterating do
// not pile up either); and `evictUnreferencedObjects()`, for the caller.
//
// "Only the registry references it" is `isKnownUniquelyReferenced` on the
// registry's own slot: one strong reference, the registry's. Anything else —
// a caller's variable or array, a pending or undo list, a results
// controller — is a second reference and keeps the object registered, so
// the same row read twice while referenced is always the same object.

extension Context {
    /// Removes from the registry every object no one else references that
    /// has no unsaved change; returns how many went. Objects the caller (or
    /// undo, or a results controller) still holds stay, and stay unique.
    @discardableResult
    public func evictUnreferencedObjects() -> Int {
        let evicted = registry.evict { !$0.hasChanges }
        evictionMark = registry.count
        return evicted
    }

    /// Evicts the objects of `ids` that no one else references and that have
    /// no unsaved change (a batch just dropped by a batched result).
    @discardableResult
    func evictUnreferenced<S: Sequence<ObjectID>>(_ ids: S) -> Int {
        registry.evict(ids) { !$0.hasChanges }
    }

    /// A full sweep when the registry has at least doubled since the last
    /// one (and holds more than `floor` objects): amortized, each object is
    /// looked at a bounded number of times however long an iteration runs.
    func sweepIfGrown(floor: Int) {
        guard registry.count > max(floor, 2 * evictionMark) else { return }
        evictUnreferencedObjects()
    }
}

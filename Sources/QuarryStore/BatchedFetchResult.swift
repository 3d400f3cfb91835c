// The result of a batched fetch (`Context.fetchBatched`): what Core Data
// hands back for a request with a `fetchBatchSize` — an array that holds only
// the object IDs and fills itself a batch at a time — with the memory rule of
// PERFORMANCE.md on top: at most a few batches of objects are alive at once.
//
// Reading an index loads its whole batch with one query (an IN-list of the
// batch's keys, cut in chunks only when the batch is larger than the
// database's argument limit), and the request's prefetched relationships for
// that batch. The batch stays loaded while it is among the last
// `maximumLoadedBatches` read; the least recently read one is then dropped,
// and the context evicts its objects unless someone else still holds them
// or they have unsaved changes (see Context+Eviction.swift). So iterating a
// million rows keeps a few thousand objects alive, and an object the caller
// kept is still the one the context hands out for that row.
//
// The IDs are a snapshot taken when the fetch ran, as in Core Data: objects
// deleted or inserted afterwards do not move the indices. Objects that were
// inserted but unsaved at that time are held by the result itself (their
// temporary IDs would not find them again after a save).

/// The objects of a batched fetch, loaded a batch at a time.
///
/// ```swift
/// var request = FetchRequest(entity: "Employee", sortDescriptors: [QuerySortDescriptor("name")])
/// request.fetchBatchSize = 1000
/// let employees = try context.fetchBatched(request)   // IDs only
/// for employee in employees { print(employee["name"]!) }   // one query per 1000
/// ```
public final class BatchedFetchResult: RandomAccessCollection {
    public typealias Index = Int
    public typealias Element = ManagedObject
    public typealias Indices = Range<Int>

    /// The context the objects belong to (kept alive by the result).
    public let context: Context
    /// Every object's ID, in the request's order.
    public let objectIDs: [ObjectID]
    public let batchSize: Int
    /// How many batches stay loaded at most.
    public let maximumLoadedBatches: Int
    let entity: String
    let prefetching: [PrefetchNode]
    /// Objects inserted but unsaved when the fetch ran, by their IDs then.
    let pinned: [ObjectID: ManagedObject]
    /// The loaded batches, the most recently read last.
    private var loaded: [LoadedBatch] = []

    private struct LoadedBatch {
        let index: Int
        let objects: [ManagedObject]
        /// Objects reached by prefetching, kept alive with the batch.
        let related: [ManagedObject]
    }

    init(context: Context, entity: String, objectIDs: [ObjectID], batchSize: Int, maximumLoadedBatches: Int,
         prefetching: [PrefetchNode], pinned: [ObjectID: ManagedObject]) {
        self.context = context
        self.entity = entity
        self.objectIDs = objectIDs
        self.batchSize = batchSize
        self.maximumLoadedBatches = Swift.max(1, maximumLoadedBatches)
        self.prefetching = prefetching
        self.pinned = pinned
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { objectIDs.count }

    /// How many batches the result has.
    public var batchCount: Int { (objectIDs.count + batchSize - 1) / batchSize }

    /// The batches loaded now, the least recently read first.
    public var loadedBatchIndices: [Int] { loaded.map(\.index) }

    /// The object at `position`, loading its batch if needed. A failed load
    /// (the store went away, a cancelled query) does not trap: the object
    /// comes back as a fault and the error is in `context.lastFaultError`,
    /// as for any fault. Use ``batch(at:)`` to see errors as they happen.
    public subscript(position: Int) -> ManagedObject {
        precondition(position >= 0 && position < objectIDs.count, "index \(position) is outside 0..<\(objectIDs.count)")
        let b = position / batchSize
        do {
            return try batch(at: b)[position - b * batchSize]
        } catch {
            context.lastFaultError = error
            return pinned[objectIDs[position]] ?? context.object(with: objectIDs[position])
        }
    }

    /// The objects of batch `index` (positions `index * batchSize` up to the
    /// next batch), loaded with one query if they are not loaded already.
    public func batch(at index: Int) throws -> [ManagedObject] {
        if let i = loaded.lastIndex(where: { $0.index == index }) {
            if i != loaded.count - 1 { loaded.append(loaded.remove(at: i)) }
            return loaded[loaded.count - 1].objects
        }
        guard index >= 0 && index < batchCount else {
            throw ContextError.fetchError("batch \(index) is outside 0..<\(batchCount)")
        }
        // Make room first, so that no more than the maximum is ever alive.
        while loaded.count >= maximumLoadedBatches { dropLeastRecentlyRead() }
        let ids = objectIDs[index * batchSize..<Swift.min(objectIDs.count, (index + 1) * batchSize)]
        let batch = try context.loadBatch(ids, of: entity, pinned: pinned, prefetching: prefetching)
        loaded.append(LoadedBatch(index: index, objects: batch.objects, related: batch.related))
        return batch.objects
    }

    /// Calls `body` with each batch's objects in order; errors stop the walk.
    public func forEachBatch(_ body: ([ManagedObject]) throws -> Void) throws {
        for b in 0..<batchCount { try body(try batch(at: b)) }
    }

    private func dropLeastRecentlyRead() {
        var ids: [ObjectID] = []
        do {
            // The batch's arrays are released at the end of this block, so
            // the registry holds the last reference to objects no one kept.
            let gone = loaded.removeFirst()
            ids.reserveCapacity(gone.objects.count + gone.related.count)
            for o in gone.objects { ids.append(o.objectID) }
            for o in gone.related { ids.append(o.objectID) }
        }
        context.evictUnreferenced(ids)
        // Objects read through relationships while iterating: swept now and
        // then, when the registry has doubled.
        context.sweepIfGrown(floor: 2 * maximumLoadedBatches * batchSize)
    }
}

extension Context {
    /// Loads the rows of `ids` not loaded yet (one query per chunk of the
    /// argument limit), then the prefetched relationships of the batch.
    func loadBatch(_ ids: ArraySlice<ObjectID>, of entity: String, pinned: [ObjectID: ManagedObject],
                   prefetching: [PrefetchNode]) throws -> (objects: [ManagedObject], related: [ManagedObject]) {
        try loadMissingRows(ids, of: entity, counting: \.batchLoads)
        let objects = ids.map { pinned[$0] ?? object(with: $0) }
        let related = try prefetch(prefetching, for: objects)
        return (objects, related)
    }
}

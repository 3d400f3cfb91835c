// `fetchBatched`: a fetch that returns a `BatchedFetchResult` — the IDs of
// the selected rows, in order, and objects only a few batches at a time.
//
// The IDs come from the request's own SQL with the SELECT list cut down to
// `_pk, _entity`. When part of the predicate must run in memory (a
// residual), the SQL's candidates are judged a batch at a time — loaded,
// evaluated, dropped — so that even then memory holds one batch of objects
// and the IDs, not every candidate; the limit and offset left to memory are
// applied to the survivors, and a limit stops the walk as soon as it is met.
// With unsaved changes that could alter the answer, the corrected result is
// computed in memory as `fetch` does (all candidate objects, once), and
// those objects are then left for eviction like any batch.

extension Context {
    /// The objects `request` selects, as a collection that loads
    /// `request.fetchBatchSize` of them at a time and keeps at most
    /// `maximumLoadedBatches` batches alive.
    ///
    /// ```swift
    /// var request = FetchRequest(entity: "Employee")
    /// request.fetchBatchSize = 1000
    /// request.relationshipKeyPathsForPrefetching = ["department"]
    /// for employee in try context.fetchBatched(request) { … }   // bounded memory
    /// ```
    public func fetchBatched(_ request: FetchRequest, includesPendingChanges override: Bool? = nil,
                             maximumLoadedBatches: Int = 3) throws -> BatchedFetchResult {
        try checkEntity(request.entity)
        try refuseInChild("fetchBatched")   // Context+Parent.swift
        guard request.fetchBatchSize > 0 else { throw ContextError.batchSizeRequired(request.fetchBatchSize) }
        let prefetching = try prefetchTree(for: request)
        var pinned: [ObjectID: ManagedObject] = [:]
        var ids: [ObjectID]?
        if override ?? request.includesPendingChanges {
            try processPendingChanges()
            if pendingAffects(request) {
                let objects = try fetchInMemory(request)
                for object in objects where object.isInserted { pinned[object.objectID] = object }
                ids = objects.map(\.objectID)
            }
        }
        if let inMemory = ids {
            // The candidates were all loaded to judge them: let them go.
            evictUnreferenced(inMemory)
            sweepIfGrown(floor: 2 * max(1, maximumLoadedBatches) * request.fetchBatchSize)
        } else {
            statistics.fetches += 1
            ids = try batchedIDs(request)
        }
        return BatchedFetchResult(context: self, entity: request.entity, objectIDs: ids ?? [], batchSize: request.fetchBatchSize,
                                  maximumLoadedBatches: maximumLoadedBatches, prefetching: prefetching, pinned: pinned)
    }

    /// The selected IDs: straight from SQL, or with the residual judged a batch at a time.
    private func batchedIDs(_ request: FetchRequest) throws -> [ObjectID] {
        let plan = try store.explain(request)
        let candidates = try selectIDs(plan)
        guard let residual = plan.residual else { return candidates }
        let predicate = try Evaluator.compile(residual, options: store.evaluationOptions)
        let wanted = plan.memoryLimit.map { plan.memoryOffset + $0 }
        var selected: [ObjectID] = []
        var start = 0
        while start < candidates.count, wanted.map({ selected.count < $0 }) ?? true {
            let chunk = candidates[start..<min(start + request.fetchBatchSize, candidates.count)]
            start += request.fetchBatchSize
            do {
                let objects = try loadBatch(chunk, of: request.entity, pinned: [:], prefetching: []).objects
                for object in objects where try predicate.evaluate(.object(ObjectReference(object))) {
                    selected.append(object.objectID)
                }
            }
            evictUnreferenced(chunk)
        }
        selected = Array(selected.dropFirst(plan.memoryOffset))
        if let limit = plan.memoryLimit { selected = Array(selected.prefix(limit)) }
        return selected
    }
}

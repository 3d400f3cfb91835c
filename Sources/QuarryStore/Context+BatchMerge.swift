// Merging a batch request's result into a context. Batch requests change the
// store without the context knowing; unlike Core Data, where the app must
// build the change dictionary itself, `merge(_ result:kind:)` takes the
// result (ask for `.objectIDs`) and refreshes or drops the affected objects,
// so fetches and any results controller on the context see the change.
// `SQLStore.batch…` calls made through `Context.batchUpdate`/`batchDelete`/
// `batchInsert` merge automatically when `automaticallyMergesBatchResults`.

/// What a batch did to the objects it lists.
public enum BatchChangeKind: Sendable {
    case inserted, updated, deleted
}

extension Context {
    /// Brings the context up to date with a batch request's object IDs.
    /// A `.count` or `.status` result cannot say which objects changed: every
    /// registered object of the store is refreshed instead.
    public func merge(_ result: BatchResult, kind: BatchChangeKind) {
        switch result {
        case .objectIDs(let ids):
            switch kind {
            case .inserted: merge(changes: ContextChanges(inserted: Set(ids)))
            case .updated: merge(changes: ContextChanges(updated: Set(ids)))
            case .deleted: merge(changes: ContextChanges(deleted: Set(ids)))
            }
        case .count, .status:
            merge(changes: ContextChanges(updated: Set(registry.keys.filter { !$0.isTemporary })))
        }
    }

    /// A batch update through the store, merged into this context.
    @discardableResult
    public func batchUpdate(entity: String, predicate: QueryPredicate?, set: [(String, QueryExpression)]) throws -> BatchResult {
        try refuseInChild("batchUpdate")   // Context+Parent.swift
        let result = try withHistoryOrigin { try store.batchUpdate(entity: entity, predicate: predicate, set: set, resultType: .objectIDs) }
        if automaticallyMergesBatchResults { merge(result, kind: .updated) }
        return result
    }

    /// A batch delete through the store (with delete rules), merged into this context.
    @discardableResult
    public func batchDelete(entity: String, predicate: QueryPredicate?) throws -> BatchResult {
        try refuseInChild("batchDelete")   // Context+Parent.swift
        let result = try withHistoryOrigin { try store.batchDelete(entity: entity, predicate: predicate, resultType: .objectIDs) }
        if automaticallyMergesBatchResults {
            // Cascades may have removed more: refresh what remains registered too.
            merge(result, kind: .deleted)
            merge(.count(0), kind: .updated)
        }
        return result
    }

    /// A batch insert through the store, merged into this context;
    /// `mergePolicy` says what a row colliding with a saved one on a
    /// uniqueness constraint does (SQLStore+BatchUpsert.swift). Saved rows it
    /// updated are merged as updates: objects this context holds for them
    /// read the new values next time.
    @discardableResult
    public func batchInsert(_ entity: String, objects: [[String: Value]], mergePolicy: MergePolicy = .error) throws -> BatchResult {
        try refuseInChild("batchInsert")   // Context+Parent.swift
        var rows = objects.makeIterator()
        let outcome = try withHistoryOrigin { try store.batchInsertRows(entity, listing: true, mergePolicy: mergePolicy) { rows.next() } }
        if automaticallyMergesBatchResults {
            merge(.objectIDs(outcome.inserted), kind: .inserted)
            if !outcome.updated.isEmpty { merge(.objectIDs(outcome.updated), kind: .updated) }
        }
        return outcome.result(.objectIDs)
    }
}

// The object-ID result type (Core Data's `.managedObjectIDResultType`): the
// IDs of the objects a request selects, in its order, without making the
// objects. When the SQL decides everything (no residual) only `_pk` and
// `_entity` are read — the request's own statement with its select list cut
// down; otherwise the objects are fetched and judged as `fetch` does, and
// their IDs returned. Through a context, unsaved changes take part as they
// do in `fetch` (an inserted object has its temporary ID).

extension SQLStore {
    /// The IDs of the objects `request` selects, in its order.
    ///
    /// ```swift
    /// let ids = try store.fetchObjectIDs(FetchRequest(entity: "Employee", sortDescriptors: [QuerySortDescriptor("name")]))
    /// ```
    public func fetchObjectIDs(_ request: FetchRequest, engine: FetchEngine = .sql) throws -> [ObjectID] {
        if engine == .sql {
            if !database.isInTransaction { database.clearInterruptRequest() }
            let plan = try SQLPlanner.plan(request, mapping: mapping, now: now())
            if plan.residual == nil { return try selectIDs(plan) }
        }
        return try fetch(request, engine: engine).map(\.id)
    }

    /// The `_pk` and `_entity` of the rows a plan's SQL selects, in order
    /// (with a residual: the candidates, before memory judges them).
    func selectIDs(_ plan: FetchPlan) throws -> [ObjectID] {
        // The same statement (order and limit included) selecting only the keys.
        let keys = plan.statement.selecting(columns: [StoreMapping.primaryKey, StoreMapping.entityColumn]).sql
        var ids: [ObjectID] = []
        try database.streamRows(keys.sql, keys.arguments, as: [.int, .string]) { row in
            if case .int(let pk) = row[0], case .string(let entity) = row[1] { ids.append(ObjectID(entity: entity, primaryKey: pk)) }
        }
        return ids
    }
}

extension Context {
    /// The IDs of the objects `request` selects, in its order, as `fetch`
    /// would return them (unsaved changes included unless turned off; an
    /// inserted object has its temporary ID) without registering objects for
    /// the rows when the SQL decides the answer alone.
    public func fetchObjectIDs(_ request: FetchRequest, includesPendingChanges override: Bool? = nil,
                               engine: FetchEngine = .sql) throws -> [ObjectID] {
        try checkEntity(request.entity)
        if engine == .memory { return try fetchWithMemoryEngine(request).map(\.objectID) }
        if override ?? request.includesPendingChanges {
            try processPendingChanges()
            if pendingAffects(request) { return try fetchInMemory(request).map(\.objectID) }
        }
        statistics.fetches += 1
        if let ids = try fetchIDs(request) { return ids }
        return try fetchObjects(request).map(\.objectID)
    }
}

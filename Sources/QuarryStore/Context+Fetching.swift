// Fetching through a context. With no unsaved change that could matter, a
// request goes to the store as it is (SQL, sorting and limits included) and
// the rows become the context's uniqued objects. With `includesPendingChanges`
// (the default) and unsaved changes, the store's answer is corrected in
// memory: inserted objects that match appear, deleted ones disappear, and
// changed objects are judged by the predicate on their current values.
//
// Where Quarry differs from Core Data: Core Data ignores pending changes for
// dictionary and aggregate results (`resultType` other than objects) and for
// counts of them; Quarry computes those in memory over the same corrected
// set of objects, so what a count says agrees with what a fetch returns.
//
// "Could matter" is judged conservatively: a changed object of the fetched
// entity (or a sub-entity), or — when the request names a relationship of the
// entity in its predicate, sort keys or properties — a changed object of any
// entity, since the request may read it through that relationship. In that
// second case every object of the entity is evaluated in memory.

extension Context {
    /// The objects `request` selects, in its order.
    ///
    /// A request with `fetchBatchSize > 0` and no pending changes to apply
    /// returns faults; touching one loads its whole batch with one query.
    /// Every object stays in memory once loaded: to iterate a large result
    /// in bounded memory, use ``fetchBatched(_:includesPendingChanges:)``.
    ///
    /// The relationships named by `relationshipKeyPathsForPrefetching` are
    /// loaded with the objects (for a batched request, with each batch).
    ///
    /// With `engine: .memory` every object of the entity (saved and unsaved)
    /// is judged and sorted in memory, so the predicate and sort keys may use
    /// transient attributes (their values as the context's objects hold
    /// them); `.sql` refuses those with B007, as Core Data's SQLite store
    /// does. The memory engine always includes pending changes.
    public func fetch(_ request: FetchRequest, includesPendingChanges override: Bool? = nil, engine: FetchEngine = .sql) throws -> [ManagedObject] {
        try checkEntity(request.entity)
        if engine == .memory { return try fetchWithMemoryEngine(request) }
        // Checked before anything runs: a misspelt path is an error, not a slow read.
        let prefetching = try prefetchTree(for: request)
        if override ?? request.includesPendingChanges {
            try processPendingChanges()
            if pendingAffects(request) {
                let objects = try fetchInMemory(request)
                try prefetch(prefetching, for: objects)
                return objects
            }
        }
        // A child's "store" is its parent's state (Context+Parent.swift).
        if parent != nil { return try objectsFromParent(request) }
        statistics.fetches += 1
        if request.fetchBatchSize > 0, let ids = try fetchIDs(request) {
            var objects: [ManagedObject] = []
            for chunk in stride(from: 0, to: ids.count, by: request.fetchBatchSize) {
                let batchIDs = Array(ids[chunk..<min(chunk + request.fetchBatchSize, ids.count)])
                let batch = FaultBatch(ids: batchIDs, prefetch: prefetching)
                for id in batchIDs {
                    let object = object(with: id)
                    if object.isFault { object.batch = batch }
                    objects.append(object)
                }
            }
            try realizeFirstBatch(of: objects, request)
            return objects
        }
        let objects = try fetchObjects(request)
        try prefetch(prefetching, for: objects)
        return objects
    }

    /// How many objects `request` would fetch.
    public func count(_ request: FetchRequest, includesPendingChanges override: Bool? = nil, engine: FetchEngine = .sql) throws -> Int {
        try checkEntity(request.entity)
        if engine == .memory { return try fetchWithMemoryEngine(request).count }
        if override ?? request.includesPendingChanges {
            try processPendingChanges()
            if pendingAffects(request) { return try fetchInMemory(request).count }
        }
        if let parent { return try parent.count(request, includesPendingChanges: true) }
        statistics.fetches += 1
        return try store.count(request)
    }

    /// Dictionary results (`propertiesToFetch`): over the store's rows, or,
    /// with pending changes that matter, over the objects `fetch` would return.
    public func fetchDictionaries(_ request: FetchRequest, includesPendingChanges override: Bool? = nil) throws -> [DictionaryRow] {
        try checkEntity(request.entity)
        if override ?? request.includesPendingChanges {
            try processPendingChanges()
            if pendingAffects(request) {
                var base = request
                base.propertiesToFetch = []
                base.propertiesToGroupBy = []
                base.havingPredicate = nil
                base.sortDescriptors = []
                base.fetchLimit = nil
                base.fetchOffset = 0
                return try store.dictionariesInMemory(request, selected: try fetchInMemory(base))
            }
        }
        if let parent { return try parent.fetchDictionaries(request, includesPendingChanges: true) }
        statistics.fetches += 1
        return try store.fetchDictionaries(request)
    }

    func checkEntity(_ name: String) throws {
        guard model.entity(named: name) != nil else {
            throw ContextError.unknownEntity(name, suggestion: Suggestions.closest(to: name, among: model.entityNames))
        }
    }

    /// The context's objects for rows the store returned. A fetch may bring
    /// a million rows of one entity and one layout, so the entity and where
    /// each value sits are looked up once per (entity, layout), not per row.
    func adopt(_ rows: [StoredObject]) -> [ManagedObject] {
        registry.reserveCapacity(registry.count + rows.count)
        var objects: [ManagedObject] = []
        objects.reserveCapacity(rows.count)
        var plans: [FillPlan] = []
        for stored in rows {
            let object: ManagedObject
            if let registered = registry[stored.id] {
                object = registered
                guard object.isFault else { objects.append(object); continue }
                fill(object, from: stored, plan(for: stored, in: &plans))
            } else {
                let plan = plan(for: stored, in: &plans)
                object = ManagedObject(id: stored.id, info: plan.info, context: self)
                registry[stored.id] = object
                fill(object, from: stored, plan)
            }
            objects.append(object)
        }
        return objects
    }

    private func plan(for stored: StoredObject, in plans: inout [FillPlan]) -> FillPlan {
        plan(entity: stored.id.entity, layout: stored.layout, in: &plans)
    }

    func plan(entity: String, layout: ObjectLayout, in plans: inout [FillPlan]) -> FillPlan {
        // Few plans per fetch (one per entity and layout), and rows of one
        // plan come together: the last one used nearly always fits.
        if let last = plans.last, last.layout === layout, last.info.name == entity { return last }
        if let i = plans.firstIndex(where: { $0.layout === layout && $0.info.name == entity }) {
            let known = plans.remove(at: i)
            plans.append(known)
            return known
        }
        let plan = fillPlan(entityInfo(named: entity), layout)
        plans.append(plan)
        return plan
    }

    /// Only the IDs, in order, when the SQL says everything (no residual).
    func fetchIDs(_ request: FetchRequest) throws -> [ObjectID]? {
        let plan = try store.explain(request)
        guard plan.residual == nil else { return nil }
        return try selectIDs(plan)
    }

    /// The `_pk` and `_entity` of the rows a plan's SQL selects, in order
    /// (with a residual: the candidates, before memory judges them).
    func selectIDs(_ plan: FetchPlan) throws -> [ObjectID] { try store.selectIDs(plan) }

    /// Whether an unsaved change could alter what `request` selects.
    func pendingAffects(_ request: FetchRequest) -> Bool {
        guard !pending.isEmpty else { return false }
        if pending.contains(where: { Self.selects(request, $0.entity, in: model) }) { return true }
        return readsRelationships(request)
    }

    /// Whether objects of `entity` are of the kind `request` fetches: the
    /// entity itself, or one below it unless `includesSubentities` is off.
    static func selects(_ request: FetchRequest, _ entity: Entity, in model: Model) -> Bool {
        request.includesSubentities ? entity.isKind(of: request.entity, in: model) : entity.name == request.entity
    }

    /// Whether the request names a relationship of the entity (or a
    /// sub-entity) anywhere: a walk over its syntax trees that consults the
    /// model (FetchRequest+RelationshipReads.swift).
    func readsRelationships(_ request: FetchRequest) -> Bool {
        request.readsRelationships(in: model)
    }

    /// The request answered over the saved state corrected by the unsaved one.
    func fetchInMemory(_ request: FetchRequest, everything forced: Bool = false) throws -> [ManagedObject] {
        let everything = forced || readsRelationships(request)
        // What SQL alone would refuse (a transient attribute, B007) is
        // refused here too, whether or not unsaved changes brought the
        // request to memory: only the memory engine reads transients.
        if !forced, !request.sortDescriptors.isEmpty || everything { _ = try store.explain(request) }
        var base = FetchRequest(entity: request.entity, predicate: everything ? nil : request.predicate)
        base.fetchBatchSize = 0
        base.includesSubentities = request.includesSubentities
        statistics.fetches += 1
        var candidates = try fetchObjects(base)
        var seen = Set(candidates.map(ObjectIdentifier.init))
        for object in pending.values.sorted(by: { Self.insertionOrder($0.objectID, $1.objectID) })
        where Self.selects(request, object.entity, in: model) && seen.insert(ObjectIdentifier(object)).inserted {
            candidates.append(object)
        }
        let predicate = try request.predicate.map { try Evaluator.compile($0, options: store.evaluationOptions) }
        var selected: [ManagedObject] = []
        for object in candidates where !object.isDeleted {
            // Unchanged rows the SQL selected already match; judge the rest here.
            if let predicate, everything || object.hasChanges || !object.rowLoaded {
                guard try predicate.evaluate(.object(ObjectReference(object))) else { continue }
            }
            selected.append(object)
        }
        selected = try sort(selected, by: request.sortDescriptors)
        selected = Array(selected.dropFirst(request.fetchOffset))
        if let limit = request.fetchLimit { selected = Array(selected.prefix(limit)) }
        return selected
    }

    /// Sorts as SQL would (`SortOrder`), saved objects by primary key and
    /// unsaved ones after them in insertion order when the keys tie.
    func sort(_ objects: [ManagedObject], by descriptors: [QuerySortDescriptor]) throws -> [ManagedObject] {
        let keys = try descriptors.map { d in (try Evaluator.compile(Parser.parseExpression(d.keyPath), options: store.evaluationOptions), d) }
        let decorated = try objects.map { o in (o, try keys.map { try $0.0.evaluate(.object(ObjectReference(o))) }) }
        return decorated.sorted { a, b in
            for (i, (_, d)) in keys.enumerated() {
                let order = SortOrder.compare(a.1[i], b.1[i], caseInsensitive: d.caseInsensitive)
                if order != 0 { return d.ascending ? order < 0 : order > 0 }
            }
            return Self.insertionOrder(a.0.objectID, b.0.objectID)
        }.map(\.0)
    }

    /// Saved rows by primary key, then unsaved objects in the order they were made.
    static func insertionOrder(_ a: ObjectID, _ b: ObjectID) -> Bool {
        if a.isTemporary != b.isTemporary { return !a.isTemporary }
        return abs(a.primaryKey) < abs(b.primaryKey)
    }
}

extension Context {
    /// The memory engine through a context: the request's bind errors as SQL
    /// reports them, then every object of the entity (saved rows and unsaved
    /// objects alike: the context's objects are what memory evaluates)
    /// filtered, sorted and cut in memory.
    func fetchWithMemoryEngine(_ request: FetchRequest) throws -> [ManagedObject] {
        _ = try SQLPlanner.plan(request, mapping: store.mapping, now: store.now(), inMemory: true)
        try processPendingChanges()
        return try fetchInMemory(request, everything: true)
    }
}

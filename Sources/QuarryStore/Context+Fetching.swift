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
    public func fetch(_ request: FetchRequest, includesPendingChanges override: Bool? = nil) throws -> [ManagedObject] {
        try checkEntity(request.entity)
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
            return objects
        }
        let objects = try fetchObjects(request)
        try prefetch(prefetching, for: objects)
        return objects
    }

    /// How many objects `request` would fetch.
    public func count(_ request: FetchRequest, includesPendingChanges override: Bool? = nil) throws -> Int {
        try checkEntity(request.entity)
        if override ?? request.includesPendingChanges {
            try processPendingChanges()
            if pendingAffects(request) { return try fetchInMemory(request).count }
        }
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

    /// The objects of a request, read from its rows straight into the
    /// context's objects when SQL says everything (no residual to judge in
    /// memory): no store object is built, registered, copied and freed per
    /// row on the way, which at a million rows is most of a fetch's cost.
    func fetchObjects(_ request: FetchRequest) throws -> [ManagedObject] {
        let plan = try store.explain(request)
        guard plan.residual == nil else { return adopt(try store.fetch(request)) }
        var kinds: [SQLValueKind] = [.int, .string]
        var names: [String] = []
        for c in plan.columns {
            switch c.kind {
            case .attribute(let t): kinds.append(StoreValues.kind(t)); names.append(c.name)
            case .toOne: kinds.append(.int); names.append("_fk_" + c.name)
            }
        }
        // Laid out as the store's objects of the same SELECT would be, so
        // that the fill plans are the same.
        let layout = ObjectLayout(names: names)
        var plans: [FillPlan] = []
        let lookUp = !registry.isEmpty
        var made = FetchedObjects(lookUp: lookUp)
        // Each row's values are decoded in one call into `scratch`, then
        // moved into the object (a call per row, not one per column).
        let columns = 2..<kinds.count
        let scratch = UnsafeMutablePointer<Value>.allocate(capacity: columns.count)
        defer { scratch.deallocate() }
        var lastEntity: String?
        // The plan of the entity of the last row (rows of one entity come together).
        var lastPlan: FillPlan?
        // When the table holds no other entity, every row is of this one
        // and its `_entity` column need not be read at all.
        let sole = store.soleEntity(request.entity) != nil

        // Sorted in memory (as SQLite would: MemorySorter.swift), the rows
        // are read unsorted. Each new row's values go into their blocks as
        // the row is read; its object is made once the order is known, so
        // that the objects lie in memory in the order they are read and
        // freed, as they would have from SQLite's sorted rows (made in read
        // order, every later pass over the result missed the cache per object).
        let memorySort = store.sortedInMemory(plan)
        var sorter = memorySort.map { MemorySorter(keys: $0.keys) }
        var held: [HeldRow?] = []
        var heldUnresolved: [Int: [String: Int64]] = [:]
        let sql = memorySort?.unsorted ?? plan.sql
        try store.database.streamRows(sql.sql, sql.arguments, as: kinds) { row in
            guard let pk = row.integer(at: 0) else { return }
            // Rows of one entity repeat its name: compared in place, not
            // made into a String per row.
            let entity: String
            let fillPlan: FillPlan
            if let lastEntity, let lastPlan, sole || row.text(at: 1, equals: lastEntity) {
                entity = lastEntity
                fillPlan = lastPlan
            } else {
                guard case .string(let name) = row[1] else { return }
                entity = name
                fillPlan = self.plan(entity: name, layout: layout, in: &plans)
                lastEntity = name
                lastPlan = fillPlan
            }
            sorter?.record(row, primaryKey: pk)
            if lookUp, let registered = registry[ObjectID(entity: entity, primaryKey: pk)] {
                // A loaded object keeps its values (and edits), as with `adopt`.
                if registered.isFault {
                    row.initialize(scratch, columns: columns)
                    fill(registered, fillPlan, taking: scratch)
                }
                if sorter != nil { held.append(.registered(registered)) } else { made.objects.append(registered) }
                return
            }
            row.initialize(scratch, columns: columns)
            if sorter != nil {
                // (Collected here, not straight into `heldUnresolved`: a
                // closure capturing a variable of the enclosing closure
                // costs every row a dynamic exclusivity check.)
                var unresolved: [String: Int64] = [:]
                let values = fillRow(fillPlan, taking: scratch) { unresolved[$0] = $1 }
                if !unresolved.isEmpty { heldUnresolved[held.count] = unresolved }
                held.append(.new(pk, fillPlan.info, values))
                return
            }
            let object = ManagedObject(primaryKey: pk, info: fillPlan.info, context: self)
            fill(object, fillPlan, taking: scratch)
            made.keepNew(object, pk)
        }
        if sorter != nil {
            let order = try sorter!.order(of: plan, in: store.database)
            // Its recorded keys are not needed any more: freed before the objects are made.
            sorter = nil
            made.objects.reserveCapacity(order.count)
            for index in order {
                // Moved out of the list: no reference counted on the way.
                switch held[Int(index)].take()! {
                case .registered(let object):
                    made.objects.append(object)
                case .new(let pk, let info, let values):
                    let object = ManagedObject(primaryKey: pk, info: info, context: self)
                    object.adopt(values)
                    if !heldUnresolved.isEmpty, let keys = heldUnresolved[Int(index)] { object.unresolvedKeys = keys }
                    made.keepNew(object, pk)
                }
            }
        }
        let new = made.new
        register(new, ordered: made.ordered, oneEntity: made.oneEntity ? made.runEntity : nil, into: &made.objects)
        return made.objects
    }

    /// A fetch's result as it is made: every object in order, and the new
    /// ones, to register once the rows are read. (A struct, not variables
    /// that a local function shares with the row closure: those would be
    /// boxed, and checked for exclusive access on every row.)
    private struct FetchedObjects {
        var objects: [ManagedObject] = []
        /// New objects are registered after the rows are read; an empty
        /// registry is not even looked in.
        let lookUp: Bool
        var created: [ManagedObject] = []
        // Whether the new objects are of one entity (then they are
        // registered as one run, with no hashing: ContextRegistry.swift),
        // and whether in strictly increasing key order (the planner orders
        // by key when nothing else is asked; other orders get a key table).
        var ordered = true
        var oneEntity = true
        var runEntity: String?
        var lastKey = Int64.min

        init(lookUp: Bool) { self.lookUp = lookUp }

        /// A new object, into the result (and the list to register).
        mutating func keepNew(_ object: ManagedObject, _ pk: Int64) {
            if oneEntity {
                let entity = object.info.name
                if runEntity == nil { runEntity = entity } else if runEntity != entity { oneEntity = false }
                if pk <= lastKey { ordered = false }
                lastKey = pk
            }
            // With an empty registry every row made a new object: `objects`
            // is the list of them, with no second array to fill and free.
            if lookUp { created.append(object) }
            objects.append(object)
        }

        /// The objects to register.
        var new: [ManagedObject] { lookUp ? created : objects }
    }

    /// A row read for a fetch sorted in memory, until its place is known:
    /// the object registered for it, or what a new one is made of.
    private enum HeldRow {
        case registered(ManagedObject)
        case new(Int64, EntityInfo, SavedValues)
    }

    /// Registers the objects a fetch made (`new`, also in `objects`): as one
    /// run when they are of one entity, else one by one; a row read twice
    /// keeps its first object, in `objects` too.
    private func register(_ new: [ManagedObject], ordered: Bool, oneEntity runEntity: String?, into objects: inout [ManagedObject]) {
        if let runEntity {
            if ordered {
                registry.register(run: new, entity: runEntity)
                return
            }
            // Refused (too few, sparse or repeated keys): hashed below.
            if registry.register(unorderedRun: new, entity: runEntity) { return }
        }
        registry.reserveCapacity(registry.count + new.count)
        var repeated = false
        for object in new {
            if registry[object.objectID] != nil {
                // The same row twice in one result: the first object stays.
                repeated = true
            } else {
                registry[object.objectID] = object
            }
        }
        if repeated { objects = objects.map { registry[$0.objectID] ?? $0 } }
    }

    /// Only the IDs, in order, when the SQL says everything (no residual).
    func fetchIDs(_ request: FetchRequest) throws -> [ObjectID]? {
        let plan = try store.explain(request)
        guard plan.residual == nil else { return nil }
        return try selectIDs(plan)
    }

    /// The `_pk` and `_entity` of the rows a plan's SQL selects, in order
    /// (with a residual: the candidates, before memory judges them).
    func selectIDs(_ plan: FetchPlan) throws -> [ObjectID]? {
        guard let from = plan.sql.sql.range(of: " FROM ") else { return nil }
        let sql = "SELECT t0.\"_pk\", t0.\"_entity\"" + plan.sql.sql[from.lowerBound...]
        var ids: [ObjectID] = []
        try store.database.streamRows(sql, plan.sql.arguments, as: [.int, .string]) { row in
            if case .int(let pk) = row[0], case .string(let entity) = row[1] { ids.append(ObjectID(entity: entity, primaryKey: pk)) }
        }
        return ids
    }

    /// Whether an unsaved change could alter what `request` selects.
    func pendingAffects(_ request: FetchRequest) -> Bool {
        guard !pending.isEmpty else { return false }
        if pending.contains(where: { $0.entity.isKind(of: request.entity, in: model) }) { return true }
        return readsRelationships(request)
    }

    /// Whether the request names a relationship of the entity (or a sub-entity)
    /// anywhere. Judged on the printed text, word by word: a false "yes" only
    /// costs an in-memory evaluation.
    func readsRelationships(_ request: FetchRequest) -> Bool {
        guard let entity = model.entity(named: request.entity) else { return false }
        let names = Set(([entity] + entity.allSubentities(in: model)).flatMap { $0.allRelationships(in: model).map(\.name) })
        var texts = request.sortDescriptors.map(\.keyPath)
        if let p = request.predicate { texts.append(Printer.format(p)) }
        if let p = request.havingPredicate { texts.append(Printer.format(p)) }
        texts += (request.propertiesToFetch + request.propertiesToGroupBy).map { Printer.format($0.expression) }
        for text in texts {
            let words = text.split { !($0.isLetter || $0.isNumber || $0 == "_") }
            if words.contains(where: { names.contains(String($0)) }) { return true }
        }
        return false
    }

    /// The request answered over the saved state corrected by the unsaved one.
    func fetchInMemory(_ request: FetchRequest) throws -> [ManagedObject] {
        let everything = readsRelationships(request)
        var base = FetchRequest(entity: request.entity, predicate: everything ? nil : request.predicate)
        base.fetchBatchSize = 0
        statistics.fetches += 1
        var candidates = try fetchObjects(base)
        var seen = Set(candidates.map(ObjectIdentifier.init))
        for object in pending.values.sorted(by: { Self.insertionOrder($0.objectID, $1.objectID) })
        where object.entity.isKind(of: request.entity, in: model) && seen.insert(ObjectIdentifier(object)).inserted {
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
    func sort(_ objects: [ManagedObject], by descriptors: [SortDescriptor]) throws -> [ManagedObject] {
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

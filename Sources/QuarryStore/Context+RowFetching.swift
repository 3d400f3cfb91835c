// Reading a request's rows straight into the context's objects (when SQL
// says everything: no residual to judge in memory). Rows of one entity are
// filled by a plan worked out once (Context+Faulting.swift), new objects
// are registered after the rows are read (as one run when they can be:
// ContextRegistry.swift), and a fetch that memory sorts (MemorySorter.swift)
// reads its rows unsorted and makes its objects once their order is known.

extension Context {
    /// The objects of a request, read from its rows straight into the
    /// context's objects when SQL says everything (no residual to judge in
    /// memory): no store object is built, registered, copied and freed per
    /// row on the way, which at a million rows is most of a fetch's cost.
    func fetchObjects(_ request: FetchRequest) throws -> [ManagedObject] {
        if parent != nil { return try objectsFromParent(request) }   // Context+Parent.swift
        // A stopped fetch's rows are freed by the next one (or the context).
        leftovers.removeAll()
        let plan = try store.explain(request)
        guard plan.residual == nil else { return adopt(try store.fetch(request)) }
        var kinds: [SQLValueKind] = [.int, .string]
        for c in plan.columns {
            switch c.kind {
            case .attribute(let t): kinds.append(StoreValues.kind(t))
            case .toOne: kinds.append(.int)
            }
        }
        // Laid out as the store's objects of the same SELECT would be, so
        // that the fill plans are the same.
        let layout = ObjectLayout(columns: plan.columns, toOnePrefix: "_fk_")
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
        do {
            try store.streamRows(sql.sql, sql.arguments, as: kinds, decoding: try store.rowDecoders(plan.columns, of: request.entity)) { row in
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
        } catch {
            // Stopped part-way (an interrupt, a read error): the rows read so
            // far go to the context, freed with it, not here on the error's
            // way out (500k objects took a third of a second between a
            // Ctrl-C and the shell's `interrupted`).
            leftovers.append((made, held, heldUnresolved, sorter))
            throw error
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
}

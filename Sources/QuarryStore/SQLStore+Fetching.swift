// Fetching and counting: the planned SELECT decoded into stored objects
// (uniqued: one object per row), the residual and its deferred limit applied
// in memory; or, on the memory engine, every object of the entity filtered,
// sorted and cut in memory by the evaluator.
import Foundation

extension SQLStore {
    /// The objects a request selects, in its order.
    public func fetch(_ request: FetchRequest, engine: FetchEngine = .sql) throws -> [StoredObject] {
        switch engine {
        case .sql: return try fetchSQL(request)
        case .memory: return try fetchMemory(request)
        }
    }

    /// How many objects a request selects.
    public func count(_ request: FetchRequest, engine: FetchEngine = .sql) throws -> Int {
        if engine == .sql {
            let plan = try SQLPlanner.plan(request, mapping: mapping, now: now())
            if let count = plan.countSQL, request.fetchLimit == nil, request.fetchOffset == 0 {
                if case .int(let n)? = try database.rows(count.sql, count.arguments).first?.first { return Int(n) }
            }
        }
        return try fetch(request, engine: engine).count
    }

    /// The SQL a request runs, with its arguments, and the residual if any.
    public func explain(_ request: FetchRequest) throws -> FetchPlan {
        try SQLPlanner.plan(request, mapping: mapping, now: now())
    }

    func fetchSQL(_ request: FetchRequest) throws -> [StoredObject] {
        // Interrupts asked for before this fetch are not its own.
        if !database.isInTransaction { database.clearInterruptRequest() }
        let plan = try SQLPlanner.plan(request, mapping: mapping, now: now())
        var objects: [StoredObject]
        if let memorySort = sortedInMemory(plan) {
            // Read unsorted and sorted here, as SQLite would (MemorySorter.swift).
            var sorter: MemorySorter? = MemorySorter(keys: memorySort.keys)
            objects = try rows(memorySort.unsorted, columns: plan.columns, of: request.entity, recording: &sorter)
            MemorySorter.reorder(&objects, by: try sorter!.order(of: plan, in: database))
        } else {
            objects = try rows(plan.sql, columns: plan.columns, of: request.entity)
        }
        if let residual = plan.residual {
            let compiled = try Evaluator.compile(residual, options: evaluationOptions)
            objects = try filterInterruptibly(objects) { try compiled.evaluate(.object(ObjectReference($0))) }
            objects = Array(objects.dropFirst(plan.memoryOffset))
            if let limit = plan.memoryLimit { objects = Array(objects.prefix(limit)) }
        }
        return objects
    }

    /// How a fetch's rows are sorted in memory (MemorySorter.swift) when
    /// this store does so for `plan`; nil when SQL sorts them.
    public func sortedInMemory(_ plan: FetchPlan) -> MemorySortPlan? {
        sortsInMemory ? plan.memorySort : nil
    }

    var evaluationOptions: EvaluationOptions {
        var options = EvaluationOptions()
        let clock = now
        options.now = { clock() }
        return options
    }

    /// The entity itself when every row of its table is one of its own (no
    /// sub-entities, no other entity in the table): then the `_entity`
    /// column need not be read row by row.
    func soleEntity(_ entity: String) -> String? {
        guard let e = model.entity(named: entity), e.allSubentities(in: model).isEmpty,
              mapping.entityFilter(for: entity) == nil else { return nil }
        return entity
    }

    /// Decodes the rows of a planned SELECT (`_pk`, `_entity`, then `columns`)
    /// of `entity`'s table.
    func rows(_ sql: SQLFragment, columns: [PlannedColumn], of entity: String) throws -> [StoredObject] {
        var none: MemorySorter?
        return try rows(sql, columns: columns, of: entity, recording: &none)
    }

    /// `rows`, recording each row's sort keys in `sorter` as it goes.
    func rows(_ sql: SQLFragment, columns: [PlannedColumn], of entity: String,
              recording sorter: inout MemorySorter?) throws -> [StoredObject] {
        var kinds: [SQLValueKind] = [.int, .string]
        for c in columns {
            switch c.kind {
            case .attribute(let t): kinds.append(StoreValues.kind(t))
            case .toOne: kinds.append(.int)
            }
        }
        let layout = ObjectLayout(columns: columns, toOnePrefix: "_fk_")
        var objects: [StoredObject] = []
        let width = columns.count
        // An empty registry is not even looked in; new objects are appended
        // to it without a lookup (see ObjectRegistry). A row the SQL returns
        // twice (only inconsistent one-to-one data could) gets two objects in
        // this result, and the registry keeps the first.
        let lookUp = !registeredObjects.isEmpty
        var slab = ValueSlab(layout: layout, store: self)
        var fresh: [StoredObject] = []
        // Rows of one entity come together: its name is read once, not per
        // row — or not at all when the table holds no other entity.
        let sole = soleEntity(entity)
        var lastEntity = sole
        try streamRows(sql.sql, sql.arguments, as: kinds, decoding: try rowDecoders(columns, of: entity)) { row in
            guard let pk = row.integer(at: 0) else { return }
            let entity: String
            if let last = lastEntity, sole != nil || row.text(at: 1, equals: last) {
                entity = last
            } else {
                guard case .string(let name) = row[1] else { return }
                entity = name
                lastEntity = name
            }
            let id = ObjectID(entity: entity, primaryKey: pk)
            sorter?.record(row, primaryKey: pk)
            if lookUp, let existing = registered(id) {
                objects.append(existing)
                return
            }
            // The values go straight from the row into the object's storage.
            if slab.isFull { slab = ValueSlab(layout: layout, store: self) }
            let object = StoredObject(id: id, slab: slab) { row.initialize($0, columns: 2..<(2 + width)) }
            if lookUp { fresh.append(object) }
            objects.append(object) // last use: the reference moves into the array
        }
        // Registered after the loop: one access to the registry, not one per
        // row. Without a lookup every object is new.
        registeredObjects.append(contentsOf: lookUp ? fresh : objects)
        return objects
    }

    /// Every object of the entity, filtered, sorted and cut by the evaluator.
    ///
    /// The request is planned first and the plan thrown away: key paths are
    /// bound against the model by the same binder on both engines, so a
    /// misspelt key (`nosuch == nil`), a to-many path without a quantifier or
    /// an unknown suffix is the same bind error here as in SQL, instead of a
    /// nil that quietly selects everything.
    ///
    /// A top-level AND is evaluated with the conjuncts SQL could run first
    /// and the residual ones last, as the SQL engine does (its residual only
    /// sees the rows the SQL part selected): an error a residual conjunct
    /// raises (`salary / 0`, `name + 1`) then comes from the same rows on
    /// both engines, or from none.
    func fetchMemory(_ request: FetchRequest) throws -> [StoredObject] {
        // Interrupts asked for before this fetch are not its own.
        if !database.isInTransaction { database.clearInterruptRequest() }
        // For its bind errors only: transient attributes are read here, from the objects.
        let plan = try SQLPlanner.plan(request, mapping: mapping, now: now(), inMemory: true)
        var every = FetchRequest(entity: request.entity)
        every.includesSubentities = request.includesSubentities
        var all = try fetchSQL(every)
        if let predicate = request.predicate.map({ Self.sqlConjunctsFirst($0, residual: plan.residual) }) {
            let compiled = try Evaluator.compile(predicate, options: evaluationOptions)
            all = try filterInterruptibly(all) { try compiled.evaluate(.object(ObjectReference($0))) }
        }
        if !request.sortDescriptors.isEmpty {
            let keys = try request.sortDescriptors.map { d in
                (try Evaluator.compile(Parser.parseExpression(d.keyPath)), d)
            }
            let decorated = try all.map { o in (o, try keys.map { try $0.0.evaluate(.object(ObjectReference(o))) }) }
            all = decorated.sorted { a, b in
                for (i, (_, d)) in keys.enumerated() {
                    let order = SortOrder.compare(a.1[i], b.1[i], caseInsensitive: d.caseInsensitive)
                    if order != 0 { return d.ascending ? order < 0 : order > 0 }
                }
                return a.0.id.primaryKey < b.0.id.primaryKey
            }.map(\.0)
        }
        all = Array(all.dropFirst(request.fetchOffset))
        if let limit = request.fetchLimit { all = Array(all.prefix(limit)) }
        return all
    }
}

extension SQLStore {
    /// `objects.filter(keep)`, stopping with the driver's interrupted error
    /// when `interrupt()` (Ctrl-C in the shell) was called: no SQL statement
    /// runs while memory filters, so SQLite itself would never notice.
    /// Checked every 1,024 objects, a few milliseconds apart at most.
    func filterInterruptibly(_ objects: [StoredObject], _ keep: (StoredObject) throws -> Bool) throws -> [StoredObject] {
        var kept: [StoredObject] = []
        for (i, object) in objects.enumerated() {
            if i & 1023 == 0 { try database.throwIfInterruptRequested() }
            if try keep(object) { kept.append(object) }
        }
        return kept
    }

    /// `predicate` with its top-level conjuncts that are not in `residual`
    /// moved before those that are (SQL's order of evaluation).
    static func sqlConjunctsFirst(_ predicate: QueryPredicate, residual: QueryPredicate?) -> QueryPredicate {
        guard let residual, case .and(let parts) = predicate.kind else { return predicate }
        let left: [QueryPredicate]
        if case .and(let r) = residual.kind, !parts.contains(residual) { left = r } else { left = [residual] }
        let sql = parts.filter { !left.contains($0) }
        guard !sql.isEmpty, sql.count + left.count == parts.count else { return predicate }
        return QueryPredicate(.and(sql + left), span: predicate.span)
    }
}

/// The order SQLite gives sort keys, reproduced in memory: NULL first, then
/// numbers by value, then text by the UTF-8 bytes of its NFC form, then blobs.
/// An object (a to-one sort key, `SORT BY department`) sorts by its primary
/// key, as Core Data sorts a to-one by its object ID and the SQL planner by
/// the foreign key.
enum SortOrder {
    static func compare(_ a: Value, _ b: Value, caseInsensitive: Bool) -> Int {
        func rank(_ v: Value) -> Int {
            switch v {
            case .null: return 0
            case .int, .double, .bool, .decimal, .date, .object: return 1
            case .string: return 2
            default: return 3
            }
        }
        let (ra, rb) = (rank(a), rank(b))
        if ra != rb { return ra < rb ? -1 : 1 }
        switch (a, b) {
        case (.string(var x), .string(var y)):
            // As stored: composed (NFC), so unsaved text sorts as saved text will.
            x = StoredText.composed(x)
            y = StoredText.composed(y)
            if caseInsensitive {
                let folding = Folding(caseInsensitive: true, diacriticInsensitive: false)
                // As quarry_fold: folded, then composed again (ǰ folds to j + U+030C).
                x = StoredText.composed(folding.fold(x))
                y = StoredText.composed(folding.fold(y))
            }
            return Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8)) ? -1 : (x.utf8.elementsEqual(y.utf8) ? 0 : 1)
        case (.data(let x), .data(let y)):
            // As SQLite orders BLOBs and PostgreSQL bytea: byte by byte, a
            // prefix first.
            return bytes(x, y)
        case (.uuid(let x), .uuid(let y)):
            // Stored as their 16 bytes, so ordered by them.
            return bytes(withUnsafeBytes(of: x.uuid) { Array($0) }, withUnsafeBytes(of: y.uuid) { Array($0) })
        default:
            let x = number(a), y = number(b)
            return x < y ? -1 : (x > y ? 1 : 0)
        }
    }

    static func bytes(_ x: [UInt8], _ y: [UInt8]) -> Int {
        x.lexicographicallyPrecedes(y) ? -1 : (x == y ? 0 : 1)
    }

    static func number(_ v: Value) -> Double {
        switch v {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .bool(let b): return b ? 1 : 0
        case .date(let d): return d
        case .decimal(let d): return NSDecimalNumber(decimal: d).doubleValue
        case .object(let ref): return Double(primaryKey(of: ref) ?? 0)
        default: return 0
        }
    }
}

extension SortOrder {
    /// The primary key of a store's or a context's object (an unsaved one's
    /// temporary key sorts after every saved key, as it will once saved).
    static func primaryKey(of ref: ObjectReference) -> Int64? {
        if let o = ref.object as? StoredObject { return o.id.primaryKey }
        if let o = ref.object as? ManagedObject {
            return o.objectID.isTemporary ? Int64.max / 2 + abs(o.objectID.primaryKey) : o.objectID.primaryKey
        }
        return nil
    }
}

// Faulting: how a context fills its objects from the store. A fault holds
// only its ID; the first key read loads its row — and, when the fault came
// from a fetch with `fetchBatchSize`, every still-unloaded object of its
// batch — in one query. A relationship is loaded the first time it is read,
// with one query that also fills the related objects' rows, so walking
// `department.employees` and reading each employee's name costs one query,
// not one per employee.
//
// As in Core Data, loading never overwrites what the context already holds:
// a registered object keeps the values it was first loaded with (and its
// unsaved edits) until `refresh`, `merge(changes:)` or `reset()`.

/// The SELECT list and decoded columns for the rows of one entity (and its sub-entities).
struct RowSelect {
    /// `SELECT t0."_pk", t0."_entity", …` (no FROM).
    var select: String
    var columns: [PlannedColumn]
    var table: String
    /// How to decode each column, `_pk` and `_entity` first.
    var kinds: [SQLValueKind]
    /// Where each column's value sits (after `_pk` and `_entity`), for fill plans.
    var layout: ObjectLayout
}

extension Context {
    func rowSelect(for entity: String) throws -> RowSelect {
        if let cached = rowSelects[entity] { return cached }
        let plan = try SQLPlanner.plan(FetchRequest(entity: entity), mapping: store.mapping)
        guard let table = store.mapping.table(for: entity) else {
            throw ContextError.unknownEntity(entity, suggestion: nil)
        }
        var kinds: [SQLValueKind] = [.int, .string]
        for c in plan.columns {
            if case .attribute(let t) = c.kind { kinds.append(StoreValues.kind(t)) } else { kinds.append(.int) }
        }
        let select = RowSelect(select: plan.statement.selectClause, columns: plan.columns, table: table,
                               kinds: kinds, layout: ObjectLayout(columns: plan.columns))
        rowSelects[entity] = select
        return select
    }

    /// Runs `SELECT <row columns of entity> <rest>`, filling (or registering)
    /// one object per row; returns their IDs in row order.
    @discardableResult
    func loadRows(of entity: String, _ rest: String, _ arguments: [Value]) throws -> [ObjectID] {
        var ids: [ObjectID] = []
        try loadRows(of: entity, rest, arguments) { id, _ in ids.append(id) }
        return ids
    }

    /// Runs `SELECT <row columns of entity>[, owner] <rest>`, filling (or
    /// registering) one object per row, and hands `each` the row's ID and,
    /// when `owner` names an integer column (the key of the object a related
    /// row belongs to, for prefetching), its value. Rows are read straight
    /// into the objects by a fill plan, as a fetch reads them.
    func loadRows(of entity: String, owner: String? = nil, _ rest: String, _ arguments: [Value],
                  _ each: (ObjectID, Int64?) -> Void) throws {
        let select = try rowSelect(for: entity)
        var kinds = select.kinds
        var sql = select.select
        if let owner {
            kinds.append(.int)
            sql += ", " + owner
        }
        let ownerIndex = kinds.count - 1
        var plans: [FillPlan] = []
        try store.streamRows(sql + " " + rest, arguments, as: kinds, decoding: try store.rowDecoders(select.columns, of: entity)) { row in
            guard case .int(let pk) = row[0], case .string(let name) = row[1] else { return }
            let id = ObjectID(entity: name, primaryKey: pk)
            let object = self.object(with: id)
            if object.isFault { fill(object, plan(entity: name, layout: select.layout, in: &plans)) { row[$0 + 2] } }
            var key: Int64?
            if owner != nil, case .int(let k) = row[ownerIndex] { key = k }
            each(id, key)
        }
    }

    /// `fill` for a stored object: where each saved value sits in its
    /// layout, worked out once for a whole fetch.
    /// A class: it is handed around once per row, and copying a struct of
    /// arrays would retain and release each of them every time.
    final class FillPlan {
        let info: EntityInfo
        let layout: ObjectLayout
        /// Where each attribute's value sits in the layout (nil: not selected).
        let attributes: [Int?]
        let toOnes: [(name: String, index: Int?, exact: String?)]
        /// `toOnes`, for the fill of a row: positions, and the entity of the
        /// keys when it is known (a tuple array would copy its names per row).
        private let toOneIndices: [Int?]
        private let toOneEntities: [String?]

        /// Layout positions no slot reads (`fill(_:_:taking:)` frees them).
        let unused: [Int]
        /// No position is read by two slots: each value can be moved, not copied.
        let movable: Bool

        /// Where the objects filled last keep their values (Unchecked: one context, one thread).
        @exclusivity(unchecked) private var block: ValueBlock?

        init(info: EntityInfo, layout: ObjectLayout, attributes: [Int?], toOnes: [(name: String, index: Int?, exact: String?)]) {
            self.info = info
            self.layout = layout
            self.attributes = attributes
            self.toOnes = toOnes
            toOneIndices = toOnes.map(\.index)
            toOneEntities = toOnes.map(\.exact)
            let used = attributes.compactMap { $0 } + toOnes.compactMap(\.index)
            unused = layout.names.indices.filter { !used.contains($0) }
            movable = Set(used).count == used.count
            assert(attributes.count + toOnes.count == info.slots.names.count, "a fill plan laid out unlike its entity's slots")
        }

        /// Room for one more object's values: the current block's next row,
        /// or the first of a new block twice the size of the last.
        func claimRow() -> (ValueBlock, Int) {
            if let block, !block.isFull { return (block, block.claim()) }
            let rows = block.map { min($0.rows * 2, ValueBlock.maxRows) } ?? 4
            let fresh = ValueBlock(slots: info.slots, rows: rows)
            block = fresh
            return (fresh, fresh.claim())
        }

        var entity: Entity { info.entity }

        /// Fills a fault from a row's values decoded at once into `values`
        /// (one per layout position), which it takes: they are moved into
        /// the object's slots (no copy, no reference count) and `values` is
        /// left uninitialized. A method of the plan, so that its lists are
        /// read in place rather than retained and released per row.
        func fill(_ object: ManagedObject, taking values: UnsafeMutablePointer<Value>) {
            object.adopt(fillRow(taking: values) { object.unresolvedKeys[$0] = $1 })
        }

        /// `fill` without the object: the saved values it would adopt, and
        /// each to-one key whose entity is not known yet (it has
        /// sub-entities) handed to `unresolved` with its relationship's name.
        func fillRow(taking values: UnsafeMutablePointer<Value>, unresolved: (String, Int64) -> Void) -> SavedValues {
            let (block, base) = claimRow()
            let buffer = block.values
            var i = base
            for index in attributes {
                (buffer + i).initialize(to: .attribute(index.map { (values + $0).move() } ?? .null))
                i += 1
            }
            for t in toOneIndices.indices {
                if let index = toOneIndices[t], case .int(let pk) = (values + index).move() {
                    if let exact = toOneEntities[t] {
                        (buffer + i).initialize(to: .toOne(ObjectID(entity: exact, primaryKey: pk)))
                    } else {
                        // Not known until its entity is read: absent, for now.
                        (buffer + i).initialize(to: nil)
                        unresolved(toOnes[t].name, pk)
                    }
                } else {
                    (buffer + i).initialize(to: .toOne(nil))
                }
                i += 1
            }
            for index in unused { (values + index).deinitialize(count: 1) }
            return SavedValues(block: block, base: base)
        }
    }

    /// The filled objects lay out their saved values as `info.slots` says:
    /// the attributes, then the to-ones, in the order of the plan's lists.
    func fillPlan(_ info: EntityInfo, _ layout: ObjectLayout) -> FillPlan {
        let entity = info.entity
        var attributes: [Int?] = []
        for a in entity.allAttributes(in: model) where !a.isTransient {
            attributes.append(layout.slot(a.name, for: entity.name))
        }
        // The row's version, remembered for the save's check (ContextWriter+Versions.swift).
        if store.mapping.storesVersions { attributes.append(layout.slot(StoreMapping.versionColumn, for: entity.name)) }
        var toOnes: [(name: String, index: Int?, exact: String?)] = []
        for r in entity.allRelationships(in: model) where !r.isToMany {
            guard case .foreignKey? = store.mapping.storage(of: r.name, of: entity.name) else { continue }
            toOnes.append((r.name, layout.slot(r.name, for: entity.name) ?? layout.slot("_fk_" + r.name, for: entity.name),
                           exactEntity(r.destination)))
        }
        return FillPlan(info: info, layout: layout, attributes: attributes, toOnes: toOnes)
    }

    /// Fills a fault from a row's values decoded at once into `values` (one
    /// per layout position), which it takes: they are moved into the
    /// object's slots (no copy, no reference count) and `values` is left
    /// uninitialized. One call per row instead of a call per column.
    func fill(_ object: ManagedObject, _ plan: FillPlan, taking values: UnsafeMutablePointer<Value>) {
        guard plan.movable else {
            fill(object, plan) { values[$0] }
            (values).deinitialize(count: plan.layout.names.count)
            return
        }
        plan.fill(object, taking: values)
    }

    /// `fill(_:_:taking:)` without the object (see `FillPlan.fillRow`).
    func fillRow(_ plan: FillPlan, taking values: UnsafeMutablePointer<Value>, unresolved: (String, Int64) -> Void) -> SavedValues {
        guard plan.movable else {
            defer { values.deinitialize(count: plan.layout.names.count) }
            return fillRow(plan, { values[$0] }, unresolved: unresolved)
        }
        return plan.fillRow(taking: values, unresolved: unresolved)
    }

    /// Fills a fault from a stored object's values (columns of sibling
    /// entities, one table per hierarchy, are not in the plan).
    func fill(_ object: ManagedObject, from stored: StoredObject, _ plan: FillPlan) {
        fill(object, plan) { stored[slot: $0] }
    }

    /// Fills a fault by `plan`, reading the value at each layout position
    /// with `value` (from a stored object, or from the current row).
    func fill(_ object: ManagedObject, _ plan: FillPlan, _ value: (Int) -> Value) {
        object.adopt(fillRow(plan, value) { object.unresolvedKeys[$0] = $1 })
    }

    /// `fill(_:_:_:)` without the object (see `FillPlan.fillRow`).
    func fillRow(_ plan: FillPlan, _ value: (Int) -> Value, unresolved: (String, Int64) -> Void) -> SavedValues {
        let attributes = plan.attributes, toOnes = plan.toOnes
        let (block, base) = plan.claimRow()
        // Every slot of the row is initialized (the block's are not, until claimed).
        let buffer = block.values
        var i = base
        for index in attributes {
            (buffer + i).initialize(to: .attribute(index.map(value) ?? .null))
            i += 1
        }
        for (name, index, exact) in toOnes {
            if let index, case .int(let pk) = value(index) {
                if let exact {
                    (buffer + i).initialize(to: .toOne(ObjectID(entity: exact, primaryKey: pk)))
                } else {
                    // Not known until its entity is read: absent, for now.
                    (buffer + i).initialize(to: nil)
                    unresolved(name, pk)
                }
            } else {
                (buffer + i).initialize(to: .toOne(nil))
            }
            i += 1
        }
        return SavedValues(block: block, base: base)
    }


    /// The entity every row pointed at as `destination` must have, when it
    /// has no sub-entities; otherwise the row's `_entity` must be read.
    func exactEntity(_ destination: String) -> String? {
        guard let e = model.entity(named: destination), e.subentities(in: model).isEmpty else { return nil }
        return destination
    }

    /// Loads the row of a fault, and the rows of the faults of its batch.
    func fireFault(_ object: ManagedObject) throws {
        if parent != nil { return try fireFaultFromParent(object) }   // Context+Parent.swift
        var ids = [object.objectID]
        // Kept: filling the rows clears each object's batch.
        let batch = object.batch
        if let batch {
            ids = batch.ids.filter { registry[$0]?.isFault == true }
            if !ids.contains(object.objectID) { ids.append(object.objectID) }
        }
        var byEntity: [String: [Int64]] = [:]
        for id in ids { byEntity[id.entity, default: []].append(id.primaryKey) }
        do {
            for (entity, keys) in byEntity.sorted(by: { $0.key < $1.key }) {
                for chunk in stride(from: 0, to: keys.count, by: 500).map({ Array(keys[$0..<min($0 + 500, keys.count)]) }) {
                    let table = SQLIdentifier.quoted(try rowSelect(for: entity).table)
                    statistics.faultLoads += 1
                    try loadRows(of: entity, "FROM \(table) t0 WHERE " + StoreMapping.keyIn(chunk.count, alias: "t0"),
                                 chunk.map { .int($0) })
                }
            }
            // The request's relationships for the whole batch, now that its rows are here.
            if let batch, !batch.prefetch.isEmpty {
                try prefetch(batch.prefetch, for: batch.ids.compactMap { registry[$0] })
            }
        } catch {
            lastFaultError = error
            throw error
        }
        if object.isFault {
            // The row is gone (deleted by another context, say): Core Data
            // raises "could not fulfill a fault"; here the object reads as nil.
            object.rowLoaded = true
            lastFaultError = ContextError.fetchError("\(object.objectID) no longer exists in the store")
        }
    }

    /// The saved value of relationship `r` of `object`, from the store.
    func loadRelationship(_ r: Relationship, of object: ManagedObject) throws -> PropertyValue {
        if parent != nil { return try relationshipFromParent(r, of: object) }
        let mapping = store.mapping
        switch mapping.storage(of: r.name, of: object.entity.name) {
        case .foreignKey?:
            if object.isFault { try fireFault(object) }
            if let known = object.committed[r.name] { return known }
            guard let pk = object.unresolvedKeys[r.name], let table = mapping.table(for: r.destination) else { return .toOne(nil) }
            statistics.relationshipLoads += 1
            let row = try store.database.rows("SELECT \(StoreMapping.quotedEntityColumn) FROM \(SQLIdentifier.quoted(table)) WHERE \(StoreMapping.quotedPrimaryKey) = ?", [.int(pk)])
            object.unresolvedKeys[r.name] = nil
            guard case .string(let entity)? = row.first?.first else { return .toOne(nil) }
            return .toOne(ObjectID(entity: entity, primaryKey: pk))
        case .inverseForeignKey(let column)?:
            let table = SQLIdentifier.quoted(try rowSelect(for: r.destination).table)
            statistics.relationshipLoads += 1
            let ids = try loadRows(of: r.destination, "FROM \(table) t0 WHERE t0.\(SQLIdentifier.quoted(column)) = ? ORDER BY "
                                   + mapping.orderPrefix(of: r.name, of: object.entity.name, alias: "t0") + "t0.\(StoreMapping.quotedPrimaryKey)",
                                   [.int(object.objectID.primaryKey)])
            return r.isToMany ? .toMany(ids) : .toOne(ids.first)
        case .joinTable(let join, let source, let target)?:
            let table = SQLIdentifier.quoted(try rowSelect(for: r.destination).table)
            let ordered = mapping.joinTables.first { $0.table == join }?.ordered == true && source == StoreMapping.joinSourceColumn
            statistics.relationshipLoads += 1
            let ids = try loadRows(of: r.destination,
                                   "FROM \(SQLIdentifier.quoted(join)) j JOIN \(table) t0 ON t0.\(StoreMapping.quotedPrimaryKey) = j.\(SQLIdentifier.quoted(target)) "
                                   + "WHERE j.\(SQLIdentifier.quoted(source)) = ? ORDER BY " + (ordered ? "j.\(StoreMapping.quotedJoinPosition), " : "") + "t0.\(StoreMapping.quotedPrimaryKey)",
                                   [.int(object.objectID.primaryKey)])
            return r.isToMany ? .toMany(ids) : .toOne(ids.first)
        case nil:
            return r.isToMany ? .toMany([]) : .toOne(nil)
        }
    }

    /// Turns a registered object back into a fault: its saved values are
    /// forgotten and reloaded on next read. Unsaved edits are kept when
    /// `mergeChanges` is true (they stay on top of the fresh values), dropped
    /// otherwise — Core Data's `refresh(_:mergeChanges:)`.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        forgetFetchedProperties(of: object)
        guard object.context === self, !object.isInserted else { return }
        object.committed = SavedValues()
        object.unresolvedKeys = [:]
        object.rowLoaded = false
        if !mergeChanges {
            object.changes.removeAll()
            object.isDeleted = false
            notePending(object)
        }
    }
}

extension ManagedObject {
    /// Values just filled from its row become the object's saved ones.
    func adopt(_ filled: SavedValues) {
        rowLoaded = true
        batch = nil
        // A fresh object knows nothing yet: the common case is one test.
        if committed.isPristine {
            committed = filled
            return
        }
        // A fault may already know relationships it loaded before its row:
        // they stay, as the row's values would not replace them.
        var saved = filled
        for (key, known) in committed where saved[key] == nil { saved[key] = known }
        committed = saved
    }
}

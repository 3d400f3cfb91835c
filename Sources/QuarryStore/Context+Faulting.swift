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
}

extension Context {
    func rowSelect(for entity: String) throws -> RowSelect {
        if let cached = rowSelects[entity] { return cached }
        let plan = try SQLPlanner.plan(FetchRequest(entity: entity), mapping: store.mapping)
        guard let from = plan.sql.sql.range(of: " FROM "), let table = store.mapping.table(for: entity) else {
            throw ContextError.unknownEntity(entity, suggestion: nil)
        }
        let select = RowSelect(select: String(plan.sql.sql[..<from.lowerBound]), columns: plan.columns, table: table)
        rowSelects[entity] = select
        return select
    }

    /// Runs `SELECT <row columns of entity> <rest>`, filling (or registering)
    /// one object per row; returns their IDs in row order.
    @discardableResult
    func loadRows(of entity: String, _ rest: String, _ arguments: [Value]) throws -> [ObjectID] {
        let select = try rowSelect(for: entity)
        var kinds: [SQLiteValueKind] = [.int, .string]
        for c in select.columns {
            if case .attribute(let t) = c.kind { kinds.append(StoreValues.kind(t)) } else { kinds.append(.int) }
        }
        var ids: [ObjectID] = []
        try store.database.streamRows(select.select + " " + rest, arguments, as: kinds) { row in
            guard case .int(let pk) = row[0], case .string(let name) = row[1] else { return }
            let id = ObjectID(entity: name, primaryKey: pk)
            ids.append(id)
            let object = self.object(with: id)
            guard object.isFault else { return }
            var values: [String: Value] = [:]
            for (i, c) in select.columns.enumerated() { values[c.name] = row[i + 2] }
            fill(object, values)
        }
        return ids
    }

    /// Sets a fault's saved values from its row. Columns of sibling entities
    /// (one table per hierarchy) are skipped.
    func fill(_ object: ManagedObject, _ row: [String: Value]) {
        for a in object.entity.allAttributes(in: model) where !a.isTransient {
            object.committed[a.name] = .attribute(row[a.name] ?? .null)
        }
        for r in object.entity.allRelationships(in: model) where !r.isToMany {
            guard case .foreignKey? = store.mapping.storage(of: r.name, of: object.entity.name) else { continue }
            switch row[r.name] ?? row["_fk_" + r.name] ?? .null {
            case .int(let pk):
                if let exact = exactEntity(r.destination) {
                    object.committed[r.name] = .toOne(ObjectID(entity: exact, primaryKey: pk))
                } else {
                    object.unresolvedKeys[r.name] = pk
                }
            default:
                object.committed[r.name] = .toOne(nil)
            }
        }
        object.rowLoaded = true
        object.batch = nil
    }

    /// `fill` for a stored object: where each saved value sits in its
    /// layout, worked out once for a whole fetch.
    /// A class: it is handed around once per row, and copying a struct of
    /// arrays would retain and release each of them every time.
    final class FillPlan {
        let entity: Entity
        let layout: ObjectLayout
        var attributes: [(name: String, index: Int?)] = []
        var toOnes: [(name: String, index: Int?, exact: String?)] = []
        /// How the filled objects lay out their saved values: the
        /// attributes, then the to-ones, in the order above.
        var slots = ValueSlots(names: [])

        init(entity: Entity, layout: ObjectLayout) {
            self.entity = entity
            self.layout = layout
        }
    }

    func fillPlan(_ entity: Entity, _ layout: ObjectLayout) -> FillPlan {
        let plan = FillPlan(entity: entity, layout: layout)
        for a in entity.allAttributes(in: model) where !a.isTransient {
            plan.attributes.append((a.name, layout.index[a.name]))
        }
        for r in entity.allRelationships(in: model) where !r.isToMany {
            guard case .foreignKey? = store.mapping.storage(of: r.name, of: entity.name) else { continue }
            plan.toOnes.append((r.name, layout.index[r.name] ?? layout.index["_fk_" + r.name], exactEntity(r.destination)))
        }
        plan.slots = ValueSlots(names: plan.attributes.map(\.name) + plan.toOnes.map(\.name))
        return plan
    }

    /// `fill(object, stored.values)` without building the dictionary.
    func fill(_ object: ManagedObject, from stored: StoredObject, _ plan: FillPlan) {
        fill(object, plan) { stored.storage[$0] }
    }

    /// Fills a fault by `plan`, reading the value at each layout position
    /// with `value` (from a stored object, or from the current row).
    func fill(_ object: ManagedObject, _ plan: FillPlan, _ value: (Int) -> Value) {
        var values = ContiguousArray<PropertyValue?>()
        values.reserveCapacity(plan.attributes.count + plan.toOnes.count)
        for (_, index) in plan.attributes {
            values.append(.attribute(index.map(value) ?? .null))
        }
        for (name, index, exact) in plan.toOnes {
            if let index, case .int(let pk) = value(index) {
                if let exact {
                    values.append(.toOne(ObjectID(entity: exact, primaryKey: pk)))
                } else {
                    values.append(nil)
                    object.unresolvedKeys[name] = pk
                }
            } else {
                values.append(.toOne(nil))
            }
        }
        var saved = SavedValues(slots: plan.slots, values: values)
        // A fault may already know relationships it loaded before its row:
        // they stay, as the row's values would not replace them.
        if !object.committed.isEmpty {
            for (key, known) in object.committed where saved[key] == nil { saved[key] = known }
        }
        object.committed = saved
        object.rowLoaded = true
        object.batch = nil
    }

    /// The entity every row pointed at as `destination` must have, when it
    /// has no sub-entities; otherwise the row's `_entity` must be read.
    func exactEntity(_ destination: String) -> String? {
        guard let e = model.entity(named: destination), e.subentities(in: model).isEmpty else { return nil }
        return destination
    }

    /// Loads the row of a fault, and the rows of the faults of its batch.
    func fireFault(_ object: ManagedObject) throws {
        var ids = [object.objectID]
        if let batch = object.batch {
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
                    try loadRows(of: entity, "FROM \(table) t0 WHERE t0.\"_pk\" IN (\(chunk.map { _ in "?" }.joined(separator: ", ")))",
                                 chunk.map { .int($0) })
                }
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
        let mapping = store.mapping
        switch mapping.storage(of: r.name, of: object.entity.name) {
        case .foreignKey?:
            if object.isFault { try fireFault(object) }
            if let known = object.committed[r.name] { return known }
            guard let pk = object.unresolvedKeys[r.name], let table = mapping.table(for: r.destination) else { return .toOne(nil) }
            statistics.relationshipLoads += 1
            let row = try store.database.rows("SELECT \"_entity\" FROM \(SQLIdentifier.quoted(table)) WHERE \"_pk\" = ?", [.int(pk)])
            object.unresolvedKeys[r.name] = nil
            guard case .string(let entity)? = row.first?.first else { return .toOne(nil) }
            return .toOne(ObjectID(entity: entity, primaryKey: pk))
        case .inverseForeignKey(let column)?:
            let table = SQLIdentifier.quoted(try rowSelect(for: r.destination).table)
            statistics.relationshipLoads += 1
            let ids = try loadRows(of: r.destination, "FROM \(table) t0 WHERE t0.\(SQLIdentifier.quoted(column)) = ? ORDER BY t0.\"_pk\"",
                                   [.int(object.objectID.primaryKey)])
            return r.isToMany ? .toMany(ids) : .toOne(ids.first)
        case .joinTable(let join, let source, let target)?:
            let table = SQLIdentifier.quoted(try rowSelect(for: r.destination).table)
            let ordered = mapping.joinTables.first { $0.table == join }?.ordered == true && source == "source"
            statistics.relationshipLoads += 1
            let ids = try loadRows(of: r.destination,
                                   "FROM \(SQLIdentifier.quoted(join)) j JOIN \(table) t0 ON t0.\"_pk\" = j.\(SQLIdentifier.quoted(target)) "
                                   + "WHERE j.\(SQLIdentifier.quoted(source)) = ? ORDER BY " + (ordered ? "j.\"position\", " : "") + "t0.\"_pk\"",
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
        guard object.context === self, !object.isInserted else { return }
        object.committed = [:]
        object.unresolvedKeys = [:]
        object.rowLoaded = false
        if !mergeChanges {
            object.changes = [:]
            object.isDeleted = false
            notePending(object)
        }
    }
}

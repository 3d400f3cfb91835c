// Derived attributes in a context's save: inside the save's transaction,
// once every row and link is written, the derived columns the save may have
// changed are recomputed (SQLStore+Derived.swift); after COMMIT the new
// values reach the objects the context holds, so that memory and SQL read
// the same value. A derived attribute cannot be set (Core Data's rule: its
// value is the store's to compute).
import Foundation

extension Context {
    /// Throws when `property` is a derived attribute (ContextObject.setValue).
    func refuseDerivedSet(_ property: Property, entity: String) throws {
        guard case .attribute(let a) = property, let derivation = a.derivation, !a.isTransient else { return }
        throw DerivedAttributeError(entity: entity, attribute: a.name, derivation: derivation)
    }

    /// A derived column a save recomputed, and the rows it recomputed.
    struct RecomputedColumn {
        let column: DerivedColumn
        let rows: [SQLStore.DerivedRows]
    }

    /// Recomputes, inside the save's transaction, every derived column whose
    /// value the save's writes may have changed; returns those columns.
    func recomputeDerived(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject],
                          permanent: [ObjectID: ObjectID]) throws -> [RecomputedColumn] {
        let columns = store.mapping.derived
        guard !columns.isEmpty else { return [] }
        let written = inserted + updated
        func key(_ o: ManagedObject) -> Int64 { (permanent[o.objectID] ?? o.objectID).primaryKey }
        func isKind(_ o: ManagedObject, _ entity: String) -> Bool { o.entity.isKind(of: entity, in: model) }
        let now = store.now()
        var done: [RecomputedColumn] = []
        for d in columns {
            let touched = (written + deleted).contains { o in d.reads.contains { isKind(o, $0) } }
            guard touched else { continue }
            let own = written.filter { isKind($0, d.entity) }.map(key)
            var rows: [SQLStore.DerivedRows] = [.keys(own)]
            let paths = d.derivation.relationshipPaths
            if !paths.isEmpty {
                let deletedRelated = deleted.contains { o in d.derivation.reachedEntities.contains { isKind(o, $0) } }
                if deletedRelated || paths.contains(where: { $0.count > 1 }) {
                    rows = [.all]
                } else {
                    for path in paths {
                        guard let r = d.entityModel(model)?.relationship(named: path[0], in: model) else { rows = [.all]; break }
                        let keys = written.filter { isKind($0, r.destination) }.map(key)
                        guard !keys.isEmpty else { continue }
                        guard let linked = store.linkedRows(d, r, keys) else { rows = [.all]; break }
                        rows.append(linked)
                    }
                }
            }
            try store.recompute(d, rows, now: now)
            done.append(RecomputedColumn(column: d, rows: rows))
        }
        return done
    }

    /// After COMMIT: the recomputed values of `columns` for every object the
    /// context holds with its row loaded. Objects of this save get them as
    /// changes, which the save's bookkeeping then makes their saved values.
    /// Only the rows recomputed are read when the save named them (editing a
    /// few salaries reads back a few departments, not every loaded one);
    /// after an all-rows recompute, every loaded object of the entity is.
    func refreshDerived(_ columns: [RecomputedColumn], saved: [ManagedObject], permanent: [ObjectID: ObjectID]) throws {
        guard !columns.isEmpty else { return }
        var objects: [Int64: [ManagedObject]] = [:]
        var inSave: Set<ObjectIdentifier> = []
        for o in saved {
            inSave.insert(ObjectIdentifier(o))
            objects[(permanent[o.objectID] ?? o.objectID).primaryKey, default: []].append(o)
        }
        for o in registry.values where o.rowLoaded && !inSave.contains(ObjectIdentifier(o)) && !o.objectID.isTemporary {
            objects[o.objectID.primaryKey, default: []].append(o)
        }
        func apply(_ d: DerivedColumn, _ pk: Int64, _ value: Value) {
            for o in objects[pk] ?? [] where o.entity.isKind(of: d.entity, in: model) {
                if inSave.contains(ObjectIdentifier(o)) { o.changes[d.attribute] = .attribute(value) } else { o.committed[d.attribute] = .attribute(value) }
            }
        }
        for recomputed in columns {
            let d = recomputed.column
            // After an all-rows recompute, the rows worth reading are those
            // of the loaded objects.
            let scopes = recomputed.rows.contains(where: \.isAll)
                ? [.keys(objects.filter { $0.value.contains { $0.entity.isKind(of: d.entity, in: model) } }.map(\.key))]
                : recomputed.rows
            for scope in scopes {
                for (pk, value) in try store.derivedValues(d, scope) { apply(d, pk, value) }
            }
        }
    }
}

extension DerivedColumn {
    func entityModel(_ model: Model) -> Entity? { model.entity(named: entity) }
}

extension SQLStore {
    /// The rows of `d`'s entity related through `r` (its first hop) to the
    /// rows `keys` of the destination, by how `r` is stored.
    func linkedRows(_ d: DerivedColumn, _ r: Relationship, _ keys: [Int64]) -> DerivedRows? {
        switch mapping.storage(of: r.name, of: d.entity) {
        case .foreignKey(let column)?:
            return .keyColumn(SQLIdentifier.quoted(column), keys)
        case .inverseForeignKey(let column)?:
            guard let table = mapping.table(for: r.destination) else { return nil }
            return .linked(select: "SELECT \(SQLIdentifier.quoted(column)) FROM \(SQLIdentifier.quoted(table)) WHERE \(StoreMapping.quotedPrimaryKey)", keys)
        case .joinTable(let table, let source, let target)?:
            return .linked(select: "SELECT \(SQLIdentifier.quoted(source)) FROM \(SQLIdentifier.quoted(table)) WHERE \(SQLIdentifier.quoted(target))", keys)
        case nil:
            return nil
        }
    }

    /// After a batch request wrote rows of `entities` (or deleted rows, which
    /// may cascade anywhere: `deleted`): every derived column reading one of
    /// them, recomputed for all rows of its entity — except a derivation of
    /// the entity's own attributes that uses `now()`, which only the rows
    /// the request wrote get (`ownRows`, when known).
    func recomputeDerivedAfterBatch(entities: Set<String>, deleted: Bool, ownRows: [Int64]? = nil) throws {
        for d in mapping.derived {
            let reads = deleted ? !d.derivation.isSelfOnly
                : d.reads.contains { read in entities.contains { model.entity(named: $0)?.isKind(of: read, in: model) == true } }
            guard reads else { continue }
            if d.derivation.usesNow && d.derivation.isSelfOnly {
                guard let ownRows, entities.contains(where: { model.entity(named: $0)?.isKind(of: d.entity, in: model) == true }) else { continue }
                try recompute(d, [.keys(ownRows)], now: now())
            } else {
                try recompute(d, [.all], now: now())
            }
        }
    }

    /// The keys of the rows a batch update is about to write, when an own
    /// `now()` derivation needs them (nil otherwise: nothing is read).
    func rowsForNowDerivations(entity: String, predicate: QueryPredicate?) throws -> [Int64]? {
        guard mapping.derived.contains(where: { $0.derivation.usesNow && $0.derivation.isSelfOnly
                                                  && model.entity(named: entity)?.isKind(of: $0.entity, in: model) == true }) else { return nil }
        if let keys = try SQLPlanner.planKeys(entity: entity, predicate: predicate, mapping: mapping, now: now()) {
            return try database.query(keys.sql, keys.arguments, as: [.string, .int]).compactMap { row in
                if case .int(let k) = row[1] { return k } else { return nil }
            }
        }
        return try fetch(FetchRequest(entity: entity, predicate: predicate)).map(\.id.primaryKey)
    }
}

// Prefetching (`relationshipKeyPathsForPrefetching`): after a fetch, the
// related objects of each named key path are loaded for all fetched objects
// together — one query per path segment (per chunk of keys under the
// database's argument limit), never one per object — and recorded as the
// objects' saved relationship values, so that reading them, and the related
// objects' attributes, runs no query afterwards.
//
// How each segment is read depends on where the relationship is stored:
// - a foreign key on the source row (a to-one): the keys are in the rows
//   already; the destinations' rows are loaded by `_pk IN (…)`;
// - a foreign key on the destination (a to-many, or the non-owning side of a
//   one-to-one): `WHERE fk IN (…)`, each row grouped under the key it holds;
// - a join table (many-to-many): the join rows joined to the destinations,
//   grouped under the source key.
// Rows come in the order a relationship's own load uses (by primary key, or
// by position for an ordered join), so a prefetched to-many lists the same
// objects in the same order as one loaded on first touch.
//
// As everywhere in a context, loading never overwrites what the context
// holds: a relationship already loaded keeps its value, an object already
// loaded keeps its values. Prefetching reads saved state: an unsaved edit
// of a relationship still reads as the edit.

extension Context {
    /// The checked prefetch tree of `request` (empty when it names none).
    func prefetchTree(for request: FetchRequest) throws -> [PrefetchNode] {
        if request.relationshipKeyPathsForPrefetching.isEmpty { return [] }
        return try PrefetchTree.build(request.relationshipKeyPathsForPrefetching, from: request.entity, in: model)
    }

    /// Loads every relationship of `tree` for `objects`; returns the related
    /// objects reached, at every depth (a batched result keeps them alive
    /// with its batch).
    @discardableResult
    func prefetch(_ tree: [PrefetchNode], for objects: [ManagedObject]) throws -> [ManagedObject] {
        // A child's relationships come from its parent's objects (Context+Parent.swift), never the store.
        guard !tree.isEmpty, parent == nil else { return [] }
        var reached: [ManagedObject] = []
        for node in tree {
            var seen = Set<ObjectIdentifier>()
            let sources = objects.filter {
                $0.context === self && !$0.objectID.isTemporary && $0.entity.isKind(of: node.source, in: model)
                    && seen.insert(ObjectIdentifier($0)).inserted
            }
            guard !sources.isEmpty else { continue }
            let related = try prefetch(node.relationship, of: sources, from: node.source)
            reached += related
            reached += try prefetch(node.children, for: related)
        }
        return reached
    }

    /// Loads relationship `r` of `sources` (objects of `source`); returns the
    /// related objects, each once.
    private func prefetch(_ r: Relationship, of sources: [ManagedObject], from source: String) throws -> [ManagedObject] {
        let mapping = store.mapping
        var targets: [ObjectID] = []
        switch mapping.storage(of: r.name, of: source) {
        case .foreignKey?:
            // The keys are on the source rows: load the sources that are faults.
            try loadMissingRows(sources.map(\.objectID), of: source, counting: \.prefetchLoads)
            var unresolved: [(ManagedObject, Int64)] = []
            for s in sources {
                if case .toOne(let id?)? = s.committed[r.name] {
                    targets.append(id)
                } else if let pk = s.unresolvedKeys[r.name] {
                    // The destination has sub-entities: its rows say which.
                    unresolved.append((s, pk))
                }
            }
            var found: [Int64: ObjectID] = [:]
            let keys = unresolved.map(\.1) + targets.filter { registry[$0]?.isFault ?? true }.map(\.primaryKey)
            try loadRows(byKeys: keys, of: r.destination, counting: \.prefetchLoads) { id in found[id.primaryKey] = id }
            for (s, pk) in unresolved {
                s.unresolvedKeys[r.name] = nil
                s.committed[r.name] = .toOne(found[pk])
                if let id = found[pk] { targets.append(id) }
            }
        case .inverseForeignKey(let column)?:
            targets = try loadGrouped(r, of: sources, owner: "t0.\(SQLIdentifier.quoted(column))") { table, placeholders in
                "FROM \(table) t0 WHERE t0.\(SQLIdentifier.quoted(column)) IN (\(placeholders)) ORDER BY "
                    + mapping.orderPrefix(of: r.name, of: source, alias: "t0") + "t0.\(StoreMapping.quotedPrimaryKey)"
            }
        case .joinTable(let join, let sourceColumn, let targetColumn)?:
            let ordered = mapping.joinTables.first { $0.table == join }?.ordered == true && sourceColumn == StoreMapping.joinSourceColumn
            let j = SQLIdentifier.quoted(join), s = SQLIdentifier.quoted(sourceColumn), t = SQLIdentifier.quoted(targetColumn)
            targets = try loadGrouped(r, of: sources, owner: "j.\(s)") { table, placeholders in
                "FROM \(j) j JOIN \(table) t0 ON t0.\(StoreMapping.quotedPrimaryKey) = j.\(t) WHERE j.\(s) IN (\(placeholders)) ORDER BY "
                    + (ordered ? "j.\(StoreMapping.quotedJoinPosition), " : "") + "t0.\(StoreMapping.quotedPrimaryKey)"
            }
        case nil:
            return []
        }
        var seen = Set<ObjectID>()
        return targets.filter { seen.insert($0).inserted }.map { object(with: $0) }
    }

    /// For a relationship stored on the destination side: the destinations of
    /// every source whose relationship is not loaded yet, in one query per
    /// chunk, each row grouped under the source key in its `owner` column.
    /// Returns the destination IDs of all sources (loaded before or now).
    private func loadGrouped(_ r: Relationship, of sources: [ManagedObject], owner: String,
                             _ rest: (_ table: String, _ placeholders: String) -> String) throws -> [ObjectID] {
        var targets: [ObjectID] = []
        var wanted: [ManagedObject] = []
        for s in sources {
            switch s.committed[r.name] {
            case .toMany(let ids)?: targets += ids
            case .toOne(let id)?: if let id { targets.append(id) }
            default: wanted.append(s)
            }
        }
        // Relationships loaded before: their destinations may have become
        // faults since (a refresh); load those rows too.
        try loadMissingRows(targets, of: r.destination, counting: \.prefetchLoads)
        guard !wanted.isEmpty else { return targets }
        let table = SQLIdentifier.quoted(try rowSelect(for: r.destination).table)
        var groups: [Int64: [ObjectID]] = [:]
        for chunk in chunks(wanted.map(\.objectID.primaryKey)) {
            statistics.prefetchLoads += 1
            try loadRows(of: r.destination, owner: owner, rest(table, placeholders(chunk.count)), chunk.map { .int($0) }) { id, key in
                if let key { groups[key, default: []].append(id) }
            }
        }
        for s in wanted {
            let ids = groups[s.objectID.primaryKey] ?? []
            s.committed[r.name] = r.isToMany ? .toMany(ids) : .toOne(ids.first)
            targets += ids
        }
        return targets
    }

    // MARK: - Rows by key

    /// Loads the rows of the IDs that are not loaded objects of this context
    /// (faults, or not registered), one query per chunk of keys.
    func loadMissingRows<C: Collection<ObjectID>>(_ ids: C, of entity: String, counting: WritableKeyPath<ContextStatistics, Int>) throws {
        let keys = ids.lazy.filter { !$0.isTemporary && (self.registry[$0]?.isFault ?? true) }.map(\.primaryKey)
        try loadRows(byKeys: Array(keys), of: entity, counting: counting) { _ in }
    }

    /// `SELECT <rows of entity> WHERE _pk IN (keys)`, in chunks; `each` sees
    /// every row's ID (with the entity the row says it is).
    func loadRows(byKeys keys: [Int64], of entity: String, counting: WritableKeyPath<ContextStatistics, Int>,
                  _ each: (ObjectID) -> Void) throws {
        var seen = Set<Int64>()
        let unique = keys.filter { seen.insert($0).inserted }
        guard !unique.isEmpty else { return }
        let table = SQLIdentifier.quoted(try rowSelect(for: entity).table)
        for chunk in chunks(unique) {
            statistics[keyPath: counting] += 1
            try loadRows(of: entity, "FROM \(table) t0 WHERE " + StoreMapping.keyIn(chunk.count, alias: "t0"), chunk.map { .int($0) }) { id, _ in
                each(id)
            }
        }
    }

    /// The longest IN-list one query may bind.
    var chunkLimit: Int { max(1, min(keyChunkLimit ?? .max, store.database.maximumArguments)) }

    private func chunks(_ keys: [Int64]) -> [ArraySlice<Int64>] {
        stride(from: 0, to: keys.count, by: chunkLimit).map { keys[$0..<min($0 + chunkLimit, keys.count)] }
    }

    private func placeholders(_ n: Int) -> String {
        Array(repeating: "?", count: n).joined(separator: ", ")
    }
}

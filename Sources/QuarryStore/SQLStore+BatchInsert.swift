// Batch insert and the result types of batch requests. A batch insert writes
// many objects in one transaction, without creating objects: from an array
// of dictionaries, or from a handler called until it says stop. Defaults are
// applied; values are checked against their attributes; a constraint
// violation names the offending row, and nothing of the batch is left
// half-inserted. On SQLite one prepared INSERT is stepped per row (in-process,
// that is the fastest); on a server, rows go 500 to a multi-row INSERT, each
// batch in a savepoint: when one fails, its rows are retried one by one to
// name the row that broke it.

/// What a batch request reports, as Core Data's result types.
public enum BatchResult: Sendable, Equatable {
    /// Only whether it succeeded (it did, or the call threw).
    case status
    /// How many objects it touched.
    case count(Int)
    /// The IDs of the objects it touched.
    case objectIDs([ObjectID])
}

/// Which `BatchResult` a request asks for.
public enum BatchResultType: Sendable {
    case status, count, objectIDs
}

/// What `batchDeleteListingCascades` removed.
public struct BatchDeletion: Sendable, Equatable {
    /// The objects the predicate selected (what `.objectIDs` lists).
    public var selected: [ObjectID]
    /// Every object deleted: the selected ones and the cascaded ones.
    public var deleted: [ObjectID]
}

/// A batch insert failed at one row.
public struct BatchInsertError: Error, CustomStringConvertible {
    /// The zero-based index of the offending row.
    public var row: Int
    public var underlying: Error

    public var description: String { "batch insert stopped at row \(row + 1): \(underlying); nothing was inserted" }
}

extension SQLStore {
    /// Inserts one object per dictionary (attribute name → value).
    /// `mergePolicy`: what a row colliding with a saved one on a uniqueness
    /// constraint does — fail the batch (`.error`, the default), update the
    /// saved row (`.mergeByPropertyObjectTrump`, an upsert) or leave it
    /// (`.mergeByPropertyStoreTrump`); SQLStore+BatchUpsert.swift.
    @discardableResult
    public func batchInsert(_ entity: String, objects: [[String: Value]], resultType: BatchResultType = .count,
                            mergePolicy: MergePolicy = .error) throws -> BatchResult {
        var iterator = objects.makeIterator()
        return try batchInsert(entity, resultType: resultType, mergePolicy: mergePolicy) { iterator.next() }
    }

    /// Inserts objects until `next` returns nil (`mergePolicy` as above).
    @discardableResult
    public func batchInsert(_ entityName: String, resultType: BatchResultType = .count, mergePolicy: MergePolicy = .error,
                            next: () throws -> [String: Value]?) throws -> BatchResult {
        try batchInsertRows(entityName, listing: resultType == .objectIDs, mergePolicy: mergePolicy, next: next).result(resultType)
    }

    /// The batch insert itself; `listing`: list the rows written.
    func batchInsertRows(_ entityName: String, listing: Bool, mergePolicy: MergePolicy,
                         next: () throws -> [String: Value]?) throws -> BatchInsertOutcome {
        defer { finishExternalWrites() }   // ExternalBinaryStorage.swift
        try checkWritable()
        let (entity, table) = try insertableEntity(entityName)
        // Derived attributes are the store's to compute (SQLStore+Derived.swift).
        let attributes = entity.allAttributes(in: model).filter { !$0.isTransient && $0.derivation == nil && mapping.column(for: $0.name, of: entityName) != nil }
        let known = Set(attributes.map(\.name))
        let columns = [SQLIdentifier.quoted(StoreMapping.entityColumn)] + attributes.map { SQLIdentifier.quoted(mapping.column(for: $0.name, of: entityName)!) }
        let upsert = try batchUpsert(entity, table: table, attributes: attributes, policy: mergePolicy)
        // The INSERT up to its VALUES, kept apart: a multi-row INSERT on
        // the server repeats the row after it (flush).
        let prefix = "INSERT INTO \(SQLIdentifier.quoted(table)) (\(columns.joined(separator: ", "))) VALUES "
        let suffix = upsert?.clause ?? ""
        let sql = prefix + "(\(columns.map { _ in "?" }.joined(separator: ", ")))" + suffix
        var outcome = BatchInsertOutcome()
        var batch: [(row: Int, arguments: [Value])] = []
        if !database.isInTransaction { database.clearInterruptRequest() }
        try database.inTransaction {
            // With history every new row's key is noted (SQLStore+History.swift).
            let history = beginHistory(.batchInsert)
            defer { endHistory(history) }
            let listsKeys = listing || history != nil
            let firstNewKey = try firstNewKeyForNowDerivations(entityName)
            // SQLite: one prepared statement stepped per row. Other drivers
            // reuse their prepared statement for the same SQL text.
            let statement = try sqlite?.prepare(sql)
            var row = 0
            var given: [Value?] = []   // per row, reused
            while let values = try next() {
                do {
                    // Each key hashed once, each attribute read in place (not
                    // copied): this loop runs per row of a million-row import.
                    given.removeAll(keepingCapacity: true)
                    var matched = 0
                    for i in attributes.indices {
                        let v = values[attributes[i].name]
                        if v != nil { matched += 1 }
                        given.append(v)
                    }
                    // A key that matched no attribute: which, and why — before
                    // any value is stored (an external file written).
                    if matched != values.count {
                        for key in values.keys where !known.contains(key) {
                            try refuseDerived([key], entity: entityName)
                            if entity.attribute(named: key, in: model)?.isTransient == true {
                                throw StoreError.transientAttribute(key: key, entity: entityName)
                            }
                            throw StoreError.unknownKey(key, entity: entityName, suggestion: Suggestions.closest(to: key, among: Array(known)))
                        }
                    }
                    var arguments: [Value] = [.string(entityName)]
                    arguments.reserveCapacity(columns.count)
                    for i in attributes.indices {
                        let v = given[i] ?? attributes[i].defaultValue ?? .null
                        // Batches skip validation, but never store a required value as nil.
                        if v.isNull && !attributes[i].isOptional { throw StoreError.missingValue(key: attributes[i].name, entity: entityName) }
                        arguments.append(try storable(v, for: attributes[i], entity: entityName))
                    }
                    if upsert != nil, listsKeys {
                        // A new row comes back at version 1, an updated one
                        // above it; a row kept (store trumps) not at all.
                        for written in try database.query(sql + BatchUpsert.returning, arguments, as: [.int, .int]) {
                            guard case .int(let key) = written[0], case .int(let version) = written[1] else { continue }
                            let id = ObjectID(entity: entityName, primaryKey: key)
                            if version == 1 { outcome.inserted.append(id) } else { outcome.updated.append(id) }
                            outcome.count += 1
                        }
                    } else if let statement, let sqlite {
                        try statement.bind(arguments)
                        _ = try statement.step()
                        statement.reset()
                        if listsKeys { outcome.inserted.append(ObjectID(entity: entityName, primaryKey: sqlite.lastInsertRowID)) }
                        outcome.count += upsert == nil ? 1 : sqlite.changes
                    } else if listsKeys {
                        outcome.inserted.append(ObjectID(entity: entityName, primaryKey: try database.insertReturningKey(sql, arguments)))
                        outcome.count += 1
                    } else {
                        batch.append((row, arguments))
                        if batch.count == Self.serverBatchRows {
                            outcome.count += try flush(&batch, prefix: prefix, suffix: suffix, sql: sql, columns: columns.count)
                        }
                    }
                } catch let error as BatchInsertError {
                    throw error   // from a flushed batch: it names its own row
                } catch {
                    statement?.reset()
                    throw BatchInsertError(row: row, underlying: error)
                }
                row += 1
            }
            outcome.count += try flush(&batch, prefix: prefix, suffix: suffix, sql: sql, columns: columns.count)
            try recomputeDerivedAfterBatch(entities: [entityName], deleted: false, ownRows: try newRowsForNowDerivations(entityName, before: firstNewKey))
            for id in outcome.inserted { history?.draft.note(id, .insert) }
            for id in outcome.updated { history?.draft.note(id, .update, keys: upsert?.keys ?? []) }
            try writeHistory(history)
            // An interrupt between two rows' statements rolls the batch back too.
            try checkInterrupt()
        }
        return outcome
    }

    static var serverBatchRows: Int { 500 }

    /// Inserts the batched rows with one multi-row INSERT in a savepoint; on
    /// failure, finds the offending row by inserting them one at a time.
    /// Returns the rows written.
    private func flush(_ batch: inout [(row: Int, arguments: [Value])], prefix: String, suffix: String, sql: String, columns: Int) throws -> Int {
        guard !batch.isEmpty else { return 0 }
        defer { batch.removeAll(keepingCapacity: true) }
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
        let multi = prefix + Array(repeating: row, count: batch.count).joined(separator: ", ") + suffix
        do {
            return try database.inTransaction { try database.run(multi, batch.flatMap(\.arguments)) }
        } catch {
            var written = 0
            for (index, arguments) in batch {
                do { written += try database.inTransaction { try database.run(sql, arguments) } } catch {
                    throw BatchInsertError(row: index, underlying: error)
                }
            }
            // An upsert whose rows collide with each other: PostgreSQL
            // refuses to touch one row twice in one statement, so they were
            // merged one at a time — in order, as SQLite merges them.
            guard suffix.isEmpty else { return written }
            throw BatchInsertError(row: batch[0].row, underlying: error)
        }
    }

    /// A batch update with a chosen result type; `.objectIDs` lists the rows
    /// the update selects (read in the same transaction, before the change).
    public func batchUpdate(entity: String, predicate: QueryPredicate?, set: [(String, QueryExpression)],
                            resultType: BatchResultType) throws -> BatchResult {
        guard resultType == .objectIDs else {
            let n = try batchUpdate(entity: entity, predicate: predicate, set: set)
            return resultType == .count ? .count(n) : .status
        }
        // The IDs are read under the same lock as the update's own read.
        return try readModifyWrite(writing: [mapping.table(for: entity)].compactMap { $0 }) {
            let ids = try selectedIDs(entity: entity, predicate: predicate)
            _ = try batchUpdate(entity: entity, predicate: predicate, set: set)
            return .objectIDs(ids)
        }
    }

    /// A batch delete with a chosen result type (`.objectIDs`: the objects of
    /// `entity` the predicate selected; cascaded deletions are not listed).
    public func batchDelete(entity: String, predicate: QueryPredicate?, resultType: BatchResultType) throws -> BatchResult {
        guard resultType == .objectIDs else {
            let n = try batchDelete(entity: entity, predicate: predicate)
            return resultType == .count ? .count(n) : .status
        }
        return try readModifyWrite(writing: allTables) {
            let ids = try selectedIDs(entity: entity, predicate: predicate)
            _ = try batchDelete(entity: entity, predicate: predicate)
            return .objectIDs(ids)
        }
    }

    /// A batch delete that lists every object it removed, of any entity:
    /// `deleted` holds the ones `predicate` selected and those Cascade rules
    /// took with them (in entity, then key order); `selected` only the
    /// former, as `.objectIDs` gives them. A context that merges only the
    /// selected ones keeps the cascaded objects as faults of rows that are gone.
    public func batchDeleteListingCascades(entity: String, predicate: QueryPredicate?) throws -> BatchDeletion {
        try readModifyWrite(writing: allTables) {
            let selected = try selectedIDs(entity: entity, predicate: predicate)
            var all: [ObjectID]?
            _ = try batchDelete(entity: entity, predicate: predicate, listing: { all = $0 })
            return BatchDeletion(selected: selected, deleted: all ?? selected)
        }
    }

    /// Deletes exactly the objects listed (all of one entity), with delete rules.
    @discardableResult
    public func batchDelete(objectIDs: [ObjectID]) throws -> Int {
        guard let first = objectIDs.first else { return 0 }
        guard objectIDs.allSatisfy({ $0.entity == first.entity }) else {
            throw StoreError.unknownEntity("mixed entities in one batch delete", suggestion: nil)
        }
        return try deleteWithRules {
            for id in objectIDs {
                let table = SQLIdentifier.quoted(mapping.table(for: id.entity) ?? id.entity)
                try database.run(database.insertIgnoring(into: database.deleteList, "SELECT \(StoreMapping.quotedEntityColumn), \(StoreMapping.quotedPrimaryKey) FROM " + table + " WHERE \(StoreMapping.quotedPrimaryKey) = ?"),
                                       [.int(id.primaryKey)])
            }
        }
    }

    private func selectedIDs(entity: String, predicate: QueryPredicate?) throws -> [ObjectID] {
        if let selection = try SQLPlanner.planSelection(entity: entity, predicate: predicate, mapping: mapping, now: now()) {
            var keys = selection.selecting(columns: [StoreMapping.entityColumn, StoreMapping.primaryKey])
            keys.orderBy = [SQLFragment(keys.qualified(StoreMapping.primaryKey))]
            let sql = keys.sql
            return try database.rows(sql.sql, sql.arguments).compactMap { row in
                guard case .string(let e) = row[0], case .int(let pk) = row[1] else { return nil }
                return ObjectID(entity: e, primaryKey: pk)
            }
        }
        return try fetch(FetchRequest(entity: entity, predicate: predicate)).map(\.id)
    }
}

extension SQLStore {
    /// The entity to insert and its table: an unknown name is refused with
    /// the closest one, an abstract entity with its concrete sub-entities
    /// (not as "unknown entity 'Person'; did you mean 'Person'?").
    func insertableEntity(_ entityName: String) throws -> (Entity, String) {
        guard let entity = model.entity(named: entityName), let table = mapping.table(for: entityName) else {
            throw StoreError.unknownEntity(entityName, suggestion: Suggestions.closest(to: entityName, among: model.entityNames))
        }
        guard !entity.isAbstract else {
            throw StoreError.abstractEntity(entityName, concrete: entity.concreteEntities(in: model).map(\.name))
        }
        return (entity, table)
    }
}

// Batch update and batch delete: change many rows without loading them.
// An update is one UPDATE statement when the planner can say it in SQL;
// otherwise the same change is made object by object (the predicate's
// residual and the SET expressions evaluated in memory) — in one transaction
// either way. A delete honours the model's delete rules inside its
// transaction: Deny refuses (and deletes nothing), Cascade deletes the
// related objects (and applies their rules in turn), Nullify clears the keys
// that pointed at the deleted rows.

extension SQLStore {
    /// Sets attributes of every object `predicate` selects; returns how many.
    @discardableResult
    public func batchUpdate(entity: String, predicate: QueryPredicate?, set: [(String, QueryExpression)]) throws -> Int {
        defer { finishExternalWrites() }   // ExternalBinaryStorage.swift
        try checkWritable()
        try refuseDerived(set.map(\.0), entity: entity)   // SQLStore+Derived.swift
        if let sql = try SQLPlanner.planUpdate(entity: entity, predicate: predicate, set: set, mapping: mapping, now: now()) {
            return try database.inTransaction {
                let own = try rowsForNowDerivations(entity: entity, predicate: predicate)
                // With history, the statement names the rows it wrote (SQLStore+History.swift).
                let history = beginHistory(.batchUpdate)
                defer { endHistory(history) }
                let changed = try runNoting(sql.sql, sql.arguments, table: mapping.table(for: entity) ?? entity, history?.draft, .update, keys: set.map(\.0))
                try checkIntegerRanges(entity: entity, keys: set.map(\.0))   // SQLStore+TypeRanges.swift
                try recomputeDerivedAfterBatch(entities: [entity], deleted: false, ownRows: own)
                try writeHistory(history)
                // Objects already handed out are stale now; later fetches read anew.
                registeredObjects.removeAll()
                return changed
            }
        }
        // Object by object, still one transaction — opened before the rows
        // are read, so no other writer's commit falls between the read and
        // the write (SQLStore+ReadModifyWrite.swift).
        let compiled = try set.map { (key, e) in (key, try Evaluator.compile(e, options: evaluationOptions)) }
        guard let table = mapping.table(for: entity), let e = model.entity(named: entity) else { return 0 }
        return try readModifyWrite(writing: [table]) {
            let history = beginHistory(.batchUpdate)
            defer { endHistory(history) }
            let objects = try fetch(FetchRequest(entity: entity, predicate: predicate))
            for object in objects {
                try checkInterrupt()
                var assignments: [String] = []
                var arguments: [Value] = []
                for (key, expression) in compiled {
                    guard let attribute = e.attribute(named: key, in: model), let column = mapping.column(for: key, of: entity) else { continue }
                    let value = try expression.evaluate(.object(ObjectReference(object)))
                    assignments.append("\(SQLIdentifier.quoted(column)) = ?")
                    arguments.append(try storable(value, for: attribute, entity: entity))
                }
                try database.run(StoreMapping.updateRow(table: table, set: assignments.joined(separator: ", ") + mapping.versionIncrementSuffix()),
                                       arguments + [.int(object.id.primaryKey)])
                history?.draft.note(object.id, .update, keys: set.map(\.0))
            }
            try recomputeDerivedAfterBatch(entities: [entity], deleted: false, ownRows: objects.map(\.id.primaryKey))
            try writeHistory(history)
            // Checked once more before COMMIT: an interrupt during the last
            // statement's gap still rolls everything back.
            try checkInterrupt()
            registeredObjects.removeAll()
            return objects.count
        }
    }

    /// Deletes every object `predicate` selects, applying delete rules;
    /// returns how many objects of `entity` were deleted.
    @discardableResult
    public func batchDelete(entity: String, predicate: QueryPredicate?) throws -> Int {
        try batchDelete(entity: entity, predicate: predicate, listing: nil)
    }

    /// `batchDelete`, telling `listing` (when the delete rules ran) every
    /// row about to go — the selected ones and those cascades added. The
    /// one-statement path never calls it: it deletes the selected rows only.
    func batchDelete(entity: String, predicate: QueryPredicate?, listing: (([ObjectID]) -> Void)?) throws -> Int {
        defer { finishExternalWrites() }   // ExternalBinaryStorage.swift
        try checkWritable()
        if let direct = try directDelete(entity: entity, predicate: predicate) { return direct }
        return try deleteWithRules(listing: listing) {
            if let keys = try SQLPlanner.planKeys(entity: entity, predicate: predicate, mapping: mapping, now: now()) {
                try database.run("INSERT INTO \(database.deleteList) " + keys.sql, keys.arguments)
            } else {
                for object in try fetch(FetchRequest(entity: entity, predicate: predicate)) {
                    try database.run("INSERT INTO \(database.deleteList) VALUES (?, ?)", [.string(object.entity), .int(object.id.primaryKey)])
                }
            }
        }
    }

    /// Deletes the rows `queue` puts in the delete list, after the delete
    /// rules have run, in one transaction; returns how many were queued.
    /// `listing` is told every row of the final delete list.
    func deleteWithRules(listing: (([ObjectID]) -> Void)? = nil, _ queue: () throws -> Void) throws -> Int {
        try checkWritable()
        // Every table may lose rows or keys (cascades, nullified keys): all
        // are locked before the rows to delete are chosen.
        return try readModifyWrite(writing: allTables) {
            let history = beginHistory(.batchDelete)
            defer { endHistory(history) }
            // Rows whose keys are cleared may be deleted too: one change each.
            history?.draft.mayRepeat = true
            try database.run("CREATE TEMP TABLE IF NOT EXISTS \(SQLIdentifier.quoted(StoreMapping.deleteListTable)) (\"entity\" TEXT NOT NULL, \"pk\" BIGINT NOT NULL, PRIMARY KEY (\"entity\", \"pk\"))")
            try database.run("DELETE FROM \(database.deleteList)")
            try queue()
            let requested = try countQueued()
            try applyDeleteRules()
            if let listing {
                listing(try database.rows("SELECT \"entity\", \"pk\" FROM \(database.deleteList) ORDER BY \"entity\", \"pk\"").compactMap { row in
                    guard case .string(let e) = row[0], case .int(let pk) = row[1] else { return nil }
                    return ObjectID(entity: e, primaryKey: pk)
                })
            }
            // Keys elsewhere that still point at deleted rows are cleared.
            for source in model.entities {
                for r in source.relationships {
                    guard case .foreignKey(let column)? = mapping.storage(of: r.name, of: source.name),
                          let sourceTable = mapping.table(for: source.name), let destinationTable = mapping.table(for: r.destination) else { continue }
                    let entities = entityList(table: destinationTable)
                    _ = try runNoting("UPDATE \(SQLIdentifier.quoted(sourceTable)) SET \(SQLIdentifier.quoted(column)) = NULL\(mapping.versionIncrementSuffix()) WHERE \(SQLIdentifier.quoted(column)) IN (SELECT d.\"pk\" FROM \(database.deleteList) d WHERE d.\"entity\" IN (\(entities.sql)))",
                                      entities.arguments, table: sourceTable, history?.draft, .update, keys: [r.name])
                }
            }
            var done: Set<String> = []
            for e in model.entities {
                guard let table = mapping.table(for: e.name), done.insert(table).inserted else { continue }
                let entities = entityList(table: table)
                _ = try runNoting("DELETE FROM \(SQLIdentifier.quoted(table)) WHERE \(StoreMapping.quotedPrimaryKey) IN (SELECT d.\"pk\" FROM \(database.deleteList) d WHERE d.\"entity\" IN (\(entities.sql)))",
                                  entities.arguments, table: table, history?.draft, .delete)
            }
            try database.run("DELETE FROM \(database.deleteList)")
            try recomputeDerivedAfterBatch(entities: [], deleted: true)   // SQLStore+Derived.swift
            try writeHistory(history)
            try checkInterrupt()
            registeredObjects.removeAll()
            return requested
        }
    }

    /// The fast path: when no delete rule of the rows' entities reaches
    /// another table (own foreign keys, or join rows to drop), no foreign key
    /// elsewhere points at the table, and the predicate runs wholly in SQL
    /// without joins, one DELETE does it — as fast as a hand-written one.
    private func directDelete(entity: String, predicate: QueryPredicate?) throws -> Int? {
        guard let table = mapping.table(for: entity),
              let selection = try SQLPlanner.planSelection(entity: entity, predicate: predicate, mapping: mapping, now: now()),
              selection.joins.isEmpty else { return nil }
        var joinRows: [(String, String)] = []
        for e in model.entities where mapping.table(for: e.name) == table {
            for r in e.allRelationships(in: model) where !r.isTransient {
                switch (mapping.storage(of: r.name, of: e.name), r.deleteRule) {
                case (.foreignKey?, .nullify), (.foreignKey?, .noAction): continue
                case (.joinTable(let jt, let source, _)?, .nullify): joinRows.append((jt, source))
                default: return nil
                }
            }
        }
        for source in model.entities {
            for r in source.relationships {
                if case .foreignKey? = mapping.storage(of: r.name, of: source.name), mapping.table(for: r.destination) == table { return nil }
            }
        }
        // The selection's condition, under its alias, in each DELETE.
        let condition = selection.whereClause
        let deleted = "\(SQLIdentifier.quoted(table)) AS \(selection.source.alias)"
        let key = selection.qualified(StoreMapping.primaryKey)
        return try database.inTransaction {
            for (jt, source) in joinRows {
                try database.run("DELETE FROM \(SQLIdentifier.quoted(jt)) WHERE \(SQLIdentifier.quoted(source)) IN (SELECT \(key) FROM \(SQLIdentifier.quoted(table)) AS \(selection.source.alias)" + condition.sql + ")", condition.arguments)
            }
            let history = beginHistory(.batchDelete)
            defer { endHistory(history) }
            let changed = try runNoting("DELETE FROM \(deleted)" + condition.sql, condition.arguments, table: table, history?.draft, .delete)
            try recomputeDerivedAfterBatch(entities: [entity], deleted: true)   // SQLStore+Derived.swift
            try writeHistory(history)
            registeredObjects.removeAll()
            return changed
        }
    }

    private func countQueued() throws -> Int {
        if case .int(let n)? = try database.rows("SELECT COUNT(*) FROM \(database.deleteList)").first?.first { return Int(n) }
        return 0
    }

    /// The names of the entities stored in `table`, for an IN list: one
    /// placeholder each, the names bound (no name is pasted into SQL).
    private func entityList(table: String) -> SQLFragment {
        let names = model.entities.filter { mapping.table(for: $0.name) == table }.map { Value.string($0.name) }
        return SQLFragment(names.map { _ in "?" }.joined(separator: ", "), names)
    }

    /// Applies Deny, Cascade and Nullify until no new rows are queued.
    private func applyDeleteRules() throws {
        var processed = 0
        while true {
            let queued = try countQueued()
            if queued == processed && processed > 0 { return }
            processed = queued
            for e in model.entities {
                // The queued keys of this entity, its name bound: every
                // statement below holds `rows` once, so binds `name` once.
                let rows = "SELECT d.\"pk\" FROM \(database.deleteList) d WHERE d.\"entity\" = ?"
                let name: [Value] = [.string(e.name)]
                for r in e.allRelationships(in: model) where !r.isTransient {
                    guard let storage = mapping.storage(of: r.name, of: e.name), let destinationTable = mapping.table(for: r.destination),
                          let sourceTable = mapping.table(for: e.name) else { continue }
                    let related: String
                    switch storage {
                    case .foreignKey(let column):
                        related = "SELECT x.\(StoreMapping.quotedEntityColumn), x.\(StoreMapping.quotedPrimaryKey) FROM \(SQLIdentifier.quoted(destinationTable)) x WHERE x.\(StoreMapping.quotedPrimaryKey) IN (SELECT s.\(SQLIdentifier.quoted(column)) FROM \(SQLIdentifier.quoted(sourceTable)) s WHERE s.\(StoreMapping.quotedPrimaryKey) IN (\(rows)))"
                    case .inverseForeignKey(let column):
                        related = "SELECT x.\(StoreMapping.quotedEntityColumn), x.\(StoreMapping.quotedPrimaryKey) FROM \(SQLIdentifier.quoted(destinationTable)) x WHERE x.\(SQLIdentifier.quoted(column)) IN (\(rows))"
                    case .joinTable(let table, let source, let target):
                        related = "SELECT x.\(StoreMapping.quotedEntityColumn), x.\(StoreMapping.quotedPrimaryKey) FROM \(SQLIdentifier.quoted(destinationTable)) x WHERE x.\(StoreMapping.quotedPrimaryKey) IN (SELECT j.\(SQLIdentifier.quoted(target)) FROM \(SQLIdentifier.quoted(table)) j WHERE j.\(SQLIdentifier.quoted(source)) IN (\(rows)))"
                    }
                    switch r.deleteRule {
                    case .deny:
                        let blocking = try database.rows("SELECT COUNT(*) FROM (\(related)) y WHERE NOT EXISTS (SELECT 1 FROM \(database.deleteList) d WHERE d.\"entity\" = y.\(StoreMapping.quotedEntityColumn) AND d.\"pk\" = y.\(StoreMapping.quotedPrimaryKey))", name)
                        if case .int(let n)? = blocking.first?.first, n > 0 {
                            throw StoreError.deleteDenied(entity: e.name, relationship: r.name, related: Int(n))
                        }
                    case .cascade:
                        try database.run(database.insertIgnoring(into: database.deleteList, related), name)
                    case .nullify:
                        if case .inverseForeignKey(let column) = storage {
                            _ = try runNoting("UPDATE \(SQLIdentifier.quoted(destinationTable)) SET \(SQLIdentifier.quoted(column)) = NULL\(mapping.versionIncrementSuffix()) WHERE \(SQLIdentifier.quoted(column)) IN (\(rows))",
                                              name, table: destinationTable, historyState.open, .update, keys: [r.inverse ?? r.name])
                        } else if case .joinTable(let table, let source, _) = storage {
                            try database.run("DELETE FROM \(SQLIdentifier.quoted(table)) WHERE \(SQLIdentifier.quoted(source)) IN (\(rows))", name)
                        }
                    case .noAction:
                        break
                    }
                }
            }
            if try countQueued() == processed { return }
        }
    }
}

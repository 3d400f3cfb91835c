// The planning half of a migration (Migration.swift has the order of the
// steps and why): which old table each new table continues, which old
// column each new column continues, where each relationship's links were
// kept and where they go. Names come from the two store mappings (the old
// store's layout, and the new model's built from it) and reach
// SQL only through `SQLIdentifier.quoted`; defaults and entity names are
// bound arguments.
import QuarryModel

struct MigrationPlanner {
    let difference: ModelDifference
    let dialect: SQLDialect
    let oldMap: StoreMapping
    let newMap: StoreMapping
    let oldSchema: [SchemaStatement]
    let newSchema: [SchemaStatement]
    /// Old hierarchy table → the new table that continues it.
    var tableMap: [String: String] = [:]
    /// Per new table: old column name → the new name it was renamed to.
    var columnRenames: [String: [String: String]] = [:]
    var steps: [MigrationStep] = []
    /// Tables whose indexes must all be (re)made: new, or rebuilt on SQLite.
    var remade: Set<String> = []
    /// New foreign-key columns on kept tables (PostgreSQL adds their constraints at the end).
    var newForeignKeys: Set<String> = []
    var rowsDeleted = false

    /// `oldMap`: the store's mapping (its saved layout); `newMap`: the new
    /// model's, built from it (Migration.init).
    init(difference: ModelDifference, dialect: SQLDialect, oldMap: StoreMapping, newMap: StoreMapping) {
        self.difference = difference
        self.dialect = dialect
        self.oldMap = oldMap
        self.newMap = newMap
        oldSchema = SchemaBuilder.statements(for: oldMap)
        newSchema = SchemaBuilder.statements(for: newMap)
        for entity in difference.new.entities where entity.parent == nil {
            if let was = difference.oldEntity(for: entity.name), let oldTable = oldMap.table(for: was.name), let table = newMap.table(for: entity.name) {
                tableMap[oldTable] = table
            }
        }
    }

    /// Whether a step could leave a foreign key pointing at no row, so that
    /// SQLite must check every key before COMMIT (Migration.run) — a scan of
    /// every table with a key, the whole cost of a rename on a big store.
    /// Every step may, but those added with `addKeepingKeys`: column
    /// renames, added columns that are no link, their default values, and
    /// index changes (and the duplicate checks, which write nothing).
    var mayBreakKeys = false

    func q(_ name: String) -> String { SQLIdentifier.quoted(name) }
    mutating func add(_ sql: String, _ arguments: [Value] = []) {
        steps.append(MigrationStep(sql, arguments))
        mayBreakKeys = true
    }
    /// A step that changes no key's value and adds no key (see `mayBreakKeys`).
    mutating func addKeepingKeys(_ sql: String, _ arguments: [Value] = []) { steps.append(MigrationStep(sql, arguments)) }

    var keptTables: [(old: String, new: String)] {
        oldMap.tableNames.filter { !oldMap.joinTables.map(\.table).contains($0) }.compactMap { old in tableMap[old].map { (old, $0) } }
    }

    mutating func plan() -> [MigrationStep] {
        // A. Indexes the new schema does not have as they are.
        let newTexts = Set(newSchema.map(\.sql)), oldTexts = Set(oldSchema.map(\.sql))
        let removedTables = Set(oldMap.tableNames).subtracting(tableMap.keys).subtracting(oldMap.joinTables.map(\.table))
        for s in oldSchema {
            if case .index(let name, let table, _) = s.kind, !newTexts.contains(s.sql), !removedTables.contains(table) {
                addKeepingKeys("DROP INDEX \(q(name))")
            }
        }
        // B. Rows of removed entities; renamed tables and entities.
        planRowsAndRenames()
        // C. New hierarchies.
        for s in newSchema {
            if case .table(let name) = s.kind, !tableMap.values.contains(name), !newMap.joinTables.map(\.table).contains(name) {
                add(s.sql)
                remade.insert(name)
            }
        }
        // D. Join tables.
        let keptJoins = planJoinTables()
        // E. Columns of kept tables.
        let kept = keptTables.map { keptTable(old: $0.old, new: $0.new) }
        for table in kept { planColumns(table) }
        for table in kept { planColumnFills(table) }
        for table in kept { planColumnRemovals(table) }
        // F. What is no longer used.
        for join in oldMap.joinTables where !keptJoins.contains(join.table) && !newMap.joinTables.contains(where: { $0.table == join.table }) {
            add("DROP TABLE \(q(join.table))")
        }
        for table in oldMap.tableNames where removedTables.contains(table) { add("DROP TABLE \(q(table))") }
        // G. Links to deleted rows, uniqueness, indexes, keys.
        if rowsDeleted { planOrphanCleanup() }
        for s in newSchema {
            guard case .index(let name, let table, let unique) = s.kind, !oldTexts.contains(s.sql) || remade.contains(table) else { continue }
            if let unique { planUniqueCheck(index: name, columns: unique, table: table) }
            addKeepingKeys(s.sql)
        }
        if dialect == .postgres {
            for s in newSchema {
                guard case .foreignKey(let table, let column) = s.kind else { continue }
                if remade.contains(table) || newForeignKeys.contains(table + "." + column) { add(s.sql) }
            }
        }
        return steps
    }

    // MARK: - B. Rows and renames

    mutating func planRowsAndRenames() {
        let new = difference.new, old = difference.old
        let keptOld = Set(difference.entityMatch.values)
        for (oldTable, table) in keptTables {
            // Removed sub-entities first: a renamed entity may take a removed one's name.
            let gone = old.entities.filter { oldMap.table(for: $0.name) == oldTable && !keptOld.contains($0.name) }.map(\.name)
            if !gone.isEmpty {
                add("DELETE FROM \(q(oldTable)) WHERE \(q(StoreMapping.entityColumn)) IN (\(marks(gone.count)))", gone.map(Value.string))
                rowsDeleted = true
            }
            if oldTable != table { add("ALTER TABLE \(q(oldTable)) RENAME TO \(q(table))") }
            // One UPDATE with CASE, so that swapped names do not collide.
            let renamed = new.entities.compactMap { e -> (String, String)? in
                guard newMap.table(for: e.name) == table, let was = difference.entityMatch[e.name], was != e.name else { return nil }
                return (was, e.name)
            }
            if !renamed.isEmpty {
                let e = q(StoreMapping.entityColumn)
                add("UPDATE \(q(table)) SET \(e) = CASE \(e)" + String(repeating: " WHEN ? THEN ?", count: renamed.count)
                        + " END WHERE \(e) IN (\(marks(renamed.count)))",
                    renamed.flatMap { [Value.string($0.0), .string($0.1)] } + renamed.map { .string($0.0) })
            }
        }
    }

    func marks(_ n: Int) -> String { Array(repeating: "?", count: n).joined(separator: ", ") }

    // MARK: - D. Join tables

    /// Creates, renames or keeps each new join table; returns the old join
    /// tables kept (under their new names).
    mutating func planJoinTables() -> Set<String> {
        var kept: Set<String> = []
        let oldJoins = Dictionary(oldMap.joinTables.map { ($0.table, $0) }, uniquingKeysWith: { a, _ in a })
        for join in newMap.joinTables {
            guard let (entity, r) = owner(ofJoinTable: join.table) else { continue }
            let source = oldRelationship(entity: entity, r)
            if let (oldEntity, oldR) = source, let oldStorage = oldMap.storage(of: oldR.name, of: oldEntity), oldStorage.isJoinTableOwner, case .joinTable(let oldTable, _, _) = oldStorage,
               let oldJoin = oldJoins[oldTable], !kept.contains(oldTable) {
                kept.insert(oldTable)
                if oldTable != join.table { add("ALTER TABLE \(q(oldTable)) RENAME TO \(q(join.table))") }
                if oldJoin.ordered != join.ordered {
                    add(join.ordered ? "ALTER TABLE \(q(join.table)) ADD COLUMN \(StoreMapping.quotedJoinPosition) INTEGER NOT NULL DEFAULT 0"
                                     : "ALTER TABLE \(q(join.table)) DROP COLUMN \(StoreMapping.quotedJoinPosition)")
                }
                continue
            }
            if oldJoins[join.table] != nil { add("DROP TABLE \(q(join.table))") }
            if let create = newSchema.first(where: { $0.kind == .table(join.table) }) { add(create.sql) }
            remade.insert(join.table)
            if let pairs = pairs(for: entity, r, afterRenames: false) {
                add("INSERT INTO \(q(join.table)) (\(StoreMapping.quotedJoinSource), \(StoreMapping.quotedJoinTarget)) SELECT DISTINCT p.\"s\", p.\"t\" FROM (\(pairs)) AS p")
            }
        }
        return kept
    }

    /// The new entity and relationship whose join table this is (its owning side).
    func owner(ofJoinTable table: String) -> (String, Relationship)? {
        for entity in difference.new.entities {
            for r in entity.relationships {
                if let s = newMap.storage(of: r.name, of: entity.name), s.isJoinTableOwner, case .joinTable(table, _, _) = s { return (entity.name, r) }
            }
        }
        return nil
    }

    /// The old entity and relationship a new one continues.
    func oldRelationship(entity: String, _ r: Relationship) -> (String, Relationship)? {
        guard let was = difference.oldEntity(for: entity), let name = difference.oldPropertyName(r.name, of: entity),
              let oldR = was.relationship(named: name, in: difference.old), !oldR.isTransient else { return nil }
        return (was.name, oldR)
    }

    /// A SELECT of (s, t): the source and destination keys of every link the
    /// old model kept for the new relationship `r` of `entity` (or for its
    /// inverse, swapped), under the tables' current names; nil when the
    /// relationship is new.
    func pairs(for entity: String, _ r: Relationship, afterRenames: Bool) -> String? {
        if let (oldEntity, oldR) = oldRelationship(entity: entity, r) {
            return oldPairs(oldEntity, oldR, swapped: false, afterRenames: afterRenames)
        }
        if let inverse = r.inverse, let inverseR = difference.new.entity(named: r.destination)?.relationship(named: inverse, in: difference.new),
           let (oldEntity, oldR) = oldRelationship(entity: r.destination, inverseR) {
            return oldPairs(oldEntity, oldR, swapped: true, afterRenames: afterRenames)
        }
        return nil
    }

    private func oldPairs(_ oldEntity: String, _ r: Relationship, swapped: Bool, afterRenames: Bool) -> String? {
        let (s, t) = swapped ? ("t", "s") : ("s", "t")
        func current(_ table: String) -> String { tableMap[table] ?? table }
        func column(_ c: String, _ table: String) -> String { afterRenames ? (columnRenames[current(table)]?[c] ?? c) : c }
        switch oldMap.storage(of: r.name, of: oldEntity) {
        case .foreignKey(let c)?:
            guard let table = oldMap.table(for: oldEntity) else { return nil }
            let col = q(column(c, table))
            return "SELECT \(StoreMapping.quotedPrimaryKey) AS \"\(s)\", \(col) AS \"\(t)\" FROM \(q(current(table))) WHERE \(col) IS NOT NULL"
        case .inverseForeignKey(let c)?:
            guard let table = oldMap.table(for: r.destination) else { return nil }
            let col = q(column(c, table))
            return "SELECT \(col) AS \"\(s)\", \(StoreMapping.quotedPrimaryKey) AS \"\(t)\" FROM \(q(current(table))) WHERE \(col) IS NOT NULL"
        case .joinTable(let table, let sc, let tc)?:
            return "SELECT \(q(sc)) AS \"\(s)\", \(q(tc)) AS \"\(t)\" FROM \(q(table))"
        case nil:
            return nil
        }
    }
}

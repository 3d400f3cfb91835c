// Step E of a migration (Migration.swift), per table kept from the old
// store: which old column each new column continues, the columns to add,
// rename, fill, drop or retype, and the SQLite rebuild when a column must
// go or change its declared type (SQLite's ALTER TABLE cannot do either for
// a column with a foreign key or index, so Quarry always rebuilds, the way
// SQLite's documentation describes: create, copy keeping `_pk`, drop, rename).
import QuarryModel

/// A column of a new table and where its values come from.
struct MigratedColumn {
    var name: String
    var sqlType: String
    /// The old column it continues (its name in the old store), or nil for a new column.
    var source: String?
    /// Entities whose rows use the column.
    var entities: [String]
    var attribute: Attribute?
    /// For a foreign key: the relationship and its entity, and the destination table.
    var relationship: (entity: String, relationship: Relationship, table: String)?
    /// The old attribute was optional (the new one may not be).
    var wasOptional = true
    var typeChanged = false
}

/// A table the new store keeps from the old one, with its columns worked
/// out once for the three parts of step E.
struct KeptTable {
    let old: String
    let new: String
    /// The new table's columns with their sources (`migratedColumns`).
    let columns: [MigratedColumn]
    /// The old table's columns (`oldColumns(of:)`).
    let oldColumns: [String]
}

extension MigrationPlanner {
    func keptTable(old: String, new: String) -> KeptTable {
        KeptTable(old: old, new: new, columns: migratedColumns(oldTable: old, table: new), oldColumns: oldColumns(of: old))
    }

    /// The columns of `table` in the new store, with their sources in `oldTable`.
    func migratedColumns(oldTable: String, table: String) -> [MigratedColumn] {
        let new = difference.new, old = difference.old
        var columns: [MigratedColumn] = []
        var index: [String: Int] = [:]
        func note(_ column: MigratedColumn) {
            if let i = index[column.name] {
                columns[i].entities += column.entities
                if columns[i].source == nil, column.source != nil {
                    (columns[i].source, columns[i].wasOptional, columns[i].typeChanged) = (column.source, column.wasOptional, column.typeChanged)
                }
            } else {
                index[column.name] = columns.count
                columns.append(column)
            }
        }
        for member in new.entities where newMap.table(for: member.name) == table {
            let was = difference.oldEntity(for: member.name).flatMap { oldMap.table(for: $0.name) == oldTable ? $0 : nil }
            for a in member.allAttributes(in: new) where !a.isTransient {
                guard let name = newMap.column(for: a.name, of: member.name) else { continue }
                var column = MigratedColumn(name: name, sqlType: SchemaBuilder.sqlType(a.type, dialect), source: nil, entities: [member.name], attribute: a)
                if let was, let oldName = difference.oldPropertyName(a.name, of: member.name),
                   let oldA = was.attribute(named: oldName, in: old), !oldA.isTransient, let oldColumn = oldMap.column(for: oldName, of: was.name) {
                    column.source = oldColumn
                    column.wasOptional = oldA.isOptional
                    column.typeChanged = SchemaBuilder.sqlType(oldA.type, dialect) != column.sqlType
                }
                note(column)
            }
            for r in member.allRelationships(in: new) where !r.isTransient {
                guard case .foreignKey(let name)? = newMap.storage(of: r.name, of: member.name), let target = newMap.table(for: r.destination) else { continue }
                var column = MigratedColumn(name: name, sqlType: dialect == .sqlite ? "INTEGER" : "BIGINT", source: nil, entities: [member.name],
                                            relationship: (member.name, r, target))
                if was != nil, let (oldEntity, oldR) = oldRelationship(entity: member.name, r),
                   case .foreignKey(let oldColumn)? = oldMap.storage(of: oldR.name, of: oldEntity) {
                    column.source = oldColumn
                }
                note(column)
            }
        }
        return columns
    }

    /// The columns of `table` in the old store, besides `_pk` and `_entity`.
    func oldColumns(of table: String) -> [String] {
        var names: [String] = []
        for entity in difference.old.entities where oldMap.table(for: entity.name) == table {
            for a in entity.allAttributes(in: difference.old) where !a.isTransient {
                if let c = oldMap.column(for: a.name, of: entity.name), !names.contains(c) { names.append(c) }
            }
            for r in entity.allRelationships(in: difference.old) {
                if case .foreignKey(let c)? = oldMap.storage(of: r.name, of: entity.name), !names.contains(c) { names.append(c) }
            }
        }
        return names
    }

    /// E1: renames (through temporary names when they would collide) and added columns.
    mutating func planColumns(_ kept: KeptTable) {
        let (table, columns) = (kept.new, kept.columns)
        let sources = Set(columns.compactMap(\.source))
        var present = Set(kept.oldColumns.map(StorageNames.collisionKey))
        var renames: [String: String] = [:]
        var counter = 0
        func temporary() -> String { counter += 1; return StoreMapping.migrationTemporaryPrefix + String(counter) }
        // Old columns that go, out of the way of new ones with their name.
        let wanted = Set(columns.map { StorageNames.collisionKey($0.name) })
        for old in kept.oldColumns where !sources.contains(old) && wanted.contains(StorageNames.collisionKey(old)) {
            let t = temporary()
            addKeepingKeys("ALTER TABLE \(q(table)) RENAME COLUMN \(q(old)) TO \(q(t))")
            renames[old] = t
            present.remove(StorageNames.collisionKey(old))
        }
        let moving = columns.filter { $0.source != nil && $0.source != $0.name }
        var staged: [(String, String)] = []
        for column in moving {
            let source = column.source!
            if present.contains(StorageNames.collisionKey(column.name)) && StorageNames.collisionKey(column.name) != StorageNames.collisionKey(source) {
                let t = temporary()
                addKeepingKeys("ALTER TABLE \(q(table)) RENAME COLUMN \(q(source)) TO \(q(t))")
                staged.append((t, column.name))
            } else {
                addKeepingKeys("ALTER TABLE \(q(table)) RENAME COLUMN \(q(source)) TO \(q(column.name))")
            }
            present.remove(StorageNames.collisionKey(source))
            renames[source] = column.name
        }
        for (t, name) in staged { addKeepingKeys("ALTER TABLE \(q(table)) RENAME COLUMN \(q(t)) TO \(q(name))") }
        for column in columns where column.source == nil {
            var sql = "ALTER TABLE \(q(table)) ADD COLUMN \(q(column.name)) \(column.sqlType)"
            guard let r = column.relationship else {
                addKeepingKeys(sql)
                continue
            }
            if dialect == .sqlite {
                sql += " REFERENCES \(q(r.table))(\(q(StoreMapping.primaryKey))) DEFERRABLE INITIALLY DEFERRED"
            } else {
                newForeignKeys.insert(table + "." + column.name)
            }
            add(sql)
        }
        columnRenames[table] = renames
    }

    /// The WHERE part limiting an UPDATE to the rows of some entities, and its arguments.
    func entityCondition(_ entities: [String], table: String) -> (sql: String, arguments: [Value])? {
        let all = difference.new.entities.filter { newMap.table(for: $0.name) == table }.map(\.name)
        let some = Array(Set(entities)).sorted()
        if Set(all).isSubset(of: Set(some)) { return nil }
        return ("\(q(StoreMapping.entityColumn)) IN (\(marks(some.count)))", some.map(Value.string))
    }

    /// E1 continued: defaults into new columns and NULLs of newly required
    /// ones; links into new foreign keys from wherever the old model kept them.
    mutating func planColumnFills(_ kept: KeptTable) {
        let table = kept.new
        for column in kept.columns {
            let condition = entityCondition(column.entities, table: table)
            let scope = condition.map { " AND " + $0.sql } ?? ""
            if let a = column.attribute, let d = a.defaultValue {
                let value = (try? StoreValues.storable(d, for: a, entity: column.entities[0])) ?? d
                // An attribute's default: no key is written.
                if column.source == nil {
                    addKeepingKeys("UPDATE \(q(table)) SET \(q(column.name)) = ?" + (condition.map { " WHERE " + $0.sql } ?? ""),
                                   [value] + (condition?.arguments ?? []))
                } else if column.wasOptional && !a.isOptional {
                    addKeepingKeys("UPDATE \(q(table)) SET \(q(column.name)) = ? WHERE \(q(column.name)) IS NULL" + scope, [value] + (condition?.arguments ?? []))
                }
            }
            if let r = column.relationship, column.source == nil, let pairs = pairs(for: r.entity, r.relationship, afterRenames: true) {
                add("UPDATE \(q(table)) SET \(q(column.name)) = (SELECT p.\"t\" FROM (\(pairs)) AS p WHERE p.\"s\" = \(q(table)).\(StoreMapping.quotedPrimaryKey) LIMIT 1)"
                    + " WHERE \(StoreMapping.quotedPrimaryKey) IN (SELECT p.\"s\" FROM (\(pairs)) AS p)")
            }
        }
    }

    /// E2: columns that go and columns whose declared type changes —
    /// PostgreSQL's ALTER TABLE, SQLite's rebuild.
    mutating func planColumnRemovals(_ kept: KeptTable) {
        let (oldTable, table, columns) = (kept.old, kept.new, kept.columns)
        let sources = Set(columns.compactMap(\.source))
        let renames = columnRenames[table] ?? [:]
        let dropped = kept.oldColumns.filter { !sources.contains($0) }.map { renames[$0] ?? $0 }
        let retyped = columns.filter { $0.source != nil && $0.typeChanged }
        guard !dropped.isEmpty || !retyped.isEmpty else { return }
        if dialect == .postgres {
            for name in dropped { add("ALTER TABLE \(q(table)) DROP COLUMN \(q(name))") }
            for column in retyped { add("ALTER TABLE \(q(table)) ALTER COLUMN \(q(column.name)) TYPE \(column.sqlType) USING \(q(column.name))::\(column.sqlType)") }
            return
        }
        // One attribute column going, nothing retyped: SQLite's own DROP
        // COLUMN (3.35+) rewrites the table once, faster than a rebuild. It
        // refuses foreign-key columns (and indexed ones, but step A dropped
        // every index the new schema lacks), so those still rebuild.
        let foreignKeys = Set(difference.old.entities.filter { oldMap.table(for: $0.name) == oldTable }.flatMap { e in
            e.allRelationships(in: difference.old).compactMap { r -> String? in
                if case .foreignKey(let c)? = oldMap.storage(of: r.name, of: e.name) { return c }
                return nil
            }
        })
        let goingOriginals = kept.oldColumns.filter { !sources.contains($0) }
        if retyped.isEmpty, goingOriginals.count == 1, !foreignKeys.contains(goingOriginals[0]) {
            add("ALTER TABLE \(q(table)) DROP COLUMN \(q(dropped[0]))")
            return
        }
        let rebuild = StoreMapping.migrationRebuildTable
        guard let create = newSchema.first(where: { $0.kind == .table(table) })?.createTable(named: rebuild) else { return }
        add(create)
        // The row versions too (Migration.run adds them to an older store first).
        let names = ([StoreMapping.primaryKey, StoreMapping.entityColumn, StoreMapping.versionColumn] + columns.map(\.name)).map(q).joined(separator: ", ")
        add("INSERT INTO \(q(rebuild)) (\(names)) SELECT \(names) FROM \(q(table))")
        add("DROP TABLE \(q(table))")
        add("ALTER TABLE \(q(rebuild)) RENAME TO \(q(table))")
        remade.insert(table)
    }

    /// Links to rows that a removed sub-entity took with it.
    mutating func planOrphanCleanup() {
        for entity in difference.new.entities {
            guard let table = newMap.table(for: entity.name) else { continue }
            for r in entity.relationships where !r.isTransient {
                if case .foreignKey(let c)? = newMap.storage(of: r.name, of: entity.name), let target = newMap.table(for: r.destination) {
                    add("UPDATE \(q(table)) SET \(q(c)) = NULL WHERE \(q(c)) IS NOT NULL AND \(q(c)) NOT IN (SELECT \(StoreMapping.quotedPrimaryKey) FROM \(q(target)))")
                }
            }
        }
        for join in newMap.joinTables {
            add("DELETE FROM \(q(join.table)) WHERE \(StoreMapping.quotedJoinSource) NOT IN (SELECT \(StoreMapping.quotedPrimaryKey) FROM \(q(join.source))) OR \(StoreMapping.quotedJoinTarget) NOT IN (SELECT \(StoreMapping.quotedPrimaryKey) FROM \(q(join.target)))")
        }
    }

    /// A query for the duplicates a new unique index would refuse.
    mutating func planUniqueCheck(index name: String, columns names: [String], table: String) {
        let columns = names.map(q)
        // "Entity_unique_n": the entity and constraint, for the message.
        var entity = table, properties = names
        if let range = name.range(of: "_unique_", options: .backwards), let n = Int(name[range.upperBound...]),
           let e = difference.new.entity(named: String(name[..<range.lowerBound])), n < e.uniquenessConstraints.count {
            entity = e.name
            properties = e.uniquenessConstraints[n].properties
        }
        let list = columns.joined(separator: ", ")
        let sql = "SELECT \(list), COUNT(*) FROM \(q(table)) WHERE " + columns.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
            + " GROUP BY \(list) HAVING COUNT(*) > 1 ORDER BY COUNT(*) DESC LIMIT 5"
        steps.append(MigrationStep(sql, [], kind: .uniqueCheck(entity: entity, properties: properties)))
    }
}

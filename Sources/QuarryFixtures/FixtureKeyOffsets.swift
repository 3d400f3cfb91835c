// Keys for fixtures appended to a store that already holds rows. The
// generator numbers objects 1...N per table and refers to them by those
// numbers (to-one foreign keys, join rows); appended after rows already
// there, every number moves past the table's largest key: an object's own
// key by its table's offset, a foreign key by its destination table's, a
// join row's two keys by their tables'. Generated objects only ever point at
// generated objects, so the new rows link among themselves, never to the
// rows that were there.
import Foundation

struct FixtureKeyOffsets {
    /// Offset per table (0 where the table is empty).
    private var byTable: [String: Int64] = [:]
    /// Per entity, the value positions of its foreign keys and their destination table.
    private var foreignKeys: [String: [(position: Int, table: String)]] = [:]
    /// Per join table, the tables its source and target keys point into.
    private var joinTables: [String: (source: String, target: String)] = [:]

    /// Reads each table's largest key now (inside the write's transaction).
    init(store: SQLStore, plan: FixturePlan) throws {
        let mapping = store.mapping, model = store.model
        for table in Set(plan.entities.map(\.table)) {
            let rows = try store.database.rows("SELECT MAX(\(SQLIdentifier.quoted(StoreMapping.primaryKey))) FROM \(SQLIdentifier.quoted(table))")
            if case .int(let n)? = rows.first?.first { byTable[table] = n }
        }
        for entity in model.entities {
            for r in entity.allRelationships(in: model) {
                guard let storage = mapping.storage(of: r.name, of: entity.name), storage.isJoinTableOwner, case .joinTable(let table, _, _) = storage,
                      let from = mapping.table(for: entity.name), let to = mapping.table(for: r.destination) else { continue }
                joinTables[table] = (from, to)
            }
        }
        for planned in plan.entities {
            let name = planned.entity.name
            var keys: [(Int, String)] = []
            for r in planned.entity.allRelationships(in: model) where !r.isToMany {
                guard case .foreignKey(let column)? = mapping.storage(of: r.name, of: name),
                      let position = planned.columns.firstIndex(of: column), let to = mapping.table(for: r.destination) else { continue }
                keys.append((position, to))
            }
            foreignKeys[name] = keys
        }
    }

    /// Nothing to move: every table was empty.
    var isZero: Bool { byTable.values.allSatisfy { $0 == 0 } }

    func key(_ pk: Int64, in table: String) -> Int64 { pk + (byTable[table] ?? 0) }

    /// An object's values with its foreign keys moved.
    func values(of o: FixtureObject) -> [Value] {
        guard let keys = foreignKeys[o.entity], !keys.isEmpty else { return o.values }
        var values = o.values
        for (position, table) in keys {
            if case .int(let pk) = values[position] { values[position] = .int(key(pk, in: table)) }
        }
        return values
    }

    /// A join row's keys, moved.
    func link(_ l: FixtureLink) -> (source: Int64, target: Int64) {
        guard let tables = joinTables[l.table] else { return (l.source, l.target) }
        return (key(l.source, in: tables.source), key(l.target, in: tables.target))
    }
}

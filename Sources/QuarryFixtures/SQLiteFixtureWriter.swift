// Fixtures into a new Quarry SQLite store: the schema is SQLStore's own
// (so the file opens as a store of the model), rows go in through one
// prepared INSERT per entity and per join table, all in one transaction —
// the shape of the fastest hand-written loader, which the benchmark
// compares against. Primary keys are ours (1...N per table), so foreign
// keys can be written before their targets exist; SQLite checks them at
// COMMIT (the store's foreign keys are DEFERRABLE INITIALLY DEFERRED), and
// the join tables are filled last, after every object.
//
// The file is temporary until the run succeeds (see FixtureOutput.swift),
// so it is written without a rollback journal: a crash loses nothing that
// was promised, and the write is about a third faster.

final class SQLiteFixtureWriter: FixtureWriter {
    private let store: SQLStore
    private var inserts: [SQLiteStatement] = []
    private var linkInserts: [String: SQLiteStatement] = [:]
    private var arguments: [Value] = []
    private var entityNames: [Value] = []
    private var finished = false

    init(path: String, plan: FixturePlan) throws {
        // Created under the plan's names, which it saves as its layout.
        store = try SQLStore(path: path, model: plan.model, layout: plan.mapping.layoutRecord)
        let connection = store.connection
        try connection.execute("PRAGMA journal_mode = OFF")
        try connection.execute("PRAGMA synchronous = OFF")
        for entity in plan.entities {
            let columns = [StoreMapping.primaryKey, StoreMapping.entityColumn] + entity.columns
            let sql = "INSERT INTO \(SQLIdentifier.quoted(entity.table)) (\(columns.map(SQLIdentifier.quoted).joined(separator: ", "))) VALUES ("
                + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
            inserts.append(try connection.prepare(sql))
            entityNames.append(.string(entity.entity.name))
        }
        for link in plan.links {
            let sql = link.ordered
                ? "INSERT INTO \(SQLIdentifier.quoted(link.table)) (\(StoreMapping.quotedJoinSource), \(StoreMapping.quotedJoinTarget), \(StoreMapping.quotedJoinPosition)) VALUES (?, ?, ?)"
                : "INSERT INTO \(SQLIdentifier.quoted(link.table)) (\(StoreMapping.quotedJoinSource), \(StoreMapping.quotedJoinTarget)) VALUES (?, ?)"
            linkInserts[link.table] = try connection.prepare(sql)
        }
        try connection.execute("BEGIN IMMEDIATE")
    }

    func write(_ record: FixtureRecord) throws {
        let statement: SQLiteStatement
        arguments.removeAll(keepingCapacity: true)
        switch record {
        case .object(let o):
            statement = inserts[o.entityIndex]
            arguments.append(.int(o.primaryKey))
            arguments.append(entityNames[o.entityIndex])
            arguments.append(contentsOf: o.values)
        case .link(let l):
            statement = linkInserts[l.table]!
            arguments.append(.int(l.source))
            arguments.append(.int(l.target))
            if let p = l.position { arguments.append(.int(Int64(p))) }
        }
        try statement.bind(arguments)
        _ = try statement.step()
        statement.reset()
    }

    func finish() throws {
        guard !finished else { return }
        finished = true
        defer {
            inserts.removeAll()
            linkInserts.removeAll()
            store.connection.close()
        }
        if store.connection.isInTransaction { try store.connection.execute("COMMIT") }
        // Back to the store's usual journal for whoever opens it next.
        try store.connection.execute("PRAGMA journal_mode = WAL")
    }
}

// Fixtures into an open store on any database (PostgreSQL above all), all or
// nothing: one transaction empties the model's tables and writes every row,
// so a failed run leaves the data as it was. Rows go in as multi-row INSERTs
// of up to 1,000 rows (under PostgreSQL's 65,535 bound values), each a
// statement the driver prepares once and reuses — a few hundred round trips
// for a million values instead of a million. Primary keys are the
// generator's (1...N per table), as in the SQLite writer; afterwards each
// table's key sequence is moved past them so later inserts get fresh keys.
// Objects are flushed before the first link: join rows check their foreign
// keys at once, while the tables' own keys are checked at COMMIT.
//
// Appending (`--append`) keeps the rows there and moves every generated key
// past them (FixtureKeyOffsets.swift).

final class DatabaseFixtureWriter: FixtureWriter {
    private let store: SQLStore
    private let plan: FixturePlan
    /// Pending rows per INSERT shape (table and columns).
    private var pending: [String: (columns: [String], values: [Value], rows: Int)] = [:]
    private var order: [String] = []
    private var objectsFlushed = false
    private static let maxRows = 1_000
    private static let maxValues = 60_000

    /// Moves keys past the rows already there; nil when replacing them (or nothing is there).
    private let offsets: FixtureKeyOffsets?

    init(store: SQLStore, plan: FixturePlan, append: Bool = false) throws {
        self.store = store
        self.plan = plan
        if append {
            let offsets = try FixtureKeyOffsets(store: store, plan: plan)
            self.offsets = offsets.isZero ? nil : offsets
            return
        }
        offsets = nil
        // Replace what the tables hold, join tables first.
        for table in store.mapping.tableNames.reversed() {
            try store.database.run("DELETE FROM \(SQLIdentifier.quoted(table))")
        }
    }

    func write(_ record: FixtureRecord) throws {
        switch record {
        case .object(let o):
            let columns = [StoreMapping.primaryKey, StoreMapping.entityColumn] + o.columns
            let key = offsets?.key(o.primaryKey, in: o.table) ?? o.primaryKey
            try add(table: o.table, columns: columns, [.int(key), .string(o.entity)] + (offsets?.values(of: o) ?? o.values))
        case .link(let l):
            if !objectsFlushed {
                try flushAll()
                objectsFlushed = true
            }
            let (source, target) = offsets?.link(l) ?? (l.source, l.target)
            if let p = l.position {
                // The store's value for the index (Core Data's 2048, 3072, …; Quarry's p itself).
                let value = try store.mapping.checkedOrderValue(at: p, of: l.table, of: "its owner")
                try add(table: l.table, columns: StoreMapping.joinColumns(ordered: true), [.int(source), .int(target), .int(value)])
            } else {
                try add(table: l.table, columns: StoreMapping.joinColumns(ordered: false), [.int(source), .int(target)])
            }
        }
    }

    private func add(table: String, columns: [String], _ values: [Value]) throws {
        let key = table + "\u{0}" + columns.joined(separator: "\u{0}")
        if pending[key] == nil {
            pending[key] = (columns, [], 0)
            order.append(key)
        }
        pending[key]!.values.append(contentsOf: values)
        pending[key]!.rows += 1
        let batch = pending[key]!
        if batch.rows >= Self.maxRows || batch.values.count + columns.count > Self.maxValues { try flush(key) }
    }

    private func flush(_ key: String) throws {
        guard let batch = pending[key], batch.rows > 0 else { return }
        let table = String(key[..<key.firstIndex(of: "\u{0}")!])
        let row = "(" + Array(repeating: "?", count: batch.columns.count).joined(separator: ", ") + ")"
        let sql = "INSERT INTO \(SQLIdentifier.quoted(table)) (\(batch.columns.map(SQLIdentifier.quoted).joined(separator: ", "))) VALUES "
            + Array(repeating: row, count: batch.rows).joined(separator: ", ")
        try store.database.run(sql, batch.values)
        pending[key] = (batch.columns, [], 0)
    }

    private func flushAll() throws {
        for key in order { try flush(key) }
    }

    func finish() throws {
        try flushAll()
        for entity in plan.entities { try store.database.restartKeys(after: entity.table) }
    }
}

extension FixtureGenerator {
    /// Generates every record into an open store, replacing its rows (or,
    /// with `append`, after them), in one transaction (nothing changes when
    /// any record fails).
    @discardableResult
    public func write(into store: SQLStore, append: Bool = false) throws(FixtureError) -> FixtureSummary {
        do {
            return try store.database.inTransaction {
                // Under the store's own names (its saved layout, SQLStore+Layout.swift).
                var stream = records(layout: store.mapping.layoutRecord)
                guard let plan = stream.plan else { _ = try stream.next(); return FixtureSummary() }
                var summary = FixtureSummary()
                var perEntity = [Int](repeating: 0, count: plan.entities.count)
                let writer = try DatabaseFixtureWriter(store: store, plan: plan, append: append)
                while let record = try stream.next() {
                    try writer.write(record)
                    switch record {
                    case .object(let o): perEntity[o.entityIndex] += 1
                    case .link: summary.links += 1
                    }
                }
                try writer.finish()
                for (i, entity) in plan.entities.enumerated() { summary.objects[entity.entity.name] = perEntity[i] }
                store.forgetObjects()
                return summary
            }
        } catch let error as FixtureError {
            throw error
        } catch {
            throw FixtureError(.output, "writing failed: \(error); nothing was written", at: FixtureLocation(file: store.database.location))
        }
    }
}

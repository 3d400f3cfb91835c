// Persistent history of a store (History.swift, HistoryRecorder.swift):
// turning it on and off, reading it and trimming it, and the reads the
// write paths need to note what they change — the keys a batch statement
// touched (`RETURNING`, in the statement itself, so that no row it writes
// escapes the history) and a deleted row's tombstone.
//
// Off by default, as Core Data's (`NSPersistentHistoryTrackingKey`): a
// store records history once `setHistoryTracking(true)` turned it on. The
// choice is kept in the store (`_quarry_metadata`'s `history` key), not in
// the process: every Quarry writer that opens the store afterwards records
// too, so no writer silently leaves its changes out. A writer that opened
// the store before history was turned on learns of it when it reopens.
// Stores made before history existed get the tables when it is turned on;
// Core Data stores opened read-only are never touched.
import Foundation

extension SQLStore {
    /// At open: whether the store records history (and, if it does, its
    /// tables, made when missing).
    func openHistory(saved: String?) throws {
        guard saved == "on" else { return }
        try database.inTransaction { try createHistoryTables() }
        historyState.enabled = true
    }

    /// Whether this store records persistent history.
    public var recordsHistory: Bool { historyState.enabled }

    /// Turns persistent history on or off for the store (for every process
    /// that opens it from now on: the choice is saved in the store). Turning
    /// it off keeps what was recorded (`history(after:)` still reads it;
    /// `deleteHistory(before:)` trims it).
    /// Refused inside an open transaction: rolled back, it would leave this
    /// store recording into tables that are gone.
    public func setHistoryTracking(_ on: Bool) throws {
        try checkWritable()
        if let bookkeepingRefusal { throw HistoryError(location: database.location, reason: bookkeepingRefusal) }
        if database.isInTransaction {
            throw HistoryError(location: database.location, reason: "cannot turn history on or off inside a transaction; COMMIT or ROLLBACK first")
        }
        try database.inTransaction {
            if on { try createHistoryTables() }
            try StoreMetadataRows.write([("history", on ? "on" : "off")], in: database)
        }
        historyState.enabled = on
    }

    private func createHistoryTables() throws {
        guard try !database.tableNames().contains(StoreMapping.historyTable) else { return }
        for statement in StoreMapping.historyCreateStatements(database.dialect) { try database.run(statement, []) }
    }

    private func checkHistoryTables() throws {
        guard readOnlyReason == nil, try database.tableNames().contains(StoreMapping.historyTable) else {
            throw HistoryError.notTracked(database.location)
        }
    }

    /// The transactions recorded after `token` (all of them for nil), oldest
    /// first, each with its changes in the order they were written.
    public func history(after token: HistoryToken? = nil) throws -> [HistoryTransaction] {
        try checkHistoryTables()
        let after: Value = .int(token?.value ?? Int64.min)
        let t = SQLIdentifier.quoted(StoreMapping.historyTable), c = SQLIdentifier.quoted(StoreMapping.historyChangesTable)
        var transactions: [HistoryTransaction] = []
        var index: [Int64: Int] = [:]
        // One read: on SQLite a deferred transaction (a snapshot, without
        // the write lock); changes of transactions not read (committed
        // between the two statements on PostgreSQL) are left for next time.
        func reading(_ body: () throws -> Void) throws {
            if let sqlite, !sqlite.isInTransaction { try sqlite.transaction(.deferred, body) } else { try database.inTransaction(body) }
        }
        try reading {
            for row in try database.query("SELECT \"token\", \"timestamp\", \"author\", \"context\", \"kind\" FROM \(t) WHERE \"token\" > ? ORDER BY \"token\"",
                                          [after], as: [.int, .double, .string, .string, .string]) {
                guard case .int(let k) = row[0], case .string(let kindText) = row[4], let kind = HistoryRequestKind(rawValue: kindText) else { continue }
                var seconds = 0.0
                if case .double(let d) = row[1] { seconds = d } else if case .int(let i) = row[1] { seconds = Double(i) }
                index[k] = transactions.count
                transactions.append(HistoryTransaction(token: HistoryToken(k), timestamp: Date(timeIntervalSinceReferenceDate: seconds),
                                                       author: row[2].stringValue, contextName: row[3].stringValue, kind: kind, changes: []))
            }
            try database.streamRows("SELECT \"token\", \"entity\", \"pk\", \"change\", \"keys\", \"tombstone\" FROM \(c) WHERE \"token\" > ? ORDER BY \"token\", \"seq\"",
                                    [after], as: [.int, .string, .int, .string, .string, .string]) { row in
                guard case .int(let k) = row[0], let i = index[k], case .string(let entity) = row[1],
                      case .int(let pk) = row[2], case .string(let typeText) = row[3],
                      let type = HistoryChangeType(rawValue: typeText) else { return }
                let keys = row[4].stringValue.map { $0.split(separator: ",").map(String.init) } ?? []
                let tombstone = try row[5].stringValue.map(HistoryCoding.decode) ?? [:]
                transactions[i].changes.append(HistoryChange(objectID: ObjectID(entity: entity, primaryKey: pk), type: type,
                                                             changedKeys: keys, tombstone: tombstone))
            }
        }
        return transactions
    }

    /// The token of the last transaction recorded, or nil when there is none.
    public func lastHistoryToken() throws -> HistoryToken? {
        try checkHistoryTables()
        let rows = try database.query("SELECT MAX(\"token\") FROM \(SQLIdentifier.quoted(StoreMapping.historyTable))", [], as: [.int])
        if case .int(let k)? = rows.first?.first { return HistoryToken(k) }
        return nil
    }

    /// Deletes the transactions before `token` (not `token`'s own) and their
    /// changes; returns how many transactions went.
    @discardableResult
    public func deleteHistory(before token: HistoryToken) throws -> Int {
        try checkWritable()
        try checkHistoryTables()
        return try database.inTransaction {
            try database.run("DELETE FROM \(SQLIdentifier.quoted(StoreMapping.historyChangesTable)) WHERE \"token\" < ?", [.int(token.value)])
            return try database.run("DELETE FROM \(SQLIdentifier.quoted(StoreMapping.historyTable)) WHERE \"token\" < ?", [.int(token.value)])
        }
    }

    /// Runs `body` (batch requests) with `author` and `contextName` recorded
    /// as its transactions' origin.
    public func withHistoryOrigin<T>(author: String?, contextName: String?, _ body: () throws -> T) rethrows -> T {
        let saved = (historyState.author, historyState.contextName)
        historyState.author = author
        historyState.contextName = contextName
        defer { (historyState.author, historyState.contextName) = saved }
        return try body()
    }
}

/// The tombstone attributes of one table (every entity stored in it), and
/// how a row read with `RETURNING`/`SELECT` of `columns` becomes a change.
struct HistoryRowShape {
    /// `"_entity", "_pk"` then each tombstone column, quoted.
    let columns: String
    let kinds: [SQLValueKind]
    /// Per tombstone column: its attribute name and the entities that have it.
    let attributes: [(name: String, entities: Set<String>)]

    /// The object and its tombstone (the marked attributes of its own entity).
    func read(_ row: [Value]) -> (ObjectID, [String: Value])? {
        guard case .string(let entity) = row[0], case .int(let pk) = row[1] else { return nil }
        var tombstone: [String: Value] = [:]
        for (i, a) in attributes.enumerated() where a.entities.contains(entity) { tombstone[a.name] = row[i + 2] }
        return (ObjectID(entity: entity, primaryKey: pk), tombstone)
    }
}

extension SQLStore {
    /// Whether the model marks `attribute` to keep its value in history on deletion.
    static func preservesInHistory(_ attribute: Attribute) -> Bool {
        if attribute.preservesValueInHistoryOnDeletion { return true }
        guard let flag = attribute.userInfo["preserveValueInHistoryOnDeletion"]?.lowercased() else { return false }
        return ["yes", "true", "1"].contains(flag)
    }

    /// The row shape of `table`: with its tombstone columns when `tombstones`.
    func historyRowShape(table: String, tombstones: Bool) -> HistoryRowShape {
        var columns = ["\(StoreMapping.quotedEntityColumn)", "\(StoreMapping.quotedPrimaryKey)"]
        var kinds: [SQLValueKind] = [.string, .int]
        var attributes: [(name: String, entities: Set<String>)] = []
        var byColumn: [String: Int] = [:]
        if tombstones {
            for e in model.entities where mapping.table(for: e.name) == table && !e.isAbstract {
                for a in e.allAttributes(in: model) where !a.isTransient && Self.preservesInHistory(a) {
                    guard let column = mapping.column(for: a.name, of: e.name) else { continue }
                    if let i = byColumn[column] { attributes[i].entities.insert(e.name); continue }
                    byColumn[column] = attributes.count
                    attributes.append((a.name, [e.name]))
                    columns.append(SQLIdentifier.quoted(column))
                    kinds.append(a.type == .transformable ? .automatic : StoreValues.kind(a.type))
                }
            }
        }
        return HistoryRowShape(columns: columns.joined(separator: ", "), kinds: kinds, attributes: attributes)
    }

    /// Runs a batch statement that writes rows of `table`; with history,
    /// as `… RETURNING` the rows' keys (and tombstones for a DELETE), each
    /// noted as `type` with `keys`. Returns the rows changed.
    func runNoting(_ sql: String, _ arguments: [Value], table: String, _ draft: HistoryDraft?,
                   _ type: HistoryChangeType, keys: [String] = []) throws -> Int {
        guard let draft else { return try database.run(sql, arguments) }
        let shape = historyRowShape(table: table, tombstones: type == .delete)
        let rows = try database.query(sql + " RETURNING " + shape.columns, arguments, as: shape.kinds)
        for row in rows {
            guard let (id, tombstone) = shape.read(row) else { continue }
            draft.note(id, type, keys: keys, tombstone: tombstone)
        }
        return rows.count
    }

    /// Notes the deletion of `ids` (rows still present: read before the
    /// DELETE) with their tombstones.
    func noteDeletions(_ ids: [ObjectID], in draft: HistoryDraft?) throws {
        guard let draft else { return }
        var byTable: [String: [ObjectID]] = [:]
        var order: [String] = []
        for id in ids {
            guard let table = mapping.table(for: id.entity) else { continue }
            if byTable[table] == nil { order.append(table) }
            byTable[table, default: []].append(id)
        }
        for table in order {
            let shape = historyRowShape(table: table, tombstones: true)
            let group = byTable[table]!
            guard !shape.attributes.isEmpty else {
                for id in group { draft.note(id, .delete) }
                continue
            }
            var found: [Int64: [String: Value]] = [:]
            let size = max(1, min(500, database.maximumArguments))
            for start in stride(from: 0, to: group.count, by: size) {
                let chunk = group[start..<min(start + size, group.count)]
                let sql = "SELECT \(shape.columns) FROM \(SQLIdentifier.quoted(table)) WHERE " + StoreMapping.keyIn(chunk.count)
                for row in try database.query(sql, chunk.map { .int($0.primaryKey) }, as: shape.kinds) {
                    if let (id, tombstone) = shape.read(row) { found[id.primaryKey] = tombstone }
                }
            }
            for id in group { draft.note(id, .delete, tombstone: found[id.primaryKey] ?? [:]) }
        }
    }
}

extension SQLStore {
    /// `insert`'s history: the new row, and the objects its to-ones now
    /// reach (their inverse changed with it).
    func noteStoreWrite(inserted id: ObjectID, links: [String: ObjectID]) throws {
        try recordingHistory(.storeWrite) { draft in
            guard let draft else { return }
            draft.mayRepeat = true
            draft.note(id, .insert)
            guard let entity = model.entity(named: id.entity) else { return }
            for (key, target) in links.sorted(by: { $0.key < $1.key }) {
                if let inverse = entity.relationship(named: key, in: model)?.inverse { draft.note(target, .update, keys: [inverse]) }
            }
        }
    }

    /// `link`'s history: both ends of the relationship changed.
    func noteStoreWrite(link source: ObjectID, _ r: Relationship, _ target: ObjectID) throws {
        try recordingHistory(.storeWrite) { draft in
            guard let draft else { return }
            draft.mayRepeat = true
            draft.note(source, .update, keys: [r.name])
            if let inverse = r.inverse { draft.note(target, .update, keys: [inverse]) }
        }
    }
}

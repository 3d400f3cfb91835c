// The SQL of optimistic locking in a save (StoreMapping+Versions.swift):
// claiming a row — its version bumped only where it is still the version
// the context read — and reading a row that changed, for the merge policy
// to compare (Context+MergePolicy.swift). Each object's row is claimed once
// per save, before anything else is written, so its version goes up by
// exactly one per save whatever the save then writes to it — or, for an
// object whose changes are all columns of its row, by the one UPDATE that
// writes them (`ContextWriter.foldedClaim(of:)`): a bulk edit of 500k rows
// then writes each row once, not twice.
import Foundation

/// A row whose claim was folded into its UPDATE no longer had the version
/// the context read (changed or deleted meanwhile). The save's transaction
/// is rolled back and the save runs again claiming every row first, so that
/// the merge policy sees each conflict before anything is written
/// (Context+Saving.swift). Never reaches the caller.
struct FoldedClaimMissed: Error {}

/// Claims rows for one save: the two UPDATEs of each table made once.
final class RowClaims {
    let writer: ContextWriter
    private var statements: [String: (checked: String, any: String)] = [:]

    init(_ writer: ContextWriter) { self.writer = writer }

    /// Bumps the version of `object`'s row if it is still `read` (any
    /// version when `read` is nil: a fault never loaded has nothing stale
    /// to write, and a conflict resolved in the object's favour overwrites
    /// the row as it is). False when no row matched: changed or deleted meanwhile.
    @discardableResult
    func claim(_ object: ManagedObject, read: Int64?) throws -> Bool {
        let entity = object.entity.name
        let sql: (checked: String, any: String)
        if let known = statements[entity] {
            sql = known
        } else {
            guard let table = writer.mapping.table(for: entity) else { return true }
            let v = SQLIdentifier.quoted(StoreMapping.versionColumn)
            let any = StoreMapping.updateRow(table: table, set: "\(v) = \(v) + 1")
            sql = (any + " AND \(v) = ?", any)
            statements[entity] = sql
        }
        let key = Value.int(object.objectID.primaryKey)
        if let read { return try writer.store.database.run(sql.checked, [key, .int(read)]) == 1 }
        return try writer.store.database.run(sql.any, [key]) == 1
    }
}

extension RowClaims {
    /// Rows per claiming statement: `("_pk" = ? AND "_version" = ?) OR …`,
    /// fewer if the database binds fewer arguments.
    static func batchRows(_ database: any SQLDatabase) -> Int { min(100, database.maximumArguments / 2) }

    /// Claims the rows of `objects`, each held to the version read with it,
    /// many rows per statement (a bulk edit claims a batch per statement, not
    /// a statement per row); returns the objects whose row did not match.
    /// `RETURNING` names the rows claimed: telling them apart afterwards by
    /// their versions could not (another writer may have raised a row's
    /// version by exactly one).
    func claimAll(_ objects: [(object: ManagedObject, read: Int64)]) throws -> [ManagedObject] {
        var failed: [ManagedObject] = []
        let database = writer.store.database
        guard database.updatesReturnRows else {
            for item in objects where try !claim(item.object, read: item.read) { failed.append(item.object) }
            return failed
        }
        let size = max(1, Self.batchRows(database))
        var byEntity: [String: [(object: ManagedObject, read: Int64)]] = [:]
        var order: [String] = []
        for item in objects {
            let entity = item.object.entity.name
            if byEntity[entity] == nil { order.append(entity) }
            byEntity[entity, default: []].append(item)
        }
        let v = SQLIdentifier.quoted(StoreMapping.versionColumn)
        for entity in order {
            let items = byEntity[entity]!
            guard let table = writer.mapping.table(for: entity) else { continue }
            for start in stride(from: 0, to: items.count, by: size) {
                let chunk = items[start..<min(start + size, items.count)]
                let conditions = Array(repeating: "(\(StoreMapping.quotedPrimaryKey) = ? AND \(v) = ?)", count: chunk.count).joined(separator: " OR ")
                var arguments: [Value] = []
                arguments.reserveCapacity(2 * chunk.count)
                for item in chunk {
                    arguments.append(.int(item.object.objectID.primaryKey))
                    arguments.append(.int(item.read))
                }
                let claimed = try database.query("UPDATE \(SQLIdentifier.quoted(table)) SET \(v) = \(v) + 1 WHERE \(conditions) RETURNING \(StoreMapping.quotedPrimaryKey)",
                                                  arguments, as: [.int])
                guard claimed.count < chunk.count else { continue }
                var keys = Set<Int64>()
                for row in claimed { if case .int(let k) = row[0] { keys.insert(k) } }
                for item in chunk where !keys.contains(item.object.objectID.primaryKey) { failed.append(item.object) }
            }
        }
        return failed
    }
}

extension ContextWriter {
    /// The row of `object` as the store holds it now, by key (attributes
    /// and to-one keys, plus the version under its column's name), or nil
    /// when the row is gone. On PostgreSQL the row is locked until the
    /// save's transaction ends, so what the policy decides from it stays true.
    func currentRow(of object: ManagedObject) throws -> [String: Value]? {
        try currentRow(of: object.objectID)
    }

    /// `currentRow(of:)` by ID.
    func currentRow(of id: ObjectID) throws -> [String: Value]? {
        let entity = id.entity
        guard let select = mapping.rowSelect(for: entity), let table = mapping.table(for: entity) else { return nil }
        var kinds: [SQLValueKind] = [.int, .string]
        for c in select.columns {
            if case .attribute(let t) = c.kind { kinds.append(StoreValues.kind(t)) } else { kinds.append(.int) }
        }
        let lock = store.database.dialect == .sqlite ? "" : " FOR UPDATE"
        // Transformable columns decoded, as every row the context reads: the
        // policies compare these values with the ones read and may keep them.
        let decoders = try store.rowDecoders(select.columns, of: entity)
        var found: [Value]?
        try store.streamRows("SELECT \(select.sql) FROM \(SQLIdentifier.quoted(table)) t0 WHERE t0.\(StoreMapping.quotedPrimaryKey) = ?\(lock)",
                             [.int(id.primaryKey)], as: kinds, decoding: decoders) { row in
            if found == nil { found = kinds.indices.map { row[$0] } }
        }
        guard let row = found else { return nil }
        let layout = ObjectLayout(columns: select.columns)
        var values: [String: Value] = [:]
        for name in Set(layout.names) {
            if let i = layout.slot(name, for: entity) { values[name] = row[i + 2] }
        }
        return values
    }
}

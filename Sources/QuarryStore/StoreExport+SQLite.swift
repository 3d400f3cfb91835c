// The export's fast path between two SQLite stores (StoreExport.swift): each
// source row's columns bound straight into the target's prepared INSERT, so
// values keep SQLite's storage class and bytes. Apart so that the export
// itself reaches its stores only as `SQLDatabase`s.
import QuarrySQL
import QuarrySQLite

extension StoreExport {
    /// Copies `table` SQLite to SQLite when both stores are SQLite; nil
    /// (nothing done) otherwise.
    static func copyBetweenSQLite(_ table: TablePlan, expectedRows: Int, from source: SQLStore, to target: SQLStore,
                                  copied: (Int) -> Void) throws -> (rows: Int, perEntity: [String: Int])? {
        guard let from = source.sqlite, let to = target.sqlite else { return nil }
        return try copySQLiteTable(table, expectedRows: expectedRows, from: from, to: to, copied: copied)
    }

    /// SQLite to SQLite: each source row's columns bound straight into a
    /// prepared INSERT of `sqliteBatch` rows (`sqlite3_bind_value`, no
    /// `Value` made); one step per batch.
    private static func copySQLiteTable(_ table: TablePlan, expectedRows: Int, from source: SQLiteConnection, to target: SQLiteConnection,
                                        copied: (Int) -> Void) throws -> (rows: Int, perEntity: [String: Int]) {
        let width = table.columns.count
        let quotedColumns = table.columns.map(SQLIdentifier.quoted).joined(separator: ", ")
        let batch = max(1, min(sqliteBatch, target.variableLimit / width))
        func insert(rows: Int) throws -> SQLiteStatement {
            let row = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
            return try target.prepare("INSERT INTO \(SQLIdentifier.quoted(table.name)) (\(quotedColumns)) VALUES "
                + Array(repeating: row, count: rows).joined(separator: ", "))
        }
        let full = try insert(rows: batch), single = try insert(rows: 1)
        // Whole batches while at least a batch of the counted rows is left,
        // then row by row.
        let batched = expectedRows - expectedRows % batch
        let order = table.isJoin ? "\(StoreMapping.quotedJoinSource), \(StoreMapping.quotedJoinTarget)" : SQLIdentifier.quoted(StoreMapping.primaryKey)
        var total = 0, pending = 0, sinceReport = 0
        var perEntity: [String: Int] = [:]
        var lastEntity = "", lastCount = 0
        try source.withCursor("SELECT \(quotedColumns) FROM \(SQLIdentifier.quoted(table.name)) ORDER BY \(order)") { row, next in
            while try next() {
                if !table.isJoin {
                    if !row.text(at: 1, equals: lastEntity) {
                        if lastCount > 0 { perEntity[lastEntity, default: 0] += lastCount }
                        guard let name = row.string(at: 1) else { throw ExportError("\(table.name) has a row without an entity name") }
                        lastEntity = name
                        lastCount = 0
                    }
                    lastCount += 1
                }
                if total < batched {
                    try full.bind(columnsOf: row, count: width, toParametersFrom: pending * width + 1)
                    pending += 1
                    guard pending == batch else { continue }
                    defer { full.reset() }
                    _ = try full.step()
                    total += pending
                    sinceReport += pending
                    pending = 0
                } else {
                    try single.bind(columnsOf: row, count: width)
                    defer { single.reset() }
                    _ = try single.step()
                    total += 1
                    sinceReport += 1
                }
                if sinceReport >= 10_000 {
                    copied(sinceReport)
                    sinceReport = 0
                }
            }
        }
        full.clearBindings()
        single.clearBindings()
        guard pending == 0 else { throw ExportError("\(table.name) changed while it was exported (fewer rows than counted)") }
        if sinceReport > 0 { copied(sinceReport) }
        if lastCount > 0 { perEntity[lastEntity, default: 0] += lastCount }
        return (total, perEntity)
    }
}

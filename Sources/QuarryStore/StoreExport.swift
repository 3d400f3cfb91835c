// Copying every row of one store into another store of the same model — the
// work of `quarry export`, which turns an app's Core Data store (read through
// its TEMP views in Quarry's layout) into a Quarry SQLite file or a
// PostgreSQL schema. Because both stores present the same tables and columns
// (StoreMapping), the copy is table by table, column by column, in key
// order: no object is built, no context is involved. Rows go in through
// prepared multi-row INSERTs inside one transaction of the target (a failure
// rolls everything back), the shape of the fastest hand-written loader.
//
// Values: from SQLite into SQLite they are copied as SQLite holds them (the
// same storage class and bytes, bound straight from the source row: so the
// copy answers every query as the source does); into another engine they are
// read as their attribute's type and the driver encodes them in its own
// column types.
//
// A new file is written beside the target under a temporary name and renamed
// over it only when the copy succeeded (`copy(from:toFile:)`): a failure
// leaves no file, and no half-written one.
import Foundation
import QuarryModel
import QuarrySQL

/// What an export copied.
public struct ExportSummary: Sendable, Equatable {
    /// Objects per entity (entities without rows are absent).
    public var objects: [String: Int] = [:]
    /// Rows of the join tables (many-to-many and inverse-less to-many pairs).
    public var links = 0
    public var objectCount: Int { objects.values.reduce(0, +) }
    public init() {}
}

/// Where an export stands, reported after each batch of rows.
public struct ExportProgress: Sendable, Equatable {
    /// The table being copied (a hierarchy's or a join table).
    public var table: String
    /// Tables finished, of `tableCount`.
    public var tablesDone: Int
    public var tableCount: Int
    /// Rows copied so far, of `totalRows` (counted before the copy).
    public var rowsDone: Int
    public var totalRows: Int
}

public struct ExportError: Error, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

public enum StoreExport {
    /// Test hook: called before each table is copied (with its name); a
    /// throw there stands for a failure in the middle of an export.
    nonisolated(unsafe) public static var beforeTable: ((String) throws -> Void)?
    /// Rows per INSERT from SQLite to SQLite (within the bound-argument limit).
    static let sqliteBatch = 64

    /// Copies every row of `source` into `target`, which must have the same
    /// model, in one transaction of `target`: the rows `target` held are
    /// removed first (the caller decides whether that is allowed), and a
    /// failure leaves `target` as it was.
    @discardableResult
    public static func copy(from source: SQLStore, to target: SQLStore,
                            progress: ((ExportProgress) -> Void)? = nil) throws -> ExportSummary {
        guard source.model == target.model else {
            throw ExportError("the target store has another model than the source; export into a new file or an empty PostgreSQL schema")
        }
        // Table by table under the same names: a target laid out otherwise
        // (an existing store whose saved layout differs) is refused before anything is written.
        guard source.mapping.layoutRecord == target.mapping.layoutRecord else {
            throw ExportError("the target store names its tables and columns otherwise than the source (its saved layout differs); export into a new file or an empty PostgreSQL schema")
        }
        let plan = TablePlan.tables(of: source.mapping)
        var totals: [Int] = []
        for table in plan {
            let count = try source.database.query("SELECT COUNT(*) FROM \(SQLIdentifier.quoted(table.name))", [], as: [.int]).first?.first
            if case .int(let n)? = count { totals.append(Int(n)) } else { totals.append(0) }
        }
        var state = ExportProgress(table: "", tablesDone: 0, tableCount: plan.count, rowsDone: 0, totalRows: totals.reduce(0, +))
        let summary: ExportSummary = try target.database.inTransaction {
            for table in target.mapping.tableNames.reversed() {
                try target.database.run("DELETE FROM \(SQLIdentifier.quoted(table))", [])
            }
            var summary = ExportSummary()
            for (index, table) in plan.enumerated() {
                state.table = table.name
                try beforeTable?(table.name)
                let report: (Int) -> Void = { rows in
                    state.rowsDone += rows
                    progress?(state)
                }
                let copied: (rows: Int, perEntity: [String: Int])
                // A Quarry source's externally stored values are exported inline (ExternalBinaryStorage+Rows.swift).
                if source.exportDecoders(table: table.name, columns: table.columns).isEmpty,
                   let fast = try copyBetweenSQLite(table, expectedRows: totals[index], from: source, to: target, copied: report) {
                    copied = fast
                } else {
                    copied = try copyTable(table, from: source, to: target, raw: target.database.dialect == .sqlite, copied: report)
                }
                if table.isJoin {
                    summary.links += copied.rows
                } else {
                    for (entity, n) in copied.perEntity { summary.objects[entity, default: 0] += n }
                }
                state.tablesDone += 1
                progress?(state)
            }
            for table in plan where !table.isJoin { try target.database.restartKeys(after: table.name) }
            try checkReferences(target)
            return summary
        }
        target.forgetObjects()
        return summary
    }

    /// Copies `source` into a new Quarry SQLite store at `path`, written
    /// under a temporary name beside it and renamed over `path` only on
    /// success (replacing what is there: the caller checks first).
    @discardableResult
    public static func copy(from source: SQLStore, toFile path: String,
                            progress: ((ExportProgress) -> Void)? = nil) throws -> ExportSummary {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).export-\(ProcessInfo.processInfo.processIdentifier)").path
        let fm = FileManager.default
        func removeTemporary() {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? fm.removeItem(atPath: temporary + suffix) }
        }
        removeTemporary()
        do {
            // Under the source's names: the copy goes table by table, column by column.
            let target = try SQLStore(path: temporary, model: source.model, layout: source.mapping.layoutRecord)
            let summary: ExportSummary
            do {
                // The file is temporary until renamed: no journal is needed
                // for a crash to lose nothing promised, and the copy is faster.
                try target.database.run("PRAGMA journal_mode = OFF")
                try target.database.run("PRAGMA synchronous = OFF")
                summary = try copy(from: source, to: target, progress: progress)
                // Back to the store's usual journal for whoever opens it
                // next (closing the connection leaves no -wal behind).
                try target.database.run("PRAGMA journal_mode = WAL")
            } catch {
                target.database.close()
                throw error
            }
            target.database.close()
            for suffix in ["-wal", "-shm"] { try? fm.removeItem(atPath: temporary + suffix) }
            if fm.fileExists(atPath: path) { try fm.removeItem(atPath: path) }
            for suffix in ["-wal", "-shm"] { try? fm.removeItem(atPath: path + suffix) }
            try fm.moveItem(atPath: temporary, toPath: path)
            return summary
        } catch {
            removeTemporary()
            throw error
        }
    }

    /// SQLite checks the deferred foreign keys only at COMMIT, and says no
    /// more than "FOREIGN KEY constraint failed": a source whose keys point
    /// at rows it does not have (Core Data declares no foreign keys) is
    /// refused here with the rows named. (PostgreSQL's own error names them.)
    private static func checkReferences(_ target: SQLStore) throws {
        guard target.database.dialect == .sqlite else { return }
        let broken = try target.database.query("PRAGMA foreign_key_check", [], as: [])
        guard let first = broken.first else { return }
        func text(_ v: Value) -> String {
            switch v {
            case .string(let s): return s
            case .int(let n): return String(n)
            default: return "\(v)"
            }
        }
        throw ExportError("the source holds \(broken.count) reference\(broken.count == 1 ? "" : "s") to rows it does not have "
            + "(first: \(text(first[0])) row \(text(first[1])) → \(text(first[2]))); nothing was exported")
    }

    /// One table to copy: its name, columns in order with the kind each is
    /// read as for a non-SQLite target, and whether it is a join table.
    struct TablePlan {
        let name: String
        let columns: [String]
        let kinds: [SQLValueKind]
        let isJoin: Bool

        /// The model's tables in dependency order (hierarchies, then join
        /// tables), with the columns SchemaBuilder gives them.
        static func tables(of mapping: StoreMapping) -> [TablePlan] {
            let model = mapping.model
            var plans: [TablePlan] = []
            var done: Set<String> = []
            for entity in model.entities {
                guard let table = mapping.table(for: entity.name), done.insert(table).inserted else { continue }
                var columns = [StoreMapping.primaryKey, StoreMapping.entityColumn]
                var kinds: [SQLValueKind] = [.int, .string]
                var seen: Set<String> = []
                for member in model.entities where mapping.table(for: member.name) == table {
                    for a in member.allAttributes(in: model) where !a.isTransient {
                        guard let c = mapping.column(for: a.name, of: member.name), seen.insert(c).inserted else { continue }
                        columns.append(c)
                        kinds.append(StoreValues.kind(a.type))
                    }
                    for r in member.allRelationships(in: model) {
                        guard case .foreignKey(let c)? = mapping.storage(of: r.name, of: member.name), seen.insert(c).inserted else { continue }
                        columns.append(c)
                        kinds.append(.int)
                    }
                }
                // Ordered to-manys' order columns (a Core Data store's
                // Z_FOK_ columns through its views): without them the
                // copy would read those relationships in key order.
                for c in mapping.orderColumns(onTable: table) where seen.insert(c).inserted {
                    columns.append(c)
                    kinds.append(.int)
                }
                plans.append(TablePlan(name: table, columns: columns, kinds: kinds, isJoin: false))
            }
            for join in mapping.joinTables {
                let columns = StoreMapping.joinColumns(ordered: join.ordered)
                plans.append(TablePlan(name: join.table, columns: columns, kinds: Array(repeating: .int, count: columns.count), isJoin: true))
            }
            return plans
        }
    }

    /// Streams one table's rows (in key order) into the target through
    /// prepared multi-row INSERTs; `copied` is told each batch's row count.
    private static func copyTable(_ table: TablePlan, from source: SQLStore, to target: SQLStore, raw: Bool,
                                  copied: (Int) -> Void) throws -> (rows: Int, perEntity: [String: Int]) {
        let width = table.columns.count
        let quotedColumns = table.columns.map(SQLIdentifier.quoted).joined(separator: ", ")
        // Up to 500 rows a statement, within the target's bound-argument limit.
        let batchRows = max(1, min(500, target.database.maximumArguments / width))
        func insertSQL(rows: Int) -> String {
            let row = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
            return "INSERT INTO \(SQLIdentifier.quoted(table.name)) (\(quotedColumns)) VALUES "
                + Array(repeating: row, count: rows).joined(separator: ", ")
        }
        let fullBatch = try target.database.preparedRunner(insertSQL(rows: batchRows))
        var values: [Value] = []
        values.reserveCapacity(batchRows * width)
        var pending = 0, total = 0
        var perEntity: [String: Int] = [:]
        var lastEntity = "", lastCount = 0
        let order = table.isJoin ? "\(StoreMapping.quotedJoinSource), \(StoreMapping.quotedJoinTarget)" : SQLIdentifier.quoted(StoreMapping.primaryKey)
        let select = "SELECT \(quotedColumns) FROM \(SQLIdentifier.quoted(table.name)) ORDER BY \(order)"
        let kinds = raw ? Array(repeating: SQLValueKind.automatic, count: width) : table.kinds
        try source.streamRows(select, [], as: kinds, decoding: source.exportDecoders(table: table.name, columns: table.columns)) { row in
            for i in 0..<width { values.append(row[i]) }
            if !table.isJoin {
                // Rows of one entity mostly come together: counted in runs.
                if !row.text(at: 1, equals: lastEntity) {
                    if lastCount > 0 { perEntity[lastEntity, default: 0] += lastCount }
                    guard case .string(let name) = row[1] else { throw ExportError("\(table.name) has a row without an entity name") }
                    lastEntity = name
                    lastCount = 0
                }
                lastCount += 1
            }
            pending += 1
            if pending == batchRows {
                try fullBatch(values)
                values.removeAll(keepingCapacity: true)
                total += pending
                copied(pending)
                pending = 0
            }
        }
        if pending > 0 {
            try target.database.run(insertSQL(rows: pending), values)
            total += pending
            copied(pending)
        }
        if lastCount > 0 { perEntity[lastEntity, default: 0] += lastCount }
        return (total, perEntity)
    }
}

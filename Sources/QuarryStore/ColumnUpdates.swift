// The UPDATEs of a bulk edit, several rows per statement. A save of 500k
// objects that each had one attribute set runs the same one-column UPDATE
// 500k times, and each run of a statement costs SQLite more than the row
// it changes (binding, stepping into the VM, opening the table's cursor,
// halting and resetting: ~1,400 instructions in `sqlite3VdbeHalt` alone).
// On SQLite the rows go `rows` at a time:
//
//     UPDATE "Employee" SET "age" = CASE "_pk" WHEN ? THEN ? WHEN ? THEN ? … END
//     WHERE "_pk" IN (?, ?, …)
//
// which changes the same rows to the same values, in one statement run per
// batch: ~20% less time than a statement per row at 48 rows a batch (the
// CASE is searched linearly, so batches stay small; an UPDATE … FROM a
// VALUES list saved half as much). Values are still bound, never pasted.
// SQLite visits the IN list in key order, and the rows of a batch are added
// in increasing key order (a save writes saved objects in key order; a key
// out of order starts a new batch), so rows change in the order the save
// made them; the writer flushes the batch before it runs any other
// statement, for the same reason (a UNIQUE value freed by one row may be
// taken by the next). Rows left over (fewer than a batch) and other engines
// (PostgreSQL would type the CASE's bound values as text) take the one-row
// UPDATE, one row at a time.
final class ColumnUpdates {
    /// Rows per batched statement (0: no batching on this database).
    let rows: Int
    private let runBatch: (([Value]) throws -> Void)?
    private let runOne: ([Value]) throws -> Void
    /// Key, value, key, value… of the rows not written yet (then their keys
    /// again, for the IN list, added when the batch is full).
    // Unchecked exclusivity: touched once per row of a bulk save, in short
    // accesses that call nothing that could touch them again.
    @exclusivity(unchecked) private var pending: [Value] = []
    @exclusivity(unchecked) private var lastKey = Int64.min
    @exclusivity(unchecked) private var pair: [Value] = [.null, .null]

    /// `table` and `column` come quoted (`SQLIdentifier.quoted`).
    init(table t: String, column c: String, database: any SQLDatabase) throws {
        runOne = try database.preparedRunner("UPDATE \(t) SET \(c) = ? WHERE \(StoreMapping.quotedPrimaryKey) = ?")
        let rows = Self.batchRows(database)
        if rows > 1 {
            let whens = Array(repeating: "WHEN ? THEN ?", count: rows).joined(separator: " ")
            let keys = Array(repeating: "?", count: rows).joined(separator: ", ")
            runBatch = try database.preparedRunner("UPDATE \(t) SET \(c) = CASE \(StoreMapping.quotedPrimaryKey) \(whens) END WHERE \(StoreMapping.quotedPrimaryKey) IN (\(keys))")
            self.rows = rows
            pending.reserveCapacity(3 * rows)
        } else {
            runBatch = nil
            self.rows = 0
        }
    }

    /// Sets the column of row `key` to `value` (now, or with its batch).
    func add(key: Int64, value: Value) throws {
        guard let runBatch else {
            pair[0] = value
            pair[1] = .int(key)
            return try runOne(pair)
        }
        if key <= lastKey { try flush() }
        lastKey = key
        pending.append(.int(key))
        pending.append(value)
        if pending.count == 2 * rows {
            for i in stride(from: 0, to: 2 * rows, by: 2) { pending.append(pending[i]) }
            try runBatch(pending)
            pending.removeAll(keepingCapacity: true)
        }
    }

    /// Writes the rows not written yet (one statement each: fewer than a batch).
    func flush() throws {
        var i = 0
        while i < pending.count {
            pair[0] = pending[i + 1]
            pair[1] = pending[i]
            try runOne(pair)
            i += 2
        }
        pending.removeAll(keepingCapacity: true)
        lastKey = .min
    }

    /// Rows per batch on SQLite (none elsewhere), fewer if the database binds fewer arguments.
    static func batchRows(_ database: any SQLDatabase) -> Int {
        database.dialect == .sqlite ? min(48, database.maximumArguments / 3) : 0
    }
}

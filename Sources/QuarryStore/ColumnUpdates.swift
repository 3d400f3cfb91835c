// The UPDATEs of a bulk edit, several rows per statement. A save of 500k
// objects that each had one attribute set runs the same one-column UPDATE
// 500k times, and each run of a statement costs SQLite more than the row
// it changes (binding, stepping into the VM, opening the table's cursor,
// halting and resetting: ~1,400 instructions in `sqlite3VdbeHalt` alone).
// On SQLite (3.33+, which has UPDATE … FROM) the rows go `rows` at a time:
//
//     WITH "_quarry_rows"("key", "value") AS (VALUES (?, ?), (?, ?), …)
//     UPDATE "Employee" SET "age" = "_quarry_rows"."value"
//     FROM "_quarry_rows" WHERE "Employee"."_pk" = "_quarry_rows"."key"
//
// which changes the same rows to the same values, in one statement run per
// batch. Values are still bound, never pasted. Rows left over (fewer than a
// batch) and other engines take the one-row UPDATE, one row at a time. The
// writer flushes the batch before it runs any other statement, so that the
// statements of a save reach the database in the order they were made
// (a UNIQUE value freed by one row may be taken by the next).
final class ColumnUpdates {
    /// Rows per batched statement (0: no batching on this database).
    let rows: Int
    private let runBatch: (([Value]) throws -> Void)?
    private let runOne: ([Value]) throws -> Void
    /// Key, value, key, value… of the rows not written yet.
    private var pending: [Value] = []
    private var pair: [Value] = [.null, .null]

    /// `table` and `column` come quoted (`SQLIdentifier.quoted`).
    init(table t: String, column c: String, database: any SQLDatabase) throws {
        runOne = try database.preparedRunner("UPDATE \(t) SET \(c) = ? WHERE \"_pk\" = ?")
        let rows = Self.batchRows(database)
        if rows > 1 {
            let values = Array(repeating: "(?, ?)", count: rows).joined(separator: ", ")
            runBatch = try database.preparedRunner(
                "WITH \"_quarry_rows\"(\"key\", \"value\") AS (VALUES \(values)) "
                + "UPDATE \(t) SET \(c) = \"_quarry_rows\".\"value\" FROM \"_quarry_rows\" WHERE \(t).\"_pk\" = \"_quarry_rows\".\"key\"")
            self.rows = rows
            pending.reserveCapacity(2 * rows)
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
        pending.append(.int(key))
        pending.append(value)
        if pending.count == 2 * rows {
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
    }

    /// Rows per batch: 256, or fewer when the database binds fewer
    /// arguments; none where UPDATE … FROM is not known to work.
    static func batchRows(_ database: any SQLDatabase) -> Int {
        guard database.dialect == .sqlite, SQLiteVersion.updatesFrom(database) else { return 0 }
        return min(256, database.maximumArguments / 2)
    }
}

/// Whether the SQLite library in use runs UPDATE … FROM (3.33.0 and later):
/// asked of the database once per process (there is one SQLite library).
enum SQLiteVersion {
    // Written once, always to the same answer: a race would only ask twice.
    nonisolated(unsafe) private static var known: Bool?

    static func updatesFrom(_ database: any SQLDatabase) -> Bool {
        if let known { return known }
        var answer = false
        if case .string(let version)? = (try? database.rows("SELECT sqlite_version()"))?.first?.first {
            let parts = version.split(separator: ".").map { Int($0) ?? 0 } + [0, 0, 0]
            answer = (parts[0], parts[1]) >= (3, 33)
        }
        known = answer
        return answer
    }
}

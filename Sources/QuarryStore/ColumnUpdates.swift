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
//
// Rows the save holds to the version the context read (optimistic locking)
// have their claim folded in: the same statement also requires each row's
// version — `AND "_version" = CASE "_pk" WHEN ? THEN ? … END` — and raises
// it, and the number of rows changed tells whether every row still had it.
final class ColumnUpdates {
    /// Rows per batched statement (0: no batching on this database).
    let rows: Int
    /// Whether each row is held to the version the context read, its claim
    /// folded into this UPDATE (ContextWriter+Versions.swift): the WHERE
    /// also matches the version, the SET raises it by one, and a run that
    /// changes fewer rows than it was given throws `FoldedClaimMissed`.
    let checksVersions: Bool
    /// The batched UPDATE, compiled when the first batch is full: a save of
    /// fewer rows (most saves) never needs it.
    private let batchSQL: (() -> String)?
    private var runBatch: (([Value]) throws -> Int)?
    private let database: any SQLDatabase
    private let runOne: ([Value]) throws -> Int
    /// Key, value, key, value… of the rows not written yet (then their keys
    /// again, for the IN list, added when the batch is full).
    // Unchecked exclusivity: touched once per row of a bulk save, in short
    // accesses that call nothing that could touch them again.
    @exclusivity(unchecked) private var pending: [Value] = []
    /// With `checksVersions`: key, version read, key, version read… of the
    /// same rows (the WHERE's CASE).
    @exclusivity(unchecked) private var versions: [Value] = []
    @exclusivity(unchecked) private var lastKey = Int64.min
    @exclusivity(unchecked) private var one: [Value]

    /// `table` and `column` come quoted (`SQLIdentifier.quoted`).
    init(table t: String, column c: String, checksVersions: Bool = false, database: any SQLDatabase) throws {
        self.checksVersions = checksVersions
        let k = StoreMapping.quotedPrimaryKey
        let v = SQLIdentifier.quoted(StoreMapping.versionColumn)
        let bump = checksVersions ? ", \(v) = \(v) + 1" : ""
        runOne = try database.preparedCountingRunner("UPDATE \(t) SET \(c) = ?\(bump) WHERE \(k) = ?" + (checksVersions ? " AND \(v) = ?" : ""))
        one = Array(repeating: .null, count: checksVersions ? 3 : 2)
        let rows = Self.batchRows(database, checksVersions: checksVersions)
        if rows > 1 {
            // Text made only when the first batch fills, like its statement:
            // building it for every one-row save cost more than the save's UPDATE.
            batchSQL = {
                let whens = Array(repeating: "WHEN ? THEN ?", count: rows).joined(separator: " ")
                let keys = Array(repeating: "?", count: rows).joined(separator: ", ")
                let held = checksVersions ? " AND \(v) = CASE \(k) \(whens) END" : ""
                return "UPDATE \(t) SET \(c) = CASE \(k) \(whens) END\(bump) WHERE \(k) IN (\(keys))\(held)"
            }
            self.rows = rows
        } else {
            batchSQL = nil
            self.rows = 0
        }
        self.database = database
    }

    /// Sets the column of row `key` to `value` (now, or with its batch);
    /// `version` is the one the context read (ignored without `checksVersions`).
    func add(key: Int64, value: Value, version: Int64 = 0) throws {
        guard let batchSQL else {
            one[0] = value
            one[1] = .int(key)
            if checksVersions { one[2] = .int(version) }
            return try expect(runOne(one), 1)
        }
        if key <= lastKey { try flush() }
        lastKey = key
        pending.append(.int(key))
        pending.append(value)
        if checksVersions {
            versions.append(.int(key))
            versions.append(.int(version))
        }
        if pending.count == 2 * rows {
            for i in stride(from: 0, to: 2 * rows, by: 2) { pending.append(pending[i]) }
            if checksVersions {
                pending.append(contentsOf: versions)
                versions.removeAll(keepingCapacity: true)
            }
            if runBatch == nil { runBatch = try database.preparedCountingRunner(batchSQL()) }
            try expect(runBatch!(pending), rows)
            pending.removeAll(keepingCapacity: true)
        }
    }

    /// Forgets rows added and not written (a save that failed before its
    /// flush): the next save starts empty.
    func discardPending() {
        pending.removeAll(keepingCapacity: true)
        versions.removeAll(keepingCapacity: true)
        lastKey = .min
    }

    /// Writes the rows not written yet (one statement each: fewer than a batch).
    func flush() throws {
        var i = 0
        while i < pending.count {
            one[0] = pending[i + 1]
            one[1] = pending[i]
            if checksVersions { one[2] = versions[i + 1] }
            try expect(runOne(one), 1)
            i += 2
        }
        pending.removeAll(keepingCapacity: true)
        versions.removeAll(keepingCapacity: true)
        lastKey = .min
    }

    /// A row held to its version that did not match was changed or deleted
    /// since the context read it: the save starts over, claiming first.
    private func expect(_ changed: Int, _ count: Int) throws {
        if checksVersions && changed != count { throw FoldedClaimMissed() }
    }

    /// Rows per batch on SQLite (none elsewhere), fewer if the database binds fewer arguments.
    static func batchRows(_ database: any SQLDatabase, checksVersions: Bool = false) -> Int {
        database.dialect == .sqlite ? min(48, database.maximumArguments / (checksVersions ? 5 : 3)) : 0
    }
}

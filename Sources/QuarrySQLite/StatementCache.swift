// StatementCache: prepared statements kept by SQL text, so that running the
// same query again skips parsing and planning (the cost that dominates a
// short query). Bounded: when full, the least recently used statement goes.
//
// Recency is a counter stamped on each use; eviction scans for the oldest
// stamp. With the small capacities used here (tens of statements) the scan
// is cheaper than keeping a linked list up to date on every hit, and it
// happens only when a new statement arrives in a full cache.
//
// Eviction only drops the cache's reference: a statement someone is still
// stepping is finalized when they let go (SQLiteStatement.deinit).

final class StatementCache {
    private struct Entry {
        let statement: SQLiteStatement
        var lastUse: UInt64
    }

    let capacity: Int
    private var entries: [String: Entry] = [:]
    private var clock: UInt64 = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        entries.reserveCapacity(self.capacity)
    }

    var count: Int { entries.count }

    /// The cached statement for `sql`, marked as just used.
    func statement(for sql: String) -> SQLiteStatement? {
        guard var entry = entries[sql] else { return nil }
        clock &+= 1
        entry.lastUse = clock
        entries[sql] = entry
        return entry.statement
    }

    /// Caches `statement` under its SQL, evicting the least recently used one if full.
    func insert(_ statement: SQLiteStatement) {
        guard capacity > 0 else { return }
        if entries[statement.sql] == nil, entries.count >= capacity,
           let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            entries.removeValue(forKey: oldest)
        }
        clock &+= 1
        entries[statement.sql] = Entry(statement: statement, lastUse: clock)
    }

    func contains(_ sql: String) -> Bool { entries[sql] != nil }

    /// Drops every statement (before closing, or after a schema change that
    /// the caller wants to see planned afresh).
    func removeAll() { entries.removeAll() }
}

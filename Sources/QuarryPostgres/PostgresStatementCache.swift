// The per-connection cache of server-side prepared statements.
//
// Why: PostgreSQL parses and plans every unnamed statement again; a store
// runs the same few statements (fetch by key, the per-object UPDATE of a
// save) thousands of times. A named prepared statement is parsed once and
// then only bound and executed.
//
// Why "prepare on the second sighting": preparing costs one extra round trip
// and server memory, which one-off statements (the shell's ad-hoc queries,
// schema checks) would pay for nothing. So a statement runs unnamed the first
// time, and is prepared once the same text (with the same parameter types)
// comes again. Both tables are bounded; the least recently used entry goes
// first, and an evicted prepared statement is deallocated on the server.
//
// The key is the SQL text plus the parameter casts (see PostgresPlaceholders):
// the same text with an int in one call and a double in the next needs two
// statements, since a prepared statement's parameter types are fixed.
import PostgresNIO

struct PostgresStatementCache {
    struct Key: Hashable {
        let sql: String
        let casts: [String]
    }

    private struct Entry {
        let statement: PreparedQuery
        var lastUse: UInt64
    }

    /// How many prepared statements to keep (0 disables preparing).
    let capacity: Int
    /// How many times a statement must be seen before it is prepared.
    let threshold: Int

    private var prepared: [Key: Entry] = [:]
    private var sightings: [Key: (count: Int, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0

    /// Statements prepared so far (for tests and `.stats`-like output).
    private(set) var prepareCount = 0
    /// Executions that reused a prepared statement.
    private(set) var hitCount = 0

    init(capacity: Int, threshold: Int) {
        self.capacity = max(0, capacity)
        self.threshold = max(1, threshold)
    }

    var count: Int { prepared.count }

    /// The prepared statement for `key`, if cached (marks it used).
    mutating func lookup(_ key: Key) -> PreparedQuery? {
        clock &+= 1
        guard var entry = prepared[key] else { return nil }
        entry.lastUse = clock
        prepared[key] = entry
        hitCount += 1
        return entry.statement
    }

    /// Records one more use of an unprepared `key`; true when it is now
    /// worth preparing.
    mutating func shouldPrepare(_ key: Key) -> Bool {
        guard capacity > 0 else { return false }
        clock &+= 1
        let seen = (sightings[key]?.count ?? 0) + 1
        if seen >= threshold {
            sightings[key] = nil
            return true
        }
        sightings[key] = (seen, clock)
        if sightings.count > capacity * 4 {
            // Forget the oldest half of the one-off statements.
            let cut = sightings.values.map(\.lastUse).sorted()[sightings.count / 2]
            sightings = sightings.filter { $0.value.lastUse > cut }
        }
        return false
    }

    /// Stores `statement` for `key`; returns the statements evicted to make
    /// room (the caller deallocates them on the server).
    mutating func insert(_ statement: PreparedQuery, for key: Key) -> [PreparedQuery] {
        clock &+= 1
        prepared[key] = Entry(statement: statement, lastUse: clock)
        prepareCount += 1
        var evicted: [PreparedQuery] = []
        while prepared.count > capacity, let oldest = prepared.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            evicted.append(oldest.value.statement)
            prepared[oldest.key] = nil
        }
        return evicted
    }

    /// Forgets `key` (its statement failed as stale); returns it for deallocation.
    mutating func remove(_ key: Key) -> PreparedQuery? {
        prepared.removeValue(forKey: key)?.statement
    }

    /// Forgets everything (after DDL); returns the statements to deallocate.
    mutating func removeAll() -> [PreparedQuery] {
        let all = prepared.values.map(\.statement)
        prepared = [:]
        sightings = [:]
        return all
    }
}

// Recording persistent history (History.swift has the values,
// StoreMapping+History.swift the tables). Each write path — a context's
// save, each batch request, the store's own insert and link — opens a
// draft inside its transaction, notes every object it writes, and writes
// the draft as its last statements before COMMIT: the history commits with
// the writes or, when anything fails, rolls back with them. A write nested
// in another (a batch request called inside another's transaction) joins
// the outer draft, so one transaction is one history transaction.
import Foundation

/// Per store: whether history is recorded, who writes, the draft being filled.
final class HistoryState {
    /// Read from `_quarry_metadata` at open, changed by `setHistoryTracking`.
    var enabled = false
    /// Who the next batch request writes for (set by a context around its
    /// batch calls; saves pass their context's own).
    var author: String?
    var contextName: String?
    /// The draft of the write transaction open now, if any.
    var open: HistoryDraft?
}

/// One transaction's changes as they are noted.
final class HistoryDraft {
    let kind: HistoryRequestKind
    let author: String?
    let contextName: String?
    private(set) var changes: [HistoryChange] = []
    /// Set when an object may be noted twice (a batch delete nullifies keys
    /// of rows it may then delete): changes are merged per object on write.
    var mayRepeat = false

    init(kind: HistoryRequestKind, author: String?, contextName: String?) {
        self.kind = kind
        self.author = author
        self.contextName = contextName
    }

    func note(_ id: ObjectID, _ type: HistoryChangeType, keys: [String] = [], tombstone: [String: Value] = [:]) {
        changes.append(HistoryChange(objectID: id, type: type, changedKeys: type == .update ? keys.sorted() : [], tombstone: tombstone))
    }

    /// One change per object, in the order each object was first noted:
    /// insert then update is an insert; updates join their keys; anything
    /// then delete is a delete (an insert then delete is nothing).
    func coalesced() -> [HistoryChange] {
        guard mayRepeat else { return changes }
        var order: [ObjectID] = []
        var merged: [ObjectID: HistoryChange] = [:]
        var dropped: Set<ObjectID> = []
        for change in changes {
            let id = change.objectID
            guard var known = merged[id] else {
                if !dropped.contains(id) { order.append(id); merged[id] = change }
                continue
            }
            switch (known.type, change.type) {
            case (.insert, .delete): merged[id] = nil; dropped.insert(id)
            case (_, .delete): merged[id] = change
            case (.update, .update):
                known.changedKeys = Array(Set(known.changedKeys).union(change.changedKeys)).sorted()
                merged[id] = known
            default: break
            }
        }
        return order.compactMap { merged[$0] }
    }
}

/// The draft a write fills: `owns` when this write opened it (and writes it).
struct HistoryScope {
    let draft: HistoryDraft
    let owns: Bool
}

extension SQLStore {
    /// Opens the history draft of a write (call inside its transaction); nil
    /// when the store does not record history. Pair with `endHistory` (in a
    /// `defer`) and, last before COMMIT, `writeHistory`.
    func beginHistory(_ kind: HistoryRequestKind, author: String? = nil, contextName: String? = nil) -> HistoryScope? {
        guard historyState.enabled else { return nil }
        if let open = historyState.open { return HistoryScope(draft: open, owns: false) }
        let draft = HistoryDraft(kind: kind, author: author ?? historyState.author, contextName: contextName ?? historyState.contextName)
        historyState.open = draft
        return HistoryScope(draft: draft, owns: true)
    }

    /// Closes the draft (written or not: a failed write leaves no history).
    func endHistory(_ scope: HistoryScope?) {
        if let scope, scope.owns, historyState.open === scope.draft { historyState.open = nil }
    }

    /// `body` with a history draft of its own (or the outer write's), the
    /// draft written after it; for writes whose transaction is `body`'s caller's.
    func recordingHistory<T>(_ kind: HistoryRequestKind, _ body: (HistoryDraft?) throws -> T) throws -> T {
        let scope = beginHistory(kind)
        defer { endHistory(scope) }
        let result = try body(scope?.draft)
        try writeHistory(scope)
        return result
    }

    /// Writes the transaction row and its change rows (inside the write's
    /// transaction). On PostgreSQL the history table is locked until COMMIT
    /// first, so that tokens are handed out in commit order: a reader that
    /// saw token N never later finds a transaction below N appear.
    func writeHistory(_ scope: HistoryScope?) throws {
        guard let scope, scope.owns else { return }
        let changes = scope.draft.coalesced()
        // A write that changed nothing (a batch matching no row) is no transaction.
        guard !changes.isEmpty else { return }
        let t = SQLIdentifier.quoted(StoreMapping.historyTable), c = SQLIdentifier.quoted(StoreMapping.historyChangesTable)
        if database.dialect == .postgres { try database.run("LOCK TABLE \(t) IN SHARE ROW EXCLUSIVE MODE") }
        let draft = scope.draft
        let rows = try database.query("INSERT INTO \(t) (\"timestamp\", \"author\", \"context\", \"kind\") VALUES (?, ?, ?, ?) RETURNING \"token\"",
                                      [.double(now()), draft.author.map { .string($0) } ?? .null, draft.contextName.map { .string($0) } ?? .null,
                                       .string(draft.kind.rawValue)], as: [.int])
        guard case .int(let token)? = rows.first?.first else { return }
        let columns = 7
        func arguments(_ i: Int, _ change: HistoryChange) throws -> [Value] {
            [.int(token), .int(Int64(i)), .string(change.objectID.entity), .int(change.objectID.primaryKey), .string(change.type.rawValue),
             change.changedKeys.isEmpty ? .null : .string(change.changedKeys.joined(separator: ",")),
             change.tombstone.isEmpty ? .null : .string(try HistoryCoding.encode(change.tombstone))]
        }
        let prefix = "INSERT INTO \(c) (\"token\", \"seq\", \"entity\", \"pk\", \"change\", \"keys\", \"tombstone\") VALUES "
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
        if database.dialect == .sqlite {
            // In-process: one prepared statement stepped per row is fastest.
            let run = try database.preparedRunner(prefix + row)
            for (i, change) in changes.enumerated() { try run(try arguments(i, change)) }
            return
        }
        // A server: many rows per statement, within the bound-argument limit.
        let size = max(1, min(500, database.maximumArguments / columns))
        var start = 0
        while start < changes.count {
            let end = min(start + size, changes.count)
            var values: [Value] = []
            values.reserveCapacity((end - start) * columns)
            for i in start..<end { values += try arguments(i, changes[i]) }
            try database.run(prefix + Array(repeating: row, count: end - start).joined(separator: ", "), values)
            start = end
        }
        // Tell listeners in other sessions and processes (PostgreSQL's
        // NOTIFY is delivered at COMMIT, and not at all on ROLLBACK):
        // "schema token" on one channel (HistoryNotification).
        try database.run("SELECT pg_notify('\(HistoryNotification.channel)', current_schema() || ' ' || ?)", [.string(String(token))])
    }
}

/// What a PostgreSQL store sends on each history transaction it commits,
/// for `PostgresHistoryListener` (QuarryPostgres) to hear.
public enum HistoryNotification {
    /// The channel every Quarry store notifies on; the payload names the schema.
    public static let channel = "quarry_history"

    /// The schema and token in a payload ("schema token"), or nil for one that is not Quarry's.
    public static func parse(_ payload: String) -> (schema: String, token: HistoryToken)? {
        guard let space = payload.lastIndex(of: " "), let value = Int64(payload[payload.index(after: space)...]) else { return nil }
        return (String(payload[..<space]), HistoryToken(value))
    }
}

/// Tombstones as text in the changes table: Value's Codable form (JSON with
/// tagged objects for dates, data, UUIDs…), which reads back unchanged.
enum HistoryCoding {
    static func encode(_ values: [String: Value]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(values), as: UTF8.self)
    }

    static func decode(_ text: String) throws -> [String: Value] {
        try JSONDecoder().decode([String: Value].self, from: Data(text.utf8))
    }
}

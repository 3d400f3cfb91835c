// The values of persistent history, as a store hands them out
// (SQLStore+History.swift): a transaction per save or batch request, with
// a change per object it wrote. All are Sendable values, so history read on
// one thread can be merged by a context on another (Context+History.swift);
// a token is Codable, so a process can keep the last one it processed and
// ask only for what came after it next time.
import Foundation

/// Where a reader stands in a store's history: the token of a transaction.
/// Tokens increase with each recorded transaction, in commit order.
///
/// ```swift
/// let saved = try JSONEncoder().encode(token)       // keep it across launches
/// let next = try store.history(after: JSONDecoder().decode(HistoryToken.self, from: saved))
/// ```
public struct HistoryToken: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let value: Int64

    public init(_ value: Int64) { self.value = value }

    public static func < (a: HistoryToken, b: HistoryToken) -> Bool { a.value < b.value }

    /// A bare number in JSON, as it is printed.
    public init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Int64.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    public var description: String { String(value) }
}

/// What a change did to its object.
public enum HistoryChangeType: String, Sendable, Codable, CaseIterable {
    case insert, update, delete
}

/// Which write made a transaction.
public enum HistoryRequestKind: String, Sendable, Codable, CaseIterable {
    /// A context's `save()`.
    case save
    /// A batch update (one UPDATE in SQL, or object by object).
    case batchUpdate
    /// A batch delete, with what its delete rules changed.
    case batchDelete
    /// A batch insert.
    case batchInsert
    /// The store's own `insert` and `link`.
    case storeWrite
}

/// One object's change in a transaction.
public struct HistoryChange: Sendable, Hashable {
    /// The object (its entity is the row's own, never an abstract parent).
    public var objectID: ObjectID
    public var type: HistoryChangeType
    /// For an update: the attributes and relationships written, sorted.
    /// Empty for inserts and deletions.
    public var changedKeys: [String]
    /// For a deletion: the last values of the attributes the model marks
    /// `preserveAfterDeletion` (Core Data's tombstone). Empty otherwise.
    public var tombstone: [String: Value]

    public init(objectID: ObjectID, type: HistoryChangeType, changedKeys: [String] = [], tombstone: [String: Value] = [:]) {
        self.objectID = objectID
        self.type = type
        self.changedKeys = changedKeys
        self.tombstone = tombstone
    }
}

/// One recorded write transaction and its changes.
public struct HistoryTransaction: Sendable, Hashable {
    public var token: HistoryToken
    /// When it was recorded (the store's clock, `SQLStore.now`).
    public var timestamp: Date
    /// The writing context's `transactionAuthor`, if any.
    public var author: String?
    /// The writing context's `name`, if any.
    public var contextName: String?
    public var kind: HistoryRequestKind
    /// In the order they were written.
    public var changes: [HistoryChange]
}

/// Persistent history asked of a store that does not keep it.
public struct HistoryError: Error, Equatable, CustomStringConvertible {
    public var location: String
    public var reason: String

    public var description: String { "the store at \(location) \(reason)" }

    static func notTracked(_ location: String) -> HistoryError {
        HistoryError(location: location, reason: "has no persistent history: it was never turned on (`store.setHistoryTracking(true)`, or `.history on` in the shell)")
    }
}

extension HistoryError: QuarryError {
    /// R004: what a store cannot do.
    public var report: ErrorReport { ErrorReport(code: "R004", message: description) }
}

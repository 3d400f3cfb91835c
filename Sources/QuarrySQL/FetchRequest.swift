// What a fetch asks for: an entity, a predicate, sort descriptors, a limit
// and an offset. The planner turns it into SQL (SQLPlanner.swift).

/// One sort key: a to-one key path, its direction, and whether strings
/// compare case-insensitively (Core Data's `caseInsensitiveCompare:`).
public struct SortDescriptor: Sendable, Equatable {
    public var keyPath: String
    public var ascending: Bool
    public var caseInsensitive: Bool

    public init(_ keyPath: String, ascending: Bool = true, caseInsensitive: Bool = false) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.caseInsensitive = caseInsensitive
    }
}

/// A fetch request, as Core Data's `NSFetchRequest` describes one.
///
/// ```swift
/// var request = FetchRequest(entity: "Employee")
/// request.predicate = try Parser.parsePredicate("salary > %@", arguments: [.int(50_000)])
/// request.sortDescriptors = [SortDescriptor("name")]
/// request.fetchLimit = 30
/// ```
public struct FetchRequest: Sendable {
    public var entity: String
    public var predicate: QuarrySyntax.Predicate?
    public var sortDescriptors: [SortDescriptor]
    public var fetchLimit: Int?
    public var fetchOffset: Int

    public init(entity: String, predicate: QuarrySyntax.Predicate? = nil, sortDescriptors: [SortDescriptor] = [],
                fetchLimit: Int? = nil, fetchOffset: Int = 0) {
        self.entity = entity
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
    }
}

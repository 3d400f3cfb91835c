// What a fetch asks for: an entity, a predicate, sort descriptors, a limit
// and an offset, and for a context also how to load the objects (batches,
// prefetched relationships). The planner turns it into SQL (SQLPlanner.swift).

/// One sort key: a to-one key path, its direction, and whether strings
/// compare case-insensitively (Core Data's `caseInsensitiveCompare:`).
public struct QuerySortDescriptor: Sendable, Equatable {
    public var keyPath: String
    public var ascending: Bool
    public var caseInsensitive: Bool

    public init(_ keyPath: String, ascending: Bool = true, caseInsensitive: Bool = false) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.caseInsensitive = caseInsensitive
    }
}

/// A property of a dictionary result: a name and the expression that gives
/// its value — a key path (`department.name`), an aggregate over the rows or
/// groups (`average:(salary)`), or one over a to-many relationship
/// (`count:(employees)`), as Core Data's `NSExpressionDescription`.
public struct FetchProperty: Sendable, Equatable {
    public var name: String
    public var expression: QueryExpression

    public init(name: String, expression: QueryExpression) {
        self.name = name
        self.expression = expression
    }

    /// A property that is a key path, named after it.
    public init(keyPath: String) throws(Diagnostic) {
        self.name = keyPath
        self.expression = try Parser.parseExpression(keyPath)
    }
}

/// A fetch request, as Core Data's `NSFetchRequest` describes one.
///
/// ```swift
/// var request = FetchRequest(entity: "Employee")
/// request.predicate = try Parser.parsePredicate("salary > %@", arguments: [.int(50_000)])
/// request.sortDescriptors = [QuerySortDescriptor("name")]
/// request.fetchLimit = 30
/// ```
public struct FetchRequest: Sendable {
    public var entity: String
    public var predicate: QueryPredicate?
    public var sortDescriptors: [QuerySortDescriptor]
    public var fetchLimit: Int?
    public var fetchOffset: Int
    /// Dictionary results: the properties of each row (empty: objects).
    public var propertiesToFetch: [FetchProperty] = []
    /// Dictionary results: rows are groups with equal values of these.
    public var propertiesToGroupBy: [FetchProperty] = []
    /// A predicate over the groups; it may name the fetched properties.
    public var havingPredicate: QueryPredicate?
    /// Dictionary results: drop repeated rows.
    public var returnsDistinctResults = false
    /// How many objects a lazy result loads at a time (0: all at once).
    public var fetchBatchSize = 0
    /// Relationship key paths whose objects a context loads right after the
    /// fetch, one query per path segment (`["department",
    /// "department.employees"]`), so that reading them later runs no query —
    /// Core Data's `relationshipKeyPathsForPrefetching`. Ignored by a store's
    /// own `fetch`, whose objects load relationships on first touch.
    public var relationshipKeyPathsForPrefetching: [String] = []
    /// Whether a context's unsaved changes take part (objects, counts and
    /// dictionary results alike; Core Data ignores them for dictionaries).
    public var includesPendingChanges = true
    /// Whether objects of sub-entities are fetched with the entity's own
    /// (Core Data's default, true: a fetch of an abstract `Person` returns
    /// its `Employee`s and `Customer`s); false selects exactly the entity
    /// (`FETCH ONLY Person` in the shell), so an abstract one gives nothing.
    public var includesSubentities = true
    /// Core Data's flag (default true). A context's fetch reads the rows it
    /// selects either way (what Core Data keeps in its row cache Quarry puts
    /// in the objects), so it matters only with `fetchBatchSize`: false loads
    /// the first batch's rows with the fetch (Context+FaultingOptions.swift).
    public var returnsObjectsAsFaults = true

    public init(entity: String, predicate: QueryPredicate? = nil, sortDescriptors: [QuerySortDescriptor] = [],
                fetchLimit: Int? = nil, fetchOffset: Int = 0) {
        self.entity = entity
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
    }
}

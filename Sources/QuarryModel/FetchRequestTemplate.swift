// Stored queries of a model: fetch request templates (named fetch requests
// with a predicate, usually with `$VARIABLES` filled in at fetch time),
// fetched properties (a per-entity query that reads like a property), and
// configurations (named subsets of entities).
//
// Predicates are kept both as the text the file holds and as the parsed
// tree: parsing at load time means a bad predicate is reported against the
// model file, not later at fetch time far from its cause.
import QuarrySyntax

/// A named fetch request stored in a model (Xcode's "Fetch Requests").
///
/// ```swift
/// let t = try FetchRequestTemplate(name: "wellPaid", entity: "Employee",
///                                  predicateFormat: "salary > $minimum")
/// ```
public struct FetchRequestTemplate: Sendable, Equatable {
    public var name: String
    /// The entity fetched.
    public var entity: String
    /// The predicate as written in the file; nil fetches every object.
    public var predicateFormat: String?
    /// The parsed predicate (variables still unsubstituted).
    public var predicate: QueryPredicate?
    /// Most objects returned; nil for no limit.
    public var fetchLimit: Int?

    /// Parses `predicateFormat`; a syntax error is thrown as the parser's diagnostic.
    public init(name: String, entity: String, predicateFormat: String?, fetchLimit: Int? = nil) throws(Diagnostic) {
        self.name = name
        self.entity = entity
        self.predicateFormat = predicateFormat
        self.predicate = try predicateFormat.map { (text) throws(Diagnostic) in try Parser.parsePredicate(text) }
        self.fetchLimit = fetchLimit
    }

    /// A template from an already parsed predicate; its text is the canonical print.
    public init(name: String, entity: String, predicate: QueryPredicate?, fetchLimit: Int? = nil) {
        self.name = name
        self.entity = entity
        self.predicate = predicate
        self.predicateFormat = predicate.map(Printer.format)
        self.fetchLimit = fetchLimit
    }

    public static func == (a: Self, b: Self) -> Bool {
        // The text may differ in spelling (`&&` vs `AND`, quotes) while the
        // meaning is the same; compare the parsed trees.
        a.name == b.name && a.entity == b.entity && a.predicate == b.predicate && a.fetchLimit == b.fetchLimit
    }
}

/// A fetched property: a query evaluated per object that reads like a
/// to-many property (`$FETCH_SOURCE` is the object, `$FETCHED_PROPERTY` the
/// property description).
public struct FetchedProperty: Sendable, Equatable {
    public var name: String
    /// The entity the query fetches.
    public var destination: String
    public var predicateFormat: String?
    public var predicate: QueryPredicate?

    public init(name: String, destination: String, predicateFormat: String?) throws(Diagnostic) {
        self.name = name
        self.destination = destination
        self.predicateFormat = predicateFormat
        self.predicate = try predicateFormat.map { (text) throws(Diagnostic) in try Parser.parsePredicate(text) }
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.name == b.name && a.destination == b.destination && a.predicate == b.predicate
    }
}

/// A named subset of a model's entities (for stores that hold only some).
public struct Configuration: Sendable, Equatable {
    public var name: String
    public var entities: [String]

    public init(name: String, entities: [String]) {
        self.name = name
        self.entities = entities
    }
}

// FetchIndex and UniquenessConstraint: the per-entity store hints Core Data
// models carry. Indexes speed up fetches (the SQL layer creates them);
// uniqueness constraints make the store merge or reject objects that repeat
// a value (or a combination of values).

/// One element of a fetch index: a property (or, rarely, an expression) and
/// its order.
public struct FetchIndexElement: Sendable, Equatable {
    /// The kinds of index Core Data can build.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// An ordinary B-tree index ("Binary" in Xcode's XML).
        case binary = "Binary"
        /// An R-tree, for range queries over two numbers.
        case rTree = "RTree"
    }

    /// The indexed property's name; nil when the element is an expression.
    public var property: String?
    /// An expression format string, for expression elements.
    public var expression: String?
    public var kind: Kind
    public var isAscending: Bool

    public init(property: String, kind: Kind = .binary, isAscending: Bool = true) {
        self.property = property
        self.expression = nil
        self.kind = kind
        self.isAscending = isAscending
    }

    public init(expression: String, kind: Kind = .binary, isAscending: Bool = true) {
        self.property = nil
        self.expression = expression
        self.kind = kind
        self.isAscending = isAscending
    }
}

/// A named index over one or more properties of an entity.
///
/// ```swift
/// let byName = FetchIndex(name: "byNameIndex", elements: [FetchIndexElement(property: "name")])
/// ```
public struct FetchIndex: Sendable, Equatable {
    public var name: String
    public var elements: [FetchIndexElement]
    /// Declared the old way in Xcode's XML (`indexed="YES"` on an attribute,
    /// or `<compoundIndexes>`) rather than as a named fetch index: Core Data
    /// names the SQL index of such an index after its properties, not after
    /// `name` (QuarryCoreData's CoreDataStoreLayout). Not part of equality
    /// (see FileDetail).
    public var isDeclaredByProperties: Bool {
        get { declaredDetail.value }
        set { declaredDetail.value = newValue }
    }
    private var declaredDetail = FileDetail<Bool>(false)

    public init(name: String, elements: [FetchIndexElement]) {
        self.name = name
        self.elements = elements
    }

    /// The name Xcode gives a new index over these properties, and the name
    /// Quarry's YAML gives unnamed ones: `byNameIndex`, `byLastNameFirstNameIndex`.
    public static func defaultName(for properties: [String]) -> String {
        "by" + properties.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() + "Index"
    }
}

/// A set of properties whose combined values must be unique among the
/// entity's objects (one property for a plain unique attribute).
public struct UniquenessConstraint: Sendable, Equatable {
    public var properties: [String]

    public init(_ properties: [String]) { self.properties = properties }
}

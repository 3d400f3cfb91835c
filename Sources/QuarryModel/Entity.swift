// Entity: one kind of object in a model — its own attributes, relationships
// and fetched properties, its parent (sub-entities inherit every property of
// their ancestors, as in Core Data), and its indexes and uniqueness
// constraints.
//
// An entity names its parent rather than holding it, so entities stay plain
// values; the helpers that need the hierarchy take the model (`in:`). They
// tolerate broken hierarchies (a missing parent, a cycle) so that validation
// can use them to describe the breakage.

/// Any property of an entity: what `property(named:)` finds.
public enum Property: Sendable, Equatable {
    case attribute(Attribute)
    case relationship(Relationship)
    case fetchedProperty(FetchedProperty)

    /// The property's name, whatever its kind.
    public var name: String {
        switch self {
        case .attribute(let a): return a.name
        case .relationship(let r): return r.name
        case .fetchedProperty(let f): return f.name
        }
    }
}

/// An entity of a model.
///
/// ```swift
/// let employee = Entity(name: "Employee", attributes: [Attribute(name: "name", type: .string)],
///                       relationships: [Relationship(name: "department", destination: "Department")])
/// ```
public struct Entity: Sendable, Equatable {
    public var name: String
    /// An abstract entity has no objects of its own, only of its sub-entities.
    public var isAbstract: Bool
    /// The parent entity's name.
    public var parent: String?
    /// Attributes declared here (not inherited), in file order.
    public var attributes: [Attribute]
    /// Relationships declared here (not inherited), in file order.
    public var relationships: [Relationship]
    public var fetchedProperties: [FetchedProperty]
    public var fetchIndexes: [FetchIndex]
    public var uniquenessConstraints: [UniquenessConstraint]
    public var userInfo: [String: String]
    /// Core Data's `versionHashModifier`: a free string that changes the
    /// entity's version hash (and so makes Core Data migrate) without
    /// changing its structure. Only the Core Data version hash reads it; not
    /// part of equality (see FileDetail), and not kept by ModelArchive.
    public var versionHashModifier: String? {
        get { modifierDetail.value }
        set { modifierDetail.value = newValue }
    }
    private var modifierDetail = FileDetail<String?>(nil)

    public init(name: String, isAbstract: Bool = false, parent: String? = nil,
                attributes: [Attribute] = [], relationships: [Relationship] = [],
                fetchedProperties: [FetchedProperty] = [], fetchIndexes: [FetchIndex] = [],
                uniquenessConstraints: [UniquenessConstraint] = [], userInfo: [String: String] = [:]) {
        self.name = name
        self.isAbstract = isAbstract
        self.parent = parent
        self.attributes = attributes
        self.relationships = relationships
        self.fetchedProperties = fetchedProperties
        self.fetchIndexes = fetchIndexes
        self.uniquenessConstraints = uniquenessConstraints
        self.userInfo = userInfo
    }

    /// Properties declared here, attributes first, then relationships, then
    /// fetched properties, each in file order.
    public var properties: [Property] {
        attributes.map(Property.attribute) + relationships.map(Property.relationship)
            + fetchedProperties.map(Property.fetchedProperty)
    }

    /// A property declared on this entity itself (not inherited).
    public func property(named name: String) -> Property? {
        if let a = attributes.first(where: { $0.name == name }) { return .attribute(a) }
        if let r = relationships.first(where: { $0.name == name }) { return .relationship(r) }
        if let f = fetchedProperties.first(where: { $0.name == name }) { return .fetchedProperty(f) }
        return nil
    }

    /// A property declared here or inherited from an ancestor (the nearest wins).
    public func property(named name: String, in model: Model) -> Property? {
        if let own = property(named: name) { return own }
        for ancestor in ancestors(in: model) {
            if let p = ancestor.property(named: name) { return p }
        }
        return nil
    }

    /// The attribute named `name`, own or inherited.
    public func attribute(named name: String, in model: Model) -> Attribute? {
        if case .attribute(let a)? = property(named: name, in: model) { return a }
        return nil
    }

    /// The relationship named `name`, own or inherited.
    public func relationship(named name: String, in model: Model) -> Relationship? {
        if case .relationship(let r)? = property(named: name, in: model) { return r }
        return nil
    }

    /// Ancestors, nearest first. Stops at a missing parent or a cycle.
    public func ancestors(in model: Model) -> [Entity] {
        // Most entities have no parent; this runs per object on hot paths.
        guard parent != nil else { return [] }
        var result: [Entity] = []
        var seen: Set<String> = [name]
        var next = parent
        while let parentName = next, !seen.contains(parentName), let p = model.entity(named: parentName) {
            result.append(p)
            seen.insert(parentName)
            next = p.parent
        }
        return result
    }

    /// Attributes including inherited ones, the root ancestor's first.
    public func allAttributes(in model: Model) -> [Attribute] {
        if parent == nil { return attributes }
        return ancestors(in: model).reversed().flatMap(\.attributes) + attributes
    }

    /// Relationships including inherited ones, the root ancestor's first.
    public func allRelationships(in model: Model) -> [Relationship] {
        if parent == nil { return relationships }
        return ancestors(in: model).reversed().flatMap(\.relationships) + relationships
    }

    /// Properties including inherited ones, the root ancestor's first.
    public func allProperties(in model: Model) -> [Property] {
        ancestors(in: model).reversed().flatMap(\.properties) + properties
    }

    /// The direct sub-entities, in model order.
    public func subentities(in model: Model) -> [Entity] {
        model.subentities(of: name)
    }

    /// Every descendant (sub-entities, their sub-entities...), depth first.
    /// An explicit stack rather than recursion: a hierarchy may be deep.
    public func allSubentities(in model: Model) -> [Entity] {
        var result: [Entity] = []
        var seen: Set<String> = [name]
        var stack: [Entity] = model.subentities(of: name).reversed()
        while let sub = stack.popLast() {
            guard seen.insert(sub.name).inserted else { continue }
            result.append(sub)
            stack.append(contentsOf: model.subentities(of: sub.name).reversed())
        }
        return result
    }

    /// Whether this entity is `other` or descends from it.
    public func isKind(of other: String, in model: Model) -> Bool {
        name == other || parent != nil && ancestors(in: model).contains { $0.name == other }
    }
}

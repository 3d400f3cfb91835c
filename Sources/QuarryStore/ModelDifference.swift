// The difference between the model a store was made with (saved in its
// metadata, ModelArchive.swift) and the model it is opened with, as Core
// Data's lightweight migration sees it: entities and properties matched by
// name or by renaming identifier, then each change listed and classified
// inferable (the store can be migrated in place, Migration.swift) or not
// (with the reason). The rules themselves are in ModelDifference+Rules.swift.
//
// Renaming identifiers: Quarry's Model has no field for them, so they come
// from `userInfo["renamingIdentifier"]` (which every model format keeps and
// the saved model carries) or from the `renames` argument, keyed as Core
// Data's reader in QuarryCoreData keys them: "Entity" → old entity name,
// "Entity.property" → old property name (a `contents` XML's `elementID`s,
// `RenamingIdentifiers`).
import QuarryModel

/// One change between two models.
public struct ModelChange: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        case entityAdded, entityRemoved, entityRenamed, parentChanged, abstractChanged
        case attributeAdded, attributeRemoved, attributeRenamed, typeChanged
        case madeRequired, madeOptional, defaultChanged, transientChanged
        case relationshipAdded, relationshipRemoved, relationshipRenamed
        case toOneBecameToMany, toManyBecameToOne, destinationChanged, orderedChanged, inverseChanged
        case indexAdded, indexRemoved, uniquenessAdded, uniquenessRemoved
        /// Validation rules, delete rules, user info, fetched properties,
        /// templates: nothing stored changes, the saved model does.
        case metadataChanged
    }

    public var kind: Kind
    /// The entity in the new model (the old name for a removed entity).
    public var entity: String
    /// The property in the new model (the old name for a removed one).
    public var property: String?
    /// What changed, in words ("salary: integer32 → integer64").
    public var detail: String
    /// Why the change cannot be inferred; nil when it can.
    public var refusal: String?

    public init(_ kind: Kind, _ entity: String, _ property: String? = nil, _ detail: String, refusal: String? = nil) {
        self.kind = kind
        self.entity = entity
        self.property = property
        self.detail = detail
        self.refusal = refusal
    }

    public var isInferable: Bool { refusal == nil }

    /// Whether the change alters what is stored (tables, columns, rows);
    /// a metadata change only alters the saved model.
    public var altersStorage: Bool {
        switch kind {
        case .madeOptional, .defaultChanged, .metadataChanged, .abstractChanged: return false
        default: return true
        }
    }

    /// One line: "+ Employee.email (string, optional)", "! …: reason".
    public var description: String {
        let subject = property.map { "\(entity).\($0)" } ?? entity
        return "\(refusal == nil ? "  " : "! ")\(kind.rawValue) \(subject): \(detail)" + (refusal.map { " — refused: \($0)" } ?? "")
    }
}

/// The changes from a store's saved model to a new one.
///
/// ```swift
/// let difference = ModelDifference(from: saved, to: model)
/// if difference.isInferable { try Migration.run(difference, on: store.database) }
/// else { print(difference.refusals) }
/// ```
public struct ModelDifference: Sendable {
    public let old: Model
    public let new: Model
    public internal(set) var changes: [ModelChange] = []
    /// New entity name → the old entity it continues (matched by name or renaming identifier).
    public internal(set) var entityMatch: [String: String] = [:]
    /// New entity → new property name → the old property it continues.
    public internal(set) var propertyMatch: [String: [String: String]] = [:]

    /// Compares `old` (the store's) with `new`. `renames` adds renaming
    /// identifiers to those the new model's user info carries.
    public init(from old: Model, to new: Model, renames: [String: String] = [:]) {
        self.old = old
        self.new = new
        compare(renames: renames)
    }

    /// No change at all: the store needs nothing, not even its saved model.
    public var isEmpty: Bool { changes.isEmpty }
    /// Every change can be inferred.
    public var isInferable: Bool { changes.allSatisfy(\.isInferable) }
    /// Some change alters tables, columns or rows.
    public var altersStorage: Bool { changes.contains(where: \.altersStorage) }
    /// The changes that cannot be inferred, with their reasons.
    public var refusals: [ModelChange] { changes.filter { !$0.isInferable } }
    /// Whether the two models share no entity: the store was made for
    /// another model, not an earlier version of this one.
    public var sharesNoEntity: Bool { entityMatch.isEmpty && !old.entities.isEmpty }

    /// The old name a new entity continues, if any.
    public func oldEntity(for newName: String) -> Entity? { entityMatch[newName].flatMap { old.entity(named: $0) } }

    /// The old property a new entity's property continues, if any.
    public func oldPropertyName(_ property: String, of entity: String) -> String? { propertyMatch[entity]?[property] }

    // MARK: - Comparing

    static let renamingKey = "renamingIdentifier"

    private mutating func compare(renames: [String: String]) {
        func renamed(_ key: String, _ info: [String: String]) -> String? {
            if let r = renames[key], !r.isEmpty { return r }
            if let r = info[Self.renamingKey], !r.isEmpty { return r }
            return nil
        }
        // Entities: every renaming identifier first, then names, so that a
        // new entity may take the name a renamed one left.
        var matchedOld: Set<String> = []
        for entity in new.entities {
            if let c = renamed(entity.name, entity.userInfo).flatMap({ old.entity(named: $0) }), matchedOld.insert(c.name).inserted {
                entityMatch[entity.name] = c.name
            }
        }
        for entity in new.entities where entityMatch[entity.name] == nil {
            if let c = old.entity(named: entity.name), matchedOld.insert(c.name).inserted { entityMatch[entity.name] = c.name }
        }
        var pairs: [(Relationship, Relationship, String)] = []
        for entity in new.entities {
            guard let was = oldEntity(for: entity.name) else {
                changes.append(Self.entityAdded(entity, in: new))
                continue
            }
            if was.name != entity.name {
                changes.append(ModelChange(.entityRenamed, entity.name, nil, "renamed from \(was.name)"))
            }
            // The new parent must continue the old one (a new entity as parent does not).
            let oldParent = was.parent, newParent = entity.parent
            let matchedParent = newParent.map { entityMatch[$0] ?? "\u{0}" + $0 }
            if matchedParent != oldParent {
                changes.append(ModelChange(.parentChanged, entity.name, nil, "parent \(oldParent ?? "none") → \(newParent ?? "none")",
                                           refusal: "moving an entity to another place in the hierarchy moves its rows between tables, which Quarry does not do yet (Core Data infers some of these)"))
            }
            if was.isAbstract != entity.isAbstract {
                changes.append(ModelChange(.abstractChanged, entity.name, nil, entity.isAbstract ? "made abstract" : "made concrete"))
            }
            pairs += compareProperties(entity, was, renamed: renamed)
            compareIndexes(entity, was)
        }
        // Relationship changes once every property is matched: an inverse
        // is compared through its destination's matches.
        for (was, now, entity) in pairs { changes += relationshipChanges(was, now, of: entity) }
        let kept = Set(entityMatch.values)
        for entity in old.entities where !kept.contains(entity.name) {
            changes.append(ModelChange(.entityRemoved, entity.name, nil, "removed with its objects"))
        }
        // What no rule above saw but makes the models differ: the saved model still changes.
        if changes.isEmpty && old != new {
            changes.append(ModelChange(.metadataChanged, "model", nil, "validation rules, delete rules, user info, fetched properties or templates"))
        }
    }

    private mutating func compareProperties(_ entity: Entity, _ was: Entity,
                                            renamed: (String, [String: String]) -> String?) -> [(Relationship, Relationship, String)] {
        var pairs: [(Relationship, Relationship, String)] = []
        var matches: [String: String] = [:]
        var taken: Set<String> = []
        let oldAttributes = was.allAttributes(in: old), oldRelationships = was.allRelationships(in: old)
        // Inherited properties are matched too (a sub-entity's rows hold
        // them), but reported once, on the entity that declares them.
        for attribute in entity.allAttributes(in: new) {
            let declared = entity.attributes.contains { $0.name == attribute.name }
            let wanted = renamed(entity.name + "." + attribute.name, attribute.userInfo)
            let previous = oldAttributes.first { $0.name == wanted && !taken.contains($0.name) }
                ?? oldAttributes.first { $0.name == attribute.name && !taken.contains($0.name) }
            guard let previous else {
                if declared { changes.append(Self.attributeAdded(attribute, of: entity.name)) }
                continue
            }
            taken.insert(previous.name)
            matches[attribute.name] = previous.name
            if declared { changes += Self.attributeChanges(previous, attribute, of: entity.name) }
        }
        for r in entity.allRelationships(in: new) {
            let declared = entity.relationships.contains { $0.name == r.name }
            let wanted = renamed(entity.name + "." + r.name, r.userInfo)
            let previous = oldRelationships.first { $0.name == wanted && !taken.contains($0.name) }
                ?? oldRelationships.first { $0.name == r.name && !taken.contains($0.name) }
            guard let previous else {
                if declared { changes.append(Self.relationshipAdded(r, of: entity.name)) }
                continue
            }
            taken.insert(previous.name)
            matches[r.name] = previous.name
            if declared { pairs.append((previous, r, entity.name)) }
        }
        for a in was.attributes where !taken.contains(a.name) {
            changes.append(ModelChange(.attributeRemoved, entity.name, a.name, "removed (\(a.type.yamlName)); its values are dropped"))
        }
        for r in was.relationships where !taken.contains(r.name) {
            changes.append(ModelChange(.relationshipRemoved, entity.name, r.name, "removed (to \(r.destination)); its links are dropped"))
        }
        propertyMatch[entity.name] = matches
        return pairs
    }

    private mutating func compareIndexes(_ entity: Entity, _ was: Entity) {
        // Indexes and constraints compare by the properties they name, in
        // the new model's names (an old index over a renamed property is the same index).
        let renamedBack = Dictionary(propertyMatch[entity.name, default: [:]].map { ($0.value, $0.key) }, uniquingKeysWith: { a, _ in a })
        func current(_ p: String?) -> String? { p.map { renamedBack[$0] ?? $0 } }
        let oldIndexes = was.fetchIndexes.map { index in
            FetchIndex(name: index.name, elements: index.elements.map { e in
                var e = e
                e.property = current(e.property)
                return e
            })
        }
        for index in entity.fetchIndexes where !oldIndexes.contains(index) {
            changes.append(ModelChange(.indexAdded, entity.name, nil, "index \(index.name) (\(index.elements.compactMap(\.property).joined(separator: ", ")))"))
        }
        for index in oldIndexes where !entity.fetchIndexes.contains(index) {
            changes.append(ModelChange(.indexRemoved, entity.name, nil, "index \(index.name)"))
        }
        let oldUnique = was.uniquenessConstraints.map { UniquenessConstraint($0.properties.map { current($0)! }) }
        for constraint in entity.uniquenessConstraints where !oldUnique.contains(constraint) {
            changes.append(ModelChange(.uniquenessAdded, entity.name, nil, "unique (\(constraint.properties.joined(separator: ", "))); checked against the stored objects"))
        }
        for constraint in oldUnique where !entity.uniquenessConstraints.contains(constraint) {
            changes.append(ModelChange(.uniquenessRemoved, entity.name, nil, "unique (\(constraint.properties.joined(separator: ", ")))"))
        }
    }
}

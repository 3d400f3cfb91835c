// Validation: the checks that need the whole model, run by every reader
// after reading and available to models built in code. Each problem becomes
// a ModelError placed, through the source map, at the part of the file that
// is wrong (the `to:` of a relationship, not just the relationship), with a
// "did you mean" when a name is unknown.
//
// What Core Data itself accepts is the yardstick: a missing inverse is only a
// warning in Xcode, so it is allowed here; an inverse that points elsewhere,
// an unknown destination, or a cycle of parents would make Core Data's model
// compiler fail, so they are errors.
import Foundation
import QuarrySyntax

extension Model {
    /// Checks the model; throws the first problem found.
    ///
    /// ```swift
    /// try model.validate()
    /// ```
    public func validate() throws(ModelError) {
        if let first = validationErrors().first { throw first }
    }

    /// Every problem in the model, in model order.
    public func validationErrors() -> [ModelError] {
        var v = Validator(model: self)
        v.run()
        return v.errors
    }

    /// The first name a store could not take (StorageNames.swift), checked
    /// alone: stores run this before creating anything, without the cost of
    /// the whole validation on a model a reader already validated.
    public func validateStorageNames() throws(ModelError) {
        var v = Validator(model: self)
        v.runNameChecks()
        if let first = v.errors.first { throw first }
    }
}

private struct Validator {
    let model: Model
    var errors: [ModelError] = []
    var map: SourceMap { model.sourceMap }

    init(model: Model) { self.model = model }

    mutating func report(_ kind: ModelErrorKind, _ message: String, at path: [String],
                         unknown: String? = nil, among candidates: [String] = []) {
        let suggestion = unknown.flatMap { Suggestions.closest(to: $0, among: candidates) }
        errors.append(map.error(kind, message, at: path, suggestion: suggestion))
    }

    mutating func run() {
        var seenEntities: Set<String> = []
        var reportedCycles: Set<String> = []
        var entityKeys: [String: String] = [:]
        for entity in model.entities {
            if !seenEntities.insert(entity.name).inserted {
                report(.duplicateName, "entity '\(entity.name)' is defined twice", at: [entity.name])
            }
            checkEntityName(entity, keys: &entityKeys)
            checkParent(entity, reportedCycles: &reportedCycles)
            checkPropertyNames(entity)
            for attribute in entity.attributes { check(attribute, of: entity) }
            for relationship in entity.relationships { check(relationship, of: entity) }
            for fetched in entity.fetchedProperties where model.entity(named: fetched.destination) == nil {
                report(.unknownEntity,
                       "fetched property '\(fetched.name)' of \(entity.name): no entity named '\(fetched.destination)'",
                       at: [entity.name, fetched.name, "entity"], unknown: fetched.destination, among: model.entityNames)
            }
            checkIndexes(entity)
            checkConstraints(entity)
        }
        for template in model.fetchRequestTemplates where model.entity(named: template.entity) == nil {
            report(.unknownEntity, "fetch request '\(template.name)': no entity named '\(template.entity)'",
                   at: ["#fetch", template.name, "entity"], unknown: template.entity, among: model.entityNames)
        }
        for configuration in model.configurations {
            for member in configuration.entities where model.entity(named: member) == nil {
                report(.unknownEntity, "configuration '\(configuration.name)': no entity named '\(member)'",
                       at: ["#configuration", configuration.name, member], unknown: member, among: model.entityNames)
            }
        }
    }

    mutating func runNameChecks() {
        var keys: [String: String] = [:]
        for entity in model.entities {
            checkEntityName(entity, keys: &keys)
            checkPropertyNames(entity)
        }
    }

    mutating func checkEntityName(_ entity: Entity, keys: inout [String: String]) {
        if let other = keys.updateValue(entity.name, forKey: StorageNames.collisionKey(entity.name)), other != entity.name {
            report(.invalidName, "entities '\(other)' and '\(entity.name)' differ only in case, which SQLite does not tell apart",
                   at: [entity.name])
        }
        if let problem = StorageNames.problem(entity: entity.name) {
            report(.invalidName, "entity '\(Validator.shown(entity.name))': \(problem)", at: [entity.name])
        }
    }

    // MARK: - Entities

    mutating func checkParent(_ entity: Entity, reportedCycles: inout Set<String>) {
        guard let parent = entity.parent else { return }
        guard model.entity(named: parent) != nil else {
            report(.unknownEntity, "parent of \(entity.name): no entity named '\(parent)'",
                   at: [entity.name, "#parent"], unknown: parent, among: model.entityNames.filter { $0 != entity.name })
            return
        }
        // Walk up; meeting the entity again is a cycle. Report each cycle once.
        var chain = [entity.name]
        var next: String? = parent
        while let name = next, let e = model.entity(named: name) {
            if name == entity.name {
                if reportedCycles.isDisjoint(with: chain) {
                    report(.inheritanceCycle,
                           "entity \(entity.name) inherits from itself: \((chain + [name]).joined(separator: " → "))",
                           at: [entity.name, "#parent"])
                }
                reportedCycles.formUnion(chain)
                return
            }
            if chain.contains(name) { return }  // a cycle further up, reported from its own entity
            chain.append(name)
            next = e.parent
        }
    }

    mutating func checkPropertyNames(_ entity: Entity) {
        var own: Set<String> = []
        var keys: [String: String] = [:]
        for ancestor in entity.ancestors(in: model).reversed() {
            for property in ancestor.properties { keys[StorageNames.collisionKey(property.name)] = property.name }
        }
        for property in entity.properties {
            if !own.insert(property.name).inserted {
                report(.duplicateName, "\(entity.name) has two properties named '\(property.name)'",
                       at: [entity.name, property.name])
            } else if let other = keys.updateValue(property.name, forKey: StorageNames.collisionKey(property.name)),
                      other != property.name {
                report(.invalidName,
                       "\(entity.name) has properties '\(other)' and '\(property.name)', which differ only in case; SQLite does not tell them apart",
                       at: [entity.name, property.name])
            }
            if let problem = StorageNames.problem(property: property.name) {
                report(.invalidName, "property '\(Validator.shown(property.name))' of \(Validator.shown(entity.name)): \(problem)",
                       at: [entity.name, property.name])
            }
        }
        for ancestor in entity.ancestors(in: model) {
            for property in entity.properties where ancestor.property(named: property.name) != nil {
                report(.duplicateName,
                       "\(entity.name).\(property.name) repeats the property '\(property.name)' it inherits from \(ancestor.name)",
                       at: [entity.name, property.name])
            }
        }
    }

    /// A name as an error message shows it: control characters escaped, so
    /// that a NUL or a newline in a name cannot garble the message.
    static func shown(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F { out += "\\u{\(String(scalar.value, radix: 16))}" }
            else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    // MARK: - Attributes

    mutating func check(_ a: Attribute, of entity: Entity) {
        let path = [entity.name, a.name]
        let what = "attribute '\(a.name)' of \(entity.name)"
        if let value = a.defaultValue, !a.type.acceptsDefault(value) {
            report(.invalidValue, "\(what): default value \(AttributeValues.text(value)) is not \(AttributeValues.describe(a.type))",
                   at: path + ["default"])
        }
        for (label, bound) in [("minimum", a.minimum), ("maximum", a.maximum)] {
            guard let bound else { continue }
            if !a.type.acceptsBounds {
                report(.invalidValue, "\(what): a \(a.type.rawValue) attribute has no \(label)",
                       at: path + [label == "minimum" ? "min" : "max"])
            } else if !a.type.acceptsBound(bound) {
                let expected = a.type.boundsAreLengths ? "a length (a whole number ≥ 0)" : AttributeValues.describe(a.type)
                report(.invalidValue, "\(what): \(label) \(AttributeValues.text(bound)) is not \(expected)",
                       at: path + [label == "minimum" ? "min" : "max"])
            }
        }
        if let lo = a.minimum?.boundNumber, let hi = a.maximum?.boundNumber, lo > hi {
            report(.invalidRange, "\(what): minimum \(AttributeValues.text(a.minimum!)) is greater than maximum \(AttributeValues.text(a.maximum!))",
                   at: path + ["min"])
        }
        if let pattern = a.regularExpression {
            if a.type != .string {
                report(.invalidValue, "\(what): only string attributes take a regular expression", at: path + ["regex"])
            } else if (try? NSRegularExpression(pattern: pattern)) == nil {
                report(.invalidRegularExpression, "\(what): '\(pattern)' is not a valid regular expression",
                       at: path + ["regex"])
            }
        }
    }

    // MARK: - Relationships

    mutating func check(_ r: Relationship, of entity: Entity) {
        let path = [entity.name, r.name]
        let what = "relationship '\(r.name)' of \(entity.name)"
        if r.isToMany, let max = r.maxCount, r.minCount > max {
            report(.invalidRange, "\(what): minimum count \(r.minCount) is greater than maximum count \(max)",
                   at: path + ["min"])
        }
        guard let destination = model.entity(named: r.destination) else {
            report(.unknownEntity, "\(what): no entity named '\(r.destination)'",
                   at: path + ["destination"], unknown: r.destination, among: model.entityNames)
            return
        }
        guard let inverseName = r.inverse else { return }
        guard let inverse = destination.relationship(named: inverseName, in: model) else {
            let candidates = destination.allRelationships(in: model).map(\.name)
            report(.unknownProperty, "\(what): its inverse '\(inverseName)' is not a relationship of \(destination.name)",
                   at: path + ["inverse"], unknown: inverseName, among: candidates)
            return
        }
        // An inverse whose own destination is unknown is reported there, as
        // the root cause, not here as a mismatch.
        guard model.entity(named: inverse.destination) != nil else { return }
        // The inverse may be declared on an ancestor of the destination and
        // may point at an ancestor (or sub-entity) of this entity: Core Data
        // resolves inverses along the inheritance chain.
        let pointsHere = entity.isKind(of: inverse.destination, in: model)
            || (model.entity(named: inverse.destination)?.isKind(of: entity.name, in: model) ?? false)
        if !pointsHere {
            report(.inverseMismatch,
                   "\(what): its inverse \(destination.name).\(inverseName) leads to \(inverse.destination), not \(entity.name)",
                   at: path + ["inverse"])
        } else if inverse.inverse != r.name {
            let says = inverse.inverse.map { "names '\($0)' as its inverse" } ?? "names no inverse"
            report(.inverseMismatch,
                   "\(what): its inverse \(destination.name).\(inverseName) \(says); the two must name each other",
                   at: path + ["inverse"])
        }
    }

    // MARK: - Indexes and constraints

    mutating func checkIndexes(_ entity: Entity) {
        let known = entity.allProperties(in: model)
        for index in entity.fetchIndexes {
            if index.elements.isEmpty {
                report(.structure, "index '\(index.name)' of \(entity.name) has no elements",
                       at: [entity.name, "#index", index.name])
            }
            for (i, element) in index.elements.enumerated() {
                guard let name = element.property else { continue }
                checkIndexable(name, in: entity, known: known, context: "index '\(index.name)'",
                               at: [entity.name, "#index", index.name, String(i)])
            }
        }
    }

    mutating func checkConstraints(_ entity: Entity) {
        let known = entity.allProperties(in: model)
        for (c, constraint) in entity.uniquenessConstraints.enumerated() {
            for (i, name) in constraint.properties.enumerated() {
                checkIndexable(name, in: entity, known: known, context: "uniqueness constraint",
                               at: [entity.name, "#unique", String(c), String(i)])
            }
        }
    }

    /// Indexes and constraints may name attributes and to-one relationships
    /// (Core Data rejects to-many ones: they have no column).
    mutating func checkIndexable(_ name: String, in entity: Entity, known: [Property], context: String, at path: [String]) {
        switch known.first(where: { $0.name == name }) {
        case nil:
            report(.unknownProperty, "\(context) of \(entity.name): no property named '\(name)'",
                   at: path, unknown: name, among: known.map(\.name))
        case .relationship(let r)? where r.isToMany:
            report(.structure, "\(context) of \(entity.name): '\(name)' is a to-many relationship, which cannot be indexed or unique",
                   at: path)
        case .fetchedProperty?:
            report(.structure, "\(context) of \(entity.name): '\(name)' is a fetched property, which cannot be indexed or unique",
                   at: path)
        default:
            break
        }
    }
}

// The attribute and relationship shapes of Quarry's YAML model format.
//
// Each has a one-word shorthand for the common case:
//     name: string            # an optional String attribute
//     department: Department  # an optional to-one relationship
//     employees: [Employee]   # an optional to-many relationship
// and a mapping for everything else. Defaults follow Core Data's API (and
// what Xcode gives a new attribute or relationship): optional, no default
// value, delete rule Nullify.
import QuarrySyntax
import Yams

extension YAMLModelReader {
    static let attributeKeys = ["type", "optional", "default", "min", "max", "regex", "unique", "indexed",
                                "transient", "derived", "transformer", "externalStorage", "userInfo",
                                "preserveAfterDeletion"]
    static let relationshipKeys = ["to", "many", "ordered", "inverse", "delete", "optional", "min", "max",
                                   "transient", "userInfo"]

    /// Attribute type names accepted in YAML: the canonical names
    /// (`integer64`), Xcode's (`Integer 64`), and a few common aliases.
    static func attributeType(_ text: String) -> AttributeType? {
        attributeTypesBySpelling[text] ?? attributeTypesBySpelling[text.lowercased().replacingOccurrences(of: " ", with: "")]
    }

    /// Every accepted spelling, folded (lower case, no spaces), and the
    /// common exact ones as written, so most lookups fold nothing: a saved
    /// model is read at every open of its store.
    private static let attributeTypesBySpelling: [String: AttributeType] = {
        var table: [String: AttributeType] = ["int16": .integer16, "int32": .integer32, "int64": .integer64, "bool": .boolean,
                                              "data": .binary, "url": .uri]
        for type in AttributeType.allCases {
            table[type.yamlName] = type
            table[type.yamlName.lowercased()] = type
            table[type.rawValue.lowercased().replacingOccurrences(of: " ", with: "")] = type
        }
        return table
    }()

    mutating func readAttribute(_ name: String, _ node: Node, into entity: inout Entity) throws(ModelError) {
        let what = "attribute '\(name)' of \(entity.name)"
        let path = [entity.name, name]
        if case .scalar = node {
            guard !nodes.isNull(node) else { throw nodes.error(.structure, "\(what) has no type", at: node) }
            entity.attributes.append(Attribute(name: name, type: try type(node)))
            map[path + ["type"]] = nodes.location(node)
            return
        }
        let fields = try nodes.pairs(node, what)
        try nodes.checkKeys(fields, allowed: Self.attributeKeys, in: what)
        guard let typeNode = fields.first(where: { $0.key == "type" })?.value else {
            throw nodes.error(.structure, "\(what) has no 'type:'", at: node)
        }
        var attribute = Attribute(name: name, type: try type(typeNode))
        map[path + ["type"]] = nodes.location(typeNode)
        let type = attribute.type
        for (key, keyNode, value) in fields {
            switch key {
            case "optional": attribute.isOptional = try nodes.bool(value, "optional")
            case "transient": attribute.isTransient = try nodes.bool(value, "transient")
            case "externalStorage": attribute.allowsExternalBinaryDataStorage = try nodes.bool(value, "externalStorage")
            case "transformer": attribute.valueTransformerName = try nodes.string(value, "transformer")
            case "userInfo": attribute.userInfo = try nodes.userInfo(value)
            case "preserveAfterDeletion": attribute.preservesValueInHistoryOnDeletion = try nodes.bool(value, "preserveAfterDeletion")
            case "default":
                guard !nodes.isNull(value) else { break }
                map[path + ["default"]] = nodes.location(value)
                let text = try nodes.string(value, "the default of \(what)")
                guard let v = AttributeValues.defaultValue(text, for: type) else {
                    throw nodes.error(.invalidValue, "\(what): default value '\(text)' is not \(AttributeValues.describe(type))", at: value)
                }
                attribute.defaultValue = v
            case "min", "max":
                map[path + [key]] = nodes.location(value)
                let label = key == "min" ? "minimum" : "maximum"
                guard type.acceptsBounds else {
                    throw nodes.error(.invalidValue, "\(what): a \(type.rawValue) attribute has no \(label)", at: keyNode)
                }
                let text = try nodes.string(value, "the \(label) of \(what)")
                guard let v = AttributeValues.bound(text, for: type) else {
                    let expected = type.boundsAreLengths ? "a length (a whole number ≥ 0)" : AttributeValues.describe(type)
                    throw nodes.error(.invalidValue, "\(what): \(label) '\(text)' is not \(expected)", at: value)
                }
                if key == "min" { attribute.minimum = v } else { attribute.maximum = v }
            case "regex":
                map[path + ["regex"]] = nodes.location(value)
                attribute.regularExpression = try nodes.string(value, "the regex of \(what)")
            case "derived":
                let text = try nodes.string(value, "the derivation of \(what)")
                do {
                    _ = try Parser.parseExpression(text)
                } catch {
                    throw StoredText.error(error, in: text, at: nodes.textLocation(value), file: map.file,
                                           what: "derivation of \(what)", isExpression: true)
                }
                attribute.derivation = text
            case "unique":
                if try nodes.bool(value, "unique") {
                    map[[entity.name, "#unique", String(entity.uniquenessConstraints.count), "0"]] = nodes.location(keyNode)
                    entity.uniquenessConstraints.append(UniquenessConstraint([name]))
                }
            case "indexed":
                if try nodes.bool(value, "indexed") {
                    let indexName = FetchIndex.defaultName(for: [name])
                    map[[entity.name, "#index", indexName]] = nodes.location(keyNode)
                    entity.fetchIndexes.append(FetchIndex(name: indexName, elements: [FetchIndexElement(property: name)]))
                }
            default: break
            }
        }
        entity.attributes.append(attribute)
    }

    func type(_ node: Node) throws(ModelError) -> AttributeType {
        let text = try nodes.string(node, "an attribute type")
        guard let type = Self.attributeType(text) else {
            let names = AttributeType.allCases.map(\.yamlName)
            throw nodes.error(.structure, "unknown attribute type '\(text)' (types: \(names.joined(separator: ", ")))",
                              at: node, suggestion: Suggestions.closest(to: text, among: names))
        }
        return type
    }

    mutating func readRelationship(_ name: String, of entity: String, _ node: Node) throws(ModelError) -> Relationship {
        let what = "relationship '\(name)' of \(entity)"
        let path = [entity, name]
        switch node {
        case .scalar:
            guard !nodes.isNull(node) else { throw nodes.error(.structure, "\(what) has no destination", at: node) }
            map[path + ["destination"]] = nodes.location(node)
            return Relationship(name: name, destination: try nodes.name(node, "the destination of \(what)"))
        case .sequence:
            let items = try nodes.sequence(node, what)
            guard items.count == 1 else {
                throw nodes.error(.structure, "\(what): a to-many shorthand names one entity, as in [Employee]", at: node)
            }
            map[path + ["destination"]] = nodes.location(items[0])
            return Relationship(name: name, destination: try nodes.name(items[0], "the destination of \(what)"), isToMany: true)
        case .mapping:
            break
        }
        let fields = try nodes.pairs(node, what)
        try nodes.checkKeys(fields, allowed: Self.relationshipKeys, in: what)
        guard let toNode = fields.first(where: { $0.key == "to" })?.value else {
            throw nodes.error(.structure, "\(what) has no 'to:' (its destination entity)", at: node)
        }
        map[path + ["destination"]] = nodes.location(toNode)
        var destination = try nodes.name(toNode, "the destination of \(what)")
        var isToMany = false, isOrdered = false, isOptional = true, isTransient = false
        var minCount = 0
        var maxCount: Int?
        var inverse: String?
        var deleteRule = DeleteRule.nullify
        var userInfo: [String: String] = [:]
        var countNode: Node?
        var orderedNode: Node?
        for (key, keyNode, value) in fields {
            switch key {
            case "to": destination = try nodes.name(value, "the destination of \(what)")
            case "many": isToMany = try nodes.bool(value, "many")
            case "ordered": isOrdered = try nodes.bool(value, "ordered"); orderedNode = keyNode
            case "optional": isOptional = try nodes.bool(value, "optional")
            case "transient": isTransient = try nodes.bool(value, "transient")
            case "userInfo": userInfo = try nodes.userInfo(value)
            case "inverse":
                map[path + ["inverse"]] = nodes.location(value)
                inverse = try nodes.name(value, "the inverse of \(what)")
            case "delete":
                deleteRule = try self.deleteRule(value)
            case "min", "max":
                map[path + [key]] = nodes.location(value)
                countNode = keyNode
                let n = try nodes.int(value, "the \(key == "min" ? "minimum" : "maximum") count of \(what)")
                if key == "min" { minCount = n } else { maxCount = n }
            default: break
            }
        }
        // Strict where Xcode's editor would not let you go: counts and order
        // only mean something on to-many relationships.
        if !isToMany, let countNode {
            throw nodes.error(.structure, "\(what): min and max counts apply only to to-many relationships (add 'many: true')", at: countNode)
        }
        if !isToMany, isOrdered, let orderedNode {
            throw nodes.error(.structure, "\(what): only to-many relationships can be ordered (add 'many: true')", at: orderedNode)
        }
        return Relationship(name: name, destination: destination, isToMany: isToMany, isOrdered: isOrdered,
                            isOptional: isOptional, minCount: minCount, maxCount: maxCount, inverse: inverse,
                            deleteRule: deleteRule, isTransient: isTransient, userInfo: userInfo)
    }

    func deleteRule(_ node: Node) throws(ModelError) -> DeleteRule {
        let text = try nodes.string(node, "a delete rule")
        let key = text.lowercased().filter { $0.isLetter }
        if let rule = DeleteRule.allCases.first(where: { $0.yamlName.lowercased() == key }) { return rule }
        let names = DeleteRule.allCases.map(\.yamlName)
        throw nodes.error(.structure, "unknown delete rule '\(text)' (rules: \(names.joined(separator: ", ")))",
                          at: node, suggestion: Suggestions.closest(to: text, among: names))
    }

    /// An inverse needs saying on one side only: when `Employee.department`
    /// names `employees` as its inverse and `Department.employees` names none,
    /// the latter gets `department`. (Xcode's XML always states both sides.)
    func fillInverses(_ model: inout Model) {
        // Edits go to a copy of the entity list, assigned back once: each
        // assignment to `model.entities` re-indexes the model, and a lookup
        // by scanning per relationship made reading quadratic in entities.
        let snapshot = model
        var entities = model.entities
        var index: [String: Int] = [:]
        for (i, e) in entities.enumerated() where index[e.name] == nil { index[e.name] = i }
        for entity in snapshot.entities {
            for r in entity.relationships {
                guard let inverseName = r.inverse,
                      let d = index[r.destination],
                      let i = entities[d].relationships.firstIndex(where: { $0.name == inverseName }),
                      entities[d].relationships[i].inverse == nil,
                      entity.isKind(of: entities[d].relationships[i].destination, in: snapshot)
                else { continue }
                entities[d].relationships[i].inverse = r.name
            }
        }
        model.entities = entities
    }
}

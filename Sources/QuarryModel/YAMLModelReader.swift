// Reads Quarry's own model format, YAML or JSON (the same structure; JSON is
// read by the YAML parser, which also gives us line and column marks). The
// format is documented in Examples/Models/README.md; in short:
//
//     entities:
//       Employee:
//         parent: Person                 # optional; abstract: true for abstract entities
//         attributes:
//           salary: { type: integer64, default: 50000, min: 0 }
//         relationships:
//           department: { to: Department, inverse: employees }
//     fetchRequests:
//       wellPaid: { entity: Employee, predicate: "salary > $minimum" }
//
// This file handles the document and entity level; the attribute and
// relationship shapes live in YAMLModelReader+Properties.swift.
import QuarrySyntax
import Yams

struct YAMLModelReader {
    let nodes: YAMLNodes
    var map: SourceMap

    /// `language` names the format in syntax errors ("YAML" or "JSON").
    static func read(yaml text: String, file: String, language: String = "YAML") throws(ModelError) -> Model {
        var reader = YAMLModelReader(nodes: YAMLNodes(file: file, text: text), map: SourceMap(file: file))
        if let nesting = YAMLNesting.check(text) {
            throw ModelError(.syntax, "malformed \(language): \(nesting.message)", file: file, line: nesting.line,
                             column: nesting.column)
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Self.syntaxError(error, file: file, language: language)
        } catch {
            throw ModelError(.syntax, "cannot read \(language): \(error)", file: file)
        }
        guard let root, !reader.nodes.isNull(root) else {
            throw ModelError(.structure, "the model file is empty (expected an 'entities:' mapping)", file: file, line: 1, column: 1)
        }
        return try reader.model(from: root)
    }

    /// The model of a composed document: read, inverses filled, validated
    /// (YAMLModelReader+SavedJSON.swift composes its own nodes, then this).
    mutating func model(from root: Node) throws(ModelError) -> Model {
        var model = try readDocument(root)
        fillInverses(&model)
        model.sourceMap = map
        try model.validate()
        model.warnings += model.derivationWarnings()   // Derivation.swift
        return model
    }

    static func syntaxError(_ error: YamlError, file: String, language: String) -> ModelError {
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            var message = "malformed \(language): \(problem)"
            if let context { message += " (\(context.text) at line \(context.mark.line))" }
            return ModelError(.syntax, message, file: file, line: mark.line, column: mark.column)
        case .reader(let problem, _, _, _):
            return ModelError(.syntax, "malformed \(language): \(problem)", file: file, line: 1)
        default:
            return ModelError(.syntax, "malformed \(language): \(error)", file: file)
        }
    }

    // MARK: - Document

    static let documentKeys = ["entities", "fetchRequests", "configurations"]

    mutating func readDocument(_ root: Node) throws(ModelError) -> Model {
        let top = try nodes.pairs(root, "the model file")
        try nodes.checkKeys(top, allowed: Self.documentKeys, in: "the model file")
        guard let entitiesNode = top.first(where: { $0.key == "entities" })?.value else {
            throw nodes.error(.structure, "the model file has no 'entities:' mapping", at: root)
        }
        var entities: [Entity] = []
        for pair in try nodes.pairs(entitiesNode, "entities") {
            let name = try nodes.name(pair.keyNode, "an entity name")
            map[[name]] = nodes.location(pair.keyNode)
            entities.append(try readEntity(name, pair.value))
        }
        var templates: [FetchRequestTemplate] = []
        if let node = top.first(where: { $0.key == "fetchRequests" })?.value {
            for pair in try nodes.pairs(node, "fetchRequests") {
                templates.append(try readFetchRequest(pair.key, keyNode: pair.keyNode, pair.value))
            }
        }
        var configurations: [Configuration] = []
        if let node = top.first(where: { $0.key == "configurations" })?.value {
            for pair in try nodes.pairs(node, "configurations") {
                map[["#configuration", pair.key]] = nodes.location(pair.keyNode)
                var members: [String] = []
                for member in try nodes.sequence(pair.value, "configuration '\(pair.key)'") {
                    let m = try nodes.name(member, "an entity name")
                    map[["#configuration", pair.key, m]] = nodes.location(member)
                    members.append(m)
                }
                configurations.append(Configuration(name: pair.key, entities: members))
            }
        }
        return Model(entities: entities, fetchRequestTemplates: templates, configurations: configurations,
                     sourceMap: map)
    }

    mutating func readFetchRequest(_ name: String, keyNode: Node, _ node: Node) throws(ModelError) -> FetchRequestTemplate {
        let what = "fetch request '\(name)'"
        map[["#fetch", name]] = nodes.location(keyNode)
        let fields = try nodes.pairs(node, what)
        try nodes.checkKeys(fields, allowed: ["entity", "predicate", "limit"], in: what)
        guard let entityNode = fields.first(where: { $0.key == "entity" })?.value else {
            throw nodes.error(.structure, "\(what) has no 'entity:'", at: keyNode)
        }
        let entity = try nodes.name(entityNode, "the entity of \(what)")
        map[["#fetch", name, "entity"]] = nodes.location(entityNode)
        let limit = try fields.first(where: { $0.key == "limit" }).map { (p) throws(ModelError) in try nodes.int(p.value, "limit") }
        guard let predicateNode = fields.first(where: { $0.key == "predicate" })?.value, !nodes.isNull(predicateNode) else {
            return try! FetchRequestTemplate(name: name, entity: entity, predicateFormat: nil, fetchLimit: limit)
        }
        let text = try nodes.string(predicateNode, "the predicate of \(what)")
        do {
            return try FetchRequestTemplate(name: name, entity: entity, predicateFormat: text, fetchLimit: limit)
        } catch {
            throw StoredText.error(error, in: text, at: nodes.textLocation(predicateNode), file: map.file, what: what)
        }
    }

    // MARK: - Entities

    static let entityKeys = ["abstract", "parent", "attributes", "relationships", "fetchedProperties",
                             "indexes", "unique", "userInfo"]

    mutating func readEntity(_ name: String, _ node: Node) throws(ModelError) -> Entity {
        let what = "entity \(name)"
        let fields = try nodes.pairs(node, what)
        try nodes.checkKeys(fields, allowed: Self.entityKeys, in: what)
        var entity = Entity(name: name)
        // Attributes and relationships first: `unique: true` and `indexed:
        // true` on an attribute add constraints and indexes that come before
        // the entity-level lists, in attribute order.
        if let node = fields.first(where: { $0.key == "attributes" })?.value {
            for pair in try nodes.pairs(node, "the attributes of \(name)") {
                let attrName = try nodes.name(pair.keyNode, "an attribute name")
                map[[name, attrName]] = nodes.location(pair.keyNode)
                try readAttribute(attrName, pair.value, into: &entity)
            }
        }
        if let node = fields.first(where: { $0.key == "relationships" })?.value {
            for pair in try nodes.pairs(node, "the relationships of \(name)") {
                let relName = try nodes.name(pair.keyNode, "a relationship name")
                map[[name, relName]] = nodes.location(pair.keyNode)
                entity.relationships.append(try readRelationship(relName, of: name, pair.value))
            }
        }
        for (key, _, value) in fields {
            switch key {
            case "abstract":
                entity.isAbstract = try nodes.bool(value, "abstract")
            case "parent":
                entity.parent = try nodes.name(value, "the parent of \(name)")
                map[[name, "#parent"]] = nodes.location(value)
            case "fetchedProperties":
                for pair in try nodes.pairs(value, "the fetched properties of \(name)") {
                    map[[name, pair.key]] = nodes.location(pair.keyNode)
                    entity.fetchedProperties.append(try readFetchedProperty(pair.key, of: name, keyNode: pair.keyNode, pair.value))
                }
            case "indexes":
                try readIndexes(value, into: &entity)
            case "unique":
                for item in try nodes.sequence(value, "unique") {
                    let items = if case .sequence = item { try nodes.sequence(item, "a uniqueness constraint") } else { [item] }
                    let c = entity.uniquenessConstraints.count
                    var properties: [String] = []
                    for (i, p) in items.enumerated() {
                        properties.append(try nodes.name(p, "a property name"))
                        map[[name, "#unique", String(c), String(i)]] = nodes.location(p)
                    }
                    entity.uniquenessConstraints.append(UniquenessConstraint(properties))
                }
            case "userInfo":
                entity.userInfo = try nodes.userInfo(value)
            default:
                break  // attributes and relationships were read above
            }
        }
        return entity
    }

    mutating func readFetchedProperty(_ name: String, of entity: String, keyNode: Node, _ node: Node) throws(ModelError) -> FetchedProperty {
        let what = "fetched property '\(name)' of \(entity)"
        let fields = try nodes.pairs(node, what)
        try nodes.checkKeys(fields, allowed: ["entity", "predicate"], in: what)
        guard let destinationNode = fields.first(where: { $0.key == "entity" })?.value else {
            throw nodes.error(.structure, "\(what) has no 'entity:'", at: keyNode)
        }
        let destination = try nodes.name(destinationNode, "the entity of \(what)")
        map[[entity, name, "entity"]] = nodes.location(destinationNode)
        guard let predicateNode = fields.first(where: { $0.key == "predicate" })?.value, !nodes.isNull(predicateNode) else {
            return try! FetchedProperty(name: name, destination: destination, predicateFormat: nil)
        }
        let text = try nodes.string(predicateNode, "the predicate of \(what)")
        do {
            return try FetchedProperty(name: name, destination: destination, predicateFormat: text)
        } catch {
            throw StoredText.error(error, in: text, at: nodes.textLocation(predicateNode), file: map.file, what: what)
        }
    }

    // MARK: - Indexes

    /// `indexes:` is a list (each item one property, or a list of them;
    /// names are generated as Xcode would) or a mapping from index name to
    /// its elements. An element is `name`, `name desc`, or a mapping
    /// `{ property: name, order: descending, type: rtree }`.
    mutating func readIndexes(_ node: Node, into entity: inout Entity) throws(ModelError) {
        var indexes: [(name: String?, keyNode: Node?, elements: [Node])] = []
        if case .mapping = node {
            for pair in try nodes.pairs(node, "indexes") {
                let elements = if case .sequence = pair.value { try nodes.sequence(pair.value, "index '\(pair.key)'") } else { [pair.value] }
                indexes.append((pair.key, pair.keyNode, elements))
            }
        } else {
            for item in try nodes.sequence(node, "indexes") {
                let elements = if case .sequence = item { try nodes.sequence(item, "an index") } else { [item] }
                indexes.append((nil, item, elements))
            }
        }
        for (name, keyNode, elementNodes) in indexes {
            var elements: [FetchIndexElement] = []
            var locations: [ModelLocation] = []
            for e in elementNodes {
                elements.append(try readIndexElement(e))
                locations.append(nodes.location(e))
            }
            let indexName = name ?? FetchIndex.defaultName(for: elements.map { $0.property ?? "expression" })
            if let keyNode { map[[entity.name, "#index", indexName]] = nodes.location(keyNode) }
            for (i, l) in locations.enumerated() { map[[entity.name, "#index", indexName, String(i)]] = l }
            entity.fetchIndexes.append(FetchIndex(name: indexName, elements: elements))
        }
    }

    func readIndexElement(_ node: Node) throws(ModelError) -> FetchIndexElement {
        if case .mapping = node {
            let fields = try nodes.pairs(node, "an index element")
            try nodes.checkKeys(fields, allowed: ["property", "expression", "order", "type"], in: "an index element")
            var ascending = true
            var kind = FetchIndexElement.Kind.binary
            for (key, _, value) in fields {
                if key == "order" {
                    let s = try nodes.string(value, "order").lowercased()
                    guard let a = Self.ascending(s) else {
                        throw nodes.error(.structure, "order should be ascending or descending, found '\(s)'", at: value)
                    }
                    ascending = a
                } else if key == "type" {
                    let s = try nodes.string(value, "type").lowercased()
                    guard let k = FetchIndexElement.Kind.allCases.first(where: { $0.rawValue.lowercased() == s }) else {
                        throw nodes.error(.structure, "index type should be binary or rtree, found '\(s)'", at: value)
                    }
                    kind = k
                }
            }
            if let p = fields.first(where: { $0.key == "property" })?.value {
                return FetchIndexElement(property: try nodes.name(p, "property"), kind: kind, isAscending: ascending)
            }
            if let e = fields.first(where: { $0.key == "expression" })?.value {
                return FetchIndexElement(expression: try nodes.string(e, "expression"), kind: kind, isAscending: ascending)
            }
            throw nodes.error(.structure, "an index element needs 'property:' or 'expression:'", at: node)
        }
        let words = try nodes.string(node, "an index element").split(separator: " ").map(String.init)
        guard (1...2).contains(words.count), let ascending = words.count == 2 ? Self.ascending(words[1].lowercased()) : true else {
            throw nodes.error(.structure, "an index element should be 'property', 'property asc' or 'property desc'", at: node)
        }
        return FetchIndexElement(property: words[0], isAscending: ascending)
    }

    static func ascending(_ word: String) -> Bool? {
        switch word {
        case "asc", "ascending": return true
        case "desc", "descending": return false
        default: return nil
        }
    }
}

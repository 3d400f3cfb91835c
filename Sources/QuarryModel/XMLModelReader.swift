// Reads Core Data's model XML: the `contents` file Xcode writes inside each
// `.xcdatamodel` version folder (documentVersion 1.0, Xcode 4 and later).
//
// Core Data quirks this reader follows:
// - Booleans are "YES"; an absent flag is NO. So an attribute or
//   relationship without `optional="YES"` is *required* — the opposite of
//   the API default — because Xcode only writes flags that are set.
// - Defaults are text (`defaultValueString`), except dates, which use
//   `defaultDateTimeInterval` (seconds since 2001); date bounds likewise use
//   `minDateTimeInterval`/`maxDateTimeInterval`, while string and binary
//   bounds (`minValueString`) are lengths.
// - An absent `deletionRule` is Nullify; `maxCount="0"` or none on a
//   to-many means unbounded.
// - Older models mark single-attribute indexes with `indexed="YES"` or list
//   `<compoundIndexes>`; both become fetch indexes named as Xcode names new
//   ones (`byNameIndex`), which is also what Core Data does when it loads them.
// - Layout (`<elements>`), code generation and sync flags, and anything a
//   newer Xcode adds, are ignored rather than rejected.
// - What Core Data's model compiler accepts, this reader accepts too, with
//   a warning (`Model.warnings`) saying what it made of it: defaults and
//   bounds that are not values of the type (AttributeValues+CoreData), an
//   inverse that does not point back (+Inverses), an index on a to-many
//   (+Indexes). YAML models and models built in code stay strict.
import QuarrySyntax

struct XMLModelReader {
    let tree: XMLTree
    var map: SourceMap
    /// What was read the lenient way Core Data reads it, in file order.
    var warnings: [ModelWarning] = []

    static func read(xml: String, file: String) throws(ModelError) -> Model {
        var reader = XMLModelReader(tree: try XMLTree(xml: xml, file: file), map: SourceMap(file: file))
        var model = try reader.readModel()
        // What momc only warns about is settled before validation, which
        // would refuse it (see XMLModelReader+Inverses, +Indexes).
        reader.settleInverses(of: &model)
        reader.settleIndexes(of: &model)
        model.sourceMap = reader.map
        model.warnings = reader.warnings
        try model.validate()
        model.warnings += model.derivationWarnings()   // Derivation.swift
        return model
    }

    mutating func warn(_ kind: ModelErrorKind, _ message: String, at location: ModelLocation?) {
        warnings.append(ModelWarning(kind, message, file: map.file, line: location?.line, column: location?.column))
    }

    func error(_ kind: ModelErrorKind, _ message: String, at location: ModelLocation, suggestion: String? = nil) -> ModelError {
        ModelError(kind, message, file: map.file, line: location.line, column: location.column, suggestion: suggestion)
    }

    /// The value of a required XML attribute; `context` says where the
    /// element sits ("in entity Employee") when its own name cannot.
    func required(_ attribute: String, of element: ModelXMLElement, _ context: String? = nil) throws(ModelError) -> String {
        guard let value = element[attribute], !value.isEmpty else {
            let place = context.map { " (\($0))" } ?? ""
            throw error(.structure, "<\(element.name)> has no \(attribute)=\"...\"\(place)", at: tree.location(element))
        }
        return value
    }

    static func flag(_ value: String?) -> Bool { value == "YES" }

    // MARK: - Model

    mutating func readModel() throws(ModelError) -> Model {
        let root = tree.root
        guard root.name == "model" else {
            throw error(.structure, "not a Core Data model: the root element is <\(root.name)>, expected <model>", at: tree.location(root))
        }
        var entities: [Entity] = []
        var templates: [FetchRequestTemplate] = []
        var configurations: [Configuration] = []
        for child in root.children {
            switch child.name {
            case "entity":
                entities.append(try readEntity(child))
            case "fetchRequest":
                templates.append(try readFetchRequest(child))
            case "configuration":
                let name = try required("name", of: child)
                map[["#configuration", name]] = tree.location(of: "name", in: child)
                var members: [String] = []
                for member in child.children(named: "memberEntity") {
                    let m = try required("name", of: member, "in configuration \(name)")
                    map[["#configuration", name, m]] = tree.location(of: "name", in: member)
                    members.append(m)
                }
                configurations.append(Configuration(name: name, entities: members))
            default:
                break  // <elements> (diagram layout) and future additions
            }
        }
        return Model(entities: entities, fetchRequestTemplates: templates, configurations: configurations, sourceMap: map)
    }

    mutating func readFetchRequest(_ element: ModelXMLElement) throws(ModelError) -> FetchRequestTemplate {
        let name = try required("name", of: element)
        let what = "fetch request '\(name)'"
        map[["#fetch", name]] = tree.location(of: "name", in: element)
        let entity = try required("entity", of: element, what)
        map[["#fetch", name, "entity"]] = tree.location(of: "entity", in: element)
        let limit = element["fetchLimit"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        let text = element["predicateString"]
        do {
            return try FetchRequestTemplate(name: name, entity: entity, predicateFormat: text, fetchLimit: limit)
        } catch {
            throw StoredText.error(error, in: text ?? "", at: tree.location(of: "predicateString", in: element),
                                   file: map.file, what: what)
        }
    }

    // MARK: - Entities

    mutating func readEntity(_ element: ModelXMLElement) throws(ModelError) -> Entity {
        let name = try required("name", of: element)
        map[[name]] = tree.location(of: "name", in: element)
        var entity = Entity(name: name, isAbstract: Self.flag(element["isAbstract"]), parent: element["parentEntity"])
        entity.versionHashModifier = element["versionHashModifier"]
        if entity.parent != nil { map[[name, "#parent"]] = tree.location(of: "parentEntity", in: element) }
        for child in element.children {
            switch child.name {
            case "attribute":
                try readAttribute(child, into: &entity)
            case "relationship":
                entity.relationships.append(try readRelationship(child, of: name))
            case "fetchedProperty":
                entity.fetchedProperties.append(try readFetchedProperty(child, of: name))
            case "fetchIndex":
                try readFetchIndex(child, into: &entity)
            case "uniquenessConstraints":
                for constraint in child.children(named: "uniquenessConstraint") {
                    let c = entity.uniquenessConstraints.count
                    var properties: [String] = []
                    for (i, item) in constraint.children(named: "constraint").enumerated() {
                        properties.append(try required("value", of: item, "in a uniqueness constraint of \(name)"))
                        map[[name, "#unique", String(c), String(i)]] = tree.location(of: "value", in: item)
                    }
                    entity.uniquenessConstraints.append(UniquenessConstraint(properties))
                }
            case "compoundIndexes":
                for compound in child.children(named: "compoundIndex") {
                    var properties: [String] = []
                    var locations: [ModelLocation] = []
                    for item in compound.children(named: "index") {
                        properties.append(try required("value", of: item, "in a compound index of \(name)"))
                        locations.append(tree.location(of: "value", in: item))
                    }
                    let indexName = FetchIndex.defaultName(for: properties)
                    for (i, l) in locations.enumerated() { map[[name, "#index", indexName, String(i)]] = l }
                    var index = FetchIndex(name: indexName, elements: properties.map { FetchIndexElement(property: $0) })
                    index.isDeclaredByProperties = true
                    entity.fetchIndexes.append(index)
                }
            case "userInfo":
                entity.userInfo = userInfo(child)
            default:
                break
            }
        }
        return entity
    }

    func userInfo(_ element: ModelXMLElement) -> [String: String] {
        var info: [String: String] = [:]
        for entry in element.children(named: "entry") {
            if let key = entry["key"] { info[key] = entry["value"] ?? "" }
        }
        return info
    }

    mutating func readFetchedProperty(_ element: ModelXMLElement, of entity: String) throws(ModelError) -> FetchedProperty {
        let name = try required("name", of: element, "in entity \(entity)")
        let what = "fetched property '\(name)' of \(entity)"
        map[[entity, name]] = tree.location(of: "name", in: element)
        guard let request = element.children(named: "fetchRequest").first else {
            throw error(.structure, "\(what) has no <fetchRequest>", at: tree.location(element))
        }
        let destination = try required("entity", of: request, what)
        map[[entity, name, "entity"]] = tree.location(of: "entity", in: request)
        let text = request["predicateString"]
        do {
            return try FetchedProperty(name: name, destination: destination, predicateFormat: text)
        } catch {
            throw StoredText.error(error, in: text ?? "", at: tree.location(of: "predicateString", in: request),
                                   file: map.file, what: what)
        }
    }

    mutating func readFetchIndex(_ element: ModelXMLElement, into entity: inout Entity) throws(ModelError) {
        let name = try required("name", of: element, "in entity \(entity.name)")
        map[[entity.name, "#index", name]] = tree.location(of: "name", in: element)
        var elements: [FetchIndexElement] = []
        for (i, item) in element.children(named: "fetchIndexElement").enumerated() {
            let kindText = item["type"] ?? "Binary"
            guard let kind = FetchIndexElement.Kind(rawValue: kindText) else {
                throw error(.structure, "index '\(name)' of \(entity.name): unknown index type '\(kindText)' (Binary or RTree)",
                            at: tree.location(of: "type", in: item))
            }
            let ascending = item["order"] != "descending"
            if let property = item["property"] {
                map[[entity.name, "#index", name, String(i)]] = tree.location(of: "property", in: item)
                elements.append(FetchIndexElement(property: property, kind: kind, isAscending: ascending))
            } else if let expression = item["expression"] {
                elements.append(FetchIndexElement(expression: expression, kind: kind, isAscending: ascending))
            } else {
                throw error(.structure, "index '\(name)' of \(entity.name): an element without property=\"...\" or expression=\"...\"",
                            at: tree.location(item))
            }
        }
        entity.fetchIndexes.append(FetchIndex(name: name, elements: elements))
    }
}

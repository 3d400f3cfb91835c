// A model as text, so that a store can carry its model whatever the model
// came from: a YAML or JSON file, a Core Data bundle, or code. The text is
// Quarry's own model format written as JSON (what `ModelReader.read(json:)`
// reads), with every part spelled out — no shorthands, no defaults left
// implicit — so that reading it back gives an equal model. Attribute-level
// `unique:` and `indexed:` are never written: constraints and indexes go in
// the entity's lists, in the model's order, which is how they read back.
import Foundation
import QuarrySyntax

public enum ModelArchive {
    /// The model as Quarry's JSON model format.
    ///
    /// ```swift
    /// let text = ModelArchive.json(model)
    /// assert(try ModelReader.read(json: text) == model)
    /// ```
    public static func json(_ model: Model) -> String {
        var document: [(String, String)] = []
        document.append(("entities", "{\n" + model.entities.map { "    " + string($0.name) + ": " + entity($0) }.joined(separator: ",\n") + "\n  }"))
        if !model.fetchRequestTemplates.isEmpty {
            document.append(("fetchRequests", object(model.fetchRequestTemplates.map { t in
                var fields = [("entity", string(t.entity))]
                if let p = t.predicateFormat { fields.append(("predicate", string(p))) }
                if let n = t.fetchLimit { fields.append(("limit", String(n))) }
                return (t.name, object(fields))
            })))
        }
        if !model.configurations.isEmpty {
            document.append(("configurations", object(model.configurations.map { ($0.name, array($0.entities.map(string))) })))
        }
        // One top-level part per line and one entity per line, for whoever reads the metadata table.
        return "{\n" + document.map { "  " + string($0.0) + ": " + $0.1 }.joined(separator: ",\n") + "\n}\n"
    }

    private static func entity(_ e: Entity) -> String {
        var fields: [(String, String)] = []
        if e.isAbstract { fields.append(("abstract", "true")) }
        if let parent = e.parent { fields.append(("parent", string(parent))) }
        fields.append(("attributes", object(e.attributes.map { ($0.name, attribute($0)) })))
        fields.append(("relationships", object(e.relationships.map { ($0.name, relationship($0)) })))
        if !e.fetchedProperties.isEmpty {
            fields.append(("fetchedProperties", object(e.fetchedProperties.map { f in
                var parts = [("entity", string(f.destination))]
                if let p = f.predicateFormat { parts.append(("predicate", string(p))) }
                return (f.name, object(parts))
            })))
        }
        if !e.fetchIndexes.isEmpty {
            fields.append(("indexes", object(e.fetchIndexes.map { index in
                (index.name, array(index.elements.map { element in
                    var parts: [(String, String)] = []
                    if let p = element.property { parts.append(("property", string(p))) }
                    if let x = element.expression { parts.append(("expression", string(x))) }
                    parts.append(("order", string(element.isAscending ? "ascending" : "descending")))
                    parts.append(("type", string(element.kind.rawValue.lowercased())))
                    return object(parts)
                }))
            })))
        }
        if !e.uniquenessConstraints.isEmpty {
            fields.append(("unique", array(e.uniquenessConstraints.map { array($0.properties.map(string)) })))
        }
        if !e.userInfo.isEmpty { fields.append(("userInfo", userInfo(e.userInfo))) }
        return object(fields)
    }

    private static func attribute(_ a: Attribute) -> String {
        var fields: [(String, String)] = [("type", string(a.type.yamlName)), ("optional", a.isOptional ? "true" : "false")]
        if let d = a.defaultValue { fields.append(("default", string(text(d)))) }
        if let m = a.minimum { fields.append(("min", string(text(m)))) }
        if let m = a.maximum { fields.append(("max", string(text(m)))) }
        if let r = a.regularExpression { fields.append(("regex", string(r))) }
        if a.isTransient { fields.append(("transient", "true")) }
        if let d = a.derivation { fields.append(("derived", string(d))) }
        if let t = a.valueTransformerName { fields.append(("transformer", string(t))) }
        if a.allowsExternalBinaryDataStorage { fields.append(("externalStorage", "true")) }
        if !a.userInfo.isEmpty { fields.append(("userInfo", userInfo(a.userInfo))) }
        if a.preservesValueInHistoryOnDeletion { fields.append(("preserveAfterDeletion", "true")) }
        return object(fields)
    }

    private static func relationship(_ r: Relationship) -> String {
        var fields: [(String, String)] = [("to", string(r.destination)), ("many", r.isToMany ? "true" : "false")]
        if r.isOrdered { fields.append(("ordered", "true")) }
        fields.append(("optional", r.isOptional ? "true" : "false"))
        // Counts mean something on to-many relationships only (the reader
        // refuses them on to-one, whose counts follow from `optional`).
        if r.isToMany {
            if r.minCount != 0 { fields.append(("min", String(r.minCount))) }
            if let m = r.maxCount { fields.append(("max", String(m))) }
        }
        if let inverse = r.inverse { fields.append(("inverse", string(inverse))) }
        fields.append(("delete", string(r.deleteRule.yamlName)))
        if r.isTransient { fields.append(("transient", "true")) }
        if !r.userInfo.isEmpty { fields.append(("userInfo", userInfo(r.userInfo))) }
        return object(fields)
    }

    /// A default or bound as the model format writes it: the reader parses
    /// these back to the same value (dates as seconds since 2001, which it
    /// takes as well as ISO 8601; doubles in shortest round-trip form).
    static func text(_ value: Value) -> String {
        switch value {
        case .int(let n): return String(n)
        case .double(let d): return "\(d)"
        case .decimal(let d): return "\(d)"
        case .string(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .date(let seconds): return "\(seconds)"
        case .data(let bytes): return Data(bytes).base64EncodedString()
        case .uuid(let u): return u.uuidString
        default: return Printer.format(value)
        }
    }

    private static func userInfo(_ info: [String: String]) -> String {
        object(info.sorted { $0.key < $1.key }.map { ($0.key, string($0.value)) })
    }

    // MARK: - JSON text

    private static func object(_ fields: [(String, String)]) -> String {
        if fields.isEmpty { return "{}" }
        return "{" + fields.map { string($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
    }

    private static func array(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }

    /// A JSON string: quotes, backslashes and control characters escaped,
    /// DEL too (the JSON is read by a YAML parser, which refuses it raw; a
    /// raw tab would not survive either: the JSON reader turns tabs into spaces).
    static func string(_ s: String) -> String { JSONText.quote(s, escapingDelete: true) }
}

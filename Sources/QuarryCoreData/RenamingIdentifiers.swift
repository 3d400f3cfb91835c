// Renaming identifiers: when an app renames an entity or property and lets
// Core Data migrate the store in place, the store keeps the OLD name —
// `Z_PRIMARYKEY.Z_NAME`, the table and column names — and the model says
// which old name each new one stands for (Xcode's "Renaming ID", saved as
// `elementID` in the `contents` XML and as NSRenamingIdentifier in the
// cached model). Seen in the corpus: CoreDataPlus's LuxuryCar is stored as
// ExpensiveSportCar. Quarry's Model does not keep these, so they are read
// here beside it: "Entity" → old entity name, "Entity.property" → old
// property name, only where they differ.
import Foundation

public struct RenamingIdentifiers: Sendable {
    public var names: [String: String] = [:]

    public init(names: [String: String] = [:]) { self.names = names }

    func entity(_ name: String) -> String? { names[name] }
    func property(_ name: String, of entity: String) -> String? { names[entity + "." + name] }

    /// The renaming identifiers of a `contents` XML document.
    public static func fromXML(_ text: String) -> RenamingIdentifiers {
        var result = RenamingIdentifiers()
        var entity: String?
        var rest = text[...]
        while let open = rest.range(of: "<") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: ">") else { break }
            let tag = rest[..<close]
            rest = rest[close...]
            let kind = tag.prefix { !$0.isWhitespace }
            guard kind == "entity" || kind == "attribute" || kind == "relationship" else { continue }
            guard let name = attribute("name", in: tag) else { continue }
            if kind == "entity" { entity = name }
            guard let old = attribute("elementID", in: tag), old != name else { continue }
            if kind == "entity" { result.names[name] = old } else if let entity { result.names[entity + "." + name] = old }
        }
        return result
    }

    /// The value of `key="…"` inside a tag's text.
    private static func attribute(_ key: String, in tag: Substring) -> String? {
        guard let start = tag.range(of: " " + key + "=\"") else { return nil }
        let value = tag[start.upperBound...].prefix { $0 != "\"" }
        return value.isEmpty ? nil : String(value)
    }

    /// The renaming identifiers beside a model file or bundle version
    /// (none for Quarry's YAML and JSON formats).
    public static func beside(modelFile path: String) -> RenamingIdentifiers {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return RenamingIdentifiers() }
        let file = isDirectory.boolValue ? path + "/contents" : path
        let lower = file.lowercased()
        guard !lower.hasSuffix(".yaml"), !lower.hasSuffix(".yml"), !lower.hasSuffix(".json"),
              let text = try? String(contentsOfFile: file, encoding: .utf8) else { return RenamingIdentifiers() }
        return fromXML(text)
    }
}

// Reads a factories file (YAML) into `Factories`, keeping the line and column
// of every entity, property, count and generator so that errors found now
// (an unknown key, two generators for one attribute) and later, against the
// model (an unknown attribute, a range outside its bounds), point at the
// place to fix. Yams' composed nodes carry the marks, as in the model reader.
//
// Keys are forgiving about spelling: `date range`, `dateRange` and
// `date_range` are the same key, as are `null ratio` and `nullRatio`.
import Foundation
import QuarryModel
import Yams

/// Reads factories files.
///
/// ```swift
/// let factories = try FactoriesReader.read(from: "Examples/Fixtures/company.yaml")
/// ```
public enum FactoriesReader {
    public static func read(from path: String) throws(FixtureError) -> Factories {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw FixtureError(.unreadable, "cannot read the factories file", at: FixtureLocation(file: path))
        }
        return try read(yaml: text, file: path)
    }

    public static func read(yaml text: String, file: String = "<factories>") throws(FixtureError) -> Factories {
        // Yams recurses per level: refuse hostile nesting before it reads.
        if let nesting = YAMLNesting.check(text) {
            throw FixtureError(.syntax, "malformed YAML: \(nesting.message)",
                               at: FixtureLocation(file: file, line: nesting.line, column: nesting.column))
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw syntaxError(error, file: file)
        } catch {
            throw FixtureError(.syntax, "cannot read YAML: \(error)", at: FixtureLocation(file: file))
        }
        let nodes = FactoryNodes(file: file)
        guard let root, !nodes.isNull(root) else {
            throw FixtureError(.structure, "the factories file is empty (expected an 'entities:' mapping)",
                               at: FixtureLocation(file: file, line: 1, column: 1))
        }
        return try nodes.document(root)
    }

    static func syntaxError(_ error: YamlError, file: String) -> FixtureError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
             .composer(_, let problem, let mark, _):
            return FixtureError(.syntax, "malformed YAML: \(problem)",
                                at: FixtureLocation(file: file, line: mark.line, column: mark.column))
        default:
            return FixtureError(.syntax, "malformed YAML: \(error)", at: FixtureLocation(file: file))
        }
    }
}

/// Typed access to Yams nodes, every shape mistake a located FixtureError.
struct FactoryNodes {
    let file: String

    static let documentKeys = ["seed", "referencedate", "entities"]
    static let entityKeys = ["count", "attributes", "relationships"]
    static let generatorKeys = ["sequence", "oneof", "range", "daterange", "pattern", "expression", "value", "kind", "ratio"]
    static let attributeKeys = generatorKeys + ["step", "weights", "distribution", "nullratio"]
    static let relationshipKeys = ["distribution", "per", "skew", "nullratio"]

    /// `date range` → `daterange`: the spelling-insensitive form of a key.
    static func normalize(_ key: String) -> String {
        String(key.lowercased().filter { $0 != " " && $0 != "_" && $0 != "-" })
    }

    func location(_ node: Node) -> FixtureLocation {
        FixtureLocation(file: file, line: node.mark?.line, column: node.mark?.column)
    }

    func error(_ kind: FixtureErrorKind, _ message: String, at node: Node, suggestion: String? = nil) -> FixtureError {
        FixtureError(kind, message, at: location(node), suggestion: suggestion)
    }

    func isNull(_ node: Node) -> Bool {
        guard case .scalar(let s) = node, s.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(s.string)
    }

    typealias Pair = (key: String, keyNode: Node, value: Node)

    /// Pairs of a mapping in file order, keys normalized when `normalizing`.
    func pairs(_ node: Node, _ what: String, normalizing: Bool = false) throws(FixtureError) -> [Pair] {
        if isNull(node) { return [] }
        guard case .mapping(let mapping) = node else {
            throw error(.structure, "\(what) should be a mapping (key: value lines), found \(describe(node))", at: node)
        }
        var result: [Pair] = []
        var seen: Set<String> = []
        for (k, v) in mapping {
            guard case .scalar(let s) = k else {
                throw error(.structure, "a key in \(what) should be a plain name, found \(describe(k))", at: k)
            }
            let key = normalizing ? Self.normalize(s.string) : s.string
            guard seen.insert(key).inserted else {
                throw error(.structure, "'\(s.string)' appears twice in \(what)", at: k)
            }
            result.append((key, k, v))
        }
        return result
    }

    func checkKeys(_ pairs: [Pair], allowed: [String], shown: [String], in what: String) throws(FixtureError) {
        for pair in pairs where !allowed.contains(pair.key) {
            let original = (try? scalar(pair.keyNode, "a key")) ?? pair.key
            throw error(.structure, "unknown key '\(original)' in \(what) (expected one of: \(shown.joined(separator: ", ")))",
                        at: pair.keyNode, suggestion: Suggestions.closest(to: original, among: shown))
        }
    }

    func scalar(_ node: Node, _ what: String) throws(FixtureError) -> String {
        guard case .scalar(let s) = node else {
            throw error(.structure, "\(what) should be a single value, found \(describe(node))", at: node)
        }
        return s.string
    }

    func value(_ node: Node, _ what: String) throws(FixtureError) -> FactoryValue {
        var v = FactoryValue(try scalar(node, what), isNull: isNull(node))
        v.location = location(node)
        return v
    }

    func int(_ node: Node, _ what: String) throws(FixtureError) -> Int {
        let s = try scalar(node, what)
        guard let n = Int(s.replacingOccurrences(of: "_", with: "")), n >= 0 else {
            throw error(.invalidCount, "\(what) should be a whole number ≥ 0, found '\(s)'", at: node)
        }
        return n
    }

    func ratio(_ node: Node, _ what: String) throws(FixtureError) -> Double {
        let s = try scalar(node, what)
        guard let d = Double(s), d >= 0, d <= 1 else {
            throw error(.invalidGenerator, "\(what) should be a number from 0 to 1, found '\(s)'", at: node)
        }
        return d
    }

    func list(_ node: Node, _ what: String) throws(FixtureError) -> [Node] {
        guard case .sequence(let s) = node else {
            throw error(.structure, "\(what) should be a list, found \(describe(node))", at: node)
        }
        return Array(s)
    }

    func shape(_ node: Node) throws(FixtureError) -> DistributionShape {
        let s = try scalar(node, "distribution")
        guard let shape = DistributionShape(rawValue: s.lowercased()) else {
            let names = DistributionShape.allCases.map(\.rawValue)
            throw error(.structure, "unknown distribution '\(s)' (distributions: \(names.joined(separator: ", ")))",
                        at: node, suggestion: Suggestions.closest(to: s, among: names))
        }
        return shape
    }

    func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let s): return "'\(s.string)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        }
    }

    // MARK: - Document and entities

    func document(_ root: Node) throws(FixtureError) -> Factories {
        let top = try pairs(root, "the factories file", normalizing: true)
        try checkKeys(top, allowed: Self.documentKeys, shown: ["seed", "reference date", "entities"], in: "the factories file")
        var factories = Factories(file: file)
        for (key, _, value) in top {
            switch key {
            case "seed":
                let s = try scalar(value, "seed")
                guard let seed = UInt64(s) else { throw error(.structure, "seed should be a whole number ≥ 0, found '\(s)'", at: value) }
                factories.seed = seed
            case "referencedate":
                let s = try scalar(value, "reference date")
                guard let date = FixtureValues.date(s) else {
                    throw error(.structure, "reference date should be an ISO 8601 date, found '\(s)'", at: value)
                }
                factories.referenceDate = date
            default:
                for pair in try pairs(value, "entities") {
                    factories.entityLocations[pair.key] = location(pair.keyNode)
                    factories.entities[pair.key] = try entity(pair.key, pair.value)
                }
            }
        }
        guard top.contains(where: { $0.key == "entities" }) else {
            throw error(.structure, "the factories file has no 'entities:' mapping", at: root)
        }
        return factories
    }

    func entity(_ name: String, _ node: Node) throws(FixtureError) -> EntityFactory {
        let what = "the factory of \(name)"
        let fields = try pairs(node, what, normalizing: true)
        try checkKeys(fields, allowed: Self.entityKeys, shown: Self.entityKeys, in: what)
        var factory = EntityFactory()
        for (key, _, value) in fields {
            switch key {
            case "count":
                factory.count = try int(value, "the count of \(name)")
                factory.countLocation = location(value)
            case "attributes":
                for pair in try pairs(value, "the attributes of \(name)") {
                    factory.propertyLocations[pair.key] = location(pair.keyNode)
                    var a = try attribute(pair.key, of: name, pair.value)
                    a.location = location(pair.keyNode)
                    factory.attributes[pair.key] = a
                }
            default:
                for pair in try pairs(value, "the relationships of \(name)") {
                    factory.propertyLocations[pair.key] = location(pair.keyNode)
                    var r = try relationship(pair.key, of: name, pair.value)
                    r.location = location(pair.keyNode)
                    factory.relationships[pair.key] = r
                }
            }
        }
        return factory
    }
}

// Key paths bound to a model: each component resolved to an attribute or a
// relationship of the entity it is applied to, to-one and to-many steps told
// apart, collection operators attached to the to-many step they summarise,
// scalar keys after an attribute (`salary.doubleValue`) checked against
// ScalarKey. Binding is where "unknown key" and "to-many key path without a
// quantifier" are reported, with the key's span and a "did you mean" — for
// the SQL lowering and (through PredicateBinder) for every key path of a
// predicate, whichever engine then runs it.
import QuarrySyntax
import QuarryModel

/// One relationship hop of a bound path.
public struct PathStep: Sendable, Equatable {
    public var relationship: String
    public var source: String
    public var destination: String
    public var isToMany: Bool

    public init(relationship: String, source: String, destination: String, isToMany: Bool) {
        self.relationship = relationship
        self.source = source
        self.destination = destination
        self.isToMany = isToMany
    }
}

/// A key path resolved against a model.
public struct BoundPath: Sendable, Equatable {
    public enum Terminal: Sendable, Equatable {
        /// An attribute of the entity the last step reaches.
        case attribute(Attribute, entity: String)
        /// The object the steps reach (SELF, or a relationship's destination).
        case object(entity: String)
        /// `@count` of the to-many steps.
        case count
        /// `@sum.x` / `@avg.x` / `@min.x` / `@max.x` (or the functions
        /// `sum:` / `average:`...) over the to-many steps.
        case aggregate(StoreAggregate, attribute: Attribute, entity: String)
    }

    public var steps: [PathStep]
    public var terminal: Terminal
    /// Scalar keys after the terminal attribute (`salary.doubleValue`,
    /// `@avg.salary.doubleValue`: applied to each element before the
    /// aggregate), checked against ScalarKey.
    public var suffix: [ScalarKey] = []

    public var isToMany: Bool { steps.contains { $0.isToMany } }

    public init(steps: [PathStep], terminal: Terminal, suffix: [ScalarKey] = []) {
        self.steps = steps
        self.terminal = terminal
        self.suffix = suffix
    }
}

extension AttributeType {
    /// The kind of scalar the evaluator sees for a value of this type; nil
    /// for types that answer no scalar keys but `self`.
    public var scalarKind: ScalarKind? {
        switch self {
        case .integer16, .integer32, .integer64: return .integer
        case .double, .float: return .double
        case .decimal: return .decimal
        case .boolean: return .boolean
        case .string, .uri: return .string
        case .date: return .date
        case .uuid: return .uuid
        default: return nil
        }
    }
}

/// What a key of an entity is, with only what binding needs of a
/// relationship.
public enum IndexedKey {
    /// With the column when the index knows it (quoted).
    case attribute(Attribute, column: String?)
    case relationship(destination: String, isToMany: Bool)
    /// A fetched property.
    case other
}

/// A per-entity index of keys built ahead of binding (the SQL mapping's
/// MappedModel): binding asks it instead of searching the model's entities.
public protocol KeyIndex: AnyObject, Sendable {
    var model: Model { get }
    func hasEntity(_ name: String) -> Bool
    func indexedKey(_ name: String, of entity: String) -> IndexedKey?
    func property(_ name: String, of entity: String) -> Property?
}

public struct KeyPathBinder {
    /// Where keys are looked up: the model's entities, or an index of them.
    /// Both cases hold a reference, so making or copying a binder copies no
    /// model or mapping.
    private enum Keys {
        case model(ModelBox)
        case index(any KeyIndex)
    }
    private final class ModelBox {
        let model: Model
        init(_ model: Model) { self.model = model }
    }
    private let keys: Keys

    public init(model: Model) { keys = .model(ModelBox(model)) }
    public init(index: any KeyIndex) { keys = .index(index) }

    public var model: Model {
        switch keys {
        case .model(let m): return m.model
        case .index(let m): return m.model
        }
    }

    private func hasEntity(_ entity: String) -> Bool {
        switch keys {
        case .model(let m): return m.model.entity(named: entity) != nil
        case .index(let m): return m.hasEntity(entity)
        }
    }

    private func key(_ name: String, of entity: String) -> IndexedKey? {
        switch keys {
        case .model:
            switch property(name, of: entity) {
            case .attribute(let a)?: return .attribute(a, column: nil)
            case .relationship(let r)?: return .relationship(destination: r.destination, isToMany: r.isToMany)
            case .fetchedProperty?: return .other
            case nil: return nil
            }
        case .index(let m):
            return m.indexedKey(name, of: entity)
        }
    }

    public func property(_ key: String, of entity: String) -> Property? {
        switch keys {
        case .model(let m): return m.model.entity(named: entity)?.property(named: key, in: m.model)
        case .index(let m): return m.property(key, of: entity)
        }
    }

    public func attribute(_ key: String, of entity: String) -> Attribute? {
        if case .attribute(let a)? = property(key, of: entity) { return a }
        return nil
    }

    /// Binds `components` applied to an object of `entity`.
    public func bind(_ components: [String], from entity: String, span: SourceSpan) throws(Diagnostic) -> BoundPath {
        try bindWithColumn(components, from: entity, span: span).path
    }

    /// `bind`, with the terminal attribute's quoted column when the mapping
    /// knows it (nil otherwise), so that the planner need not look it up again.
    public func bindWithColumn(_ components: [String], from entity: String, span: SourceSpan)
        throws(Diagnostic) -> (path: BoundPath, column: String?) {
        var steps: [PathStep] = []
        var current = entity
        var i = 0
        while i < components.count {
            let key = components[i]
            guard hasEntity(current) else {
                throw Diagnostic(.unknownEntity, "unknown entity '\(current)'", at: span, stage: .bind)
            }
            if key.utf8.first == UInt8(ascii: "@") && key.hasPrefix("@") {
                guard steps.contains(where: \.isToMany) else {
                    throw Diagnostic(.notAToManyKeyPath, "\(key) needs a to-many key path before it", at: span, stage: .bind)
                }
                let op = CollectionOperator(key: key).flatMap(StoreAggregate.init)
                if op == .count { return (BoundPath(steps: steps, terminal: .count), nil) }
                guard let op else {
                    throw Diagnostic(.unknownKeyInModel, "\(key) is not supported on a store", at: span,
                                     hints: ["use @count, @sum, @avg, @min or @max"], stage: .bind)
                }
                guard i + 2 <= components.count, let attribute = attribute(components[i + 1], of: current) else {
                    throw Diagnostic(.unknownKeyInModel, "\(key) needs one attribute of \(current) after it", at: span,
                                     hints: hint(components.count > i + 1 ? components[i + 1] : "", current), stage: .bind)
                }
                let suffix = try checkSuffix(Array(components[(i + 2)...]), after: attribute, of: current, span: span)
                return (BoundPath(steps: steps, terminal: .aggregate(op, attribute: attribute, entity: current), suffix: suffix), nil)
            }
            if key == "self" { i += 1; continue }
            switch self.key(key, of: current) {
            case .attribute(let a, let column)?:
                let suffix = try checkSuffix(Array(components[(i + 1)...]), after: a, of: current, span: span)
                return (BoundPath(steps: steps, terminal: .attribute(a, entity: current), suffix: suffix), column)
            case .relationship(let destination, let isToMany)?:
                // Keys are found by name: the key is the relationship's name.
                steps.append(PathStep(relationship: key, source: current, destination: destination, isToMany: isToMany))
                current = destination
            default:
                throw Diagnostic(.unknownKeyInModel, "\(current) has no attribute or relationship '\(key)'", at: span,
                                 hints: hint(key, current), stage: .bind)
            }
            i += 1
        }
        return (BoundPath(steps: steps, terminal: .object(entity: current)), nil)
    }

    /// Scalar keys after an attribute: each must be one the value it is
    /// applied to answers (ScalarKey, the table the evaluator follows).
    public func checkSuffix(_ suffix: [String], after attribute: Attribute, of entity: String, span: SourceSpan) throws(Diagnostic) -> [ScalarKey] {
        var kind = attribute.type.scalarKind
        var previous = attribute.name
        var keys: [ScalarKey] = []
        for key in suffix {
            let scalarKey = ScalarKey(rawValue: key)
            guard let k = kind, let next = scalarKey?.result(on: k) else {
                if scalarKey == .identity { previous = key; keys.append(.identity); continue }
                let hints = Suggestions.closest(to: key, among: ScalarKey.spellings).map { ["did you mean '\($0)'?"] } ?? []
                throw Diagnostic(.keyAfterAttribute, "'\(previous)' is \(previous == attribute.name ? "an attribute of \(entity)" : "a scalar"); '\(key)' cannot follow it",
                                 at: span, hints: hints, stage: .bind)
            }
            kind = next
            previous = key
            keys.append(scalarKey!)
        }
        return keys
    }

    public func hint(_ key: String, _ entity: String) -> [String] {
        let names = model.entity(named: entity)?.allProperties(in: model).map(\.name) ?? []
        if let s = Suggestions.closest(to: key, among: names) { return ["did you mean '\(s)'?"] }
        return names.isEmpty ? [] : ["\(entity) has: " + names.joined(separator: ", ")]
    }
}

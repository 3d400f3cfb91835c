// Derivations: the expressions Core Data accepts for a derived attribute,
// parsed and checked once against the model. Core Data's SQLite store takes
// a key path through to-one relationships (`department.name`), an aggregate
// of a to-many (`employees.@count`, `employees.@sum.salary`, and @avg, @min,
// @max), `lowercase:(x)`, `uppercase:(x)`, `canonical:(x)` (case- and
// diacritic-folded), `now()`, constants and arithmetic of these. Anything
// else (`length:(text)`, a key path through a to-many without an aggregate,
// SUBQUERY, FUNCTION …) is refused: a store cannot keep it current.
//
// Like Core Data, the model readers accept such a model (momc does not look
// inside a derivation; Core Data refuses it when the store is loaded): the
// readers list each problem as a warning, and a store refuses the model with
// the ModelError (SQLStore, StoreMapping+Derivations).
import QuarrySyntax

/// A checked derivation of one attribute.
///
/// ```swift
/// let d = try Derivation.parse("employees.@sum.salary", attribute: total, of: department, in: model)
/// d.relationshipPaths   // [["employees"]]
/// ```
public struct Derivation: Sendable, Equatable {
    /// Core Data's string functions, applied to the whole value.
    public enum TextFunction: String, Sendable, Equatable {
        case lowercase, uppercase, canonical
    }

    public let text: String
    /// The whole expression, as written.
    public let expression: QueryExpression
    /// When the derivation is `lowercase:(x)`, `uppercase:(x)` or
    /// `canonical:(x)`: the function (SQL cannot fold text as Swift does, so
    /// stores apply it in Swift to the lowered argument).
    public let textFunction: TextFunction?
    /// The expression SQL computes: the argument of `textFunction`, or all of it.
    public let argument: QueryExpression
    /// Every relationship path the value reads, from the derived attribute's
    /// entity (`["department"]`, `["employees"]`, `["team", "members"]`).
    public let relationshipPaths: [[String]]
    /// The entities those paths reach (the destinations, by name).
    public let reachedEntities: Set<String>
    /// Whether `now()` occurs: the value changes with time, so it is only
    /// recomputed for rows the save or request writes (as Core Data does).
    public let usesNow: Bool

    /// Whether the value reads only the object's own attributes.
    public var isSelfOnly: Bool { relationshipPaths.isEmpty }

    /// What is wrong with a derivation, and what would be accepted.
    public struct Problem: Error, Sendable, Equatable {
        public var message: String
        public var hint: String
    }

    static let aggregates: Set<String> = ["@count", "@sum", "@avg", "@min", "@max"]
    static let hint = "a derivation is a key path through to-one relationships, employees.@count, employees.@sum.salary "
        + "(@avg, @min, @max), lowercase:(name), uppercase:(name), canonical:(name), now(), a constant, or arithmetic of these"

    /// Parses and checks `text` as the derivation of `attribute` of `entity`.
    public static func parse(_ text: String, attribute: Attribute, of entity: Entity, in model: Model) throws(Problem) -> Derivation {
        let expression: QueryExpression
        do { expression = try Parser.parseExpression(text) } catch {
            throw Problem(message: "'\(text)' does not parse: \(error)", hint: hint)
        }
        var checker = Checker(model: model, entity: entity)
        var textFunction: TextFunction?
        var argument = expression
        if case .function(let name, let args) = expression.kind, let f = TextFunction(rawValue: Self.bare(name)) {
            guard args.count == 1 else { throw Problem(message: "\(f.rawValue): takes one argument", hint: hint) }
            guard attribute.type == .string else {
                throw Problem(message: "\(f.rawValue): gives a string, but the attribute is \(attribute.type.rawValue)", hint: hint)
            }
            textFunction = f
            argument = args[0]
            let type = try checker.check(args[0])
            guard type == nil || type == .string || type == .uri else {
                throw Problem(message: "\(f.rawValue): needs a string, not \(type!.rawValue)", hint: hint)
            }
        } else {
            _ = try checker.check(expression)
        }
        return Derivation(text: text, expression: expression, textFunction: textFunction, argument: argument,
                          relationshipPaths: checker.paths, reachedEntities: checker.reached, usesNow: checker.usesNow)
    }

    static func bare(_ name: String) -> String { name.hasSuffix(":") ? String(name.dropLast()) : name }

    /// Walks the expression, recording what it reads; the result is the
    /// attribute type of a key path (nil when not a plain attribute).
    private struct Checker {
        let model: Model
        let entity: Entity
        var paths: [[String]] = []
        var reached: Set<String> = []
        var usesNow = false

        mutating func check(_ e: QueryExpression) throws(Problem) -> AttributeType? {
            switch e.kind {
            case .constant(let v):
                switch v {
                case .int, .double, .decimal, .string, .bool, .date, .null: return nil
                default: throw Problem(message: "a constant of this kind cannot be stored", hint: Derivation.hint)
                }
            case .keyPath(nil, let path):
                return try keyPath(path)
            case .binary(let op, let l, let r):
                guard [.add, .subtract, .multiply, .divide].contains(op) else {
                    throw Problem(message: "operator \(op.rawValue) is not allowed in a derivation", hint: Derivation.hint)
                }
                for side in [l, r] {
                    let t = try check(side)
                    if let t, !t.isNumeric && t != .date && t != .boolean {
                        throw Problem(message: "arithmetic needs numbers, not \(t.rawValue)", hint: Derivation.hint)
                    }
                }
                return nil
            case .unary(.negate, let x):
                _ = try check(x)
                return nil
            case .function(let name, let args) where ClockFunction.isNow(name, argumentCount: args.count):
                usesNow = true
                return nil
            case .function(let name, _) where TextFunction(rawValue: Derivation.bare(name)) != nil:
                throw Problem(message: "\(Derivation.bare(name)): must be the whole derivation", hint: Derivation.hint)
            case .function(let name, _):
                throw Problem(message: "function \(name) is not allowed in a derivation", hint: Derivation.hint)
            default:
                throw Problem(message: "this kind of expression is not allowed in a derivation", hint: Derivation.hint)
            }
        }

        /// `a`, `r.a`, `r.s.a` through to-ones; `r.@count`, `r.@sum.a` … with
        /// to-ones then one to-many before the operator.
        mutating func keyPath(_ path: [String]) throws(Problem) -> AttributeType? {
            var current = entity
            var relationships: [String] = []
            var i = 0
            while i < path.count {
                let key = path[i]
                if Derivation.aggregates.contains(key) {
                    throw Problem(message: "\(key) needs a to-many relationship before it", hint: Derivation.hint)
                }
                guard let property = current.property(named: key, in: model) else {
                    let names = current.allProperties(in: model).map(\.name)
                    let close = Suggestions.closest(to: key, among: names).map { " (did you mean '\($0)'?)" } ?? ""
                    throw Problem(message: "\(current.name) has no property '\(key)'\(close)", hint: Derivation.hint)
                }
                switch property {
                case .attribute(let a):
                    guard i == path.count - 1 else {
                        throw Problem(message: "'\(key)' is an attribute: the key path cannot go on past it", hint: Derivation.hint)
                    }
                    if a.isTransient { throw Problem(message: "'\(key)' is transient: a stored value cannot depend on it", hint: Derivation.hint) }
                    if !relationships.isEmpty { record(relationships) }
                    return a.type
                case .relationship(let r):
                    guard let destination = model.entity(named: r.destination) else {
                        throw Problem(message: "'\(key)' leads to unknown entity \(r.destination)", hint: Derivation.hint)
                    }
                    relationships.append(key)
                    reached.insert(destination.name)
                    current = destination
                    if r.isToMany {
                        return try aggregate(path, after: i, relationships: relationships, destination: destination)
                    }
                    if r.isTransient { throw Problem(message: "'\(key)' is transient", hint: Derivation.hint) }
                case .fetchedProperty:
                    throw Problem(message: "'\(key)' is a fetched property: a stored value cannot depend on it", hint: Derivation.hint)
                }
                i += 1
            }
            throw Problem(message: "'\(path.joined(separator: "."))' ends at a relationship, not an attribute", hint: Derivation.hint)
        }

        private mutating func aggregate(_ path: [String], after i: Int, relationships: [String], destination: Entity) throws(Problem) -> AttributeType? {
            let rest = Array(path[(i + 1)...])
            guard let op = rest.first, Derivation.aggregates.contains(op) else {
                throw Problem(message: "'\(path[i])' is to-many: use an aggregate (\(path[i]).@count, \(path[i]).@sum.x …)", hint: Derivation.hint)
            }
            record(relationships)
            if op == "@count" {
                guard rest.count == 1 else { throw Problem(message: "@count takes nothing after it", hint: Derivation.hint) }
                return nil
            }
            guard rest.count == 2 else { throw Problem(message: "\(op) needs one attribute after it (\(path[i]).\(op).x)", hint: Derivation.hint) }
            guard let a = destination.attribute(named: rest[1], in: model) else {
                let names = destination.allAttributes(in: model).map(\.name)
                let close = Suggestions.closest(to: rest[1], among: names).map { " (did you mean '\($0)'?)" } ?? ""
                throw Problem(message: "\(destination.name) has no attribute '\(rest[1])'\(close)", hint: Derivation.hint)
            }
            if a.isTransient { throw Problem(message: "'\(rest[1])' is transient", hint: Derivation.hint) }
            guard a.type.isNumeric || a.type == .date || (a.type == .string && (op == "@min" || op == "@max")) else {
                throw Problem(message: "\(op) of \(a.type.rawValue) attribute '\(rest[1])' is not allowed", hint: Derivation.hint)
            }
            return nil
        }

        private mutating func record(_ relationships: [String]) {
            if !paths.contains(relationships) { paths.append(relationships) }
        }
    }
}

extension Model {
    /// Every derivation of the model parsed and checked, by entity and
    /// attribute (own attributes only: sub-entities share the parent's
    /// column), and the problems of those that are refused.
    public func derivations() -> (checked: [String: [String: Derivation]], problems: [(entity: String, attribute: String, problem: Derivation.Problem)]) {
        var checked: [String: [String: Derivation]] = [:]
        var problems: [(String, String, Derivation.Problem)] = []
        for entity in entities {
            for a in entity.allAttributes(in: self) {
                guard let text = a.derivation else { continue }
                do throws(Derivation.Problem) {
                    checked[entity.name, default: [:]][a.name] = try Derivation.parse(text, attribute: a, of: entity, in: self)
                } catch {
                    if entity.attributes.contains(where: { $0.name == a.name }) { problems.append((entity.name, a.name, error)) }
                }
            }
        }
        return (checked, problems)
    }

    /// The first refused derivation as a model error naming the entity and
    /// attribute, with the hint; nil when every derivation is accepted.
    public func derivationError() -> ModelError? {
        guard let (entity, attribute, problem) = derivations().problems.first else { return nil }
        return sourceMap.error(.unsupported, "derived attribute '\(attribute)' of \(entity): \(problem.message); \(problem.hint)",
                               at: [entity, attribute, "derived"])
    }

    /// The refused derivations as warnings, for the readers (Core Data's
    /// model compiler accepts them; the store refuses them).
    func derivationWarnings() -> [ModelWarning] {
        derivations().problems.map { p in
            let e = sourceMap.error(.unsupported, "derived attribute '\(p.attribute)' of \(p.entity): \(p.problem.message); "
                                        + "a store will refuse this model (\(p.problem.hint))", at: [p.entity, p.attribute, "derived"])
            return ModelWarning(.unsupported, e.message, file: e.file, line: e.line, column: e.column)
        }
    }
}

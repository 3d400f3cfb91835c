// Checks a parsed predicate against an entity of a model: every key path
// names properties (QL004, with a "did you mean"), `%K` arguments written as
// literals name properties (QL007), operators fit the property's type
// (QL005), to-many paths are quantified or aggregated (QL006), and what a
// SQLite fetch cannot run — FUNCTION, MATCHES across a to-many, transient
// attributes — is a warning (QL008); style hints that need the model are
// in ModelChecker+Style.swift (QL013, QL014). Paths it cannot follow (through a
// transformable, a variable it does not know, a `%K` from a variable) are
// left alone: the checker reports what it knows, never guesses.

import QuarryModel
import QuarrySyntax

struct ModelChecker {
    let model: Model
    /// The decoded format string, to place findings on key components.
    let text: [UInt8]
    let uses: [SpecifierUse]
    let arguments: [CallArgument]?
    var findings: [RawFinding] = []

    init(model: Model, text: [UInt8], uses: [SpecifierUse], arguments: [CallArgument]?) {
        self.model = model
        self.text = text
        self.uses = uses
        self.arguments = arguments
    }

    /// The entity `SELF` is, and the entities SUBQUERY variables range over.
    struct Scope {
        var entity: Entity
        var variables: [String: Entity] = [:]
    }

    /// What a key path leads to.
    struct Resolution {
        enum Target { case attribute(Attribute), relationship(Relationship), unknown }
        var target: Target = .unknown
        /// A to-many relationship was crossed, and not through an aggregate.
        var crossesToMany = false
        /// The path ends in `@count`, `@avg`, … (a single value).
        var aggregated = false
        /// Where the path's text starts in the format string.
        var start: Int = 0
        /// The entity whose property the path ends at (for its indexes).
        var owner: Entity?
        /// The to-many relationships crossed outside an aggregate, in order.
        var toManyCrossed: [String] = []
    }

    mutating func check(_ predicate: QueryPredicate, entity: Entity) {
        check(predicate, scope: Scope(entity: entity))
    }

    mutating func check(_ predicate: QueryPredicate, scope: Scope) {
        switch predicate.kind {
        case .constant: break
        case .not(let p): check(p, scope: scope)
        case .and(let ps), .or(let ps): for p in ps { check(p, scope: scope) }
        case .comparison(let c): check(c, scope: scope)
        }
    }

    private mutating func check(_ c: Comparison, scope: Scope) {
        let lhs = check(c.lhs, scope: scope)
        let rhs = check(c.rhs, scope: scope)
        for side in [lhs, rhs] {
            // Core Data's SQL generator: "multiple to-many keys not allowed here".
            guard let side, side.toManyCrossed.count > 1 else { continue }
            findings.append(RawFinding(rule: .sqliteUnsupported,
                                       message: "the key path crosses two to-many relationships (\(side.toManyCrossed.joined(separator: ", "))): a SQLite fetch refuses it ('multiple to-many keys not allowed here')",
                                       hints: ["nest a SUBQUERY over the first relationship, or start the fetch from the other end"],
                                       place: .format(side.start)))
        }
        guard let lhs else { return }
        let stringOperators: [ComparisonOperator] = [.beginsWith, .endsWith, .like, .matches, .contains]
        if case .attribute(let a) = lhs.target, stringOperators.contains(c.op), !lhs.aggregated,
           a.type.isNumeric || a.type == .date || a.type == .boolean {
            findings.append(RawFinding(rule: .operatorType,
                                       message: "\(c.op.rawValue) needs a string, but '\(a.name)' is \(a.type.rawValue)",
                                       hints: ["compare numbers and dates with == < > or BETWEEN"], place: .format(lhs.start)))
        }
        let scalarOperators: [ComparisonOperator] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual,
                                                     .beginsWith, .endsWith, .like, .matches]
        if c.modifier == .direct, lhs.crossesToMany, !lhs.aggregated, scalarOperators.contains(c.op) {
            if case .attribute = lhs.target {
                findings.append(RawFinding(rule: .toManyUnquantified,
                                           message: "to-many key path compared as a single value (Core Data: 'to-many key not allowed here')",
                                           hints: ["write ANY (or ALL/NONE) before the key path, or use an aggregate such as @count"],
                                           place: .format(lhs.start)))
            }
        }
        checkStyle(c, lhs: lhs)
        if c.op == .matches, lhs.crossesToMany {
            findings.append(RawFinding(rule: .sqliteUnsupported,
                                       message: "MATCHES on a to-many key path cannot run in a SQLite fetch",
                                       hints: ["use SUBQUERY, or filter in memory"], place: .format(lhs.start)))
        }
    }

    /// Checks an expression; returns what it resolves to when it is a key path.
    @discardableResult
    mutating func check(_ e: QueryExpression, scope: Scope) -> Resolution? {
        switch e.kind {
        case .keyPath(let base, let path):
            var from: Entity?
            switch base?.kind {
            case nil, .evaluatedObject?: from = scope.entity
            case .variable(let name)?: from = scope.variables[name]
            case .some:
                check(base!, scope: scope)
                return nil
            }
            guard let from else { return nil }
            return resolve(path, from: from, span: e.span)
        case .evaluatedObject:
            return Resolution(target: .unknown, start: e.span.start)
        case .index(let base, let sub):
            check(base, scope: scope)
            if case .expression(let x) = sub { check(x, scope: scope) }
        case .aggregate(let items):
            for item in items { check(item, scope: scope) }
        case .function(_, let arguments):
            for a in arguments { check(a, scope: scope) }
        case .binary(_, let a, let b), .setOperation(_, let a, let b):
            check(a, scope: scope); check(b, scope: scope)
        case .unary(_, let a), .cast(let a, _):
            check(a, scope: scope)
        case .ternary(let p, let a, let b):
            check(p, scope: scope); check(a, scope: scope); check(b, scope: scope)
        case .functionCall(let receiver, _, let arguments):
            findings.append(RawFinding(rule: .sqliteUnsupported,
                                       message: "FUNCTION with a custom selector cannot run in a SQLite fetch",
                                       hints: ["compute the value in memory, or store it as an attribute"],
                                       place: .format(e.span.start)))
            check(receiver, scope: scope)
            for a in arguments { check(a, scope: scope) }
        case .subquery(let collection, let variable, let predicate):
            let r = check(collection, scope: scope)
            if let r, case .relationship(let rel) = r.target, let destination = model.entity(named: rel.destination) {
                var inner = scope
                inner.variables[variable] = destination
                check(predicate, scope: inner)
            }
        case .assignment(_, let value):
            check(value, scope: scope)
        case .constant, .variable, .anyKey, .placeholder:
            break
        }
        return nil
    }

    /// Follows a key path from an entity, reporting what does not exist.
    private mutating func resolve(_ written: [String], from start: Entity, span: SourceSpan) -> Resolution {
        var result = Resolution(start: span.start)
        // `%K` components take their argument's literal key path, when there is one.
        var components: [(name: String, offset: Int, argumentOffset: Int?)] = []
        var cursor = span.start
        var specifiers = uses.filter { $0.span.start >= span.start && $0.span.end <= span.end }.makeIterator()
        for name in written {
            let offset = find(name, from: cursor, before: span.end) ?? cursor
            cursor = offset + name.utf8.count
            guard name.hasPrefix("%") else { components.append((name, offset, nil)); continue }
            guard let use = specifiers.next(), let arguments, use.argument < arguments.count,
                  case .string(let literal) = arguments[use.argument].shape, !literal.isEmpty else {
                return Resolution(start: span.start)  // a key from a variable: not checked
            }
            for part in literal.split(separator: ".", omittingEmptySubsequences: false) {
                components.append((String(part), offset, arguments[use.argument].start))
            }
        }
        var entity: Entity? = start
        var aggregate: String?
        for component in components {
            let name = component.name
            if name.hasPrefix("@") {
                if name == "@count" { result.aggregated = true; result.target = .unknown; return result }
                if ["@avg", "@sum", "@min", "@max"].contains(name) { aggregate = name; result.aggregated = true; continue }
                return Resolution(start: span.start)  // @distinctUnionOfObjects and friends: not followed
            }
            if name == "self" || name == "SELF" { continue }
            guard let current = entity else { return result }  // past an attribute: not followed
            let inSubentity = current.property(named: name, in: model) == nil
                ? current.allSubentities(in: model).first(where: { $0.property(named: name) != nil }) : nil
            guard let property = current.property(named: name, in: model) ?? inSubentity?.property(named: name) else {
                if ["objectID", "entity", "className", "hash", "description"].contains(name) { return Resolution(start: span.start) }
                let candidates = current.allProperties(in: model).map(\.name)
                let hint = Suggestions.closest(to: name, among: candidates).map { ["did you mean '\($0)'?"] } ?? []
                if let argumentOffset = component.argumentOffset {
                    findings.append(RawFinding(rule: .unknownKeyArgument,
                                               message: "%K argument '\(name)' names no property of entity \(current.name)",
                                               hints: hint, place: .source(argumentOffset)))
                } else {
                    findings.append(RawFinding(rule: .unknownKey, message: "entity \(current.name) has no property '\(name)'",
                                               hints: hint, place: .format(component.offset)))
                }
                return Resolution(start: span.start)
            }
            switch property {
            case .attribute(let a):
                if a.isTransient {
                    findings.append(RawFinding(rule: .sqliteUnsupported,
                                               message: "'\(a.name)' is a transient attribute: a SQLite fetch cannot use it",
                                               hints: ["filter on a stored attribute, or in memory"], place: .format(component.offset)))
                }
                if let aggregate, aggregate == "@avg" || aggregate == "@sum", a.type == .string || a.type == .binary {
                    findings.append(RawFinding(rule: .operatorType,
                                               message: "\(aggregate) needs numbers, but '\(a.name)' is \(a.type.rawValue)",
                                               hints: ["aggregate a numeric attribute, or use @count"], place: .format(component.offset)))
                }
                result.target = .attribute(a)
                result.owner = inSubentity ?? current
                entity = nil
            case .relationship(let r):
                if r.isToMany && aggregate == nil { result.crossesToMany = true; result.toManyCrossed.append(r.name) }
                result.target = .relationship(r)
                entity = model.entity(named: r.destination)
            case .fetchedProperty:
                // A fetched property is an array computed in memory: not followed.
                return Resolution(start: span.start)
            }
        }
        return result
    }

    /// Byte offset of `name` in the format text between `from` and `end`.
    private func find(_ name: String, from: Int, before end: Int) -> Int? {
        let needle = Array(name.utf8)
        guard !needle.isEmpty, from >= 0, end <= text.count, end - from >= needle.count else { return nil }
        var i = from
        while i + needle.count <= end {
            if text[i] == needle[0] && Array(text[i..<i + needle.count]) == needle { return i }
            i += 1
        }
        return nil
    }
}

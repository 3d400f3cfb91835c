// Validation before a save: every pending object is checked against its
// entity — required values, types (and integer widths), minimum and maximum
// (lengths for strings and binary data, instants for dates), regular
// expressions, required to-one relationships and to-many counts, uniqueness
// constraints (among the pending objects and against the store), and Deny
// delete rules. Every failure is collected, so one save reports them all.
//
// Core Data rules followed here, some surprising:
// - Only inserted and updated objects are validated; a deleted object is
//   checked only for Deny (Core Data's validateForDelete).
// - String lengths are counted in UTF-16 code units, as NSString's `length`
//   (so "😀" has length 2).
// - An optional to-many relationship may be empty whatever its minimum
//   count; the minimum applies once it holds anything.
// - A regular expression must match the whole string (MATCHES semantics);
//   nil is not checked against it (optionality decides about nil).
// - Uniqueness constraints treat nil as distinct from everything, as SQLite's
//   UNIQUE index does (and Core Data's constraints on SQLite stores).
import Foundation

/// Why a property of an object is invalid.
public enum ValidationReason: Sendable, Equatable, CustomStringConvertible {
    case required
    case typeMismatch(expected: String, got: String)
    case tooSmall(minimum: Value)
    case tooLarge(maximum: Value)
    case tooShort(minimumLength: Int, length: Int)
    case tooLong(maximumLength: Int, length: Int)
    case patternMismatch(pattern: String)
    case tooFewRelated(minimum: Int, count: Int)
    case tooManyRelated(maximum: Int, count: Int)
    /// Another object (saved, or pending in this save) has the same values.
    case notUnique(properties: [String], conflicting: ObjectID)
    /// Deleting the object is refused while the relationship holds objects.
    case deleteDenied(related: Int)
    /// Refused by one of the app's validation hooks (Context+ValidationHooks.swift).
    case hook(String)

    public var description: String {
        switch self {
        case .required: return "is required"
        case .typeMismatch(let e, let g): return "holds \(e), not \(g)"
        case .tooSmall(let m): return "is less than the minimum \(Printer.format(m))"
        case .tooLarge(let m): return "is greater than the maximum \(Printer.format(m))"
        case .tooShort(let m, let n): return "has length \(n), shorter than the minimum \(m)"
        case .tooLong(let m, let n): return "has length \(n), longer than the maximum \(m)"
        case .patternMismatch(let p): return "does not match the pattern '\(p)'"
        case .tooFewRelated(let m, let n): return "holds \(n) object\(n == 1 ? "" : "s"), fewer than the minimum \(m)"
        case .tooManyRelated(let m, let n): return "holds \(n) objects, more than the maximum \(m)"
        case .notUnique(let ps, let other): return "(\(ps.joined(separator: ", "))) is already used by \(other)"
        case .deleteDenied(let n): return "has the Deny rule and still holds \(n) object\(n == 1 ? "" : "s")"
        case .hook(let message): return message
        }
    }
}

/// One invalid property of one object.
public struct ValidationFailure: Sendable, Equatable, CustomStringConvertible {
    public var entity: String
    public var objectID: ObjectID
    public var property: String
    public var reason: ValidationReason

    public var description: String { "\(entity).\(property) of \(objectID) \(reason)" }
}

/// A save refused before anything was written: every failure found.
public struct ValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var failures: [ValidationFailure]

    public var description: String {
        "save failed, nothing was written: " + (failures.count == 1 ? failures[0].description
            : "\(failures.count) validation failures:\n" + failures.map { "  " + $0.description }.joined(separator: "\n"))
    }
}

/// Checks the pending objects of a context.
///
/// A save may hold hundreds of thousands of objects of a few entities, so
/// what depends only on the entity (which properties to check, in which
/// order, its constraints) is worked out once per entity, and an updated
/// object costs only the properties it changed.
final class Validator {
    let context: Context
    let model: Model
    /// Off for a child context's save: uniqueness is the store's to judge,
    /// when the parent saves (as in Core Data, Context+Parent+Saving.swift).
    var checksUniqueness = true
    /// The rules by entity: the context's, kept from save to save (they
    /// follow from the model alone, and making them was a tenth of a
    /// one-object save).
    private var rulesByEntity: [String: EntityRules] {
        get { context.validationRules }
        set { context.validationRules = newValue }
    }
    /// The rules used last: consecutive objects nearly always share them.
    @exclusivity(unchecked) private var lastRules: EntityRules?

    init(context: Context) {
        self.context = context
        self.model = context.model
    }

    /// What validation reads of one entity (a class: read once per object,
    /// and a struct copy would retain each array).
    final class EntityRules {
        let entity: String
        /// Checked attributes (not transient, not derived), model order.
        let attributes: [CheckedAttribute]
        /// Checked relationships (not transient), model order.
        let relationships: [Relationship]
        /// Property name → position: attributes first, then relationships.
        @exclusivity(unchecked) private var position: RememberingTable<Int>
        let denied: [Relationship]
        /// Uniqueness constraints, own and inherited.
        let constraints: [UniquenessConstraint]
        let root: String

        init(entity: String, attributes: [CheckedAttribute], relationships: [Relationship], position: [String: Int],
             denied: [Relationship], constraints: [UniquenessConstraint], root: String) {
            self.entity = entity
            self.attributes = attributes
            self.relationships = relationships
            self.position = RememberingTable(position)
            self.denied = denied
            self.constraints = constraints
            self.root = root
        }

        func position(of name: String) -> Int? { position.find(name) }
    }

    func rules(for info: EntityInfo) -> EntityRules {
        if let last = lastRules, last.entity == info.name { return last }
        if let known = rulesByEntity[info.name] { lastRules = known; return known }
        let entity = info.entity
        let attributes = entity.allAttributes(in: model).filter { !$0.isTransient && $0.derivation == nil }.map(CheckedAttribute.init)
        let all = entity.allRelationships(in: model)
        let relationships = all.filter { !$0.isTransient }
        var position: [String: Int] = [:]
        for (i, a) in attributes.enumerated() where position[a.name] == nil { position[a.name] = i }
        for (i, r) in relationships.enumerated() where position[r.name] == nil { position[r.name] = attributes.count + i }
        let rules = EntityRules(entity: entity.name, attributes: attributes, relationships: relationships, position: position,
                                denied: all.filter { $0.deleteRule == .deny },
                                constraints: ([entity] + entity.ancestors(in: model)).flatMap(\.uniquenessConstraints),
                                root: StoreMappingRoot.root(entity, model))
        rulesByEntity[entity.name] = rules
        lastRules = rules
        return rules
    }

    func validate(_ objects: [ManagedObject]) throws -> [ValidationFailure] {
        // One pass over the objects (each visit of 500k objects scattered in
        // memory costs), the failures listed as before: denials of deletes
        // first, then properties, then uniqueness.
        var denied: [ValidationFailure] = []
        var failures: [ValidationFailure] = []
        var anyDeleted = false
        // The attribute the last one-change update changed: a bulk edit's
        // next object changes the same one (checked with one reference in
        // hand, not a lookup of its entity's rules and of the name).
        var last: SingleAttribute?
        for object in objects {
            if let last, object.info === last.info, !object.isInserted, !object.isDeleted,
               let v = object.changes.attributeValue(ifOnly: last.key) {
                if let reason = check(v, last.attribute, entity: last.entity) { failures.append(failure(object, last.key, reason)) }
                continue
            }
            last = nil
            if object.isDeleted {
                anyDeleted = true
                if !object.isInserted { denied += try denials(object) }
            } else {
                try properties(of: object, into: &failures)
                if !object.isInserted, let single = object.changes.single, case .attribute = single.value {
                    let rules = rules(for: object.info)
                    if let i = rules.position(of: single.key), i < rules.attributes.count {
                        last = SingleAttribute(info: object.info, key: single.key, attribute: rules.attributes[i], entity: rules.entity)
                    }
                }
            }
        }
        if checksUniqueness, model.entities.contains(where: { !$0.uniquenessConstraints.isEmpty }) {
            failures += try uniqueness(anyDeleted ? objects.filter { !$0.isDeleted } : objects)
        }
        return denied.isEmpty ? failures : denied + failures
    }

    /// An entity's attribute that one-change objects changed (a class: held
    /// across objects with one reference, its parts read in place).
    private final class SingleAttribute {
        let info: EntityInfo
        let key: String
        let attribute: CheckedAttribute
        let entity: String

        init(info: EntityInfo, key: String, attribute: CheckedAttribute, entity: String) {
            self.info = info
            self.key = key
            self.attribute = attribute
            self.entity = entity
        }
    }

    private func failure(_ object: ManagedObject, _ property: String, _ reason: ValidationReason) -> ValidationFailure {
        ValidationFailure(entity: object.entity.name, objectID: object.objectID, property: property, reason: reason)
    }

    /// Deny: the relationship must hold no object that is not itself being deleted.
    private func denials(_ object: ManagedObject) throws -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        for r in rules(for: object.info).denied {
            let remaining = try related(object, r).filter { context.registeredObject(for: $0)?.isDeleted != true }
            if !remaining.isEmpty { failures.append(failure(object, r.name, .deleteDenied(related: remaining.count))) }
        }
        return failures
    }

    private func related(_ object: ManagedObject, _ r: Relationship) throws -> [ObjectID] {
        switch try object.current(.relationship(r)) {
        case .toOne(let id?): return [id]
        case .toMany(let ids): return ids
        default: return []
        }
    }

    private func properties(of object: ManagedObject, into failures: inout [ValidationFailure]) throws {
        let rules = rules(for: object.info)
        // Unchanged saved values were valid when saved; only check what
        // changed (in model order, so failures are listed the same way).
        if object.isInserted {
            for i in 0..<(rules.attributes.count + rules.relationships.count) { try check(i, of: object, rules, into: &failures) }
        } else if let (key, value) = object.onlyChange {
            // The usual update, one changed property: checked from the value
            // in hand (what `current` would return), with no list of positions.
            guard let i = rules.position(of: key) else { return }
            if i < rules.attributes.count, case .attribute(let v) = value {
                let a = rules.attributes[i]
                if let reason = check(v, a, entity: rules.entity) { failures.append(failure(object, a.name, reason)) }
            } else {
                try check(i, of: object, rules, into: &failures)
            }
        } else {
            for i in object.changes.keys.compactMap({ rules.position(of: $0) }).sorted() { try check(i, of: object, rules, into: &failures) }
        }
    }

    /// Checks the property at `position` of `rules` (attributes first, then relationships).
    private func check(_ position: Int, of object: ManagedObject, _ rules: EntityRules, into failures: inout [ValidationFailure]) throws {
        if position < rules.attributes.count {
            let a = rules.attributes[position]
            guard case .attribute(let value) = try object.current(attribute: a.attribute) else { return }
            if let reason = check(value, a, entity: rules.entity) { failures.append(failure(object, a.name, reason)) }
            return
        }
        let r = rules.relationships[position - rules.attributes.count]
        let ids = try related(object, r).filter { context.registeredObject(for: $0)?.isDeleted != true }
        if !r.isToMany {
            if !r.isOptional && ids.isEmpty { failures.append(failure(object, r.name, .required)) }
            return
        }
        if ids.isEmpty && r.isOptional { return }
        if ids.count < r.minCount || (ids.isEmpty && !r.isOptional) {
            failures.append(failure(object, r.name, .tooFewRelated(minimum: max(r.minCount, 1), count: ids.count)))
        } else if let maximum = r.maxCount, ids.count > maximum {
            failures.append(failure(object, r.name, .tooManyRelated(maximum: maximum, count: ids.count)))
        }
    }

    /// The first thing wrong with an attribute's value, if any.
    func check(_ value: Value, _ a: CheckedAttribute, entity: String) -> ValidationReason? {
        if value.isNull { return a.isOptional ? nil : .required }
        // A transformable value is valid when its transformer can encode it.
        if a.type == .transformable {
            do { _ = try StoreValues.transformed(value, for: a.attribute, entity: entity) } catch {
                // The transformer's reason, where it gave one (an ordered set under the secure archive…).
                var why = ""
                if case TransformableError.cannotEncode(_, _, _, let reason)? = error as? TransformableError { why = " (\(reason))" }
                return .typeMismatch(expected: "a value its transformer (\(StoreValues.transformerName(a.attribute))) can encode" + why, got: value.typeName)
            }
            return nil
        }
        let stored: Value
        do {
            stored = try StoreValues.storable(value, type: a.type, key: a.name, entity: entity)
        } catch StoreError.outOfRange {
            // An integer of the right kind that its width cannot hold (the
            // store refuses to write it): reported as the bound it passes.
            let range = a.integerRange ?? Int64.min...Int64.max
            return SortOrder.number(value) < Double(range.lowerBound) ? .tooSmall(minimum: .int(range.lowerBound)) : .tooLarge(maximum: .int(range.upperBound))
        } catch {
            return .typeMismatch(expected: a.type.rawValue, got: value.typeName)
        }
        if let range = a.integerRange, case .int(let i) = stored, !range.contains(i) {
            return i < range.lowerBound ? .tooSmall(minimum: .int(range.lowerBound)) : .tooLarge(maximum: .int(range.upperBound))
        }
        // Most attributes declare no bounds and no pattern: nothing more to check.
        guard a.hasMore else { return nil }
        let a = a.attribute
        switch stored {
        case .string(let s):
            if let reason = length(s.utf16.count, a) { return reason }
            if let pattern = a.regularExpression, !pattern.isEmpty {
                let matches = (try? CompiledRegex(pattern, folding: Folding(caseInsensitive: false, diacriticInsensitive: false),
                                                  timeLimit: 1, span: .synthesized).matches(s, span: .synthesized)) ?? false
                if !matches { return .patternMismatch(pattern: pattern) }
            }
        case .data(let bytes):
            if let reason = length(bytes.count, a) { return reason }
        case .int, .double, .date:
            if let m = a.minimum, SortOrder.number(stored) < SortOrder.number(m) { return .tooSmall(minimum: m) }
            if let m = a.maximum, SortOrder.number(stored) > SortOrder.number(m) { return .tooLarge(maximum: m) }
        default:
            break
        }
        return nil
    }

    private func length(_ n: Int, _ a: Attribute) -> ValidationReason? {
        if case .int(let m)? = a.minimum, n < m { return .tooShort(minimumLength: Int(m), length: n) }
        if case .int(let m)? = a.maximum, n > m { return .tooLong(maximumLength: Int(m), length: n) }
        return nil
    }

    /// Uniqueness constraints: no two live objects, pending or saved, may
    /// share the constrained values. A saved row only conflicts if this
    /// context is not deleting it or changing those values.
    private func uniqueness(_ objects: [ManagedObject]) throws -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        // Constraints are inherited, so an entity has some only if one of
        // the model's declares some: most models have none, and a save of
        // 500k objects then skips a pass over them all (`validate` checks first).
        guard model.entities.contains(where: { !$0.uniquenessConstraints.isEmpty }) else { return failures }
        let mapping = context.store.mapping
        // Pending objects by constrained values, per hierarchy and
        // constraint, built on first use: each lookup is then a hash probe,
        // not a scan of every pending object.
        var indexes: [String: [String: [(object: ManagedObject, key: [Value])]]] = [:]
        func pendingIndex(_ root: String, _ names: [String]) -> [String: [(object: ManagedObject, key: [Value])]] {
            let name = root + "\u{1}" + names.joined(separator: "\u{1}")
            if let built = indexes[name] { return built }
            var index: [String: [(object: ManagedObject, key: [Value])]] = [:]
            for other in objects where other.entity.isKind(of: root, in: model) {
                guard let key = (try? uniqueKey(other, names)) ?? nil else { continue }
                index[Self.fingerprint(key), default: []].append((other, key))
            }
            indexes[name] = index
            return index
        }
        for object in objects {
            let rules = rules(for: object.info)
            guard !rules.constraints.isEmpty else { continue }
            let entity = object.entity
            for constraint in rules.constraints {
                let names = constraint.properties
                guard object.isInserted || names.contains(where: { object.changes[$0] != nil }) else { continue }
                guard let key = try uniqueKey(object, names) else { continue }
                // Among the pending objects (the earlier one wins; `objects`
                // is in insertion order, and so is each bucket).
                if let other = pendingIndex(rules.root, names)[Self.fingerprint(key)]?.first(where: {
                    $0.object !== object && Self.insertionOrder($0.object, object) && $0.key == key })?.object {
                    failures.append(failure(object, names.joined(separator: ","), .notUnique(properties: names, conflicting: other.objectID)))
                    continue
                }
                // Against the store.
                guard let table = mapping.table(for: entity.name) else { continue }
                var conditions: [String] = []
                for name in names {
                    if let column = mapping.column(for: name, of: entity.name) ?? foreignKeyColumn(name, entity.name, mapping) {
                        conditions.append("\(SQLIdentifier.quoted(column)) = ?")
                    }
                }
                guard conditions.count == names.count else { continue }
                let rows = try context.store.database.rows(
                    "SELECT \(StoreMapping.quotedPrimaryKey), \(StoreMapping.quotedEntityColumn) FROM \(SQLIdentifier.quoted(table)) WHERE \(conditions.joined(separator: " AND ")) AND \(StoreMapping.quotedPrimaryKey) != ?",
                    key + [.int(object.objectID.primaryKey)])
                for row in rows {
                    guard case .int(let pk) = row[0], case .string(let e) = row[1] else { continue }
                    let id = ObjectID(entity: e, primaryKey: pk)
                    if let registered = context.registeredObject(for: id), registered.hasChanges,
                       registered.isDeleted || names.contains(where: { registered.changes[$0] != nil }) { continue }
                    failures.append(failure(object, names.joined(separator: ","), .notUnique(properties: names, conflicting: id)))
                    break
                }
            }
        }
        return failures
    }

    /// The stored form of the constrained values; nil when any is nil.
    private func uniqueKey(_ object: ManagedObject, _ names: [String]) throws -> [Value]? {
        var key: [Value] = []
        for name in names {
            switch (object.entity.property(named: name, in: model), try object.property(name).map(object.current)) {
            case (.attribute(let a)?, .attribute(let v)?):
                guard !v.isNull, let stored = try? StoreValues.storable(v, for: a, entity: object.entity.name) else { return nil }
                key.append(stored)
            case (.relationship?, .toOne(let id?)?):
                key.append(.int(id.primaryKey))
            default:
                return nil
            }
        }
        return key
    }

    private func foreignKeyColumn(_ name: String, _ entity: String, _ mapping: StoreMapping) -> String? {
        if case .foreignKey(let column)? = mapping.storage(of: name, of: entity) { return column }
        return nil
    }

    /// A hash key for stored constrained values (equal values, equal text;
    /// candidates are still compared as values).
    private static func fingerprint(_ key: [Value]) -> String {
        key.map { Printer.format($0) }.joined(separator: "\u{1}")
    }

    private static func insertionOrder(_ a: ManagedObject, _ b: ManagedObject) -> Bool {
        Context.insertionOrder(a.objectID, b.objectID)
    }
}

/// An attribute as validation reads it (a class, so that reading one per
/// object copies no `Attribute`), with what its checks need at hand.
final class CheckedAttribute {
    let attribute: Attribute
    let name: String
    let type: AttributeType
    let isOptional: Bool
    let integerRange: ClosedRange<Int64>?
    /// It has bounds or a pattern: checks beyond type and integer range.
    let hasMore: Bool

    init(_ attribute: Attribute) {
        self.attribute = attribute
        name = attribute.name
        type = attribute.type
        isOptional = attribute.isOptional
        integerRange = attribute.type.integerRange
        hasMore = attribute.minimum != nil || attribute.maximum != nil || attribute.regularExpression != nil
    }
}

/// The root of an entity's hierarchy (one table, one constraint space).
enum StoreMappingRoot {
    static func root(_ entity: Entity, _ model: Model) -> String {
        entity.ancestors(in: model).last?.name ?? entity.name
    }
}

extension ManagedObject {
    /// Sets a to-one relationship of an object inserted and not yet saved,
    /// leaving the related object's inverse to-many as it is: the inverse is
    /// not loaded (a department with 100,000 employees would be read whole
    /// for one new employee). For a relationship kept as a foreign key on
    /// this object's row the save writes the same row either way, and
    /// validation sees the same value; any other, or an object not newly
    /// inserted, goes through `setValue(_:forKey:)`. Meant for a context
    /// that inserts and saves one object and is then dropped (the shell's
    /// INSERT), whose in-memory inverses nobody reads afterwards.
    public func setToOneOfNewObject(_ target: ManagedObject?, forKey key: String) throws {
        let context = try liveContext()
        guard isInserted, let p = property(key), p.kind == .toOne, case .relationship(let r) = p.property,
              case .foreignKey? = context.store.mapping.storage(of: r.name, of: entity.name) else {
            return try setValue(target, forKey: key)
        }
        if let target { try context.checkRelatable(target, to: r) }
        context.setPrimitive(self, r.name, .toOne(target?.objectID))
    }
}

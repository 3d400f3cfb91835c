// The model's rules on the shell's writes. INSERT goes through a context
// (ShellSession+Statements.swift), so it is validated exactly as a save is;
// this file turns what the statement says into what the context takes and
// what the context refuses into the model's words, located in the
// statement. UPDATE and DELETE stay batch requests — Core Data validates
// neither — but the value types still hold (the store refuses an integer
// outside its type's range), a uniqueness constraint they would break is
// named with the object that already holds the value, and no database
// message or internal SQL reaches the user.
//
// Shared by every write statement:
// - an object reference (`3`, `'Department/3'`, an object) must name an
//   existing object of the relationship's destination or a sub-entity;
// - ISO 8601 text given to a date attribute (as the shell prints dates) is
//   that date, read as fixture factories read dates (in predicates too:
//   DateLiterals.swift).
import Foundation

extension ShellSession {
    // MARK: - Values

    /// The value a statement gives attribute `a`: text for a date attribute
    /// is read as a date (seconds, or ISO 8601 date or date-time); anything
    /// else is left for validation (or the store) to judge.
    func attributeValue(_ value: Value, for a: Attribute) -> Value {
        if a.type == .date, case .string(let text) = value, let seconds = Self.dateSeconds(text) { return .date(seconds) }
        return value
    }

    /// Seconds since 2001-01-01 UTC from seconds or ISO 8601 — the rules of
    /// fixture factories (`DateText`).
    static func dateSeconds(_ text: String) -> Double? { DateText.seconds(text) }

    /// A constant a batch update writes must be of the attribute's type and
    /// fit its range; nil only where the attribute is optional. (The store
    /// refuses computed values out of range after its statement.)
    func checkConstant(_ v: Value, for a: Attribute, of e: Entity, at span: SourceSpan) throws(ShellError) {
        func refuse(_ message: String) -> ShellError {
            var error = ShellError(.validationFailed, "\(e.name).\(a.name) " + message + "; nothing was written", at: span)
            error.exitCode = ExitStatus.statementFailed
            return error
        }
        if v.isNull {
            if !a.isOptional { throw refuse("is required; it cannot be set to nil") }
            return
        }
        let fits: Bool
        switch (a.type, v) {
        case (.integer16, .int(let n)), (.integer32, .int(let n)), (.integer64, .int(let n)):
            let range = a.type.integerRange!
            guard range.contains(n) else { throw refuse("is an \(a.type.yamlName) (\(range.lowerBound)…\(range.upperBound)); \(n) does not fit") }
            fits = true
        case (.integer16, .double(let d)), (.integer32, .double(let d)), (.integer64, .double(let d)):
            let range = a.type.integerRange!
            guard d == d.rounded() else { throw refuse("holds \(a.type.rawValue), not a number with a fraction (\(Self.shown(v)))") }
            guard Double(range.lowerBound) <= d, d < Double(range.upperBound) + 1 else {
                throw refuse("is an \(a.type.yamlName) (\(range.lowerBound)…\(range.upperBound)); \(Self.shown(v)) does not fit")
            }
            fits = true
        case (.double, .int), (.double, .double), (.float, .int), (.float, .double),
             (.decimal, .int), (.decimal, .double), (.decimal, .decimal): fits = true
        case (.string, .string), (.uri, .string), (.boolean, .bool), (.date, .date), (.date, .int), (.date, .double),
             (.uuid, .uuid), (.binary, .data): fits = true
        case (.boolean, .int(let n)): fits = n == 0 || n == 1
        case (.transformable, _), (.objectID, _), (.undefined, _): fits = true
        default: fits = false
        }
        if !fits { throw refuse("holds \(a.type.rawValue), not \(v.typeName)") }
    }

    /// `predicate` with ISO 8601 text compared to a date attribute read as
    /// that date (DateLiterals.swift), so a date copied from the shell's
    /// output finds its objects.
    func readingDates(_ predicate: QueryPredicate, entity: String, model: Model) -> QueryPredicate {
        guard let e = model.entity(named: entity) else { return predicate }
        return DateLiterals(model: model).predicate(predicate, scope: DateLiterals.Scope(object: e))
    }

    /// A value in a message, as a statement would write it: strings in
    /// single quotes, dates as the shell prints them.
    static func shown(_ v: Value) -> String {
        switch v {
        case .string(let s): return "'" + s.replacingOccurrences(of: "'", with: "\\'") + "'"
        case .date(let seconds): return "'" + CellText.iso8601(seconds) + "'"
        default: return Printer.format(v)
        }
    }

    /// A to-many relationship given a value: statements set attributes and
    /// to-one relationships only (link from the to-one side instead).
    func toManyAssignment(_ key: Name, of e: Entity, verb: String) -> ShellError {
        var error = ShellError(.malformedAssignment, "'\(key.text)' is a to-many relationship of \(e.name); \(verb) sets attributes and to-one relationships",
                               at: key.span, hints: ["set the to-one side (its inverse) on the related objects instead"])
        error.code = DiagnosticCode.toManyWithoutQuantifier.rawValue
        error.stage = "bind"
        return error
    }

    // MARK: - Object references

    /// The object `value` names for to-one relationship `r` of `entity`:
    /// a primary key of the destination (`3`), an ID (`'Department/3'`), or
    /// an object. The entity named must be the destination or one of its
    /// sub-entities, and the object must exist; the ID returned carries the
    /// row's own entity (a sub-entity's row is stored with the parent's).
    func reference(_ value: Value, for r: Relationship, of entity: Entity, at span: SourceSpan,
                   in store: SQLStore) throws(ShellError) -> ObjectID {
        let model = store.model
        let usage = "\(entity.name).\(r.name) takes a \(r.destination): its primary key or '\(r.destination)/<key>'"
        let named: ObjectID
        switch value {
        case .int(let pk):
            named = ObjectID(entity: r.destination, primaryKey: pk)
        case .string(let s):
            let parts = s.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let pk = Int64(parts[1]) else { throw ShellError(.malformedAssignment, usage + ", not '\(s)'", at: span) }
            named = ObjectID(entity: String(parts[0]), primaryKey: pk)
        case .object(let ref):
            if let o = ref.object as? StoredObject { named = o.id } else if let o = ref.object as? ManagedObject { named = o.objectID } else {
                throw ShellError(.malformedAssignment, usage, at: span)
            }
        default:
            throw ShellError(.malformedAssignment, usage + ", not \(value.typeName)", at: span)
        }
        guard let namedEntity = model.entity(named: named.entity) else {
            let hint = Suggestions.closest(to: named.entity, among: model.entityNames).map { ["did you mean '\($0)'?"] } ?? []
            throw ShellError(.malformedAssignment, "\(entity.name).\(r.name): no entity '\(named.entity)' in the model", at: span, hints: hint)
        }
        guard namedEntity.isKind(of: r.destination, in: model) else {
            throw ShellError(.malformedAssignment, "\(entity.name).\(r.name) takes a \(r.destination), not \(named)", at: span)
        }
        // The row, and the entity it was stored as.
        guard let table = store.mapping.table(for: namedEntity.name) else { throw ShellError(.malformedAssignment, usage, at: span) }
        let rows: [[Value]]
        do {
            rows = try store.database.rows("SELECT \(SQLIdentifier.quoted(StoreMapping.entityColumn)) FROM \(SQLIdentifier.quoted(table)) WHERE \(SQLIdentifier.quoted(StoreMapping.primaryKey)) = ?",
                                           [.int(named.primaryKey)], as: [.string])
        } catch {
            throw ShellError.failed("cannot read \(named): \(Self.databaseMessage(error, from: store.database))")
        }
        guard case .string(let stored)? = rows.first?.first, let storedEntity = model.entity(named: stored),
              storedEntity.isKind(of: namedEntity.name, in: model) else {
            var error = ShellError(.constraintFailed, "\(entity.name).\(r.name): no \(named)", at: span)
            error.exitCode = ExitStatus.statementFailed
            throw error
        }
        return ObjectID(entity: stored, primaryKey: named.primaryKey)
    }

    // MARK: - Refusals in the model's words

    /// A refused save: every failure, one per line, located at the value of
    /// the first failing property the statement gave (else at `fallback`).
    func refusal(_ error: ValidationError, verb: String, spans: [String: SourceSpan], values: [String: Value],
                 fallback: SourceSpan) -> ShellError {
        let lines = error.failures.map { failure -> String in
            switch failure.reason {
            case .notUnique(let properties, let other):
                let given = properties.map { values[$0].map(Self.shown) ?? "nil" }.joined(separator: ", ")
                return "\(failure.entity).\(properties.joined(separator: "+")) \(given) already exists (\(other))"
            default:
                return "\(failure.entity).\(failure.property) \(failure.reason)"
            }
        }
        let message = lines.count == 1 ? "\(verb) refused, nothing was written: \(lines[0])"
            : "\(verb) refused, nothing was written; \(lines.count) rules failed:\n  " + lines.joined(separator: "\n  ")
        let span = error.failures.lazy.compactMap { spans[$0.property] }.first ?? fallback
        var shellError = ShellError(.validationFailed, message, at: span)
        shellError.exitCode = ExitStatus.statementFailed
        return shellError
    }

    /// Before a batch update: a uniqueness constraint (of one attribute or
    /// several) that the update would break, because it sets the
    /// constrained attributes to constants that another object already
    /// holds, or that several selected objects would end up sharing.
    /// Refused here in the model's words, rather than as the database's
    /// error. A constraint is checked when the update gives at least one of
    /// its attributes a constant and none a computed value; the attributes
    /// it leaves alone keep each object's own value. Nil never collides (as
    /// in the database's unique indexes). Constraints the check cannot
    /// judge are left to the database, and `databaseMessage` words its
    /// refusal.
    func checkUniqueness(_ e: Entity, set: [(key: Name, value: Value?)], predicate: QueryPredicate?,
                         in store: SQLStore) throws(ShellError) {
        let model = store.model
        let root = e.ancestors(in: model).last?.name ?? e.name
        let constrained = e.uniquenessConstraints + e.ancestors(in: model).flatMap(\.uniquenessConstraints)
        for constraint in constrained {
            let properties = constraint.properties
            let given = set.filter { properties.contains($0.key.text) }
            // Nothing set here, a computed value, or nil: nothing to judge.
            guard let first = given.first, given.allSatisfy({ $0.value.map { !$0.isNull } ?? false }),
                  properties.allSatisfy({ e.attribute(named: $0, in: model) != nil }) else { continue }
            var constants: [String: Value] = [:]
            for g in given { constants[g.key.text] = g.value! }
            let kept = properties.filter { constants[$0] == nil }
            let name = "\(root).\(properties.joined(separator: "+"))"
            func refuse(_ message: String) -> ShellError {
                var error = ShellError(.constraintFailed, message, at: first.key.span)
                error.exitCode = ExitStatus.statementFailed
                return error
            }
            func shown(_ values: [String: Value]) -> String { properties.map { Self.shown(values[$0] ?? .null) }.joined(separator: ", ") }
            do {
                // What each selected object would hold; objects with a nil there never collide.
                let selected = try store.fetch(FetchRequest(entity: e.name, predicate: predicate))
                var after: [String: ObjectID] = [:]
                for object in selected {
                    let values = properties.map { constants[$0] ?? object.value(forKey: $0) ?? .null }
                    if values.contains(where: \.isNull) { continue }
                    if let other = after[Self.uniquenessKey(values)] {
                        let count = kept.isEmpty ? selected.count : 2
                        let whose = kept.isEmpty ? "\(count) objects" : "both \(other) and \(object.id)"
                        throw refuse("\(name) must be unique; the update would give \(shown(Dictionary(uniqueKeysWithValues: zip(properties, values)))) to \(whose)")
                    }
                    after[Self.uniquenessKey(values)] = object.id
                }
                guard !after.isEmpty else { continue }
                // Another object (not updated) holding the same values already.
                let selectedIDs = Set(selected.map(\.id))
                let sameConstants = QueryPredicate(.and(constants.sorted { $0.key < $1.key }.map { key, value in
                    QueryPredicate(.comparison(Comparison(QueryExpression(.keyPath(base: nil, path: [key])), .equal,
                                                                  QueryExpression(.constant(value)))))
                }))
                for holder in try store.fetch(FetchRequest(entity: root, predicate: sameConstants)) where !selectedIDs.contains(holder.id) {
                    let values = properties.map { holder.value(forKey: $0) ?? .null }
                    if after[Self.uniquenessKey(values)] != nil {
                        throw refuse("\(name) \(shown(Dictionary(uniqueKeysWithValues: zip(properties, values)))) already exists (\(holder.id))")
                    }
                }
            } catch let error as ShellError {
                throw error
            } catch {
                throw ShellError.failed(Self.databaseMessage(error, from: store.database))
            }
        }
    }

    /// Values compared as a unique index compares them: a number is a
    /// number whether it came as an integer or a double.
    static func uniquenessKey(_ values: [Value]) -> String {
        values.map { v -> String in
            switch v {
            case .int(let n): return "#\(Double(n))"
            case .double(let d): return "#\(d)"
            default: return Printer.format(v)
            }
        }.joined(separator: "\u{0}")
    }
}

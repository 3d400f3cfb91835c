// The style hints that need the model, on one comparison at a time:
//
// - QL013 (info): `==[c]`, `BEGINSWITH[d]`… on an attribute that has an
//   index (or a uniqueness constraint, which SQLite keeps as one). Core Data
//   folds every row to compare it insensitively, so the index is never used:
//   a fetch that looks indexed scans the table. The usual fix is a
//   normalized copy of the attribute, indexed, compared with `==[n]`.
// - QL014 (warning): `CONTAINS` with a to-many relationship on the left and a
//   plain value (a string or number literal) on the right. On a collection,
//   CONTAINS asks whether an *object* is among its elements; a string never
//   is, so the predicate is false for every row. What was meant is almost
//   always `ANY rel.key == value`.
//
// Both are placed at the key path on the left, and only fire when the
// checker resolved that path: an unknown path is never guessed at.

import QuarryModel
import QuarrySyntax

extension ModelChecker {
    mutating func checkStyle(_ c: Comparison, lhs: Resolution) {
        if case .attribute(let a) = lhs.target, let owner = lhs.owner, !lhs.aggregated, !lhs.crossesToMany,
           !c.options.isDisjoint(with: [.caseInsensitive, .diacriticInsensitive]), !c.options.contains(.normalized),
           [.equal, .notEqual, .beginsWith, .in].contains(c.op), isValue(c.rhs), isIndexed(a.name, of: owner) {
            let flags = c.options.subtracting([.normalized, .localeSensitive]).letters
            findings.append(RawFinding(rule: .insensitiveOnIndex,
                                       message: "'\(a.name)' is indexed, but \(c.op.rawValue)[\(flags)] cannot use the index: every row is folded and compared",
                                       hints: ["keep a normalized copy (lowercased, without diacritics), index it and compare with ==[n]; or drop [\(flags)] if the stored text is already normalized"],
                                       place: .format(lhs.start)))
        }
        if c.op == .contains, c.modifier == .direct, case .relationship(let r) = lhs.target, r.isToMany,
           !lhs.aggregated, let value = plainValue(c.rhs) {
            // Name a real attribute of the destination that could hold the value.
            let candidates = model.entity(named: r.destination)?.allAttributes(in: model) ?? []
            let key = candidates.first(where: { value.isText ? $0.type == .string : $0.type.isNumeric })?.name ?? "key"
            findings.append(RawFinding(rule: .containsOnToMany,
                                       message: "'\(r.name)' is a to-many relationship: CONTAINS asks whether an object is among them, and \(value.text) never is (always false)",
                                       hints: ["to match a property of the related objects, write ANY \(r.name).\(key) == \(value.text)"],
                                       place: .format(lhs.start)))
        }
    }

    /// A constant or an argument: something an index lookup could take.
    private func isValue(_ e: QueryExpression) -> Bool {
        switch e.kind {
        case .constant, .placeholder: return true
        default: return false
        }
    }

    /// A string or number written in the format, or passed as a literal for its `%@`.
    private func plainValue(_ e: QueryExpression) -> (text: String, isText: Bool)? {
        switch e.kind {
        case .constant(let v):
            switch v {
            case .string: return (Printer.format(v), true)
            case .int, .double, .decimal: return (Printer.format(v), false)
            default: return nil
            }
        case .placeholder:
            guard let arguments, let use = uses.first(where: { $0.span.start == e.span.start }),
                  use.argument < arguments.count else { return nil }
            switch arguments[use.argument].shape {
            case .string(let s): return (Printer.format(.string(s)), true)
            default: return nil  // a variable may well hold an object
            }
        default:
            return nil
        }
    }

    /// The attribute leads an index or a uniqueness constraint of its entity
    /// or an ancestor (SQLite can only use an index from its first column).
    private func isIndexed(_ name: String, of entity: Entity) -> Bool {
        ([entity] + entity.ancestors(in: model)).contains { e in
            e.fetchIndexes.contains { $0.elements.first?.property == name }
                || e.uniquenessConstraints.contains { $0.properties.first == name }
        }
    }
}

// Checks a written store against its model directly in SQL, independently of
// the generator (there is no Context yet to validate through): required
// attributes, min/max (values, string lengths, dates), regular expressions
// through NSRegularExpression (ICU, as MATCHES — not the generator's own
// matcher), uniqueness constraints, required to-ones, to-many min/max
// counts, foreign keys that reach rows of the right entity, one-to-one
// keys used once, and join tables that reach existing rows.
import Foundation
@testable import QuarryFixtures

struct StoreChecker {
    let model: Model
    let mapping: StoreMapping
    let db: SQLiteConnection

    init(path: String, model: Model) throws {
        self.model = model
        mapping = StoreMapping(model: model)
        db = try SQLiteConnection(path: path, options: .init(readOnly: true))
    }

    func q(_ s: String) -> String { SQLIdentifier.quoted(s) }

    /// `WHERE "_entity" IN (...)` for the concrete kinds of an entity.
    func kinds(_ entity: String) -> String {
        let names = model.entities.filter { !$0.isAbstract && $0.isKind(of: entity, in: model) }.map { "'\($0.name)'" }
        return "\(q(StoreMapping.entityColumn)) IN (\(names.joined(separator: ", ")))"
    }

    func count(_ sql: String) throws -> Int {
        guard case .int(let n) = try db.scalar(sql) else { return -1 }
        return Int(n)
    }

    /// Every violation found, as readable lines (empty when the store is valid).
    func violations() throws -> [String] {
        var problems: [String] = []
        for entity in model.entities where !entity.isAbstract {
            let table = q(mapping.table(for: entity.name)!)
            let mine = "\(q(StoreMapping.entityColumn)) = '\(entity.name)'"
            for a in entity.allAttributes(in: model) where !a.isTransient && a.derivation == nil {
                let c = q(mapping.column(for: a.name, of: entity.name)!)
                if !a.isOptional, try count("SELECT count(*) FROM \(table) WHERE \(mine) AND \(c) IS NULL") > 0 {
                    problems.append("\(entity.name).\(a.name): required but null")
                }
                let measure = a.type.boundsAreLengths ? (a.type == .string ? "length(\(c))" : "length(\(c))") : c
                if let lo = FixtureValues.bound(a.minimum), try count("SELECT count(*) FROM \(table) WHERE \(mine) AND \(measure) < \(lo)") > 0 {
                    problems.append("\(entity.name).\(a.name): below minimum \(lo)")
                }
                if let hi = FixtureValues.bound(a.maximum), try count("SELECT count(*) FROM \(table) WHERE \(mine) AND \(measure) > \(hi)") > 0 {
                    problems.append("\(entity.name).\(a.name): above maximum \(hi)")
                }
                if let pattern = a.regularExpression {
                    let regex = try NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z")
                    try db.forEachRow("SELECT \(c) FROM \(table) WHERE \(mine) AND \(c) IS NOT NULL") { row in
                        let s = row.string(at: 0) ?? ""
                        if regex.firstMatch(in: s, range: NSRange(location: 0, length: s.utf16.count)) == nil {
                            problems.append("\(entity.name).\(a.name): '\(s)' does not match \(pattern)")
                        }
                    }
                }
            }
            let constraints = entity.ancestors(in: model).flatMap(\.uniquenessConstraints) + entity.uniquenessConstraints
            for constraint in constraints {
                let cols = constraint.properties.compactMap { p -> String? in
                    if let c = mapping.column(for: p, of: entity.name) { return q(c) }
                    if case .foreignKey(let c)? = mapping.storage(of: p, of: entity.name) { return q(c) }
                    return nil
                }
                let notNull = cols.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
                let dupes = try count("SELECT count(*) FROM (SELECT 1 FROM \(table) WHERE \(kinds(entity.name)) AND \(notNull) GROUP BY \(cols.joined(separator: ", ")) HAVING count(*) > 1)")
                if dupes > 0 { problems.append("\(entity.name): \(constraint.properties) repeated \(dupes) times") }
            }
            for r in entity.allRelationships(in: model) where !r.isTransient {
                problems += try relationshipViolations(entity, r, table: table, mine: mine)
            }
        }
        return problems
    }

    func relationshipViolations(_ entity: Entity, _ r: Relationship, table: String, mine: String) throws -> [String] {
        var problems: [String] = []
        let label = "\(entity.name).\(r.name)"
        let destination = q(mapping.table(for: r.destination)!)
        let inverse = r.inverse.flatMap { model.entity(named: r.destination)?.relationship(named: $0, in: model) }
        switch mapping.storage(of: r.name, of: entity.name)! {
        case .foreignKey(let column):
            let c = q(column)
            if !r.isOptional, try count("SELECT count(*) FROM \(table) WHERE \(mine) AND \(c) IS NULL") > 0 {
                problems.append("\(label): required but null")
            }
            let dangling = try count("SELECT count(*) FROM \(table) AS s WHERE s.\(mine) AND s.\(c) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM \(destination) AS d WHERE d._pk = s.\(c) AND d.\(kinds(r.destination)))")
            if dangling > 0 { problems.append("\(label): \(dangling) keys reach no \(r.destination)") }
            if let inverse, !inverse.isToMany,
               try count("SELECT count(*) FROM (SELECT \(c) FROM \(table) WHERE \(kinds(entity.name)) AND \(c) IS NOT NULL GROUP BY \(c) HAVING count(*) > 1)") > 0 {
                problems.append("\(label): one-to-one target used twice")
            }
        case .inverseForeignKey(let column):
            // Counts per object of this entity, from the other side's key.
            let sub = "(SELECT count(*) FROM \(destination) AS d WHERE d.\(q(column)) = s._pk)"
            problems += try countViolations(label, r, table: table, mine: mine, sub: sub)
        case .joinTable(let join, let sourceColumn, let targetColumn):
            let sub = "(SELECT count(*) FROM \(q(join)) AS j WHERE j.\(q(sourceColumn)) = s._pk)"
            problems += try countViolations(label, r, table: table, mine: mine, sub: sub)
            let dangling = try count("SELECT count(*) FROM \(q(join)) AS j WHERE NOT EXISTS (SELECT 1 FROM \(destination) AS d WHERE d._pk = j.\(q(targetColumn)))")
            if dangling > 0 { problems.append("\(label): \(dangling) links reach nothing") }
            _ = inverse
        }
        return problems
    }

    func countViolations(_ label: String, _ r: Relationship, table: String, mine: String, sub: String) throws -> [String] {
        guard r.isToMany else {
            let n = try count("SELECT count(*) FROM \(table) AS s WHERE s.\(mine) AND \(sub) > 1")
            return n > 0 ? ["\(label): to-one reached by \(n) objects with more than one"] : []
        }
        var problems: [String] = []
        let lo = max(r.minCount, r.isOptional ? 0 : 1)
        if lo > 0, try count("SELECT count(*) FROM \(table) AS s WHERE s.\(mine) AND \(sub) < \(lo)") > 0 {
            problems.append("\(label): fewer than \(lo)")
        }
        if let hi = r.maxCount, try count("SELECT count(*) FROM \(table) AS s WHERE s.\(mine) AND \(sub) > \(hi)") > 0 {
            problems.append("\(label): more than \(hi)")
        }
        return problems
    }
}

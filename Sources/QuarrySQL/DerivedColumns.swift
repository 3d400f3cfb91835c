// Derived attributes in the store layout: each is an ordinary column (as in
// Core Data's own SQLite stores), and this file says how its value is
// recomputed in SQL. A derivation (QuarryModel/Derivation.swift) is lowered
// through the predicate lowering's operands, as a correlated scalar subquery
// over the row being written:
//
//   UPDATE "Department" SET "total" =
//     (SELECT (SELECT COALESCE(SUM(…), 0) …) FROM "Department" AS t0 WHERE t0."_pk" = "Department"."_pk")
//   WHERE <entity filter> AND <which rows>
//
// so that to-one joins, aggregates over to-many relationships and
// arithmetic mean in SQL what they mean to the evaluator (the lowering's
// rules). `lowercase:`, `uppercase:` and `canonical:` are applied in Swift to
// the lowered argument by the store (SQL's lower() is ASCII-only), so the
// stored text is what the evaluator computes.
import QuarryModel

/// A derived attribute's column and how to recompute it.
public struct DerivedColumn: Sendable {
    /// The entity that declares the attribute (sub-entities share its column).
    public let entity: String
    public let attribute: String
    public let type: AttributeType
    public let derivation: Derivation
    public let quotedTable: String
    public let quotedColumn: String
    /// Entities whose changes can change the value: the entity and every
    /// entity the derivation's relationship paths reach.
    public let reads: Set<String>
}

/// Why a derivation cannot be recomputed in SQL.
public struct DerivationLoweringError: Error, Sendable, CustomStringConvertible {
    public var entity: String
    public var attribute: String
    public var reason: String
    public var description: String {
        "derived attribute '\(attribute)' of \(entity) cannot be kept current in SQL (\(reason)); "
            + "Quarry refuses the request rather than leave a stale value"
    }
}

extension StoreMapping {
    /// Every accepted derivation of the model, as derived columns, in model
    /// order (refused derivations are the model's `derivationError()`).
    public func derivedColumns() -> [DerivedColumn] {
        let checked = model.derivations().checked
        var out: [DerivedColumn] = []
        for entity in model.entities {
            for a in entity.attributes where a.derivation != nil && !a.isTransient {
                guard let d = checked[entity.name]?[a.name], let table = table(for: entity.name),
                      let column = column(for: a.name, of: entity.name) else { continue }
                out.append(DerivedColumn(entity: entity.name, attribute: a.name, type: a.type, derivation: d,
                                         quotedTable: SQLIdentifier.quoted(table), quotedColumn: SQLIdentifier.quoted(column),
                                         reads: d.reachedEntities.union([entity.name])))
            }
        }
        return out
    }

    /// The derived column's value for the row of the outer statement's
    /// table (referred to by its quoted name): a correlated scalar subquery.
    /// `now` is the instant `now()` stands for. Throws when the derivation
    /// cannot be said in SQL.
    public func derivedValue(_ d: DerivedColumn, now: Double) throws -> SQLFragment {
        let context = LoweringContext(mapping: self, now: now)
        let level = context.newLevel(entity: d.entity)
        var lowerer = PredicateLowerer(context: context, level: level)
        lowerer.integerSumsMayFail = true
        let item: SQLFragment
        do throws(LoweringError) {
            switch try lowerer.operand(d.derivation.argument) {
            case .scalar(let f, _, _): item = f
            case .constant(let v): item = SQLFragment("?", [v])
            default: throw LoweringError.unsupported("the value is not a single scalar")
            }
            if !context.transients.isEmpty { throw LoweringError.unsupported("it reads a transient attribute") }
        } catch {
            switch error {
            case .bind(let diagnostic):
                throw DerivationLoweringError(entity: d.entity, attribute: d.attribute, reason: diagnostic.message)
            case .unsupported(let why):
                throw DerivationLoweringError(entity: d.entity, attribute: d.attribute, reason: why)
            }
        }
        let alias = level.alias
        var sql = "(SELECT " + item.sql + " FROM " + d.quotedTable + " AS " + alias
        if !level.joins.isEmpty { sql += " " + level.joins.joined(separator: " ") }
        sql += " WHERE " + alias + ".\(StoreMapping.quotedPrimaryKey) = " + d.quotedTable + ".\(StoreMapping.quotedPrimaryKey))"
        return SQLFragment(sql, item.arguments + level.joinArguments)
    }

    /// `"_entity" IN (?, …)` for the rows of the declaring entity and its
    /// sub-entities, unqualified (the UPDATE's own table); nil when every
    /// row of the table is one.
    public func derivedRowFilter(_ d: DerivedColumn) -> SQLFragment? {
        entityFilter(for: d.entity).map { names in
            SQLFragment(SQLIdentifier.quoted(StoreMapping.entityColumn) + " IN (" + names.map { _ in "?" }.joined(separator: ", ") + ")",
                        names.map(Value.string))
        }
    }
}

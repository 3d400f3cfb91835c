// Keeping derived attributes current, as Core Data's SQLite store does with
// its triggers: every save and every batch request recomputes, inside its
// own transaction, the derived columns its writes may have changed.
//
// Which rows: a derivation that reads only the object's own attributes is
// recomputed for the rows the save wrote (so `now()` stamps only those, as
// in Core Data); one that follows a relationship is recomputed for the rows
// related (one hop, by the relationship's storage) to the objects the save
// inserted or updated, and for every row of its entity when the save deleted
// a related object or the path has more hops. A batch request recomputes
// every row whose value it may have changed (a batch update's own rows for
// `now()`). A derivation that SQL cannot compute refuses the request
// (DerivationLoweringError) rather than leave a stale value.
import Foundation

/// Setting a derived attribute: its value is the store's to compute.
public struct DerivedAttributeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var entity: String
    public var attribute: String
    public var derivation: String
    public var description: String {
        "\(entity).\(attribute) is derived (\(derivation)): it is read-only, the store computes it on every save"
    }
}

extension SQLStore {
    /// The derived column of `key` of `entity`, if it is one.
    func derivedAttribute(_ key: String, of entity: String) -> QuarryModel.Attribute? {
        guard let a = model.entity(named: entity)?.attribute(named: key, in: model), a.derivation != nil, !a.isTransient else { return nil }
        return a
    }

    /// Throws `DerivedAttributeError` when a write names a derived attribute.
    func refuseDerived<S: Sequence>(_ keys: S, entity: String) throws where S.Element == String {
        guard hasDerivedColumns else { return }
        for key in keys {
            if let a = derivedAttribute(key, of: entity) {
                throw DerivedAttributeError(entity: entity, attribute: key, derivation: a.derivation ?? "")
            }
        }
    }

    var hasDerivedColumns: Bool { !mapping.derived.isEmpty }

    /// Checks at open that every derivation is accepted and can be said in
    /// SQL: a store never opens on a model whose derived values it could not
    /// keep current.
    func checkDerivations() throws {
        if let error = model.derivationError() { throw error }
        for d in mapping.derived { _ = try mapping.derivedValue(d, now: 0) }
    }

    // MARK: - Recomputing

    /// Which rows of a derived column's entity to recompute.
    enum DerivedRows {
        case all
        /// Rows whose key is in the list.
        case keys([Int64])
        /// Rows whose `column` (quoted, on the column's own table) is in the list.
        case keyColumn(String, [Int64])
        /// Rows whose key a subquery `SELECT <source> FROM <table> WHERE <match> IN (…)` gives.
        case linked(select: String, [Int64])

        var isAll: Bool { if case .all = self { true } else { false } }
    }

    /// Recomputes `d` for `rows` (inside the caller's transaction).
    func recompute(_ d: DerivedColumn, _ rows: [DerivedRows], now: Double) throws {
        let value = try mapping.derivedValue(d, now: now)
        let filter = mapping.derivedRowFilter(d)
        for scope in rows {
            for condition in conditions(selecting: scope) {
                try write(d, value: value, where: (filter.map { [$0] } ?? []) + (condition.map { [$0] } ?? []))
            }
        }
    }

    /// The current values of `d` in the rows `scope` selects (key, value) —
    /// what a context reads back after a save recomputed them.
    func derivedValues(_ d: DerivedColumn, _ scope: DerivedRows) throws -> [(Int64, Value)] {
        var values: [(Int64, Value)] = []
        for condition in conditions(selecting: scope) {
            let rows = try database.query("SELECT " + d.quotedTable + ".\(StoreMapping.quotedPrimaryKey), " + d.quotedColumn + " FROM " + d.quotedTable
                                          + (condition.map { " WHERE " + $0.sql } ?? ""), condition?.arguments ?? [],
                                          as: [.int, StoreValues.kind(d.type)])
            for row in rows { if case .int(let pk) = row[0] { values.append((pk, row[1])) } }
        }
        return values
    }

    /// The row condition of `scope`, one per chunk of keys (statements have
    /// a limit on arguments); `.all` is the single condition nil; a scope
    /// with no keys selects nothing, so it has no condition at all.
    private func conditions(selecting scope: DerivedRows) -> [SQLFragment?] {
        let template: String, keys: [Int64], closing: String
        switch scope {
        case .all: return [nil]
        case .keys(let k): (template, keys, closing) = ("\(StoreMapping.quotedPrimaryKey) IN ", k, "")
        case .keyColumn(let column, let k): (template, keys, closing) = (column + " IN ", k, "")
        case .linked(let select, let k): (template, keys, closing) = ("\(StoreMapping.quotedPrimaryKey) IN (" + select + " IN ", k, ")")
        }
        return chunks(keys).map { chunk in
            SQLFragment(template + "(" + chunk.map { _ in "?" }.joined(separator: ", ") + ")" + closing, chunk.map(Value.int))
        }
    }

    private func chunks(_ keys: [Int64]) -> [[Int64]] {
        let size = max(1, min(500, database.maximumArguments - 64))
        return stride(from: 0, to: keys.count, by: size).map { Array(keys[$0..<min(keys.count, $0 + size)]) }
    }

    /// One recomputing statement: in SQL, or — for the text functions — the
    /// argument read in SQL, the function applied in Swift, each row written
    /// back with its value bound.
    private func write(_ d: DerivedColumn, value: SQLFragment, where conditions: [SQLFragment]) throws {
        let whereSQL = conditions.isEmpty ? "" : " WHERE " + conditions.map(\.sql).joined(separator: " AND ")
        let whereArguments = conditions.flatMap(\.arguments)
        guard let function = d.derivation.textFunction else {
            _ = try database.run("UPDATE " + d.quotedTable + " SET " + d.quotedColumn + " = " + value.sql + whereSQL,
                                 value.arguments + whereArguments)
            return
        }
        let rows = try database.query("SELECT " + d.quotedTable + ".\(StoreMapping.quotedPrimaryKey), " + value.sql + " FROM " + d.quotedTable + whereSQL,
                                      value.arguments + whereArguments, as: [.int, .string])
        let update = try database.preparedRunner("UPDATE " + d.quotedTable + " SET " + d.quotedColumn + " = ? WHERE \(StoreMapping.quotedPrimaryKey) = ?")
        for row in rows {
            guard case .int(let pk) = row[0] else { continue }
            try update([try StoreValues.storable(Self.apply(function, to: row[1]), type: d.type, key: d.attribute, entity: d.entity), .int(pk)])
        }
    }

    /// `lowercase:`, `uppercase:`, `canonical:` as the evaluator computes
    /// them (Swift's full Unicode mappings; canonical = [cd] folding).
    static func apply(_ function: Derivation.TextFunction, to value: Value) -> Value {
        guard case .string(let s) = value else { return value.isNull ? .null : value }
        switch function {
        case .lowercase: return .string(s.lowercased())
        case .uppercase: return .string(s.uppercased())
        case .canonical: return .string(Folding(caseInsensitive: true, diacriticInsensitive: true).fold(s))
        }
    }
}

extension SQLStore {
    /// Before a batch insert: the largest key of the entity's table, when
    /// one of its own derivations uses `now()` (new rows get larger keys on
    /// both engines), so that only the new rows are stamped.
    func firstNewKeyForNowDerivations(_ entity: String) throws -> Int64? {
        guard let e = model.entity(named: entity), let table = mapping.table(for: entity),
              mapping.derived.contains(where: { $0.derivation.usesNow && $0.derivation.isSelfOnly && e.isKind(of: $0.entity, in: model) })
        else { return nil }
        let rows = try database.query("SELECT MAX(\(StoreMapping.quotedPrimaryKey)) FROM \(SQLIdentifier.quoted(table))", [], as: [.int])
        if case .int(let k)? = rows.first?.first { return k }
        return 0
    }

    /// After a batch insert: the keys above `before` (nil when not needed).
    func newRowsForNowDerivations(_ entity: String, before: Int64?) throws -> [Int64]? {
        guard let before, let table = mapping.table(for: entity) else { return nil }
        return try database.query("SELECT \(StoreMapping.quotedPrimaryKey) FROM \(SQLIdentifier.quoted(table)) WHERE \(StoreMapping.quotedPrimaryKey) > ?", [.int(before)], as: [.int]).compactMap {
            if case .int(let k) = $0[0] { return k } else { return nil }
        }
    }
}

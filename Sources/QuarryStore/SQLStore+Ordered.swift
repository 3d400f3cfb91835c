// Order columns in stores made before Quarry stored the order of ordered
// to-manys kept as the destination's foreign key: such a store lacks the
// destination's `_order_…` column (StoreMapping+Ordered.swift), so opening
// it adds the column (every existing link at position 0: they read back in
// key order, as before). Only a model with such a relationship can need
// this; any other store is not touched.
import Foundation

extension SQLStore {
    func addMissingOrderColumns(_ columns: [String: Set<String>]) throws {
        var wanted: [(table: String, column: String)] = []
        for table in Set(model.entities.compactMap { mapping.table(for: $0.name) }).sorted() {
            for column in mapping.orderColumns(onTable: table) { wanted.append((table, column)) }
        }
        guard !wanted.isEmpty else { return }
        var missing: [(table: String, column: String)] = []
        for (table, column) in wanted where !(columns[table] ?? []).contains(column) { missing.append((table, column)) }
        guard !missing.isEmpty else { return }
        try database.inTransaction {
            for (table, column) in missing {
                try database.run("ALTER TABLE \(SQLIdentifier.quoted(table)) ADD COLUMN \(SQLIdentifier.quoted(column)) INTEGER NOT NULL DEFAULT 0", [])
            }
        }
    }
}

extension StoreMapping {
    /// The layout's value for the member at `index` of `relationship`, or
    /// `StoreError.outOfRange` where it would pass Int64 (never a trap,
    /// never a wrapped value).
    public func checkedOrderValue(at index: Int, of relationship: String, of entity: String) throws -> Int64 {
        guard let v = orderValue(at: index) else {
            throw StoreError.outOfRange(key: relationship, entity: entity, value: .int(Int64(clamping: index)), type: "ordered to-many",
                                        range: "member values \(orderSpacing.first) + \(orderSpacing.step)·index up to \(Int64.max)")
        }
        return v
    }
}

extension SQLStore {
    /// A link made by the store itself (`insert(_:_:toOne:)`, `link`) joins
    /// the end of an ordered to-many, as `add(_:to:)` does in a context:
    /// its value is one step past the largest of its owner's other members
    /// (the layout's first value when it has none). One past a value within
    /// a step of Int64.max is NULL instead of a wrapped or floating value,
    /// which the NOT NULL order column (Quarry's layout) or the view's
    /// trigger (Core Data's, CoreDataViews+Writing.swift) refuses.
    func placeLast(_ source: ObjectID, _ r: Relationship, _ target: ObjectID) throws {
        var owner = source, member = target, relationship = r
        if !r.isToMany {
            guard let inverse = r.inverse.flatMap({ model.entity(named: r.destination)?.relationship(named: $0, in: model) }),
                  inverse.isToMany else { return }
            owner = target
            member = source
            relationship = inverse
        }
        guard relationship.isOrdered else { return }
        let spacing = mapping.orderSpacing
        // (SELECT CASE WHEN m > limit THEN NULL ELSE m + step END FROM (SELECT COALESCE(MAX(c), first - step) AS m …)):
        // bound, in this order: first - step, …, limit, step.
        func next(_ column: String, from table: String, where condition: String) -> String {
            "(SELECT CASE WHEN m > ? THEN NULL ELSE m + ? END FROM (SELECT COALESCE(MAX(o.\(column)), ?) AS m FROM \(table) o WHERE \(condition)) AS lastmember)"
        }
        let spacingArguments: [Value] = [.int(spacing.lastFollowable), .int(spacing.step), .int(spacing.beforeFirst)]
        switch mapping.storage(of: relationship.name, of: owner.entity) {
        case .inverseForeignKey(let key)?:
            guard let column = mapping.orderColumn(of: relationship.name, of: owner.entity),
                  let table = mapping.table(for: relationship.destination).map(SQLIdentifier.quoted) else { return }
            let c = SQLIdentifier.quoted(column)
            try database.run("UPDATE \(table) SET \(c) = \(next(c, from: table, where: "o.\(SQLIdentifier.quoted(key)) = ? AND o.\(StoreMapping.quotedPrimaryKey) <> ?")) WHERE \(StoreMapping.quotedPrimaryKey) = ?",
                             spacingArguments + [.int(owner.primaryKey), .int(member.primaryKey), .int(member.primaryKey)])
        case .joinTable(let join, let s, let t)? where s == StoreMapping.joinSourceColumn && mapping.joinTableIsOrdered(join):
            let j = SQLIdentifier.quoted(join), p = StoreMapping.quotedJoinPosition
            try database.run("UPDATE \(j) SET \(p) = \(next(p, from: j, where: "o.\(SQLIdentifier.quoted(s)) = ? AND o.\(SQLIdentifier.quoted(t)) <> ?")) "
                             + "WHERE \(SQLIdentifier.quoted(s)) = ? AND \(SQLIdentifier.quoted(t)) = ?",
                             spacingArguments + [.int(owner.primaryKey), .int(member.primaryKey), .int(owner.primaryKey), .int(member.primaryKey)])
        default:
            return
        }
    }
}

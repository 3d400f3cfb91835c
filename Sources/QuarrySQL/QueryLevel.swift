// The state of one lowering: the SELECT levels being built (the outer fetch
// and each correlated subquery), their row aliases, and the LEFT JOINs that
// to-one paths need. A join is made once per (alias, relationship) and put in
// the level that owns the alias, so `department.name` used twice joins once,
// and `$e.department.name` inside a nested subquery joins where `$e` lives.
import QuarryModel

/// Why a part of a predicate did not become SQL.
enum LoweringError: Error {
    /// The user's mistake: reported, never run in memory instead.
    case bind(Diagnostic)
    /// Valid, but not expressible in SQL here: runs in memory as a residual.
    case unsupported(String)
}

final class QueryLevel {
    let alias: String
    let entity: String
    var joins: [String] = []
    var joinArguments: [Value] = []

    init(alias: String, entity: String) {
        self.alias = alias
        self.entity = entity
    }
}

/// A to-many hop out of a row: the subquery level of the destination rows
/// and how they are tied to the row they belong to.
struct ToManyHop {
    var level: QueryLevel
    /// The destination's column (or the join table's) holding the owner's key.
    var innerKey: String
    /// The owner's key as the outer query sees it.
    var outerKey: String
    /// The destination's entity filter when it shares a table.
    var filter: SQLFragment?

    /// `innerKey = outerKey`, with the filter: the correlated form.
    var correlation: SQLFragment {
        let equal = SQLFragment(innerKey + " = " + outerKey)
        guard let filter else { return equal }
        return equal + " AND " + filter
    }
}

final class LoweringContext {
    /// The mapping's per-entity index and its dialect, not the mapping
    /// itself: keeping the struct would copy a dozen references per plan, and
    /// reading it through the class may copy it again on every lookup.
    let mapped: MappedModel
    let dialect: SQLDialect
    let now: Double
    private var counter = 0
    /// Every row alias, latest last: the level owning it and, for a to-one
    /// join, the (alias, relationship) it joined, so that a path used twice
    /// joins once. A plan has a handful of aliases: one list searched from the
    /// end is cheaper than hashing names into dictionaries.
    private var rows: [RowAlias] = []
    /// The transient attributes the lowering met (entity, attribute), in
    /// order: SQL cannot read them (they have no column), so a plan that met
    /// one is refused unless memory runs the request (SQLPlanner+Transients.swift).
    var transients: [(entity: String, attribute: String)] = []
    /// Set while the key path of a nil test is lowered: it may end at a
    /// transformable attribute (PredicateLowering+Transformable.swift).
    var nilTestedKeyPath = false

    private struct RowAlias {
        var alias: String
        var level: QueryLevel
        var joinedFrom: String? = nil
        var relationship: String? = nil
    }

    var model: Model { mapped.model }

    init(mapping: StoreMapping, now: Double) {
        self.mapped = mapping.mapped
        self.dialect = mapping.dialect
        self.now = now
    }

    init(mapped: MappedModel, dialect: SQLDialect, now: Double) {
        self.mapped = mapped
        self.dialect = dialect
        self.now = now
    }

    func newLevel(entity: String) -> QueryLevel {
        let level = QueryLevel(alias: newAlias("t"), entity: entity)
        if rows.isEmpty { rows.reserveCapacity(4) }
        rows.append(RowAlias(alias: level.alias, level: level))
        return level
    }

    /// Aliases spelled once: `t0`...`t15` and `j0`...`j15` are what plans use.
    private static let tAliases = (0..<16).map { "t\($0)" }
    private static let jAliases = (0..<16).map { "j\($0)" }

    func newAlias(_ prefix: String) -> String {
        defer { counter += 1 }
        if counter < 16 {
            if prefix == "t" { return Self.tAliases[counter] }
            if prefix == "j" { return Self.jAliases[counter] }
        }
        return "\(prefix)\(counter)"
    }

    private func level(owning alias: String) -> QueryLevel? {
        rows.last { $0.alias == alias }?.level
    }

    /// The entity as the planner sees it (quoted table, keys, filter).
    func mappedEntity(_ entity: String) throws(LoweringError) -> MappedEntity {
        guard let m = mapped.entities[entity] else { throw LoweringContext.unknownEntity(entity) }
        return m
    }

    static func unknownEntity(_ entity: String) -> LoweringError {
        .bind(Diagnostic(.unknownEntity, "unknown entity '\(entity)'", at: .synthesized, stage: .bind))
    }

    /// `AND alias."_entity" IN (...)` when the entity shares its table with others.
    func entityFilter(_ entity: String, alias: String) -> SQLFragment? {
        mapped.entities[entity]?.filter(alias: alias)
    }

    /// Follows a to-one relationship from a row alias with a LEFT JOIN in the
    /// alias's level; returns the destination's alias.
    func joinToOne(from alias: String, entity: String, relationship: String) throws(LoweringError) -> String {
        if let made = rows.last(where: { $0.joinedFrom == alias && $0.relationship == relationship }) { return made.alias }
        guard let key = mapped.entities[entity]?.keys[relationship], let storage = key.storage, let level = level(owning: alias),
              let destinationName = key.destination else {
            throw .unsupported("relationship \(entity).\(relationship) has no storage")
        }
        let destination = try mappedEntity(destinationName)
        let target = newAlias("t")
        rows.append(RowAlias(alias: target, level: level))
        // target.<left> = alias.<right>: the key sits on the source's row
        // (foreign key) or on the destination's (inverse foreign key).
        let pk = StoreMapping.quotedPrimaryKey
        let column = key.quotedColumn ?? ""
        let left: String, right: String
        switch storage {
        case .foreignKey: (left, right) = (pk, column)
        case .inverseForeignKey: (left, right) = (column, pk)
        case .joinTable: throw .unsupported("to-one through a join table")
        }
        if let filter = destination.filter {
            level.joins.append(SQLText.concat("LEFT JOIN ", destination.quotedTable, " ", target, " ON ", target, ".", left, " = ",
                                              alias, ".", right, " AND ", target, filter.sql))
            level.joinArguments += filter.arguments
        } else {
            level.joins.append(SQLText.concat("LEFT JOIN ", destination.quotedTable, " ", target, " ON ", target, ".", left, " = ",
                                              alias, ".", right))
        }
        rows[rows.count - 1].joinedFrom = alias
        rows[rows.count - 1].relationship = relationship
        return target
    }

    /// The FROM of a to-many hop from the row whose key is `outerKey`
    /// (`alias."_pk"`, or the foreign key pointing at that row): the new
    /// level for the destination rows, the column of it that holds the
    /// owner's key, and the entity filter its rows need. The correlation is
    /// `innerKey = outerKey AND filter` (ToManyHop).
    func toManyLevel(outerKey: String, entity: String, relationship: String) throws(LoweringError) -> ToManyHop {
        guard let key = mapped.entities[entity]?.keys[relationship], let storage = key.storage, let destination = key.destination else {
            throw .unsupported("relationship \(entity).\(relationship) has no storage")
        }
        let level = newLevel(entity: destination)
        let pk = SQLIdentifier.quoted(StoreMapping.primaryKey)
        let destinationTable = try mappedEntity(destination).quotedTable
        let innerKey: String
        switch storage {
        case .inverseForeignKey(let column):
            level.joins.append("FROM \(destinationTable) \(level.alias)")
            innerKey = "\(level.alias).\(SQLIdentifier.quoted(column))"
        case .joinTable(let table, let source, let targetColumn):
            let link = newAlias("j")
            level.joins.append("FROM \(SQLIdentifier.quoted(table)) \(link) JOIN \(destinationTable) \(level.alias) ON \(level.alias).\(pk) = \(link).\(SQLIdentifier.quoted(targetColumn))")
            innerKey = "\(link).\(SQLIdentifier.quoted(source))"
        case .foreignKey:
            throw .unsupported("to-many stored as a foreign key")
        }
        return ToManyHop(level: level, innerKey: innerKey, outerKey: outerKey, filter: entityFilter(destination, alias: level.alias))
    }

    /// Whether `alias` belongs to the fetch's own SELECT (the first level),
    /// not to a subquery: a derived table joined there is computed once.
    func isTopLevel(_ alias: String) -> Bool {
        guard let first = rows.first, let owner = level(owning: alias) else { return false }
        return owner === first.level
    }

    /// The row aliases made before `level`'s own.
    func aliases(before level: QueryLevel) -> [String] {
        guard let index = rows.firstIndex(where: { $0.alias == level.alias }) else { return rows.map(\.alias) }
        return rows[..<index].map(\.alias)
    }

    /// Appends a join (a derived table) to the level that owns `alias`.
    func addJoin(_ join: SQLFragment, toLevelOwning alias: String) {
        guard let level = level(owning: alias) else { return }
        level.joins.append(join.sql)
        level.joinArguments += join.arguments
    }

    /// A further to-many hop inside an existing subquery level, flattened as an inner join.
    func joinToMany(in level: QueryLevel, from alias: String, entity: String, relationship: String) throws(LoweringError) -> String {
        guard let key = mapped.entities[entity]?.keys[relationship], let storage = key.storage, let destination = key.destination else {
            throw .unsupported("relationship \(entity).\(relationship) has no storage")
        }
        let target = newAlias("t")
        rows.append(RowAlias(alias: target, level: level))
        let pk = SQLIdentifier.quoted(StoreMapping.primaryKey)
        let destinationTable = try mappedEntity(destination).quotedTable
        var filter = ""
        var arguments: [Value] = []
        if let f = entityFilter(destination, alias: target) { filter = " AND " + f.sql; arguments = f.arguments }
        switch storage {
        case .inverseForeignKey(let column):
            level.joins.append("JOIN \(destinationTable) \(target) ON \(target).\(SQLIdentifier.quoted(column)) = \(alias).\(pk)\(filter)")
        case .joinTable(let table, let source, let targetColumn):
            let link = newAlias("j")
            level.joins.append("JOIN \(SQLIdentifier.quoted(table)) \(link) ON \(link).\(SQLIdentifier.quoted(source)) = \(alias).\(pk) JOIN \(destinationTable) \(target) ON \(target).\(pk) = \(link).\(SQLIdentifier.quoted(targetColumn))\(filter)")
        case .foreignKey:
            throw .unsupported("to-many stored as a foreign key")
        }
        level.joinArguments += arguments
        return target
    }

    /// `SELECT <what> FROM ... WHERE <correlation> AND <condition>` for a subquery level.
    func subquery(_ level: QueryLevel, select what: String, correlation: SQLFragment, condition: SQLFragment?) -> SQLFragment {
        var sql = SQLFragment("(SELECT \(what) " + level.joins.joined(separator: " "), level.joinArguments)
        sql = sql + " WHERE " + correlation
        if let condition { sql = sql + " AND (" + condition + ")" }
        return sql + ")"
    }
}

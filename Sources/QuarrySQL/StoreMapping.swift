// The store mapping: where each entity, attribute and relationship lives in
// tables and columns. The SQL layer reaches tables only through this, never by
// deriving names inline, so other layouts (Core Data's own Z-tables) can be
// read later by another mapping.
//
// Quarry's layout, like Core Data's: one table per inheritance hierarchy,
// named after the root entity, with `_pk` (the primary key) and `_entity`
// (which entity a row is); one column per attribute of every entity in the
// hierarchy; a foreign-key column per to-one relationship on its owning side;
// no column for a to-many whose inverse is to-one (the destination holds the
// key); and a join table `_Entity_relationship` for many-to-many and for
// to-many relationships without an inverse.
import QuarryModel

/// How a relationship is stored.
public enum RelationshipStorage: Sendable, Equatable {
    /// A column on the source's table holds the destination's `_pk`.
    case foreignKey(column: String)
    /// A column on the destination's table holds the source's `_pk`.
    case inverseForeignKey(column: String)
    /// A join table of (source, target) primary keys.
    case joinTable(table: String, sourceColumn: String, targetColumn: String)
}

/// Tables and columns for a model.
public struct StoreMapping: Sendable {
    public let model: Model
    /// The engine the SQL is written for.
    public let dialect: SQLDialect
    private var tables: [String: String] = [:]
    private var columns: [String: [String: String]] = [:]
    private var relationships: [String: [String: RelationshipStorage]] = [:]
    /// Join tables in model order: (table, source table, target table).
    public private(set) var joinTables: [(table: String, source: String, target: String, ordered: Bool)] = []
    /// Per entity, planned once: the row columns a fetch selects, and which
    /// entity names its rows may have.
    private var selects: [String: (list: SelectList, columns: [PlannedColumn])] = [:]
    private var filters: [String: [String]] = [:]
    /// Entities per table and join-table names, counted once: looking them
    /// up by scanning made opening a store quadratic in the entities.
    private var entitiesPerTable: [String: Int] = [:]
    private var joinTableNames: Set<String> = []
    /// Per entity, what planning looks up by name: every key (own and
    /// inherited) with its quoted column or storage, the quoted table and the
    /// `_entity` filter (MappedEntity.swift).
    private(set) var mapped = MappedModel(entities: [:], model: Model(entities: []))
    /// The derived attributes' columns and derivations (DerivedColumns.swift).
    public private(set) var derived: [DerivedColumn] = []
    /// Whether the tables have the order columns of ordered to-manys
    /// (StoreMapping+Ordered.swift): not views over another layout.
    public var storesOrderColumns = true
    /// Whether the tables have the version column (StoreMapping+Versions.swift):
    /// every Quarry store; not views over another layout.
    public let storesVersions: Bool

    public static let primaryKey = "_pk"
    /// Column names no attribute may have as they are (compared as SQLite
    /// does, without ASCII case): Quarry's own, and PostgreSQL's system
    /// columns, which a table cannot redefine. An attribute so named gets
    /// its entity's prefix, as a sibling's clashing attribute does.
    static let takenColumns: Set<String> = ["_pk", "_entity", versionColumn, "tableoid", "xmin", "cmin", "xmax", "cmax", "ctid"]

    /// Every table the model needs: one per hierarchy, then the join tables.
    public var tableNames: [String] {
        var names: [String] = []
        var seen: Set<String> = []
        for entity in model.entities {
            if let t = tables[entity.name], seen.insert(t).inserted { names.append(t) }
        }
        return names + joinTables.map(\.table)
    }
    public static let entityColumn = "_entity"

    public init(model: Model, dialect: SQLDialect = .sqlite, storesVersions: Bool = true) {
        self.model = model
        self.dialect = dialect
        self.storesVersions = storesVersions
        for entity in model.entities {
            let table = StoreMapping.root(of: entity, in: model).name
            tables[entity.name] = table
            entitiesPerTable[table, default: 0] += 1
        }
        // Columns: per table, attributes of every entity of the hierarchy;
        // a sibling's attribute with a name already taken gets its entity's prefix.
        var used: [String: Set<String>] = [:]
        for entity in model.entities {
            let table = tables[entity.name]!
            var map: [String: String] = [:]
            for attribute in entity.allAttributes(in: model) where !attribute.isTransient {
                if let inherited = entity.parent.flatMap({ columns[$0]?[attribute.name] }) {
                    map[attribute.name] = inherited
                    continue
                }
                var column = attribute.name
                if used[table, default: StoreMapping.takenColumns].contains(StorageNames.collisionKey(column)) {
                    column = entity.name + "_" + attribute.name
                }
                used[table, default: StoreMapping.takenColumns].insert(StorageNames.collisionKey(column))
                map[attribute.name] = column
            }
            columns[entity.name] = map
        }
        for entity in model.entities {
            var map: [String: RelationshipStorage] = [:]
            for r in entity.allRelationships(in: model) where !r.isTransient {
                map[r.name] = storage(of: r, from: entity, used: &used)
            }
            relationships[entity.name] = map
        }
        for entity in model.entities {
            selects[entity.name] = planSelect(entity)
            if let f = computeEntityFilter(for: entity.name) { filters[entity.name] = f }
        }
        var entities: [String: MappedEntity] = [:]
        for entity in model.entities { entities[entity.name] = makeMappedEntity(entity) }
        mapped = MappedModel(entities: entities, model: model)
        derived = derivedColumns()
    }

    /// The columns of a row fetch of `entity`: every attribute and to-one key
    /// of it and its sub-entities, after `_pk` and `_entity`, for alias t0.
    private func planSelect(_ entity: Entity) -> (list: SelectList, columns: [PlannedColumn]) {
        var columns: [PlannedColumn] = []
        var selected = ["t0.\(SQLIdentifier.quoted(StoreMapping.primaryKey))", "t0.\(SQLIdentifier.quoted(StoreMapping.entityColumn))"]
        var seen: Set<String> = []
        // Which entities read each selected column under its name: siblings'
        // same-named keys live in different columns, and a row must read its
        // own entity's (see PlannedColumn.onlyFor).
        var readers: [String: Set<String>] = [:]
        var columnNames: [String] = []
        let members = [entity] + entity.allSubentities(in: model)
        for member in members {
            for a in member.allAttributes(in: model) where !a.isTransient {
                guard let column = column(for: a.name, of: member.name) else { continue }
                readers[column, default: []].insert(member.name)
                guard seen.insert(column).inserted else { continue }
                selected.append("t0.\(SQLIdentifier.quoted(column))")
                columns.append(PlannedColumn(name: a.name, kind: .attribute(a.type)))
                columnNames.append(column)
            }
            for r in member.allRelationships(in: model) where !r.isToMany {
                guard case .foreignKey(let column)? = storage(of: r.name, of: member.name) else { continue }
                readers[column, default: []].insert(member.name)
                guard seen.insert(column).inserted else { continue }
                selected.append("t0.\(SQLIdentifier.quoted(column))")
                columns.append(PlannedColumn(name: r.name, kind: .toOne(destination: r.destination)))
                columnNames.append(column)
            }
        }
        // The row's version last, read with its values (StoreMapping+Versions.swift).
        if storesVersions {
            selected.append("t0.\(SQLIdentifier.quoted(StoreMapping.versionColumn))")
            columns.append(PlannedColumn(name: StoreMapping.versionColumn, kind: .attribute(.integer64)))
            columnNames.append(StoreMapping.versionColumn)
        }
        var slotsPerName: [String: Int] = [:]
        for c in columns { slotsPerName[c.name, default: 0] += 1 }
        for i in columns.indices where slotsPerName[columns[i].name]! > 1 {
            columns[i].onlyFor = readers[columnNames[i]]
        }
        return (SelectList(selected.map { SQLFragment($0) }), columns)
    }

    /// The select list and columns of a row fetch of `entity` (alias t0).
    public func rowSelect(for entity: String) -> (sql: String, columns: [PlannedColumn])? {
        selects[entity].map { ($0.list.joined.sql, $0.columns) }
    }

    /// The same select list as parts (SelectStatement).
    func rowSelectList(for entity: String) -> (list: SelectList, columns: [PlannedColumn])? { selects[entity] }

    private mutating func storage(of r: Relationship, from entity: Entity, used: inout [String: Set<String>]) -> RelationshipStorage {
        let inverse = r.inverse.flatMap { model.entity(named: r.destination)?.relationship(named: $0, in: model) }
        let table = tables[entity.name]!
        func foreignKeyColumn() -> String {
            var column = r.name
            if used[table, default: StoreMapping.takenColumns].contains(StorageNames.collisionKey(column)),
               columns[entity.name]?.values.contains(where: { StorageNames.collisionKey($0) == StorageNames.collisionKey(column) }) == true
                || StoreMapping.takenColumns.contains(StorageNames.collisionKey(column)) {
                // Prefixed with the declaring entity, so that sub-entities
                // inheriting the relationship find the same column.
                column = declaring(r.name, from: entity.name) + "_" + r.name
            }
            used[table, default: StoreMapping.takenColumns].insert(StorageNames.collisionKey(column))
            return column
        }
        if !r.isToMany {
            // One-to-one with an inverse: the side whose "Entity.name" sorts first owns the key.
            if let inverse, !inverse.isToMany, (r.destination, inverse.name) < (entity.name, r.name) {
                return .inverseForeignKey(column: inverse.name)
            }
            return .foreignKey(column: foreignKeyColumn())
        }
        if let inverse, !inverse.isToMany {
            return .inverseForeignKey(column: inverse.name)
        }
        // Many-to-many (or to-many without inverse): one join table, named after
        // the owning side — the entities that declare the two relationships, so
        // sub-entities inheriting one share their parent's table.
        let owner = declaring(r.name, from: entity.name)
        if let inverse {
            let inverseOwner = declaring(inverse.name, from: r.destination)
            if (inverseOwner, inverse.name) < (owner, r.name) {
                let name = "_" + inverseOwner + "_" + inverse.name
                return .joinTable(table: name, sourceColumn: "target", targetColumn: "source")
            }
        }
        let name = "_" + owner + "_" + r.name
        if joinTableNames.insert(name).inserted {
            joinTables.append((name, tables[owner]!, tables[r.destination] ?? r.destination, r.isOrdered))
        }
        return .joinTable(table: name, sourceColumn: "source", targetColumn: "target")
    }

    /// The entity (itself or an ancestor) that declares the relationship `name`.
    private func declaring(_ name: String, from entityName: String) -> String {
        guard let entity = model.entity(named: entityName) else { return entityName }
        for candidate in [entity] + entity.ancestors(in: model) where candidate.relationships.contains(where: { $0.name == name }) {
            return candidate.name
        }
        return entityName
    }

    static func root(of entity: Entity, in model: Model) -> Entity {
        entity.ancestors(in: model).last ?? entity
    }

    /// A property of `entity` (own or inherited) by name.
    public func property(_ name: String, of entity: String) -> Property? { mapped.entities[entity]?.keys[name]?.property }

    /// Whether the model has an entity of that name.
    public func hasEntity(_ name: String) -> Bool { mapped.entities[name] != nil }

    /// The table holding rows of `entity`.
    public func table(for entity: String) -> String? { tables[entity] }

    /// The column of an attribute.
    public func column(for attribute: String, of entity: String) -> String? { columns[entity]?[attribute] }

    /// How a relationship is stored.
    public func storage(of relationship: String, of entity: String) -> RelationshipStorage? {
        relationships[entity]?[relationship]
    }

    /// The entity names a row of `entity` may have (itself and its sub-entities),
    /// or nil when every row of its table qualifies.
    public func entityFilter(for entity: String) -> [String]? { filters[entity] }

    /// Whether `entity`'s table holds rows of other entities too.
    func sharesTable(_ entity: String) -> Bool {
        (tables[entity].flatMap { entitiesPerTable[$0] } ?? 1) > 1
    }

    private func computeEntityFilter(for entity: String) -> [String]? {
        guard let e = model.entity(named: entity) else { return nil }
        let family = [e] + e.allSubentities(in: model)
        if family.count == tables[entity].flatMap({ entitiesPerTable[$0] }) { return nil }
        return family.filter { !$0.isAbstract }.map(\.name)
    }
}

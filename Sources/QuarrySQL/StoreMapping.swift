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
//
// A store keeps the names once chosen (StoreLayoutRecord.swift): built from
// its record, the mapping uses every name the record holds as it is and
// derives only what the record lacks (a new entity, attribute or
// relationship), never under a name the record already uses in that table.
// Without a record (a new store, or one made before stores kept theirs) the
// names are derived as they always were.
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
    private(set) var tables: [String: String] = [:]
    private(set) var columns: [String: [String: String]] = [:]
    private(set) var relationships: [String: [String: RelationshipStorage]] = [:]
    /// Per entity, the order columns of its ordered to-manys kept as the
    /// destination's key (StoreMapping+Ordered.swift).
    private(set) var orderColumnNames: [String: [String: String]] = [:]
    /// The record the mapping was built from (nil: every name derived), and
    /// per table the names it uses, collision-folded.
    let layout: StoreLayoutRecord?
    private var recordedNames: [String: Set<String>] = [:]
    /// Join-table names derived beside a record, by "Owner.relationship",
    /// so that both sides of a many-to-many find the same one.
    private var derivedJoinNames: [String: String] = [:]
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
    /// The values ordered to-manys' members get (StoreMapping+Ordered.swift):
    /// Quarry's 0, 1, 2, … unless the tables are views over Core Data's.
    public var orderSpacing = OrderSpacing.quarry
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

    /// The mapping of `model`: with `layout` (a store's record), every name
    /// the record holds is kept and only what it lacks is derived; without
    /// one, every name is derived from the model. `namesOnly`: the names
    /// alone — tables, columns, how relationships are stored — without what
    /// fetches are planned with (row select lists, entity filters, the
    /// mapped entities, derived columns): the old side of a migration, which
    /// only names what it moves; planning a fetch over it fails (it knows
    /// no entity).
    public init(model: Model, dialect: SQLDialect = .sqlite, storesVersions: Bool = true, layout: StoreLayoutRecord? = nil,
                namesOnly: Bool = false) {
        self.model = model
        self.dialect = dialect
        self.storesVersions = storesVersions
        self.layout = layout
        let recorded = layout?.entities ?? [:]
        recordedNames = layout?.takenNames() ?? [:]
        for entity in model.entities {
            let root = StoreMapping.root(of: entity, in: model)
            let table = recorded[root.name]?.table ?? root.name
            tables[entity.name] = table
            entitiesPerTable[table, default: 0] += 1
        }
        // Columns: per table, attributes of every entity of the hierarchy;
        // a sibling's attribute with a name already taken gets its entity's
        // prefix. A recorded column is kept, and its name is taken from the start.
        var used: [String: Set<String>] = [:]
        for entity in model.entities {
            let table = tables[entity.name]!
            if used[table] == nil { used[table] = StoreMapping.takenColumns.union(recordedNames[table] ?? []) }
            var map: [String: String] = [:]
            for attribute in entity.allAttributes(in: model) where !attribute.isTransient {
                if let inherited = entity.parent.flatMap({ columns[$0]?[attribute.name] }) {
                    map[attribute.name] = inherited
                    continue
                }
                if let kept = recorded[entity.name].flatMap({ $0.table == table ? $0.columns[attribute.name] : nil }) {
                    used[table]!.insert(StorageNames.collisionKey(kept))
                    map[attribute.name] = kept
                    continue
                }
                var column = attribute.name
                if used[table]!.contains(StorageNames.collisionKey(column)) {
                    column = entity.name + "_" + attribute.name
                    column = unrecorded(column, in: used[table]!)
                }
                used[table]!.insert(StorageNames.collisionKey(column))
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
        orderColumnNames = deriveOrderColumns()   // StoreMapping+Ordered.swift
        if namesOnly { return }
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
        // An inherited relationship is stored where its parent's is.
        if let parent = entity.parent, let inherited = relationships[parent]?[r.name] { return inherited }
        // A recorded storage is kept when it still fits the relationship.
        if let kept = layout?.entities[entity.name]?.relationships[r.name]?.storage, fits(kept, r, inverse: inverse) {
            switch kept {
            case .foreignKey(let column):
                used[table, default: StoreMapping.takenColumns].insert(StorageNames.collisionKey(column))
            case .joinTable(let name, StoreMapping.joinSourceColumn, _):
                registerJoinTable(name, source: table, target: tables[r.destination] ?? r.destination, ordered: r.isOrdered)
            default:
                break
            }
            return kept
        }
        // The other side's recorded storage decides which side holds the key.
        let inverseKept = inverse.flatMap { i in layout?.entities[r.destination]?.relationships[i.name]?.storage }
        func foreignKeyColumn() -> String {
            var column = r.name
            let key = StorageNames.collisionKey(column)
            if used[table, default: StoreMapping.takenColumns].contains(key),
               columns[entity.name]?.values.contains(where: { StorageNames.collisionKey($0) == key }) == true
                || StoreMapping.takenColumns.contains(key) || recordedNames[table]?.contains(key) == true {
                // Prefixed with the declaring entity, so that sub-entities
                // inheriting the relationship find the same column.
                column = unrecorded(declaring(r.name, from: entity.name) + "_" + r.name, in: used[table, default: StoreMapping.takenColumns])
            }
            used[table, default: StoreMapping.takenColumns].insert(StorageNames.collisionKey(column))
            return column
        }
        if !r.isToMany {
            if let inverse, !inverse.isToMany {
                switch inverseKept {
                case .foreignKey(let column)?: return .inverseForeignKey(column: column)
                case .inverseForeignKey?: return .foreignKey(column: foreignKeyColumn())
                default: break
                }
            }
            // One-to-one with an inverse: the side whose "Entity.name" sorts first owns the key.
            if let inverse, !inverse.isToMany, (r.destination, inverse.name) < (entity.name, r.name) {
                return .inverseForeignKey(column: inverse.name)
            }
            return .foreignKey(column: foreignKeyColumn())
        }
        if let inverse, !inverse.isToMany {
            if case .foreignKey(let column)? = inverseKept { return .inverseForeignKey(column: column) }
            return .inverseForeignKey(column: inverse.name)
        }
        // Many-to-many (or to-many without inverse): one join table, named after
        // the owning side — the entities that declare the two relationships, so
        // sub-entities inheriting one share their parent's table.
        let owner = declaring(r.name, from: entity.name)
        if let inverse {
            if case .joinTable(let name, let source, let target)? = inverseKept, fits(inverseKept!, inverse, inverse: r) {
                if target == StoreMapping.joinSourceColumn {
                    registerJoinTable(name, source: table, target: tables[r.destination] ?? r.destination, ordered: r.isOrdered)
                }
                return .joinTable(table: name, sourceColumn: target, targetColumn: source)
            }
            let inverseOwner = declaring(inverse.name, from: r.destination)
            if (inverseOwner, inverse.name) < (owner, r.name) {
                let name = joinTableName(inverseOwner, inverse.name)
                return .joinTable(table: name, sourceColumn: StoreMapping.joinTargetColumn, targetColumn: StoreMapping.joinSourceColumn)
            }
        }
        let name = joinTableName(owner, r.name)
        registerJoinTable(name, source: tables[owner]!, target: tables[r.destination] ?? r.destination, ordered: r.isOrdered)
        return .joinTable(table: name, sourceColumn: StoreMapping.joinSourceColumn, targetColumn: StoreMapping.joinTargetColumn)
    }

    /// Whether a recorded storage can still hold `r`: a to-one's key on
    /// either side (the other side only when it is a to-one too), a
    /// to-many's on the to-one inverse's side, else a join table.
    private func fits(_ storage: RelationshipStorage, _ r: Relationship, inverse: Relationship?) -> Bool {
        switch storage {
        case .foreignKey: return !r.isToMany
        case .inverseForeignKey: return inverse.map { !$0.isToMany } ?? false
        case .joinTable: return r.isToMany && (inverse?.isToMany ?? true)
        }
    }

    private mutating func registerJoinTable(_ name: String, source: String, target: String, ordered: Bool) {
        if joinTableNames.insert(name).inserted { joinTables.append((name, source, target, ordered)) }
    }

    /// `_Owner_relationship`; beside a record, one the record does not
    /// already use (numbered), the same for both sides of a many-to-many.
    private mutating func joinTableName(_ owner: String, _ relationship: String) -> String {
        let name = "_" + owner + "_" + relationship
        guard let layout else { return name }
        if let made = derivedJoinNames[owner + "." + relationship] { return made }
        var candidate = name, n = 1
        while layout.joinTables.contains(where: { $0.table == candidate }) || derivedJoinNames.values.contains(candidate) {
            n += 1
            candidate = name + "_\(n)"
        }
        derivedJoinNames[owner + "." + relationship] = candidate
        return candidate
    }

    /// `column`, or beside a record and when its name is taken, `column_2`,
    /// `column_3`…: a derived name never lands on a recorded one. (Without a
    /// record, names are derived exactly as before records existed.)
    private func unrecorded(_ column: String, in used: Set<String>) -> String {
        guard layout != nil else { return column }
        var candidate = column, n = 1
        while used.contains(StorageNames.collisionKey(candidate)) {
            n += 1
            candidate = column + "_\(n)"
        }
        return candidate
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

// The copy at the heart of a Core Data store's migration
// (CoreDataMigration.swift): for each entity of the new model that continues
// an old one (ModelDifference's matches, renames included), one
// `INSERT … SELECT` from the old hierarchy's table, renamed aside, into the
// new one, keeping `Z_PK` and `Z_OPT` and writing the new `Z_ENT`:
// - attributes from the old column the old model's views found
//   (CoreDataViews: suffixes and in-place renames as stored), an integer
//   widened to floating point cast to REAL, a column new or newly required
//   filled with the attribute's default (bound, as the store keeps it);
// - to-ones from the old foreign key; the `Z<n>_` companion mapped from old
//   entity numbers to new ones (or, where the old destination had no
//   sub-entities, the number its one entity now has);
// - ordering columns (`Z_FOK_`) from the old ones;
// and for each many-to-many, one `INSERT … SELECT` from the old join table,
// its two sides told apart by which relationship owned the old table, links
// to rows no longer stored (a removed sub-entity's) left out.
// Old names are quoted; new names are the layout's, made of model names
// already checked by `validateStorageNames`.
import QuarryModel
import QuarrySQL
import QuarrySQLite
import QuarryStore

struct CoreDataMigrationCopy {
    let difference: ModelDifference
    let oldViews: CoreDataViews
    let schema: CoreDataSchema
    private(set) var refusals: [String] = []
    private(set) var warnings: [String] = []
    private var inserts: [MigrationStep] = []
    /// What each statement copies (CoreDataMigration+InPlace.swift reads them too).
    private(set) var entityCopies: [EntityCopy] = []
    private(set) var joinCopies: [JoinCopy] = []

    /// Where a new column's value comes from, for one entity's rows.
    enum ColumnSource: Hashable {
        /// The old column's value, as it is.
        case column(String)
        /// An integer widened to floating point.
        case cast(String)
        /// The old value, or the default where it is NULL (made required).
        case fill(String, Value)
        /// An entity-number companion, its numbers mapped old → new.
        case renumbered(String)
        /// A new companion: the destination's one entity number where the key is set.
        case companion(of: String, Int)
        /// No old value: the default, or NULL.
        case value(Value?)
    }

    /// The rows of one entity, from its old table into its new one.
    struct EntityCopy {
        let entity: String
        let table: String, oldTable: String
        let oldNumber: Int, newNumber: Int
        var sources: [(column: String, source: ColumnSource)] = []
    }

    /// The links of one many-to-many: each new column from an old one (nil: NULL).
    struct JoinCopy {
        let table: String, oldTable: String
        var columns: [(new: String, old: String?)]
    }
    /// The old hierarchy and join tables, renamed aside for the copy.
    private(set) var oldTables: [String] = []

    static let asidePrefix = "_quarry_migrating_"

    init(difference: ModelDifference, oldViews: CoreDataViews, schema: CoreDataSchema) {
        self.difference = difference
        self.oldViews = oldViews
        self.schema = schema
        oldTables = oldViews.hierarchies.map(\.cdTable) + oldViews.joins.map(\.cdTable)
    }

    var old: Model { difference.old }
    var new: Model { difference.new }
    private func aside(_ table: String) -> String { SQLIdentifier.quoted(Self.asidePrefix + table) }
    func q(_ name: String) -> String { SQLIdentifier.quoted(name) }

    /// An old entity's number in the store.
    private func oldNumber(_ entity: String) -> Int? {
        schema.entities[oldViews.storedEntityNames[entity] ?? entity]?.number
    }

    /// The entity (itself or an ancestor) that declares `property`.
    private static func declaring(_ property: String, from entity: Entity, in model: Model) -> Entity {
        ([entity] + entity.ancestors(in: model)).first { $0.properties.contains { $0.name == property } } ?? entity
    }

    /// "OldEntity.oldProperty" for a new entity's property, if it continues one.
    private func oldKey(_ entity: String, _ property: String) -> String? {
        guard let o = difference.entityMatch[entity], let p = difference.oldPropertyName(property, of: entity) else { return nil }
        return o + "." + p
    }

    mutating func plan(into layout: CoreDataStoreLayout) {
        // Relationship storage moving between places is not copied.
        let moving: Set<ModelChange.Kind> = [.toOneBecameToMany, .toManyBecameToOne, .destinationChanged]
        for change in difference.changes where change.isInferable {
            let key = change.entity + "." + (change.property ?? "")
            let why: String?
            switch change.kind {
            case _ where moving.contains(change.kind): why = "\(change.detail) moves the links to another place"
            case .orderedChanged where new.entity(named: change.entity)?.relationship(named: change.property ?? "", in: new)?.isOrdered == true:
                why = "a relationship made ordered needs an order Core Data would choose"
            case .inverseChanged where storage(change.entity, change.property ?? "", in: new) != storage(difference.entityMatch[change.entity] ?? "", difference.oldPropertyName(change.property ?? "", of: change.entity) ?? "", in: old):
                why = "\(change.detail) moves the links between a foreign key and a join table"
            default: why = nil
            }
            if let why { refusals.append("\(key): \(why); Quarry's migration of a Core Data store does not move a relationship's storage yet") }
        }
        let newNumbers = Dictionary(layout.entities.map { ($0.name, $0.number) }, uniquingKeysWith: { a, _ in a })
        // Old entity number → new, for the companions.
        var renumbered: [(old: Int, new: Int)] = []
        for (newName, oldName) in difference.entityMatch.sorted(by: { $0.key < $1.key }) {
            if let o = oldNumber(oldName), let n = newNumbers[newName] { renumbered.append((o, n)) }
        }
        for entity in new.entities.sorted(by: { (newNumbers[$0.name] ?? 0) < (newNumbers[$1.name] ?? 0) }) {
            guard let oldName = difference.entityMatch[entity.name], let was = old.entity(named: oldName),
                  let oldNumber = oldNumber(oldName), let newNumber = newNumbers[entity.name],
                  let h = oldViews.hierarchies.first(where: { $0.members.contains { $0.name == oldName } }) else { continue }
            let table = tableOf(entity.name)
            var copy = EntityCopy(entity: entity.name, table: table, oldTable: h.cdTable, oldNumber: oldNumber, newNumber: newNumber)

            for a in entity.allAttributes(in: new) where !a.isTransient {
                let declarer = Self.declaring(a.name, from: entity, in: new)
                guard let column = layout.columnOf[declarer.name + "." + a.name] else { continue }
                let stored: Value?
                do { stored = try a.storedDefault(entity: entity.name) } catch {
                    refusals.append("\(entity.name).\(a.name): its default cannot be stored: \(error)")
                    stored = nil
                }
                guard let oldName = difference.oldPropertyName(a.name, of: entity.name),
                      let oldAttribute = was.allAttributes(in: old).first(where: { $0.name == oldName }),
                      let oldColumn = h.propertyColumns[Self.declaring(oldName, from: was, in: old).name + "." + oldName] else {
                    copy.sources.append((column, .value(stored)))
                    continue
                }
                var source = ColumnSource.column(oldColumn)
                let from = CoreDataStoreLayout.storage(oldAttribute.type)?.type, to = CoreDataStoreLayout.storage(a.type)?.type
                if from == "INTEGER" && to == "FLOAT" {
                    source = .cast(oldColumn)
                } else if from != to {
                    refusals.append("\(entity.name).\(a.name): \(oldAttribute.type.rawValue) → \(a.type.rawValue) changes how Core Data stores it; Quarry's migration copies a value unchanged or widens an integer to floating point")
                } else if a.type == .transformable && Self.transformerFormat(oldAttribute) != Self.transformerFormat(a) {
                    // Core Data's lightweight migration copies the bytes too.
                    warnings.append("\(entity.name).\(a.name): its transformer changes (\(Self.transformerFormat(oldAttribute)) → \(Self.transformerFormat(a))); the stored bytes are copied unchanged, as Core Data's lightweight migration copies them")
                } else if a.type == .binary && oldAttribute.allowsExternalBinaryDataStorage != a.allowsExternalBinaryDataStorage {
                    refusals.append("\(entity.name).\(a.name): allowing external storage or not changes how Core Data stores the bytes (a tag byte); Quarry's migration does not rewrite them")
                }
                if let stored, !a.isOptional, case .column = source { source = .fill(oldColumn, stored) }
                copy.sources.append((column, source))
            }

            for r in entity.allRelationships(in: new) where !r.isTransient && !r.isToMany {
                let declarer = Self.declaring(r.name, from: entity, in: new)
                guard let column = layout.columnOf[declarer.name + "." + r.name] else { continue }
                let oldName = difference.oldPropertyName(r.name, of: entity.name)
                let oldRelationship = oldName.flatMap { n in was.allRelationships(in: old).first { $0.name == n && !$0.isToMany } }
                let oldKey = oldName.map { Self.declaring($0, from: was, in: old).name + "." + $0 }
                let oldColumn = oldRelationship == nil ? nil : oldKey.flatMap { h.propertyColumns[$0] }
                copy.sources.append((column, oldColumn.map { .column($0) } ?? .value(nil)))
                guard let companion = layout.companionOf[declarer.name + "." + r.name] else { continue }
                if let oldRelationship, let oldColumn {
                    if let oldCompanion = oldKey.flatMap({ h.companions[$0] }) {
                        copy.sources.append((companion, .renumbered(oldCompanion)))
                    } else if let destination = difference.entityMatch.first(where: { $0.value == oldRelationship.destination })?.key,
                              let n = newNumbers[destination] {
                        copy.sources.append((companion, .companion(of: oldColumn, n)))
                    } else {
                        copy.sources.append((companion, .value(nil)))
                    }
                } else {
                    copy.sources.append((companion, .value(nil)))
                }
            }
            for (key, order) in layout.orderColumnOf.sorted(by: { $0.key < $1.key }) where order.table == table {
                let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
                let oldOrder = oldKey(parts[0], parts[1]).flatMap { k in h.orderColumns.first { $0.relationship == k }?.cdColumn }
                copy.sources.append((order.column, oldOrder.map { .column($0) } ?? .value(nil)))
            }
            entityCopies.append(copy)
        }
        for copy in entityCopies { inserts.append(insert(copy, renumbered: renumbered)) }
        planJoins(layout)
    }

    /// One entity's `INSERT … SELECT`.
    private func insert(_ copy: EntityCopy, renumbered: [(old: Int, new: Int)]) -> MigrationStep {
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        var values = ["t.\"Z_PK\"", String(copy.newNumber), "t.\"Z_OPT\""]
        var arguments: [Value] = []
        for (column, source) in copy.sources {
            columns.append(column)
            switch source {
            case .column(let c): values.append("t." + q(c))
            case .cast(let c): values.append("CAST(t.\(q(c)) AS REAL)")
            case .fill(let c, let v): values.append("coalesce(t.\(q(c)), ?)"); arguments.append(v)
            case .renumbered(let c): values.append("CASE t.\(q(c)) " + renumbered.map { "WHEN \($0.old) THEN \($0.new)" }.joined(separator: " ") + " END")
            case .companion(let fk, let n): values.append("CASE WHEN t.\(q(fk)) IS NULL THEN NULL ELSE \(n) END")
            case .value(nil): values.append("NULL")
            case .value(let v?): values.append("?"); arguments.append(v)
            }
        }
        return MigrationStep("INSERT INTO \(copy.table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM main.\(aside(copy.oldTable)) AS t WHERE t.\"Z_ENT\" = ?",
                             arguments + [.int(Int64(copy.oldNumber))])
    }

    /// Many-to-many links, from the old join table of the same pair.
    private mutating func planJoins(_ layout: CoreDataStoreLayout) {
        for j in layout.joins {
            let firstKey = oldKey(j.first, j.relationship), secondKey = oldKey(j.second, j.inverse)
            var c1 = "", c2 = "", o1: String?, o2: String?, source: String?
            if let v = oldViews.joins.first(where: { $0.owner == firstKey }) {
                (c1, c2, o1, o2, source) = (v.source, v.target, v.inversePosition, v.position, v.cdTable)
            } else if let v = oldViews.joins.first(where: { $0.owner == secondKey }) {
                (c1, c2, o1, o2, source) = (v.target, v.source, v.position, v.inversePosition, v.cdTable)
            }
            guard let source else { continue }   // a new many-to-many: nothing to copy
            var copy = JoinCopy(table: j.table, oldTable: source, columns: [(j.firstColumn, c1), (j.secondColumn, c2)])
            if let order = j.firstOrder { copy.columns.append((order, o1)) }
            if let order = j.secondOrder { copy.columns.append((order, o2)) }
            joinCopies.append(copy)
            let columns = copy.columns.map(\.new)
            let values = copy.columns.map { $0.old.map { "j." + q($0) } ?? "NULL" }
            inserts.append(MigrationStep("INSERT INTO \(j.table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM main.\(aside(source)) AS j"
                + " WHERE j.\(q(c1)) IN (SELECT Z_PK FROM \(tableOf(j.first))) AND j.\(q(c2)) IN (SELECT Z_PK FROM \(tableOf(j.second)))"))
        }
    }

    /// Everything up to and including the copy and `Z_PRIMARYKEY`: old
    /// indexes dropped (their names are the new ones'), old tables renamed
    /// aside, the new tables created and filled.
    func steps(_ connection: SQLiteConnection, layout: CoreDataStoreLayout) throws -> [MigrationStep] {
        var steps: [MigrationStep] = []
        let upper = Set(oldTables.map { $0.uppercased() })
        for row in try connection.query("SELECT name, tbl_name FROM main.sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name") {
            guard case .string(let name) = row[0], case .string(let table) = row[1], upper.contains(table.uppercased()) else { continue }
            steps.append(MigrationStep("DROP INDEX main.\(q(name))"))
        }
        for table in oldTables { steps.append(MigrationStep("ALTER TABLE main.\(q(table)) RENAME TO \(aside(table))")) }
        steps += layout.tableStatements.map { MigrationStep($0) }
        steps += inserts
        // Z_PRIMARYKEY: the new entities; a root's Z_MAX is the highest its
        // old hierarchies handed out (or a copied key above it).
        var oldMax: [Int: Int64] = [:]
        for row in try connection.query("SELECT Z_ENT, Z_MAX FROM main.Z_PRIMARYKEY") {
            if case .int(let e) = row[0], case .int(let m) = row[1] { oldMax[Int(e)] = m }
        }
        steps.append(MigrationStep("DELETE FROM Z_PRIMARYKEY WHERE Z_ENT < 16000"))
        for e in layout.entities {
            guard let entity = new.entity(named: e.name) else { continue }
            var max: Int64 = 0
            if e.parent == 0 {
                let members = [entity] + entity.allSubentities(in: new)
                for m in members {
                    guard let o = difference.entityMatch[m.name], let was = old.entity(named: o) else { continue }
                    let oldRoot = was.ancestors(in: old).last ?? was
                    max = Swift.max(max, oldNumber(oldRoot.name).flatMap { oldMax[$0] } ?? 0)
                }
                steps.append(MigrationStep("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, max(?, coalesce((SELECT max(Z_PK) FROM \(tableOf(e.name))), 0)))",
                                           [.int(Int64(e.number)), .string(e.name), .int(max)]))
            } else {
                if let o = difference.entityMatch[e.name], let n = oldNumber(o) { max = oldMax[n] ?? 0 }
                steps.append(MigrationStep("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)",
                                           [.int(Int64(e.number)), .string(e.name), .int(Int64(e.parent)), .int(max)]))
            }
        }
        return steps
    }

    /// A transformable's bytes: Core Data's own transformers (the default
    /// among them) all write keyed archives; an app's own writes its own.
    private static func transformerFormat(_ a: Attribute) -> String {
        guard let name = a.valueTransformerName, !ValueTransformerRegistry.keyedArchiveNames.contains(name) else { return "keyed archive" }
        return name
    }

    /// Where a relationship's links are kept: 0 its own foreign key, 1 the
    /// inverse's foreign key, 2 a join table (nil: not found).
    private func storage(_ entity: String, _ name: String, in model: Model) -> Int? {
        guard let r = model.entity(named: entity)?.relationship(named: name, in: model) else { return nil }
        guard r.isToMany else { return 0 }
        guard let inverse = r.inverse, let d = model.entity(named: r.destination),
              let i = d.relationship(named: inverse, in: model) else { return nil }
        return i.isToMany ? 2 : 1
    }

    /// A new entity's table: its root's.
    private func tableOf(_ entity: String) -> String {
        guard let e = new.entity(named: entity) else { return "" }
        return "Z" + (e.ancestors(in: new).last ?? e).name.uppercased()
    }

    /// The old tables, dropped once copied.
    var dropSteps: [MigrationStep] { oldTables.map { MigrationStep("DROP TABLE main.\(aside($0))") } }
}

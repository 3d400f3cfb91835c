// The translation layer: TEMP views that present a Core Data store's
// Z-tables in exactly the tables and columns Quarry's own mapping
// (QuarrySQL/StoreMapping.swift) expects for the model, so the whole engine
// — planner, context, fetched-results controller, shell, memory engine —
// reads the store unchanged. SQLite flattens such simple views into the
// query, so a filter and sort run on the Z-tables as hand-written SQL would.
//
// Every name is looked up in the store (CoreDataSchema), never assumed:
// - a hierarchy's table is `Z` + the root entity's name upper-cased; its rows
//   are told apart by `Z_ENT`, turned back into entity names for `_entity`;
// - an attribute's or to-one's column is `Z` + its name upper-cased; names
//   that more than one entity of the hierarchy declare get numeric suffixes
//   in entity-number order (`ZTITLE`, `ZTITLE1`: the order is a hypothesis
//   and a column that is not there is refused);
// - a many-to-many's join table is `Z_<n><REL>` named after the side on the
//   lower-numbered entity (both names are tried), with columns
//   `Z_<entity number><name of the relationship pointing at it>`, and an
//   ordering column `Z_FOK_…` for ordered relationships.
// What cannot be mapped is collected and refused in one error.
//
// Binary attributes that allow external storage carry a tag byte: 0x01 and
// the bytes, or 0x02 and the name of a file in the store's
// `.<name>_SUPPORT/_EXTERNAL_DATA` folder (loaded by ExternalData.swift into
// a TEMP table the view reads from).
import QuarryModel
import QuarrySQL
import Foundation

struct CoreDataViews {
    /// One column of a view: Quarry's name and the SQL that reads it.
    struct Column {
        let name: String
        let cdTable: String
        let cdColumn: String
        /// Binary data with Core Data's external-storage tag byte.
        let tagged: Bool
        /// Writing (CoreDataViews+Writing.swift): why a write of this column
        /// is refused (a transformable value), or nil.
        var unwritable: String? = nil
        /// A to-one's entity-number companion (`Z<n>_<REL>`) and the view of
        /// the destination's hierarchy, whose row's `Z_ENT` it holds.
        var companion: String? = nil
        var destinationView: String? = nil
    }
    struct HierarchyView {
        let name: String
        let cdTable: String
        let entityExpression: String
        let columns: [Column]
        /// Ordered to-manys' order columns (CoreDataViews+Order.swift).
        var orderColumns: [OrderColumn] = []
        /// Writing: each member entity's `Z_ENT`, and the root's (whose
        /// `Z_PRIMARYKEY.Z_MAX` hands out the hierarchy's keys).
        var members: [(name: String, number: Int)] = []
        var rootNumber = 0
        /// Migration (CoreDataMigration+Copy.swift): "DeclaringEntity.property"
        /// → its column, for attributes and to-ones, and a to-one's
        /// entity-number companion where the store has one.
        var propertyColumns: [String: String] = [:]
        var companions: [String: String] = [:]
    }
    struct JoinView {
        let name: String
        let cdTable: String
        let source: String, target: String
        let position: String?
        /// The other side's `Z_FOK_` column when the inverse is ordered too
        /// (wire's Conversation/User participants): Quarry keeps only the
        /// owner's order, so this is written only for a new row (last in
        /// the member's list, CoreDataViews+Writing.swift), never read.
        var inversePosition: String? = nil
        /// The owning side, "Entity.relationship" (migration reads it).
        var owner = ""
    }
    var hierarchies: [HierarchyView] = []
    var joins: [JoinView] = []
    var warnings: [String] = []
    /// Each entity's name in Z_PRIMARYKEY: its own, or its old name when
    /// it was renamed in place.
    var storedEntityNames: [String: String] = [:]
    /// Columns named by the suffix hypothesis (`ZTITLE1`: the second entity,
    /// by number, to declare `title`), with the entity numbers whose rows may
    /// hold a value there; checked against the rows before the views are
    /// made (CoreDataViews+Suffixes.swift).
    var suffixedColumns: [SuffixedColumn] = []

    /// The views of `model` over the store, or a `.modelMismatch` listing
    /// everything that could not be found.
    init(model: Model, schema: CoreDataSchema, renames: RenamingIdentifiers = RenamingIdentifiers()) throws(CoreDataError) {
        var problems: [String] = []
        let mapping = StoreMapping(model: model)
        // Entities and their hierarchy, against Z_PRIMARYKEY (where a
        // renamed entity keeps its old name).
        func stored(_ entity: String) -> (number: Int, parent: Int)? {
            schema.entities[entity] ?? renames.entity(entity).flatMap { schema.entities[$0] }
        }
        for entity in model.entities {
            guard let found = stored(entity.name) else {
                problems.append("the store has no entity \(entity.name) (not in Z_PRIMARYKEY)")
                continue
            }
            storedEntityNames[entity.name] = schema.entities[entity.name] != nil ? entity.name : renames.entity(entity.name)!
            let expectedParent = entity.parent.flatMap { stored($0)?.number } ?? 0
            if found.parent != expectedParent {
                let storedParent = schema.entityName(number: found.parent) ?? "none"
                problems.append("\(entity.name)'s parent is \(entity.parent ?? "none") in the model, \(storedParent) in the store")
            }
        }
        let known = Set(model.entities.map { renames.entity($0.name) ?? $0.name } + model.entityNames)
        for name in schema.entities.keys.sorted() where !known.contains(name) {
            problems.append("the store has entity \(name), which the model lacks")
        }
        if !problems.isEmpty { throw Self.mismatch(problems) }

        func number(_ entity: String) -> Int { stored(entity)?.number ?? 0 }
        func declaring(_ property: String, from entity: Entity) -> Entity {
            ([entity] + entity.ancestors(in: model)).first { $0.properties.contains { $0.name == property } } ?? entity
        }

        var done: Set<String> = []
        for entity in model.entities {
            guard let table = mapping.table(for: entity.name), done.insert(table).inserted else { continue }
            let family = model.entities.filter { mapping.table(for: $0.name) == table }.sorted { number($0.name) < number($1.name) }
            guard let root = family.first(where: { $0.parent == nil }) else { continue }
            let rootName = (storedEntityNames[root.name] ?? root.name).uppercased()
            guard let cdTable = schema.table("Z" + rootName), cdTable.columns["Z_PK"] != nil, cdTable.columns["Z_ENT"] != nil else {
                problems.append("no table Z\(rootName) with Z_PK and Z_ENT for \(root.name)")
                continue
            }
            // Core Data's column per declared stored property, suffixed where
            // entities of the hierarchy declare the same name.
            var columnsByName: [String: [(entity: String, property: String)]] = [:]
            for member in family {
                for a in member.attributes where !a.isTransient { columnsByName[a.name.uppercased(), default: []].append((member.name, a.name)) }
                for r in member.relationships where !r.isTransient && !r.isToMany {
                    columnsByName[r.name.uppercased(), default: []].append((member.name, r.name))
                }
            }
            var cdColumn: [String: String] = [:]   // "Entity.property" → real column name
            for (upper, declarers) in columnsByName {
                // Declarers in entity-number order: the hypothesis the suffixes follow.
                let declarers = declarers.sorted { number($0.entity) < number($1.entity) }
                for (i, d) in declarers.enumerated() {
                    // The column of the current name; else, for a property
                    // renamed in place, of its old name.
                    let wanted = "Z" + upper + (i == 0 ? "" : String(i))
                    let old = renames.property(d.property, of: d.entity).map { "Z" + $0.uppercased() }
                    if let real = cdTable.columns[wanted] ?? old.flatMap({ cdTable.columns[$0] }) {
                        cdColumn[d.entity + "." + d.property] = real
                        if declarers.count > 1 {
                            let readers = family.filter { $0.name == d.entity || $0.ancestors(in: model).contains { $0.name == d.entity } }
                            suffixedColumns.append(SuffixedColumn(table: cdTable.name, column: real, entity: d.entity, property: d.property,
                                                                  entityNumbers: readers.map { number($0.name) }.sorted()))
                        }
                    } else { problems.append("\(d.entity).\(d.property) has no column \(wanted) in \(cdTable.name)") }
                }
            }
            var columns: [Column] = []
            var companions: [String: String] = [:]
            var seen: Set<String> = []
            for member in family {
                for a in member.allAttributes(in: model) where !a.isTransient {
                    guard let q = mapping.column(for: a.name, of: member.name), seen.insert(q).inserted,
                          let c = cdColumn[declaring(a.name, from: member).name + "." + a.name] else { continue }
                    var column = Column(name: q, cdTable: cdTable.name, cdColumn: c,
                                        tagged: a.type == .binary && a.allowsExternalBinaryDataStorage)
                    // Core Data's own transformers write keyed archives, which
                    // Quarry writes as Apple's archiver does (checked against
                    // every archived value of the corpus stores:
                    // TransformableCorpusTests); an app's own transformer's
                    // format is the app's.
                    if a.type == .transformable, let name = a.valueTransformerName, !ValueTransformerRegistry.keyedArchiveNames.contains(name) {
                        column.unwritable = "\(member.name).\(a.name) is transformable with the app's own transformer '\(name)': Quarry cannot write a value that transformer would read"
                    }
                    columns.append(column)
                }
                for r in member.allRelationships(in: model) where !r.isToMany {
                    guard case .foreignKey(let q)? = mapping.storage(of: r.name, of: member.name), seen.insert(q).inserted,
                          let c = cdColumn[declaring(r.name, from: member).name + "." + r.name] else { continue }
                    var column = Column(name: q, cdTable: cdTable.name, cdColumn: c, tagged: false)
                    // `ZQUOTE`'s companion `Z10_QUOTE` holds the target's Z_ENT
                    // (present when the destination has sub-entities).
                    column.companion = cdTable.columns["Z\(number(r.destination))_" + c.dropFirst().uppercased()]
                    if let companion = column.companion { companions[declaring(r.name, from: member).name + "." + r.name] = companion }
                    column.destinationView = mapping.table(for: r.destination)
                    let destinationHasSubentities = model.entities.contains { $0.parent == r.destination }
                    if column.companion == nil && destinationHasSubentities {
                        column.unwritable = "\(member.name).\(r.name) points into a hierarchy but \(cdTable.name) has no Z\(number(r.destination))_\(c.dropFirst().uppercased()) column for the target's entity number"
                    }
                    columns.append(column)
                }
            }
            let entityExpression: String
            if family.count == 1 {
                entityExpression = sqlString(root.name)
            } else {
                entityExpression = "CASE t.\"\(cdTable.columns["Z_ENT"]!)\" "
                    + family.map { "WHEN \(number($0.name)) THEN \(sqlString($0.name))" }.joined(separator: " ") + " END"
            }
            var view = HierarchyView(name: table, cdTable: cdTable.name, entityExpression: entityExpression, columns: columns)
            view.members = family.map { ($0.name, number($0.name)) }
            view.rootNumber = number(root.name)
            view.propertyColumns = cdColumn
            view.companions = companions
            hierarchies.append(view)
        }

        // Join tables, from the owning side of each many-to-many (or
        // to-many without a to-one inverse).
        var joinsDone: Set<String> = []
        for entity in model.entities {
            for r in entity.relationships where !r.isTransient && r.isToMany {
                guard let storage = mapping.storage(of: r.name, of: entity.name), storage.isJoinTableOwner, case .joinTable(let view, _, _) = storage,
                      joinsDone.insert(view).inserted else { continue }
                // Names as stored: a renamed relationship keeps its old one.
                let relationshipName = (renames.property(r.name, of: entity.name) ?? r.name).uppercased()
                let inverse = r.inverse.map { renames.property($0, of: r.destination) ?? $0 }
                let ownerNumber = number(entity.name)
                var destinationNumbers = [number(r.destination)]
                if let inverseName = r.inverse, let d = model.entity(named: r.destination) {
                    let n = number(declaring(inverseName, from: d).name)
                    if !destinationNumbers.contains(n) { destinationNumbers.append(n) }
                }
                var candidates = ["Z_\(ownerNumber)\(relationshipName)"]
                if let inverse { candidates += destinationNumbers.map { "Z_\($0)\(inverse.uppercased())" } }
                guard let join = candidates.lazy.compactMap({ schema.table($0) }).first else {
                    problems.append("\(entity.name).\(r.name) has no join table (looked for \(candidates.joined(separator: ", ")))")
                    continue
                }
                let keys = join.columns.filter { !$0.key.hasPrefix("Z_FOK_") }
                func find(_ wanted: [String], excluding: String?) -> String? {
                    for w in wanted { if let c = keys[w], c != excluding { return c } }
                    for w in wanted { if let c = keys.first(where: { $0.key != excluding?.uppercased() && $0.key.hasPrefix(w) && $0.key.dropFirst(w.count).allSatisfy(\.isNumber) && $0.key.count > w.count })?.value { return c } }
                    return nil
                }
                let target = find(destinationNumbers.map { "Z_\($0)\(relationshipName)" }, excluding: nil)
                var source = inverse.flatMap { find(["Z_\(ownerNumber)\($0.uppercased())"], excluding: target) }
                if source == nil, let target, keys.count == 2 { source = keys.values.first { $0 != target } }
                guard let source, let target else {
                    problems.append("\(entity.name).\(r.name): cannot tell the columns of \(join.name) (\(join.columns.values.sorted().joined(separator: ", ")))")
                    continue
                }
                var position: String?
                if r.isOrdered {
                    let fok = join.columns.filter { $0.key.hasPrefix("Z_FOK_") }
                    position = fok["Z_FOK_" + target.uppercased().dropFirst(2)] ?? (fok.count == 1 ? fok.first!.value : nil)
                    if position == nil { warnings.append("\(entity.name).\(r.name) is ordered but \(join.name) has no Z_FOK_ column: read in key order") }
                }
                var joinView = JoinView(name: view, cdTable: join.name, source: source, target: target, position: position)
                if let inverseName = r.inverse, model.entity(named: r.destination)?.relationship(named: inverseName, in: model)?.isOrdered == true {
                    joinView.inversePosition = join.columns["Z_FOK_" + source.uppercased().dropFirst(2)].flatMap { $0 == position ? nil : $0 }
                }
                joinView.owner = entity.name + "." + r.name
                joins.append(joinView)
            }
        }
        if !problems.isEmpty { throw Self.mismatch(problems) }
        addOrderColumns(model: model, schema: schema, renames: renames)
    }

    private static func mismatch(_ problems: [String]) -> CoreDataError {
        let shown = problems.prefix(8).joined(separator: "; ") + (problems.count > 8 ? "; and \(problems.count - 8) more" : "")
        return CoreDataError(.modelMismatch, "the model does not match the store: \(shown)",
                             hint: "give the model version the store was written with (--model App.xcdatamodeld picks it by the store's version identifier), or no model to use the one cached in the store")
    }

    /// The CREATE TEMP VIEW statements. `external` names the tagged columns
    /// ("TABLE.COLUMN") that hold references to external files, read from
    /// the TEMP table ExternalData fills. `writable`: the views also present
    /// `Z_OPT` as Quarry's row version (StoreMapping+Versions.swift), which
    /// a writable store reads and bumps (CoreDataViews+Writing.swift).
    func statements(external: Set<String>, writable: Bool = false) -> [String] {
        var out: [String] = []
        for h in hierarchies {
            var select = ["t.\"Z_PK\" AS \"\(StoreMapping.primaryKey)\"", "\(h.entityExpression) AS \"\(StoreMapping.entityColumn)\""]
            if writable { select.append("t.\"Z_OPT\" AS \(SQLIdentifier.quoted(StoreMapping.versionColumn))") }
            for c in h.columns {
                let value = "t.\(SQLIdentifier.quoted(c.cdColumn))"
                var expression = value
                if c.tagged {
                    expression = "CASE substr(\(value), 1, 1) WHEN x'01' THEN substr(\(value), 2)"
                    if external.contains(c.cdTable + "." + c.cdColumn) {
                        expression += " WHEN x'02' THEN (SELECT e.\"bytes\" FROM temp.\(ExternalData.table) e WHERE e.\"tbl\" = \(sqlString(c.cdTable)) AND e.\"col\" = \(sqlString(c.cdColumn)) AND e.\"pk\" = t.\"Z_PK\")"
                    }
                    expression += " ELSE \(value) END"
                }
                select.append("\(expression) AS \(SQLIdentifier.quoted(c.name))")
            }
            for o in h.orderColumns {
                // Quarry's order columns are never NULL (0 by default); Core
                // Data's is NULL in rows outside the relationship.
                select.append((o.cdColumn.map { "coalesce(t.\(SQLIdentifier.quoted($0)), 0)" } ?? "0") + " AS \(SQLIdentifier.quoted(o.name))")
            }
            out.append("CREATE TEMP VIEW \(SQLIdentifier.quoted(h.name)) AS SELECT \(select.joined(separator: ", ")) FROM main.\(SQLIdentifier.quoted(h.cdTable)) AS t")
        }
        for j in joins {
            var select = ["j.\(SQLIdentifier.quoted(j.source)) AS \(StoreMapping.quotedJoinSource)", "j.\(SQLIdentifier.quoted(j.target)) AS \(StoreMapping.quotedJoinTarget)"]
            select.append((j.position.map { "j.\(SQLIdentifier.quoted($0))" } ?? "0") + " AS \(StoreMapping.quotedJoinPosition)")
            out.append("CREATE TEMP VIEW \(SQLIdentifier.quoted(j.name)) AS SELECT \(select.joined(separator: ", ")) FROM main.\(SQLIdentifier.quoted(j.cdTable)) AS j")
        }
        return out
    }
}

/// A SQL string literal (entity and table names in view text; values
/// always go as bound arguments).
func sqlString(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }

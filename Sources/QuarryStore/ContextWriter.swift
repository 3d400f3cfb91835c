// The SQL of a context's save (Context+Saving.swift decides what to write
// and when; this writes it): DELETEs with the references to deleted rows,
// UPDATEs of changed attributes, INSERTs of new rows, then foreign keys and
// join rows. Values are bound, never pasted; identifiers come quoted from
// the store mapping.
import Foundation

/// The SQL of a save, statement by statement (always inside its transaction).
///
/// One writer serves one save, which may touch many objects of few shapes,
/// so what depends only on the entity — attribute columns, UPDATE statements
/// per set of changed columns, the statements that clear references to a
/// deleted row — is built once and reused. UPDATEs run through the
/// database's `preparedRunner`, kept for the whole save; the last shape and
/// the last UPDATE used are remembered, since consecutive objects of a big
/// save nearly always share them (no hashing of names per object then).
/// Objects whose only change is one attribute join that column's batch of
/// UPDATEs (ColumnUpdates.swift), several rows per statement on SQLite.
final class ContextWriter {
    let context: Context
    let store: SQLStore
    let mapping: StoreMapping
    let model: Model
    /// The shapes by entity: the context's, kept from save to save (they
    /// follow from the model and mapping alone).
    private var shapes: [String: EntityShape] {
        get { context.writerShapes }
        set { context.writerShapes = newValue }
    }
    @exclusivity(unchecked) private var lastShape: EntityShape?
    private var updates: [UpdateKey: ([Value]) throws -> Int] = [:]
    @exclusivity(unchecked) private var lastUpdate: (key: UpdateKey, run: ([Value]) throws -> Int)?
    private var cleanups: [String: [String]] = [:]
    /// One-column UPDATEs (an object's only change), batched (ColumnUpdates.swift):
    /// by entity and column, and the one being filled now.
    /// The batched one-column UPDATEs: the context's, kept from save to
    /// save like the shapes (making one cost a one-row save a tenth of its
    /// time); `taken` are those this save has used, each emptied first.
    private var columnUpdates: [UpdateKey: ColumnUpdates] {
        get { context.columnUpdates }
        set { context.columnUpdates = newValue }
    }
    private var taken: Set<UpdateKey> = []
    @exclusivity(unchecked) private var filling: (shape: EntityShape, column: AttributeColumn, updates: ColumnUpdates)?
    /// What the last one-change object resolved to, for the next one of the
    /// same entity changing the same attribute (one reference to read per
    /// object, instead of a shape, a column and a batch each retained).
    @exclusivity(unchecked) private var lastSingle: SingleChange?
    /// Reused for every object's UPDATE, rather than two new arrays each.
    @exclusivity(unchecked) private var columns: [String] = []
    @exclusivity(unchecked) private var arguments: [Value] = []
    /// Whether this save folds row claims into the UPDATEs that write the
    /// rows (`foldedClaim(of:)`; set by the save, Context+Saving.swift).
    var foldsClaims = false

    init(context: Context) {
        self.context = context
        self.store = context.store
        self.mapping = context.store.mapping
        self.model = context.model
    }

    /// An entity's stored attributes and relationships, by name (a class,
    /// so that reading it once per object copies nothing).
    final class EntityShape {
        let entity: String
        let table: String?
        /// Non-transient attributes with a column: the attribute and its quoted column.
        @exclusivity(unchecked) private var attributes: RememberingTable<AttributeColumn>
        let relationships: [String: Relationship]

        init(entity: String, table: String?, attributes: [String: AttributeColumn],
             relationships: [String: Relationship]) {
            self.entity = entity
            self.table = table
            self.attributes = RememberingTable(attributes)
            self.relationships = relationships
        }

        func attribute(_ name: String) -> AttributeColumn? { attributes.find(name) }
    }

    /// A stored attribute and its quoted column (a class: looking one up
    /// hands back a reference, not a copy of the `Attribute` struct).
    final class AttributeColumn {
        let name: String
        let type: AttributeType
        let column: String
        /// For `StoreValues.storable(_:for:)`: a transformable needs its transformer's name.
        let attribute: Attribute

        init(_ attribute: Attribute, _ column: String) {
            self.name = attribute.name
            self.type = attribute.type
            self.column = column
            self.attribute = attribute
        }
    }

    /// An entity's attribute, resolved for its batch of one-column UPDATEs.
    private final class SingleChange {
        let info: EntityInfo
        let key: String
        let attribute: Attribute
        let entity: String
        let updates: ColumnUpdates

        init(info: EntityInfo, key: String, attribute: Attribute, entity: String, updates: ColumnUpdates) {
            self.info = info
            self.key = key
            self.attribute = attribute
            self.entity = entity
            self.updates = updates
        }
    }

    struct UpdateKey: Hashable {
        var entity: String
        var columns: [String]
        var checksVersion = false
    }

    private func shape(_ info: EntityInfo) -> EntityShape {
        if let last = lastShape, last.entity == info.name { return last }
        if let known = shapes[info.name] { lastShape = known; return known }
        let entity = info.entity
        var attributes: [String: AttributeColumn] = [:]
        var seen: Set<String> = []
        for a in entity.allAttributes(in: model).reversed() where seen.insert(a.name).inserted {
            // Reversed, so that the nearest declaration wins as in `property(named:in:)`.
            if !a.isTransient, let column = mapping.column(for: a.name, of: entity.name) { attributes[a.name] = AttributeColumn(a, SQLIdentifier.quoted(column)) }
        }
        var relationships: [String: Relationship] = [:]
        for r in entity.allRelationships(in: model).reversed() { relationships[r.name] = r }
        // A name declared as both (in different ancestors) resolves as `property(named:in:)` does.
        for name in Set(attributes.keys).intersection(relationships.keys) {
            if case .relationship? = entity.property(named: name, in: model) { attributes[name] = nil } else { relationships[name] = nil }
        }
        let shape = EntityShape(entity: entity.name, table: mapping.table(for: entity.name), attributes: attributes,
                                relationships: relationships)
        shapes[entity.name] = shape
        lastShape = shape
        return shape
    }

    /// INSERTs the row with its attribute values; returns the permanent ID.
    func insertRow(_ object: ManagedObject) throws -> ObjectID {
        try flushUpdates()
        let name = object.entity.name
        guard let table = mapping.table(for: name) else { throw ContextError.unknownEntity(name, suggestion: nil) }
        var columns = [SQLIdentifier.quoted(StoreMapping.entityColumn)]
        var arguments: [Value] = [.string(name)]
        if !object.objectID.isTemporary {
            // An undone saved delete: the row comes back under its old key.
            columns.append(SQLIdentifier.quoted(StoreMapping.primaryKey))
            arguments.append(.int(object.objectID.primaryKey))
        }
        for a in object.entity.allAttributes(in: model) where !a.isTransient {
            guard let column = mapping.column(for: a.name, of: name), case .attribute(let v)? = object.changes[a.name] else { continue }
            columns.append(SQLIdentifier.quoted(column))
            arguments.append(try store.storable(v, for: a, entity: name))
        }
        let sql = "INSERT INTO \(SQLIdentifier.quoted(table)) (\(columns.joined(separator: ", "))) VALUES (\(arguments.map { _ in "?" }.joined(separator: ", ")))"
        return ObjectID(entity: name, primaryKey: try store.database.insertReturningKey(sql, arguments))
    }

    /// UPDATEs the changed attributes of a saved object. True when it has
    /// other changes too (relationships: `writeRelationships` has work).
    /// An object whose claim is folded into its UPDATE (`foldedClaim(of:)`)
    /// is held there to the version read.
    func writeAttributes(_ object: ManagedObject) throws -> Bool {
        let read = foldsClaims ? context.readVersion(of: object) : nil
        // The usual object of a big save: the same entity and the same one
        // changed attribute as the object before.
        if let last = lastSingle, object.info === last.info, last.updates.checksVersions == (read != nil),
           let v = object.changes.attributeValue(ifOnly: last.key) {
            try last.updates.add(key: object.primaryKey, value: try store.storable(v, for: last.attribute, entity: last.entity), version: read ?? 0)
            return false
        }
        let shape = shape(object.info)
        if let (property, value) = object.onlyChange {
            // One changed attribute: its row joins that column's batch.
            guard let target = shape.attribute(property), case .attribute(let v) = value else { return true }
            let stored = try store.storable(v, for: target.attribute, entity: shape.entity)
            guard let updates = try columnUpdates(shape, target, checksVersions: read != nil) else { return false }
            try updates.add(key: object.primaryKey, value: stored, version: read ?? 0)
            lastSingle = SingleChange(info: object.info, key: property, attribute: target.attribute, entity: shape.entity, updates: updates)
            return false
        }
        try flushUpdates()
        columns.removeAll(keepingCapacity: true)
        arguments.removeAll(keepingCapacity: true)
        var others = false
        func add(_ property: String, _ value: PropertyValue) throws {
            guard let target = shape.attribute(property), case .attribute(let v) = value else { others = true; return }
            columns.append(target.column)
            arguments.append(try store.storable(v, for: target.attribute, entity: shape.entity))
        }
        // Sorted by name, so that one set of changed columns is one SQL text.
        for (property, value) in object.changes.sorted(by: { $0.key < $1.key }) { try add(property, value) }
        arguments.append(.int(object.objectID.primaryKey))
        // Held only when every change is a column here (as `foldedClaim(of:)` decided).
        let held = others ? nil : read
        if let held { arguments.append(.int(held)) }
        try update(shape, columns, arguments, checksVersion: held != nil)
        return others
    }

    /// Whether `object`'s claim (ContextWriter+Versions.swift) is made by
    /// its own UPDATE in this save, and the version it is held to: when
    /// claims fold (`foldsClaims`), the context read the row's version, and
    /// every change is an attribute with a column here — the object is then
    /// written by exactly one UPDATE of its row.
    func foldedClaim(of object: ManagedObject) -> Int64? {
        guard foldsClaims, let read = context.readVersion(of: object) else { return nil }
        let shape = shape(object.info)
        guard shape.table != nil else { return nil }
        if let (property, value) = object.onlyChange {
            guard shape.attribute(property) != nil, case .attribute = value else { return nil }
            return read
        }
        for (property, value) in object.changes {
            guard shape.attribute(property) != nil, case .attribute = value else { return nil }
        }
        return object.changes.isEmpty ? nil : read
    }

    /// The batch of one-column UPDATEs for `target` (nil: the entity has no
    /// table), the rows of any other batch written first.
    private func columnUpdates(_ shape: EntityShape, _ target: AttributeColumn, checksVersions: Bool) throws -> ColumnUpdates? {
        if let filling, filling.shape === shape, filling.column === target, filling.updates.checksVersions == checksVersions { return filling.updates }
        try flushUpdates()
        guard let table = shape.table else { return nil }
        let key = UpdateKey(entity: shape.entity, columns: [target.column], checksVersion: checksVersions)
        let updates = try columnUpdates[key] ?? ColumnUpdates(table: SQLIdentifier.quoted(table), column: target.column,
                                                              checksVersions: checksVersions, database: store.database)
        // Rows an earlier save left waiting when it failed are not this save's.
        if taken.insert(key).inserted { updates.discardPending() }
        columnUpdates[key] = updates
        filling = (shape, target, updates)
        return updates
    }

    /// Writes the rows still waiting in a batch: before any other statement
    /// (statements reach the database in the order the save made them), and
    /// when the save's updates are done.
    func flushUpdates() throws {
        lastSingle = nil
        guard let filling else { return }
        self.filling = nil
        try filling.updates.flush()
    }

    /// `UPDATE <table> SET <columns> = ? … WHERE "_pk" = ?`; `columns` are
    /// quoted. With `checksVersion`, also `AND "_version" = ?` (the last
    /// argument), the version raised, and a row not matched throws `FoldedClaimMissed`.
    private func update(_ shape: EntityShape, _ columns: [String], _ arguments: [Value], checksVersion: Bool) throws {
        guard !columns.isEmpty, let table = shape.table else { return }
        if let last = lastUpdate, last.key.entity == shape.entity, last.key.columns == columns, last.key.checksVersion == checksVersion {
            return try expect(last.run(arguments), checksVersion)
        }
        let key = UpdateKey(entity: shape.entity, columns: columns, checksVersion: checksVersion)
        let run: ([Value]) throws -> Int
        if let known = updates[key] {
            run = known
        } else {
            var sql = StoreMapping.updateRow(table: table, set: columns.map { "\($0) = ?" }.joined(separator: ", ")
                                                 + (checksVersion ? mapping.versionIncrementSuffix() : ""))
            if checksVersion { sql += " AND \(SQLIdentifier.quoted(StoreMapping.versionColumn)) = ?" }
            run = try store.database.preparedCountingRunner(sql)
            updates[key] = run
        }
        lastUpdate = (key, run)
        try expect(run(arguments), checksVersion)
    }

    private func expect(_ changed: Int, _ checksVersion: Bool) throws {
        if checksVersion && changed != 1 { throw FoldedClaimMissed() }
    }

    /// UPDATEs owned foreign keys; adds and removes join rows. Keys stored on
    /// the other side are written from that side (inverses are kept
    /// consistent in memory, so it has the change too).
    func writeRelationships(_ object: ManagedObject, permanentIDs: [ObjectID: ObjectID]) throws {
        try flushUpdates()
        let name = object.entity.name
        let shape = shape(object.info)
        // Most saves change attributes only: nothing to do then.
        guard object.changes.contains(where: { shape.relationships[$0.key] != nil }) else { return }
        let pk = (permanentIDs[object.objectID] ?? object.objectID).primaryKey
        // An unsaved object deleted before this save has no row: links to it are dropped.
        func key(_ id: ObjectID) -> Int64? {
            let resolved = permanentIDs[id] ?? id
            return resolved.isTemporary ? nil : resolved.primaryKey
        }
        var columns: [String] = []
        var arguments: [Value] = []
        for (property, value) in object.changes.sorted(by: { $0.key < $1.key }) {
            guard let r = shape.relationships[property] else { continue }
            switch (mapping.storage(of: r.name, of: name), value) {
            case (.foreignKey(let column)?, .toOne(let id)):
                columns.append(SQLIdentifier.quoted(column))
                arguments.append(id.flatMap(key).map { .int($0) } ?? .null)
            case (.joinTable(let table, let source, let target)?, .toMany(let ids)):
                var before: [ObjectID] = []
                if case .toMany(let saved)? = object.committed[r.name] { before = saved }
                let removed = Set(before).subtracting(ids), added = ids.filter { !before.contains($0) }
                let t = SQLIdentifier.quoted(table), s = SQLIdentifier.quoted(source), g = SQLIdentifier.quoted(target)
                for id in removed.sorted(by: { $0.primaryKey < $1.primaryKey }) {
                    guard let k = key(id) else { continue }
                    try store.database.run("DELETE FROM \(t) WHERE \(s) = ? AND \(g) = ?", [.int(pk), .int(k)])
                }
                for id in added {
                    guard let k = key(id) else { continue }
                    try store.database.run(store.database.insertIgnoring(into: t, "(\(s), \(g)) VALUES (?, ?)"), [.int(pk), .int(k)])
                }
                if r.isOrdered { try writeOrder(r, of: name, pk: pk, ids: ids, key: key) }   // ContextWriter+Ordered.swift
            case (.inverseForeignKey?, .toMany(let ids)) where r.isOrdered:
                try writeOrder(r, of: name, pk: pk, ids: ids, key: key)
            default:
                continue
            }
        }
        try update(shape, columns, arguments + [.int(pk)], checksVersion: false)
    }

    /// DELETEs the rows, then clears foreign keys and join rows that still
    /// point at them (relationships without an inverse, or not loaded).
    func deleteRows(_ objects: [ManagedObject]) throws {
        try flushUpdates()
        for object in objects {
            for sql in cleanup(object.entity) {
                try store.database.run(sql, [.int(object.objectID.primaryKey)])
            }
        }
    }

    /// The statements that delete a row of `entity` (bound to its key) and
    /// the references to it, worked out once per entity rather than per row.
    private func cleanup(_ entity: Entity) -> [String] {
        if let known = cleanups[entity.name] { return known }
        guard let table = mapping.table(for: entity.name) else { cleanups[entity.name] = []; return [] }
        var statements = [StoreMapping.deleteRow(table: table)]
        for source in model.entities {
            for r in source.relationships {
                let isSource = entity.isKind(of: source.name, in: model)
                let isTarget = entity.isKind(of: r.destination, in: model)
                switch mapping.storage(of: r.name, of: source.name) {
                case .foreignKey(let column)? where isTarget:
                    guard let sourceTable = mapping.table(for: source.name) else { continue }
                    statements.append("UPDATE \(SQLIdentifier.quoted(sourceTable)) SET \(SQLIdentifier.quoted(column)) = NULL WHERE \(SQLIdentifier.quoted(column)) = ?")
                case .joinTable(let join, let s, let t)?:
                    if isSource { statements.append("DELETE FROM \(SQLIdentifier.quoted(join)) WHERE \(SQLIdentifier.quoted(s)) = ?") }
                    if isTarget { statements.append("DELETE FROM \(SQLIdentifier.quoted(join)) WHERE \(SQLIdentifier.quoted(t)) = ?") }
                default:
                    continue
                }
            }
        }
        cleanups[entity.name] = statements
        return statements
    }
}

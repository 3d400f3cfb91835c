// Saving: pending deletes are propagated (Cascade, Nullify), every pending
// object is validated — all failures gathered, none written —, then the whole
// change set is written in ONE transaction: rows of inserted objects first
// — deletes (with the keys and join rows that pointed at the deleted rows),
// attribute updates, inserts (which turn temporary IDs into primary keys),
// then foreign keys and join-table rows. Nothing in the context changes
// until COMMIT has succeeded, so a failed save — validation or SQL — leaves
// both the file and the context's pending state as they were.
//
// Core Data applies delete rules in `processPendingChanges`, which it runs at
// the end of each event; there is no event loop here, so `save()`, fetches
// and `undo()` run it, and so can the caller. Its effects join the most
// recent undo group, so undoing a delete also undoes its cascade.
import Foundation

extension Context {
    /// Applies delete rules to new deletes and announces the changes made
    /// since the last announcement (an `.objectsDidChange` event).
    public func processPendingChanges() throws {
        try undoGroupingForPropagation {
            while !unpropagatedDeletes.isEmpty {
                let object = unpropagatedDeletes.removeFirst()
                guard object.isDeleted, object.context === self else { continue }
                try propagateDelete(object)
            }
        }
        announceChanges()
    }

    private func propagateDelete(_ object: ManagedObject) throws {
        for r in object.entity.allRelationships(in: model) where !r.isTransient {
            let related: [ObjectID]
            switch try object.current(.relationship(r)) {
            case .toOne(let id?): related = [id]
            case .toMany(let ids): related = ids
            default: related = []
            }
            switch r.deleteRule {
            case .cascade:
                for id in related {
                    let target = self.object(with: id)
                    if !target.isDeleted { markDeleted(target) }
                }
            case .nullify:
                guard let inverse = inverse(of: r) else { continue }
                for id in related {
                    let target = self.object(with: id)
                    if !target.isDeleted { try detach(target, inverse, object) }
                }
            case .deny, .noAction:
                // Deny is a validation failure at save, when the objects
                // still related are known; No Action leaves dangling inverses.
                break
            }
        }
    }

    /// Writes every unsaved change to the store in one transaction.
    ///
    /// Throws ``ValidationError`` (listing every failing object and property)
    /// before anything is written, or the store's error; either way the store
    /// and the context's pending changes are left as they were.
    public func save() throws {
        try processPendingChanges()
        guard hasChanges else { return }
        let objects = Self.inInsertionOrder(pending.values)
        let failures = try Validator(context: self).validate(objects)
        if !failures.isEmpty { throw ValidationError(failures: failures) }

        // Everything below runs inside the transaction and only computes;
        // the context is changed after COMMIT.
        var inserted: [ManagedObject] = [], updated: [ManagedObject] = [], deleted: [ManagedObject] = [], dropped: [ManagedObject] = []
        if !objects.contains(where: { $0.isInserted || $0.isDeleted }) {
            // Updates only (a bulk edit): the list itself, not a copy built
            // by appending (and retaining) each object again.
            updated = objects
        } else {
            for object in objects {
                switch (object.isInserted, object.isDeleted) {
                case (true, false): inserted.append(object)
                case (false, false): updated.append(object)
                case (false, true): deleted.append(object)
                case (true, true): dropped.append(object)
                }
            }
        }
        var permanent: [ObjectID: ObjectID] = [:]
        try store.database.inTransaction {
            // Deletes, then updates, then inserts: a UNIQUE value that this
            // save frees (by deleting or renaming a row) can be reused by a
            // new row. Relationships last, once every row has its key.
            let writer = ContextWriter(context: self)
            try writer.deleteRows(deleted)
            // Updated objects whose changes are not all attributes: only
            // they can have relationships to write.
            var linked: [ManagedObject] = []
            for object in updated where try writer.writeAttributes(object) { linked.append(object) }
            for object in inserted { permanent[object.objectID] = try writer.insertRow(object) }
            for object in inserted { try writer.writeRelationships(object, permanentIDs: permanent) }
            for object in linked { try writer.writeRelationships(object, permanentIDs: permanent) }
        }
        finishSave(inserted: inserted, updated: updated, deleted: deleted, permanent: permanent, dropped: dropped)
    }

    /// `insertionOrder` over many objects: the sort compares plain keys, not
    /// IDs (whose entity strings a comparison would retain and release).
    /// Objects edited in the order they were fetched are often in order
    /// already: that is checked first, in one pass.
    static func inInsertionOrder(_ all: [ManagedObject]) -> [ManagedObject] {
        func key(_ object: ManagedObject) -> UInt64 {
            let id = object.objectID
            return (id.isTemporary ? 1 << 63 : 0) | id.primaryKey.magnitude
        }
        var sorted = true
        var previous: UInt64 = 0
        for object in all {
            let k = key(object)
            if k < previous { sorted = false; break }
            previous = k
        }
        if sorted { return all }
        var keys: [(key: UInt64, index: Int)] = []
        keys.reserveCapacity(all.count)
        for (i, object) in all.enumerated() { keys.append((key(object), i)) }
        keys.sort { $0.key != $1.key ? $0.key < $1.key : $0.index < $1.index }
        return keys.map { all[$0.index] }
    }

    /// After COMMIT: permanent IDs, saved values, a clean context, the event.
    private func finishSave(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject],
                            permanent: [ObjectID: ObjectID], dropped: [ManagedObject]) {
        // Store-side cached rows are stale now; later store fetches read anew.
        store.registeredObjects.removeAll()
        for object in inserted + dropped + deleted { registry[object.objectID] = nil }
        func remap(_ v: PropertyValue) -> PropertyValue {
            switch v {
            case .toOne(let id?): return .toOne(permanent[id] ?? id)
            case .toMany(let ids): return .toMany(ids.compactMap { id in
                permanent[id] ?? (registry[id] == nil && id.isTemporary ? nil : id) })
            default: return v
            }
        }
        for object in inserted {
            object.objectID = permanent[object.objectID]!
            registry[object.objectID] = object
        }
        let deletedIDs = Set(deleted.map(\.objectID))
        // Only inserts (new IDs), drops and deletes change what other objects
        // refer to; a save of updates alone leaves every reference as it is.
        if !permanent.isEmpty || !deletedIDs.isEmpty || !dropped.isEmpty {
            func fixed(_ v: PropertyValue, saved: Bool) -> PropertyValue? {
                var new = remap(v)
                // Saved relationships no longer list deleted objects.
                if saved, !deletedIDs.isEmpty {
                    if case .toMany(let ids) = new { new = .toMany(ids.filter { !deletedIDs.contains($0) }) }
                    if case .toOne(let id?) = new, deletedIDs.contains(id) { new = .toOne(nil) }
                }
                return new == v ? nil : new
            }
            for object in registry.values {
                // In place, and only where something changed: most objects refer to nothing affected.
                for (key, value) in object.committed {
                    if case .attribute = value { continue }
                    if let new = fixed(value, saved: true) { object.committed[key] = new }
                }
                for (key, value) in object.changes {
                    if case .attribute = value { continue }
                    if let new = fixed(value, saved: false) { object.changes[key] = new }
                }
            }
        }
        for object in inserted {
            for (key, value) in object.changes { object.committed[key] = value }
            object.changes.removeAll()
            // An inserted object has every value in hand.
            object.rowLoaded = true
            object.isInserted = false
        }
        for object in updated {
            // It may still be a fault (only a relationship of it changed).
            if let (key, value) = object.changes.takeSingle() {
                object.committed[key] = value
                continue
            }
            for (key, value) in object.changes { object.committed[key] = value }
            object.changes.removeAll()
        }
        for object in deleted + dropped {
            object.context = nil
        }
        undoState.remap(permanent)
        pending.removeAll()
        unannounced = ContextChanges()
        _ = unannouncedUpdates.take()
        // The event's sets of IDs are built only for someone to receive them.
        guard !observers.isEmpty else { return }
        var changes = ContextChanges(deleted: deletedIDs, permanentIDs: permanent)
        changes.inserted.reserveCapacity(inserted.count)
        for object in inserted { changes.inserted.insert(object.objectID) }
        changes.updated.reserveCapacity(updated.count)
        for object in updated { changes.updated.insert(object.objectID) }
        post(.didSave(changes))
    }
}

/// The SQL of a save, statement by statement (always inside its transaction).
///
/// One writer serves one save, which may touch many objects of few shapes,
/// so what depends only on the entity — attribute columns, UPDATE statements
/// per set of changed columns, the statements that clear references to a
/// deleted row — is built once and reused. UPDATEs run through the
/// database's `preparedRunner`, kept for the whole save; the last shape and
/// the last UPDATE used are remembered, since consecutive objects of a big
/// save nearly always share them (no hashing of names per object then).
final class ContextWriter {
    let context: Context
    let store: SQLStore
    let mapping: StoreMapping
    let model: Model
    private var shapes: [String: EntityShape] = [:]
    @exclusivity(unchecked) private var lastShape: EntityShape?
    private var updates: [UpdateKey: ([Value]) throws -> Void] = [:]
    @exclusivity(unchecked) private var lastUpdate: (key: UpdateKey, run: ([Value]) throws -> Void)?
    private var cleanups: [String: [String]] = [:]
    /// Reused for every object's UPDATE, rather than two new arrays each.
    /// The single-attribute UPDATE used last, and its reused arguments.
    @exclusivity(unchecked) private var lastSingle: (shape: EntityShape, column: AttributeColumn, run: ([Value]) throws -> Void)?
    @exclusivity(unchecked) private var pair: [Value] = [.null, .null]
    @exclusivity(unchecked) private var columns: [String] = []
    @exclusivity(unchecked) private var arguments: [Value] = []

    init(context: Context) {
        self.context = context
        self.store = context.store
        self.mapping = context.store.mapping
        self.model = context.model
    }

    /// An entity's stored attributes and relationships, by name (a class,
    /// so that reading it once per object copies nothing).
    private final class EntityShape {
        let entity: String
        let table: String?
        /// Non-transient attributes with a column: the attribute and its quoted column.
        let attributes: [String: AttributeColumn]
        let relationships: [String: Relationship]
        // The attribute looked up last (a big save changes the same one
        // object after object): found again with a compare, not a hash.
        @exclusivity(unchecked) private var lastName = ""
        @exclusivity(unchecked) private var lastFound: AttributeColumn?

        init(entity: String, table: String?, attributes: [String: AttributeColumn],
             relationships: [String: Relationship]) {
            self.entity = entity
            self.table = table
            self.attributes = attributes
            self.relationships = relationships
        }

        func attribute(_ name: String) -> AttributeColumn? {
            if let lastFound, name == lastName { return lastFound }
            guard let found = attributes[name] else { return nil }
            lastName = name
            lastFound = found
            return found
        }
    }

    /// A stored attribute and its quoted column (a class: looking one up
    /// hands back a reference, not a copy of the `Attribute` struct).
    private final class AttributeColumn {
        let name: String
        let type: AttributeType
        let column: String

        init(_ attribute: Attribute, _ column: String) {
            self.name = attribute.name
            self.type = attribute.type
            self.column = column
        }
    }

    private struct UpdateKey: Hashable {
        var entity: String
        var columns: [String]
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
            arguments.append(try StoreValues.storable(v, for: a, entity: name))
        }
        let sql = "INSERT INTO \(SQLIdentifier.quoted(table)) (\(columns.joined(separator: ", "))) VALUES (\(arguments.map { _ in "?" }.joined(separator: ", ")))"
        return ObjectID(entity: name, primaryKey: try store.database.insertReturningKey(sql, arguments))
    }

    /// UPDATEs the changed attributes of a saved object. True when it has
    /// other changes too (relationships: `writeRelationships` has work).
    func writeAttributes(_ object: ManagedObject) throws -> Bool {
        let shape = shape(object.info)
        if let (property, value) = object.onlyChange {
            // The usual object of a big save: one changed attribute, the same
            // column as the object before, so the same UPDATE; its two
            // arguments are written into one reused array.
            guard let target = shape.attribute(property), case .attribute(let v) = value else { return true }
            let stored = try StoreValues.storable(v, type: target.type, key: target.name, entity: shape.entity)
            if let last = lastSingle, last.shape === shape, last.column === target {
                pair[0] = stored
                pair[1] = .int(object.objectID.primaryKey)
                try last.run(pair)
                return false
            }
            try update(shape, [target.column], [stored, .int(object.objectID.primaryKey)])
            if let last = lastUpdate, last.key.entity == shape.entity, last.key.columns == [target.column] {
                lastSingle = (shape, target, last.run)
            }
            return false
        }
        columns.removeAll(keepingCapacity: true)
        arguments.removeAll(keepingCapacity: true)
        var others = false
        func add(_ property: String, _ value: PropertyValue) throws {
            guard let target = shape.attribute(property), case .attribute(let v) = value else { others = true; return }
            columns.append(target.column)
            arguments.append(try StoreValues.storable(v, type: target.type, key: target.name, entity: shape.entity))
        }
        // Sorted by name, so that one set of changed columns is one SQL text.
        for (property, value) in object.changes.sorted(by: { $0.key < $1.key }) { try add(property, value) }
        arguments.append(.int(object.objectID.primaryKey))
        try update(shape, columns, arguments)
        return others
    }

    /// `UPDATE <table> SET <columns> = ? … WHERE "_pk" = ?`; `columns` are quoted.
    private func update(_ shape: EntityShape, _ columns: [String], _ arguments: [Value]) throws {
        guard !columns.isEmpty, let table = shape.table else { return }
        if let last = lastUpdate, last.key.entity == shape.entity, last.key.columns == columns {
            return try last.run(arguments)
        }
        let key = UpdateKey(entity: shape.entity, columns: columns)
        let run: ([Value]) throws -> Void
        if let known = updates[key] {
            run = known
        } else {
            let sql = "UPDATE \(SQLIdentifier.quoted(table)) SET \(columns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE \"_pk\" = ?"
            run = try store.database.preparedRunner(sql)
            updates[key] = run
        }
        lastUpdate = (key, run)
        try run(arguments)
    }

    /// UPDATEs owned foreign keys; adds and removes join rows. Keys stored on
    /// the other side are written from that side (inverses are kept
    /// consistent in memory, so it has the change too).
    func writeRelationships(_ object: ManagedObject, permanentIDs: [ObjectID: ObjectID]) throws {
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
            default:
                continue
            }
        }
        try update(shape, columns, arguments + [.int(pk)])
    }

    /// DELETEs the rows, then clears foreign keys and join rows that still
    /// point at them (relationships without an inverse, or not loaded).
    func deleteRows(_ objects: [ManagedObject]) throws {
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
        var statements = ["DELETE FROM \(SQLIdentifier.quoted(table)) WHERE \"_pk\" = ?"]
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

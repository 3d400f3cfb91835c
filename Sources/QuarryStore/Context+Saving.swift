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
        let objects = pending.values.sorted { Self.insertionOrder($0.objectID, $1.objectID) }
        let failures = try Validator(context: self).validate(objects)
        if !failures.isEmpty { throw ValidationError(failures: failures) }

        // Everything below runs inside the transaction and only computes;
        // the context is changed after COMMIT.
        let inserted = objects.filter { $0.isInserted && !$0.isDeleted }
        let updated = objects.filter { !$0.isInserted && !$0.isDeleted }
        let deleted = objects.filter { $0.isDeleted && !$0.isInserted }
        var permanent: [ObjectID: ObjectID] = [:]
        try store.database.inTransaction {
            // Deletes, then updates, then inserts: a UNIQUE value that this
            // save frees (by deleting or renaming a row) can be reused by a
            // new row. Relationships last, once every row has its key.
            let writer = ContextWriter(context: self)
            try writer.deleteRows(deleted)
            for object in updated { try writer.writeAttributes(object) }
            for object in inserted { permanent[object.objectID] = try writer.insertRow(object) }
            for object in inserted + updated { try writer.writeRelationships(object, permanentIDs: permanent) }
        }
        finishSave(inserted: inserted, updated: updated, deleted: deleted, permanent: permanent,
                   dropped: objects.filter { $0.isInserted && $0.isDeleted })
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
        for object in registry.values {
            object.committed = object.committed.mapValues(remap)
            object.changes = object.changes.mapValues(remap)
            // Saved relationships no longer list deleted objects.
            for (key, value) in object.committed {
                if case .toMany(let ids) = value { object.committed[key] = .toMany(ids.filter { !deletedIDs.contains($0) }) }
                if case .toOne(let id?) = value, deletedIDs.contains(id) { object.committed[key] = .toOne(nil) }
            }
        }
        for object in inserted + updated {
            for (key, value) in object.changes { object.committed[key] = value }
            object.changes = [:]
            // An updated object may still be a fault (only a relationship of it
            // changed); an inserted one has every value in hand.
            if object.isInserted { object.rowLoaded = true }
            object.isInserted = false
        }
        for object in deleted + dropped {
            object.context = nil
        }
        undoState.remap(permanent)
        pending = [:]
        unannounced = ContextChanges()
        let changes = ContextChanges(inserted: Set(inserted.map(\.objectID)), updated: Set(updated.map(\.objectID)),
                                     deleted: deletedIDs, permanentIDs: permanent)
        post(.didSave(changes))
    }
}

/// The SQL of a save, statement by statement (always inside its transaction).
struct ContextWriter {
    let context: Context
    var store: SQLStore { context.store }
    var mapping: StoreMapping { context.store.mapping }
    var model: Model { context.model }

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

    /// UPDATEs the changed attributes of a saved object.
    func writeAttributes(_ object: ManagedObject) throws {
        let name = object.entity.name
        var assignments: [String] = []
        var arguments: [Value] = []
        for (property, value) in object.changes.sorted(by: { $0.key < $1.key }) {
            guard case .attribute(let a)? = object.entity.property(named: property, in: model), !a.isTransient,
                  case .attribute(let v) = value, let column = mapping.column(for: a.name, of: name) else { continue }
            assignments.append("\(SQLIdentifier.quoted(column)) = ?")
            arguments.append(try StoreValues.storable(v, for: a, entity: name))
        }
        try update(object, assignments, arguments + [.int(object.objectID.primaryKey)])
    }

    private func update(_ object: ManagedObject, _ assignments: [String], _ arguments: [Value]) throws {
        guard !assignments.isEmpty, let table = mapping.table(for: object.entity.name) else { return }
        try store.database.run("UPDATE \(SQLIdentifier.quoted(table)) SET \(assignments.joined(separator: ", ")) WHERE \"_pk\" = ?", arguments)
    }

    /// UPDATEs owned foreign keys; adds and removes join rows. Keys stored on
    /// the other side are written from that side (inverses are kept
    /// consistent in memory, so it has the change too).
    func writeRelationships(_ object: ManagedObject, permanentIDs: [ObjectID: ObjectID]) throws {
        let name = object.entity.name
        let pk = (permanentIDs[object.objectID] ?? object.objectID).primaryKey
        // An unsaved object deleted before this save has no row: links to it are dropped.
        func key(_ id: ObjectID) -> Int64? {
            let resolved = permanentIDs[id] ?? id
            return resolved.isTemporary ? nil : resolved.primaryKey
        }
        var assignments: [String] = []
        var arguments: [Value] = []
        for (property, value) in object.changes.sorted(by: { $0.key < $1.key }) {
            guard case .relationship(let r)? = object.entity.property(named: property, in: model) else { continue }
            switch (mapping.storage(of: r.name, of: name), value) {
            case (.foreignKey(let column)?, .toOne(let id)):
                assignments.append("\(SQLIdentifier.quoted(column)) = ?")
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
        try update(object, assignments, arguments + [.int(pk)])
    }

    /// DELETEs the rows, then clears foreign keys and join rows that still
    /// point at them (relationships without an inverse, or not loaded).
    func deleteRows(_ objects: [ManagedObject]) throws {
        for object in objects {
            let name = object.entity.name
            guard let table = mapping.table(for: name) else { continue }
            let pk = Value.int(object.objectID.primaryKey)
            try store.database.run("DELETE FROM \(SQLIdentifier.quoted(table)) WHERE \"_pk\" = ?", [pk])
            for source in model.entities {
                for r in source.relationships {
                    let isSource = object.entity.isKind(of: source.name, in: model)
                    let isTarget = object.entity.isKind(of: r.destination, in: model)
                    switch mapping.storage(of: r.name, of: source.name) {
                    case .foreignKey(let column)? where isTarget:
                        guard let sourceTable = mapping.table(for: source.name) else { continue }
                        try store.database.run("UPDATE \(SQLIdentifier.quoted(sourceTable)) SET \(SQLIdentifier.quoted(column)) = NULL WHERE \(SQLIdentifier.quoted(column)) = ?", [pk])
                    case .joinTable(let join, let s, let t)?:
                        if isSource { try store.database.run("DELETE FROM \(SQLIdentifier.quoted(join)) WHERE \(SQLIdentifier.quoted(s)) = ?", [pk]) }
                        if isTarget { try store.database.run("DELETE FROM \(SQLIdentifier.quoted(join)) WHERE \(SQLIdentifier.quoted(t)) = ?", [pk]) }
                    default:
                        continue
                    }
                }
            }
        }
    }
}

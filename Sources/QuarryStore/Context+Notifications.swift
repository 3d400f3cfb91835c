// Change notifications and merging between contexts. A context tells its
// observers (closures registered with `addObserver`) two things, as Core
// Data's NSManagedObjectContextObjectsDidChange and DidSave notifications do:
// `.objectsDidChange` when `processPendingChanges()` runs (fetches, saves,
// undo and redo run it) and there were changes since the last one, and
// `.didSave` after a save commits, with the permanent IDs. Observers run
// synchronously on the context's thread, in registration order.
//
// Another context brings itself up to date with `merge(changes:)`: objects
// it holds that the save updated become faults (their unsaved edits stay on
// top), those it deleted leave it, and it announces the merge as an
// `.objectsDidChange` of its own — which is what a results controller on
// the main context listens to. `ContextChanges` is Sendable: a background
// context's observer hands it to the main thread, which calls `merge`.

/// Objects inserted, updated and deleted, by ID.
public struct ContextChanges: Sendable, Equatable {
    public var inserted: Set<ObjectID> = []
    public var updated: Set<ObjectID> = []
    public var deleted: Set<ObjectID> = []
    /// After a save: each inserted object's temporary ID → its permanent one.
    public var permanentIDs: [ObjectID: ObjectID] = [:]

    public init(inserted: Set<ObjectID> = [], updated: Set<ObjectID> = [], deleted: Set<ObjectID> = [],
                permanentIDs: [ObjectID: ObjectID] = [:]) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.permanentIDs = permanentIDs
    }

    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// What a context tells its observers.
public enum ContextEvent: Sendable, Equatable {
    /// Unsaved changes since the last event (IDs may be temporary).
    case objectsDidChange(ContextChanges)
    /// A save committed these changes (permanent IDs).
    case didSave(ContextChanges)
}

/// A registration to pass to `removeObserver`.
public struct ContextObserver: Hashable, Sendable {
    let id: Int
}

extension Context {
    /// Calls `body` with every event from now on, until `removeObserver`.
    /// The context keeps `body` until then (as NotificationCenter keeps an
    /// observer block): two contexts that observe each other must capture
    /// each other weakly, or neither is ever freed.
    ///
    /// ```swift
    /// let token = background.addObserver { [weak main] event in
    ///     if case .didSave(let changes) = event { main?.merge(changes: changes) }
    /// }
    /// ```
    @discardableResult
    public func addObserver(_ body: @escaping (ContextEvent) -> Void) -> ContextObserver {
        nextObserver += 1
        observers[nextObserver] = body
        if !unannouncedUpdates.isListing {
            let updates = unannouncedUpdates
            unannouncedUpdates.startListing(registry.values.filter { updates.contains($0) })
        }
        return ContextObserver(id: nextObserver)
    }

    public func removeObserver(_ observer: ContextObserver) {
        observers[observer.id] = nil
        if observers.isEmpty { unannouncedUpdates.stopListing() }
    }

    func post(_ event: ContextEvent) {
        for key in observers.keys.sorted() { observers[key]?(event) }
    }

    /// Posts `.objectsDidChange` for the changes not announced yet.
    func announceChanges() {
        var changes = unannounced
        unannounced = ContextChanges()
        let updated = unannouncedUpdates.take()
        // Nobody to tell: the changes are announced to no one, as an event
        // with no observer would be, without building sets of their IDs.
        guard !observers.isEmpty else { return }
        changes.updated.reserveCapacity(changes.updated.count + updated.count)
        for object in updated { changes.updated.insert(object.objectID) }
        // An object inserted and changed (or deleted) since the last event is just "inserted" (or nothing).
        changes.updated.subtract(changes.inserted)
        let insertedThenDeleted = changes.inserted.filter { registry[$0] == nil || registry[$0]?.isDeleted == true }
        changes.inserted.subtract(insertedThenDeleted)
        changes.deleted.subtract(insertedThenDeleted.filter(\.isTemporary))
        changes.updated.subtract(changes.deleted)
        if !changes.isEmpty { post(.objectsDidChange(changes)) }
    }

    /// Brings this context up to date with another context's save: updated
    /// objects it holds are refreshed (saved values reloaded on next read,
    /// unsaved edits kept on top), deleted ones leave it and vanish from the
    /// relationships of the others. Posts `.objectsDidChange`.
    public func merge(changes: ContextChanges) {
        // Rows this context cached through the store are stale too.
        store.registeredObjects.removeAll()
        var announced = ContextChanges(inserted: changes.inserted)
        for id in changes.updated {
            guard let object = registry[id] else { continue }
            refresh(object, mergeChanges: true)
            announced.updated.insert(id)
        }
        for id in changes.deleted {
            guard let object = registry[id] else { continue }
            registry[id] = nil
            pending.remove(object)
            object.context = nil
            announced.deleted.insert(id)
        }
        if !changes.deleted.isEmpty {
            for object in registry.values {
                for (key, value) in object.committed {
                    if case .toMany(let ids) = value { object.committed[key] = .toMany(ids.filter { !changes.deleted.contains($0) }) }
                    if case .toOne(let id?) = value, changes.deleted.contains(id) { object.committed[key] = .toOne(nil) }
                }
            }
        }
        if !changes.inserted.isEmpty {
            // Relationships loaded before may now miss the new objects: reload them on next read.
            for object in registry.values where !object.isInserted {
                for (key, value) in object.committed {
                    if case .toMany = value { object.committed[key] = nil }
                }
            }
        }
        // A merge that updated only objects this context does not hold still
        // posts (an empty event): a results controller judges those objects
        // from `mergingChanges`, since they may now match its request.
        mergingChanges = changes
        defer { mergingChanges = nil }
        if !announced.isEmpty || !changes.updated.isEmpty { post(.objectsDidChange(announced)) }
    }
}

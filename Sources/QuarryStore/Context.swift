// The object context: a scratch pad over a store. It hands out one managed
// object per row (uniquing: a registry by object ID), records inserts,
// updates and deletes without touching the store, and writes them all in one
// transaction on `save()`. Fetching, faulting, saving, undo and merging live
// in the `Context+…` files; this one holds the registry, the lifecycle
// operations and the primitive setters every change goes through. The
// registry holds objects strongly, but one that no one else references and
// that has no unsaved change may be evicted (Context+Eviction.swift): a
// batched fetch result does so as it drops batches.
//
// Concurrency, in Core Data's terms: a context is confined to the thread (or
// actor, or serial queue) that created it, and so are its objects. `Context`
// is deliberately not Sendable, so Swift 6 refuses to share it; object IDs
// and change sets are Sendable and are what crosses between contexts. The
// contexts of one `SQLStore` share its single connection, so they must all
// run on one thread; contexts on different threads each open their own
// `SQLStore` on the same file (WAL mode lets readers and the writer
// proceed together) and exchange `ContextChanges` through `merge(changes:)`.
import Foundation

/// A context of managed objects over a ``SQLStore``.
///
/// ```swift
/// let context = Context(store: store)
/// let sales = context.insert("Department")
/// try sales.setValue(.string("Sales"), forKey: "name")
/// try context.save()                   // validated, then one transaction
/// let rich = try context.fetch(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary > 100000")))
/// ```
public final class Context {
    public let store: SQLStore
    public var model: Model { store.model }
    /// Uniquing: the one object for each ID in this context (clean objects
    /// only the registry references may be evicted; see Context+Eviction.swift).
    var registry = ContextRegistry()
    // Exclusivity checks are off for the bookkeeping every edit and save
    // touches (see ContextObject.swift for why that is safe and worth it).
    /// Objects with unsaved changes, in the order they first changed.
    @exclusivity(unchecked) var pending = PendingObjects()
    /// Deleted objects whose delete rules have not been applied yet.
    var unpropagatedDeletes: [ManagedObject] = []
    /// What a fetch stopped part-way (a Ctrl-C) had read: kept until the
    /// next fetch or the context goes, so that the error is not held up by
    /// freeing up to a million values (Context+RowFetching.swift).
    var leftovers: [Any] = []
    /// Changes not yet announced by an `objectsDidChange` event.
    var unannounced = ContextChanges()
    /// Saved objects updated since the last announcement (kept apart from
    /// `unannounced.updated`: noted on every edit, so it must be cheap).
    @exclusivity(unchecked) var unannouncedUpdates = UnannouncedUpdates()
    var observers: [Int: (ContextEvent) -> Void] = [:]
    /// While `merge(changes:)` announces a merge: the changes merged (a
    /// results controller also judges objects this context never loaded).
    var mergingChanges: ContextChanges?
    var nextObserver = 0
    @exclusivity(unchecked) var undoState = UndoState()
    /// Row SELECT lists by entity, planned once.
    var rowSelects: [String: RowSelect] = [:]
    /// Entities with their properties resolved, by name (Context+Entities.swift).
    @exclusivity(unchecked) var entityInfos: [String: EntityInfo] = [:]
    @exclusivity(unchecked) var lastEntityInfo: EntityInfo?
    /// How many objects the registry held after the last eviction sweep.
    var evictionMark = 0
    /// The longest IN-list of keys one query binds (batches, prefetching):
    /// the database's argument limit; tests lower it to see the chunks.
    var keyChunkLimit: Int?
    /// Counts of the queries the context ran (to see faulting at work).
    public internal(set) var statistics = ContextStatistics()
    /// The last error raised while firing a fault (reads themselves never throw).
    public internal(set) var lastFaultError: Error?

    /// When true (the default), batch requests made through the context are
    /// merged into it as soon as they finish.
    public var automaticallyMergesBatchResults = true

    /// The app's validation rules, run on save with the model's (Context+ValidationHooks.swift).
    public var validationHooks = ValidationHooks()
    /// How a save resolves rows changed in the store since they were read
    /// (Context+MergePolicy.swift); `.error` by default, as in Core Data.
    public var mergePolicy: MergePolicy = .error
    /// Who made this context's saves, recorded in the store's persistent
    /// history (Core Data's `transactionAuthor`; Context+History.swift).
    public var transactionAuthor: String?
    /// The context's name, recorded in persistent history with each save.
    public var name: String?
    /// Off only to measure what the version check costs a save (tests): saves then claim no row.
    var claimsRows = true
    /// Results of fetched properties read so far (Context+FetchedProperties.swift).
    var fetchedPropertyCache = FetchedPropertyCache()
    /// What saves derive from the model once and reuse (ContextWriter.swift,
    /// Validation.swift): each save makes a new writer and validator.
    var writerShapes: [String: ContextWriter.EntityShape] = [:]
    var validationRules: [String: Validator.EntityRules] = [:]
    var columnUpdates: [ContextWriter.UpdateKey: ColumnUpdates] = [:]

    /// What the context's entity infos, and through them its objects, point at (see `ContextLink`).
    let link = ContextLink()

    /// The context a child reads through and saves into (Context+Parent.swift); nil on a store.
    public internal(set) var parent: Context?
    /// A parent's live children, told the permanent IDs its saves assign.
    var children: [ChildLink] = []
    /// Temporary IDs saved since → their permanent IDs, kept by contexts
    /// with children (and the children), so an ID held from before resolves.
    var retiredIDs: [ObjectID: ObjectID] = [:]

    public init(store: SQLStore) {
        self.store = store
        link.context = self
    }

    deinit {
        // Objects that outlive the context read `context` as nil.
        link.context = nil
    }

    // MARK: - Registry

    /// The object for `id`: the registered one, or a new fault that loads its
    /// row when first read. Never queries the store by itself.
    public func object(with id: ObjectID) -> ManagedObject {
        if let registered = registry[id] { return registered }
        if id.isTemporary, !retiredIDs.isEmpty, let saved = retiredIDs[id] { return object(with: saved) }
        let object = ManagedObject(id: id, info: entityInfo(named: id.entity), context: self)
        registry[id] = object
        return object
    }

    /// The registered object for `id`, if the context has one (no fault is made).
    public func registeredObject(for id: ObjectID) -> ManagedObject? { registry[id] }

    /// Every object the context holds.
    public var registeredObjects: [ManagedObject] { Array(registry.values) }

    // MARK: - Changes

    public var hasChanges: Bool { !pending.isEmpty }
    /// Objects inserted since the last save (deleted ones excluded, as Core Data does).
    public var insertedObjects: Set<ManagedObject> { Set(pending.values.filter { $0.isInserted && !$0.isDeleted }) }
    /// Saved objects with unsaved edits.
    public var updatedObjects: Set<ManagedObject> { Set(pending.values.filter(\.isUpdated)) }
    /// Saved objects to be deleted by the next save.
    public var deletedObjects: Set<ManagedObject> { Set(pending.values.filter { $0.isDeleted && !$0.isInserted }) }

    /// A new object of `entity`, with the model's default values, registered
    /// as inserted under a temporary ID.
    @discardableResult
    public func insert(_ entityName: String) throws -> ManagedObject {
        guard let entity = model.entity(named: entityName) else {
            throw ContextError.unknownEntity(entityName, suggestion: Suggestions.closest(to: entityName, among: model.entityNames))
        }
        guard !entity.isAbstract else {
            throw ContextError.abstractEntity(entityName, concrete: entity.concreteEntities(in: model).map(\.name))
        }
        let object = ManagedObject(id: TemporaryIDs.next(entity: entityName), info: entityInfo(named: entityName), context: self)
        for a in entity.allAttributes(in: model) {
            object.changes[a.name] = .attribute(a.defaultValue ?? .null)
        }
        groupUndo {
            object.isInserted = true
            registry[object.objectID] = object
            notePending(object)
            unannounced.inserted.insert(object.objectID)
            recordUndo(.insert(object))
        }
        return object
    }

    /// Marks `object` deleted. Its delete rules (Cascade, Nullify) are applied
    /// by `processPendingChanges()`, which `save()` and fetches call; Deny is
    /// checked by `save()`'s validation. Deleting an unsaved object simply
    /// forgets it, as Core Data does.
    public func delete(_ object: ManagedObject) throws {
        guard object.context === self else { throw ContextError.otherContext(object.objectID) }
        guard !object.isDeleted else { return }
        // Its saved values are needed if the delete is undone after a save.
        if object.isFault { try fireFault(object) }
        groupUndo { markDeleted(object) }
    }

    func markDeleted(_ object: ManagedObject) {
        object.isDeleted = true
        notePending(object)
        unpropagatedDeletes.append(object)
        if !object.isInserted { unannounced.deleted.insert(object.objectID) }
        recordUndo(.delete(object))
    }

    func notePending(_ object: ManagedObject) {
        if object.hasChanges { pending.insert(object) } else { pending.remove(object) }
    }

    /// Sets one property's current value, with no inverse maintenance: the
    /// single place every edit (and every undo of one) goes through.
    func setPrimitive(_ object: ManagedObject, _ key: String, _ value: PropertyValue) {
        setPrimitive(object, key, value, saved: object.committed[key])
    }

    /// An attribute set by `setValue(_:forKey:)`: `groupUndo { setPrimitive(…) }`.
    /// A bulk edit makes this call for each of its objects, so the usual
    /// case — the first change of a saved object, outside any undo group —
    /// is written out with the same steps and fewer copies of the values:
    /// the saved value is read once (and handed to the undo step), the new
    /// one made once, no group is opened only to be closed again.
    func setAttribute(_ object: ManagedObject, _ property: PropertyInfo, _ value: Value) {
        guard undoState.depth == 0, !undoState.replaying, object.changes.isEmpty, !object.isInserted, !object.isDeleted else {
            return groupUndo { setPrimitive(object, property, .attribute(value)) }
        }
        // As `beginUndoGrouping` does at the top level.
        if undoState.undoStack.hasOpenSteps { undoState.undoStack.dropOpen() }
        let new = PropertyValue.attribute(value)
        let saved = object.committed[property]
        let key = property.name
        // Setting the saved value back is no change (`saved` is known: the row is loaded).
        var same = false
        if let saved { same = saved == new }
        if !same {
            object.changes[key] = new
            pending.insert(object)
        }
        unannouncedUpdates.insert(object)
        // As `recordUndo` then `endUndoGrouping` do: the step is a group of its own.
        if undoState.isEnabled {
            undoState.undoStack.record(.value(object, key: key, before: saved, after: new))
            undoState.undoStack.closeOpen()
            undoState.redoStack.removeAll()
        }
    }

    /// `setPrimitive` for a resolved property (its saved value is read from its slot).
    func setPrimitive(_ object: ManagedObject, _ property: PropertyInfo, _ value: PropertyValue) {
        setPrimitive(object, property.name, value, saved: object.committed[property])
    }

    private func setPrimitive(_ object: ManagedObject, _ key: String, _ value: PropertyValue, saved: PropertyValue?) {
        // Each lookup by key costs: read each once (an edit of a clean
        // object finds `changes` empty and skips it).
        let before = object.changes.isEmpty ? saved : object.changes[key] ?? saved
        // Compared unwrapped: `saved != value` compares two optionals through
        // a tuple of them, destroyed through its type's metadata (~170
        // instructions, on every edit).
        var same = false
        if !object.isInserted, let saved { same = saved == value }
        object.changes[key] = same ? nil : value
        notePending(object)
        if !object.isInserted && !object.isDeleted { unannouncedUpdates.insert(object) }
        recordUndo(.value(object, key: key, before: before, after: value))
    }

    // MARK: - Relationships (inverses follow)

    func checkRelatable(_ object: ManagedObject, to r: Relationship) throws {
        guard object.context === self else { throw ContextError.otherContext(object.objectID) }
        guard object.entity.isKind(of: r.destination, in: model) else {
            throw ContextError.wrongEntity(key: r.name, expected: r.destination, got: object.entity.name)
        }
    }

    func inverse(of r: Relationship) -> Relationship? {
        r.inverse.flatMap { model.entity(named: r.destination)?.relationship(named: $0, in: model) }
    }

    func toOne(_ object: ManagedObject, _ r: Relationship) throws -> ObjectID? {
        if case .toOne(let id) = try object.current(.relationship(r)) { return id }
        return nil
    }

    func toMany(_ object: ManagedObject, _ r: Relationship) throws -> [ObjectID] {
        if case .toMany(let ids) = try object.current(.relationship(r)) { return ids }
        return []
    }

    /// `source.r = target` for a to-one `r`, keeping the inverse consistent:
    /// the old target loses `source`, the new one gains it, and in a
    /// one-to-one the new target's previous partner is cleared.
    func setToOne(_ source: ManagedObject, _ r: Relationship, _ target: ManagedObject?) throws {
        let old = try toOne(source, r)
        guard old != target?.objectID else { return }
        if let inverse = inverse(of: r) {
            if let old { try detach(object(with: old), inverse, source) }
            if let target { try attach(target, inverse, source, reverse: r) }
        }
        setPrimitive(source, r.name, .toOne(target?.objectID))
    }

    func addToMany(_ source: ManagedObject, _ r: Relationship, _ target: ManagedObject) throws {
        var ids = try toMany(source, r)
        guard !ids.contains(target.objectID) else { return }
        if let inverse = inverse(of: r) { try attach(target, inverse, source, reverse: r) }
        ids.append(target.objectID)
        setPrimitive(source, r.name, .toMany(ids))
    }

    func removeFromMany(_ source: ManagedObject, _ r: Relationship, _ target: ManagedObject) throws {
        var ids = try toMany(source, r)
        guard let i = ids.firstIndex(of: target.objectID) else { return }
        ids.remove(at: i)
        if let inverse = inverse(of: r) { try detach(target, inverse, source) }
        setPrimitive(source, r.name, .toMany(ids))
    }

    /// Makes `object.r` include `member` (the inverse side of an edit on `member.reverse`).
    private func attach(_ object: ManagedObject, _ r: Relationship, _ member: ManagedObject, reverse: Relationship) throws {
        if r.isToMany {
            var ids = try toMany(object, r)
            if !ids.contains(member.objectID) { ids.append(member.objectID); setPrimitive(object, r.name, .toMany(ids)) }
        } else {
            let previous = try toOne(object, r)
            guard previous != member.objectID else { return }
            // `object` leaves its previous partner (in a one-to-one, the
            // partner's to-one is cleared; otherwise it leaves a to-many).
            if let previous { try detach(self.object(with: previous), reverse, object) }
            setPrimitive(object, r.name, .toOne(member.objectID))
        }
    }

    /// Makes `object.r` no longer include `member`.
    func detach(_ object: ManagedObject, _ r: Relationship, _ member: ManagedObject) throws {
        if r.isToMany {
            var ids = try toMany(object, r)
            if let i = ids.firstIndex(of: member.objectID) { ids.remove(at: i); setPrimitive(object, r.name, .toMany(ids)) }
        } else if try toOne(object, r) == member.objectID {
            setPrimitive(object, r.name, .toOne(nil))
        }
    }

    // MARK: - Rollback and reset

    /// Discards every unsaved change: inserted objects leave the context,
    /// deleted ones come back, updated ones show their saved values again.
    /// Clears undo and redo, as Core Data's rollback does.
    public func rollback() {
        for object in pending.values {
            if object.isInserted {
                registry[object.objectID] = nil
                object.context = nil
                unannounced.deleted.insert(object.objectID)
            } else {
                unannouncedUpdates.insert(object)
            }
            object.changes.removeAll()
            object.isInserted = false
            object.isDeleted = false
        }
        pending.removeAll()
        unpropagatedDeletes = []
        undoState = UndoState()
        forgetFetchedProperties()
    }

    /// Forgets every object: each one held leaves the context (its `context`
    /// becomes nil), unsaved changes are lost, undo and redo are cleared.
    public func reset() {
        for object in registry.values { object.context = nil }
        registry.removeAll()
        evictionMark = 0
        pending.removeAll()
        unpropagatedDeletes = []
        unannounced = ContextChanges()
        _ = unannouncedUpdates.take()
        undoState = UndoState()
        forgetFetchedProperties()
    }
}

/// How many queries a context ran, by purpose.
public struct ContextStatistics: Sendable, Equatable {
    /// Fetch, count and dictionary requests sent to the store.
    public var fetches = 0
    /// Row loads that fired faults (one per batch, however many objects).
    public var faultLoads = 0
    /// Relationship loads (one per relationship of one object).
    public var relationshipLoads = 0
    /// Row loads of batched fetch results (one per IN-list chunk of a batch).
    public var batchLoads = 0
    /// Prefetch queries (one per relationship key path segment and chunk).
    public var prefetchLoads = 0

    /// Every query counted above.
    public var queries: Int { fetches + faultLoads + relationshipLoads + batchLoads + prefetchLoads }
}

/// Temporary IDs: negative, unique across contexts in the process, so that
/// an ID can never be mistaken for another object's.
enum TemporaryIDs {
    private static let counter = Counter()

    static func next(entity: String) -> ObjectID { ObjectID(entity: entity, primaryKey: -counter.next()) }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Int64 = 0
        func next() -> Int64 {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value
        }
    }
}

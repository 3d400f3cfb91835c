// A managed object: one row of the store as one context sees it — the saved
// values it has loaded (`committed`) with the context's unsaved edits on top
// (`changes`). Relationships are kept as object IDs, not object references,
// so that snapshots for undo and rollback are plain values and no reference
// cycles form between related objects; `value(forKey:)` turns IDs back into
// the context's (uniqued) objects.
//
// A fetched object may be a fault: it holds only its ID until a key is read,
// and then loads its row (and, if it came from a batched fetch, its whole
// batch) in one query. Relationships are loaded on first touch, one query
// each. Reads never throw, as `valueForKey:` does not: a fault whose row has
// gone reads as nil, and the error is kept in `context.lastFaultError`.
//
// Like Core Data's NSManagedObject, an object belongs to its context's thread.
// It conforms to `KeyValueAccessible` (which requires Sendable) only so that
// the evaluator can run predicates on it; the conformance is unchecked and
// passing an object to another thread is a programming error.

/// A property's value inside a context: an attribute value, or related objects by ID.
enum PropertyValue: Equatable {
    case attribute(Value)
    case toOne(ObjectID?)
    case toMany([ObjectID])
}

/// An object of a ``Context``.
///
/// ```swift
/// let zoe = context.insert("Employee")
/// try zoe.setValue(.string("Zoë"), forKey: "name")
/// try zoe.setValue(sales, forKey: "department")
/// try context.save()
/// zoe.objectID.isTemporary   // false
/// ```
public final class ManagedObject: KeyValueAccessible, Hashable, @unchecked Sendable, CustomStringConvertible {
    // The mutable state below is read and written on every edit, fetch and
    // save of hundreds of thousands of objects, always in short accesses
    // that call out to nothing that could touch the same property (and an
    // object is confined to its context's thread): the runtime's
    // exclusivity checks on these class properties found no conflict in
    // the test suite and cost a tenth of a bulk save, so they are off here.

    /// Temporary (negative primary key) until the object is first saved.
    /// Made from the entity's name and the key (an object of a context
    /// never changes entity): one stored string fewer to copy and free per
    /// object, and the key reads with no string at all.
    public internal(set) var objectID: ObjectID {
        get { ObjectID(entity: info.name, primaryKey: primaryKey) }
        set {
            assert(newValue.entity == info.name, "\(self) cannot become \(newValue)")
            primaryKey = newValue.primaryKey
        }
    }
    /// The row's key (of `objectID`).
    @exclusivity(unchecked) var primaryKey: Int64
    /// The entity, with its properties resolved (shared by the context's
    /// objects of the entity; see Context+Entities.swift).
    let info: EntityInfo
    public var entity: Entity { info.entity }
    /// The context the object lives in; nil after `reset()` or once its
    /// deletion is saved, or once the context is gone (through its link: see `ContextLink`).
    public internal(set) var context: Context? {
        get { isDetached ? nil : info.link.context }
        set {
            assert(newValue == nil || newValue!.link === info.link, "\(self) moved to another context")
            isDetached = newValue == nil
        }
    }
    /// Saved values loaded so far, by property name.
    @exclusivity(unchecked) var committed = SavedValues()
    /// To-one keys whose destination entity is not known yet (it has sub-entities).
    var unresolvedKeys: [String: Int64] {
        get { unresolved ?? [:] }
        set { unresolved = newValue.isEmpty ? nil : newValue }
    }
    /// Nil while empty (nearly always): nothing to make or free per object.
    @exclusivity(unchecked) private var unresolved: [String: Int64]?
    /// Unsaved values, by property name.
    @exclusivity(unchecked) var changes = ChangedValues()
    /// The batch of a batched fetch this fault loads with.
    @exclusivity(unchecked) var batch: FaultBatch?
    // The flags side by side (stored properties are laid out in the order
    // they are declared: a flag between two words pads to a word): 16
    // bytes less per object, a million of which a big fetch makes.
    /// Taken out of its context (reset, rollback, a saved delete), which
    /// may go on without it; the link is its entity info's, shared.
    @exclusivity(unchecked) private var isDetached = false
    /// Whether the row (attributes and owned to-one keys) has been loaded.
    @exclusivity(unchecked) var rowLoaded = false
    @exclusivity(unchecked) public internal(set) var isInserted = false
    @exclusivity(unchecked) public internal(set) var isDeleted = false
    /// The context's bookkeeping (`PendingObjects`, `UnannouncedUpdates`).
    @exclusivity(unchecked) var isPending = false
    /// Which pending list and which list of unannounced updates the object
    /// was last put in (PendingObjects.swift: a list is emptied by moving
    /// to a new stamp, not by visiting each object it held).
    @exclusivity(unchecked) var pendingStamp: UInt64 = 0
    @exclusivity(unchecked) var unannouncedStamp: UInt64 = 0

    init(id: ObjectID, info: EntityInfo, context: Context) {
        assert(id.entity == info.name, "an object of \(info.name) for \(id)")
        self.primaryKey = id.primaryKey
        self.info = info
        assert(info.link === context.link, "an object with another context's entity info")
    }

    /// The object for row `primaryKey` of `info`'s entity.
    init(primaryKey: Int64, info: EntityInfo, context: Context) {
        self.primaryKey = primaryKey
        self.info = info
        assert(info.link === context.link, "an object with another context's entity info")
    }

    /// Has unsaved edits and is neither inserted nor deleted.
    public var isUpdated: Bool { !isInserted && !isDeleted && !changes.isEmpty }
    /// Holds only its ID: reading any key loads the row.
    public var isFault: Bool { !rowLoaded && !isInserted && context != nil }
    /// Inserted, deleted or updated.
    public var hasChanges: Bool { isInserted || isDeleted || !changes.isEmpty }

    /// The unsaved values, as `value(forKey:)` would return them.
    public var changedValues: [String: Value] {
        var result: [String: Value] = [:]
        for (key, v) in changes { result[key] = value(of: v) }
        return result
    }

    /// The value of an attribute or relationship: a scalar, an object, or an
    /// array of objects (to-many); nil for a key the entity does not have.
    public func value(forKey key: String) -> Value? {
        value(resolved: info.property(key))
    }

    /// `value(forKey:)` for a key its caller looked up in the object's
    /// entity info already (`info.property(key)`, nil when there is none).
    func value(resolved found: PropertyInfo?) -> Value? {
        guard let found = visible(found) else { return nil }
        guard let current = try? current(found) else { return .null }
        return value(of: current)
    }

    /// The related object of a to-one relationship.
    public func object(forKey key: String) -> ManagedObject? {
        guard let p = property(key), p.kind == .toOne, case .toOne(let id?)? = try? current(p) else { return nil }
        return context?.object(with: id)
    }

    /// The related objects of a to-many relationship.
    public func objects(forKey key: String) -> [ManagedObject] {
        guard let p = property(key), p.kind == .toMany, case .toMany(let ids)? = try? current(p), let context else { return [] }
        return ids.map { context.object(with: $0) }
    }

    public subscript(key: String) -> Value? { value(forKey: key) }

    /// Sets an attribute (any value: types, bounds and patterns are checked by
    /// `save()`, as in Core Data), or clears a to-one relationship with `.null`,
    /// or sets one with `.object(ObjectReference(other))`. Unknown keys throw
    /// at once (Core Data raises NSUnknownKeyException here too).
    public func setValue(_ value: Value, forKey key: String) throws {
        let context = try liveContext()
        let p = property(key)
        switch p?.kind {
        case .attribute?:
            // Load the saved values first (Core Data fires the fault here too),
            // so that setting a value back to the saved one is no change.
            try context.refuseDerivedSet(p!.property, entity: entity.name)   // Context+Derived.swift
            if !rowLoaded && !isInserted { try context.fireFault(self) }
            context.setAttribute(self, p!, value)
        case .toOne?:
            switch value {
            case .null: try setValue(nil as ManagedObject?, forKey: key)
            case .object(let reference):
                guard let other = reference.object as? ManagedObject else { throw ContextError.notAManagedObject(key: key) }
                try setValue(other, forKey: key)
            default: throw ContextError.notAManagedObject(key: key)
            }
        case .toMany?:
            throw ContextError.toManyNeedsAddOrRemove(key: key, entity: entity.name)
        default:
            throw ContextError.unknownKey(key, entity: entity.name,
                                          suggestion: Suggestions.closest(to: key, among: entity.allProperties(in: context.model).map(\.name)))
        }
    }

    /// Sets a to-one relationship (nil clears it); the inverse follows.
    public func setValue(_ object: ManagedObject?, forKey key: String) throws {
        let context = try liveContext()
        guard let p = property(key), p.kind == .toOne, case .relationship(let r) = p.property else {
            throw ContextError.unknownKey(key, entity: entity.name, suggestion: nil)
        }
        if let object { try context.checkRelatable(object, to: r) }
        try context.groupUndo { try context.setToOne(self, r, object) }
    }

    /// Adds `object` to a to-many relationship; the inverse follows.
    public func add(_ object: ManagedObject, to key: String) throws {
        let context = try liveContext()
        guard let p = property(key), p.kind == .toMany, case .relationship(let r) = p.property else {
            throw ContextError.unknownKey(key, entity: entity.name, suggestion: nil)
        }
        try context.checkRelatable(object, to: r)
        try context.groupUndo { try context.addToMany(self, r, object) }
    }

    /// Removes `object` from a to-many relationship; the inverse follows.
    public func remove(_ object: ManagedObject, from key: String) throws {
        let context = try liveContext()
        guard let p = property(key), p.kind == .toMany, case .relationship(let r) = p.property else {
            throw ContextError.unknownKey(key, entity: entity.name, suggestion: nil)
        }
        try context.groupUndo { try context.removeFromMany(self, r, object) }
    }

    /// Identity, as for NSManagedObject: one object per row per context.
    public static func == (a: ManagedObject, b: ManagedObject) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    public var printedIdentity: String? { objectID.description }

    public var description: String {
        let state = isInserted ? "inserted" : isDeleted ? "deleted" : isFault ? "fault" : !changes.isEmpty ? "updated" : "saved"
        return "\(objectID) (\(state))"
    }

    // MARK: - Internals

    func property(_ key: String) -> PropertyInfo? {
        visible(info.property(key))
    }

    /// A property of the object's entity info, if the object can see it:
    /// own properties need no model (nor a read of the `context`);
    /// inherited ones are found only through the context's model.
    func visible(_ found: PropertyInfo?) -> PropertyInfo? {
        guard let found, found.isOwn || context != nil else { return nil }
        return found
    }

    func liveContext() throws -> Context {
        guard let context else { throw ContextError.objectNotInContext(objectID) }
        return context
    }

    /// The current value: the unsaved one, else the saved one (loaded on demand).
    func current(_ property: Property) throws -> PropertyValue {
        if !changes.isEmpty, let changed = changes[property.name] { return changed }
        return try saved(property)
    }

    /// `current` for a resolved property: the saved value comes from its slot.
    func current(_ property: PropertyInfo) throws -> PropertyValue {
        if !changes.isEmpty, let changed = changes[property.name] { return changed }
        if let known = committed[property] { return known }
        return try saved(property.property)
    }

    /// `current` for an attribute (no `Property` is built around it).
    func current(attribute a: Attribute) throws -> PropertyValue {
        if !changes.isEmpty, let changed = changes[a.name] { return changed }
        if let known = committed[a.name] { return known }
        if !rowLoaded && !isInserted, let context { try context.fireFault(self) }
        return committed[a.name] ?? .attribute(.null)
    }

    /// The saved value, loading the row or the relationship if needed.
    func saved(_ property: Property) throws -> PropertyValue {
        if let known = committed[property.name] { return known }
        switch property {
        case .attribute(let a):
            if !rowLoaded && !isInserted, let context { try context.fireFault(self) }
            if let known = committed[a.name] { return known }
            return .attribute(.null)
        case .relationship(let r):
            guard let context, !isInserted || !objectID.isTemporary else { return r.isToMany ? .toMany([]) : .toOne(nil) }
            let loaded = try context.loadRelationship(r, of: self)
            committed[r.name] = loaded
            return loaded
        case .fetchedProperty(let f):
            // Run on first access, then cached (Context+FetchedProperties.swift).
            guard let context else { return .toMany([]) }
            return .toMany(try context.fetchedPropertyIDs(f, of: self))
        }
    }

    func value(of v: PropertyValue) -> Value {
        switch v {
        case .attribute(let value): return value
        case .toOne(nil): return .null
        case .toOne(let id?):
            guard let context else { return .null }
            return .object(ObjectReference(context.object(with: id)))
        case .toMany(let ids):
            guard let context else { return .array([]) }
            return .array(ids.map { .object(ObjectReference(context.object(with: $0))) })
        }
    }
}

/// How an object finds its context: one link per context, which the
/// context clears as it goes, so every object that still points at it reads
/// nil from then on — what a weak reference from each object gave, without
/// one. A weak reference to the context moved its reference count into a
/// side table (every retain and release of the context then took the slow
/// path) and cost an atomic update of that table per object made and freed;
/// the link is held strongly by the context's entity infos, which its
/// objects hold anyway (no reference per object for it), and the context
/// itself is held by none of its objects (it is `unowned(unsafe)` here, and
/// only ever read while the context's `deinit` has not run: that clears it
/// first). An object taken out of its context marks itself detached.
final class ContextLink {
    unowned(unsafe) var context: Context?

    init() {}
}

/// The objects of one batch of a batched fetch: the first fault touched loads
/// them all, then the request's relationship key paths for them.
final class FaultBatch {
    var ids: [ObjectID]
    let prefetch: [PrefetchNode]
    init(ids: [ObjectID], prefetch: [PrefetchNode] = []) {
        self.ids = ids
        self.prefetch = prefetch
    }
}

/// Misuse of a context or its objects (validation failures are `ValidationError`).
public enum ContextError: Error, Equatable, CustomStringConvertible {
    case unknownEntity(String, suggestion: String?)
    /// An abstract entity cannot be inserted; `concrete` are the
    /// sub-entities that can (Entity+Hierarchy.swift).
    case abstractEntity(String, concrete: [String])
    case unknownKey(String, entity: String, suggestion: String?)
    case notAManagedObject(key: String)
    case toManyNeedsAddOrRemove(key: String, entity: String)
    case wrongEntity(key: String, expected: String, got: String)
    case objectNotInContext(ObjectID)
    case otherContext(ObjectID)
    case fetchError(String)
    /// A key path of `relationshipKeyPathsForPrefetching` (the `index`th)
    /// names a key that is not a relationship of `entity`.
    case invalidPrefetchKeyPath(index: Int, path: String, key: String, entity: String, reason: PrefetchKeyProblem, suggestion: String?)
    /// `fetchBatched` was given a request whose `fetchBatchSize` is not positive.
    case batchSizeRequired(Int)

    public var description: String {
        switch self {
        case .unknownEntity(let e, let s): return "unknown entity '\(e)'" + (s.map { "; did you mean '\($0)'?" } ?? "")
        case .abstractEntity(let e, let concrete): return Entity.abstractRefusal(e, concrete: concrete)
        case .unknownKey(let k, let e, let s): return "\(e) has no attribute or relationship '\(k)'" + (s.map { "; did you mean '\($0)'?" } ?? "")
        case .notAManagedObject(let k): return "'\(k)' is a relationship: its value must be a managed object or nil"
        case .toManyNeedsAddOrRemove(let k, let e): return "\(e).\(k) is to-many: use add(_:to:) and remove(_:from:)"
        case .wrongEntity(let k, let expected, let got): return "'\(k)' holds \(expected) objects, not \(got)"
        case .objectNotInContext(let id): return "\(id) is not in a context (it was reset, rolled back or its deletion saved)"
        case .otherContext(let id): return "\(id) belongs to another context; pass its objectID and use object(with:)"
        case .fetchError(let message): return message
        case .invalidPrefetchKeyPath(let index, let path, let key, let entity, let reason, let suggestion):
            let head = "relationshipKeyPathsForPrefetching[\(index)] '\(path)': "
            let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
            switch reason {
            case .unknownKey where key.isEmpty: return head + "a key path cannot have an empty key"
            case .unknownKey: return head + "\(entity) has no relationship '\(key)'" + hint
            case .notARelationship: return head + "\(entity).\(key) is not a relationship; only relationships can be prefetched" + hint
            }
        case .batchSizeRequired(let size):
            return "fetchBatched needs a request with fetchBatchSize of 1 or more (it has \(size))"
        }
    }
}

/// Why a prefetch key path is refused.
public enum PrefetchKeyProblem: Sendable, Equatable {
    /// The entity has no property of that name.
    case unknownKey
    /// The key names an attribute (or fetched property), not a relationship.
    case notARelationship
}

extension ObjectID {
    /// Temporary IDs (an unsaved object's) have negative primary keys; the
    /// store hands out only positive ones, so the two never collide.
    public var isTemporary: Bool { primaryKey < 0 }
}

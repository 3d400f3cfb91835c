// Parent/child contexts, as Core Data's `NSManagedObjectContext.parent`: a
// child made with `Context(parent:)` treats its parent's current state — the
// parent's saved rows with the parent's unsaved changes on top — as its
// store. This file holds how a child reads: a fault fills from the parent's
// object (its unsaved values included), a relationship reads the parent's
// current value, and a fetch asks the parent (which answers with its own
// pending changes applied, recursively up to the store) and then applies
// the child's own pending changes in memory, as any context does over its
// store (Context+Fetching.swift). Saving a child pushes its changes into the
// parent (Context+Parent+Saving.swift); nothing reaches the store until the
// root context saves.
//
// Object IDs: an object inserted in a child keeps its temporary ID when the
// child saves — the parent's new object has the same ID. When the root (or
// any ancestor) saves, the permanent IDs are passed down to every live
// descendant, whose objects take them as the saving context's own do; an ID
// kept from before still resolves through `object(with:)` (`retiredIDs`).
//
// A child is thread-confined like any context and must run on its parent's
// thread. What reads or writes the store directly would bypass the parent's
// unsaved state and give a wrong answer, so a child refuses it with
// `ChildContextError`: batch requests, `fetchBatched`, fetched results
// controllers. Prefetching is skipped in a child (relationships come from
// the parent's objects when read). Objects a child already holds keep the
// values it read, as in Core Data, until `refresh(_:mergeChanges:)`.
import Foundation

/// What a child context cannot do, refused rather than answered wrongly.
public struct ChildContextError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The operation refused (`batchUpdate`, `fetchBatched`, …).
    public let operation: String

    public var description: String {
        "\(operation) is not supported on a child context (made with Context(parent:)): it works on the store directly "
            + "and would miss the parent's unsaved changes; save the child into its parent and run it on the root context"
    }
}

extension ChildContextError: QuarryError {
    public var report: ErrorReport { ErrorReport(code: DiagnosticCode.invalidRequest.rawValue, message: description) }
}

/// A parent's weak hold on one of its children (children keep their parent alive, not the reverse).
final class ChildLink {
    weak var context: Context?
    init(_ context: Context) { self.context = context }
}

extension Context {
    /// A child context: it reads through `parent` (seeing its unsaved
    /// changes) and `save()` pushes its changes into `parent`, not to the
    /// store. It must be used on the parent's thread.
    ///
    /// ```swift
    /// let scratch = Context(parent: context)
    /// let draft = try scratch.insert("Department")
    /// try draft.setValue("Draft", forKey: "name")
    /// try scratch.save()      // now one of context.insertedObjects
    /// try context.save()      // written to the store
    /// ```
    public convenience init(parent: Context) {
        self.init(store: parent.store)
        self.parent = parent
        parent.children.removeAll { $0.context == nil }
        parent.children.append(ChildLink(self))
    }

    /// Throws ``ChildContextError`` when this is a child context.
    func refuseInChild(_ operation: String) throws {
        if parent != nil { throw ChildContextError(operation: operation) }
    }

    // MARK: - Reading through the parent

    /// The parent's object for `id` with its row loaded, as the parent sees
    /// it: nil when the parent has deleted it, or it no longer exists there.
    func parentObject(_ id: ObjectID) throws -> ManagedObject? {
        guard let parent else { return nil }
        // A temporary ID a root context does not hold is no object it has
        // (rolled back, say): asking for it would make a fault of a key the store never had.
        if id.isTemporary, parent.parent == nil, parent.registeredObject(for: id) == nil, parent.retiredIDs[id] == nil { return nil }
        let source = parent.object(with: id)
        if source.isFault { try parent.fireFault(source) }
        guard source.context === parent, !source.isDeleted, source.isInserted || parent.hasRow(source) else { return nil }
        return source
    }

    /// Whether a loaded object found its row (a fault whose row is gone is
    /// marked loaded with no values: every stored attribute is filled otherwise).
    func hasRow(_ object: ManagedObject) -> Bool {
        guard let a = object.entity.allAttributes(in: model).first(where: { !$0.isTransient }) else { return true }
        return object.committed[a.name] != nil
    }

    /// `fireFault` for a child: each fault of the batch takes its
    /// attributes from the parent's object (unsaved values included).
    func fireFaultFromParent(_ object: ManagedObject) throws {
        var objects = [object]
        if let batch = object.batch {
            objects = batch.ids.compactMap { registry[$0] }.filter(\.isFault)
            if !objects.contains(where: { $0 === object }) { objects.append(object) }
        }
        do {
            for fault in objects {
                guard let source = try parentObject(fault.objectID) else {
                    fault.rowLoaded = true
                    fault.batch = nil
                    lastFaultError = ContextError.fetchError("\(fault.objectID) no longer exists in the parent context")
                    continue
                }
                try copyRow(from: source, into: fault)
            }
        } catch {
            lastFaultError = error
            throw error
        }
    }

    /// The parent's current attribute values become `object`'s saved ones
    /// (what it already holds stays, as a fault fill never overwrites).
    func copyRow(from source: ManagedObject, into object: ManagedObject) throws {
        for a in object.entity.allAttributes(in: model) where object.committed[a.name] == nil {
            object.committed[a.name] = try source.current(attribute: a)
        }
        object.rowLoaded = true
        object.batch = nil
    }

    /// `loadRelationship` for a child: the parent's current value, without
    /// the objects the parent has deleted but not yet propagated.
    func relationshipFromParent(_ r: Relationship, of object: ManagedObject) throws -> PropertyValue {
        guard let parent, let source = try parentObject(object.objectID) else { return r.isToMany ? .toMany([]) : .toOne(nil) }
        let value = try source.current(.relationship(r))
        switch value {
        case .toMany(let ids):
            return .toMany(ids.filter { parent.registeredObject(for: $0)?.isDeleted != true })
        case .toOne(let id?) where parent.registeredObject(for: id)?.isDeleted == true:
            return .toOne(nil)
        default:
            return value
        }
    }

    /// A child's "store fetch": the parent's answer to `request` (its own
    /// pending changes applied), as this context's objects. Objects not
    /// held yet are filled from the parent's (no query of their own).
    func objectsFromParent(_ request: FetchRequest) throws -> [ManagedObject] {
        guard let parent else { return [] }
        var asked = request
        // The parent loads every row: the child fills from its objects.
        asked.fetchBatchSize = 0
        let found = try parent.fetch(asked, includesPendingChanges: true)
        var objects: [ManagedObject] = []
        objects.reserveCapacity(found.count)
        for source in found {
            let object = self.object(with: source.objectID)
            if object.isFault { try copyRow(from: source, into: object) }
            objects.append(object)
        }
        return objects
    }

    // MARK: - Permanent IDs

    /// After this context's save: its live children (and theirs) take the
    /// permanent IDs of the objects that were inserted.
    func passPermanentIDs(_ permanent: [ObjectID: ObjectID]) {
        children.removeAll { $0.context == nil }
        guard !children.isEmpty else { return }
        retiredIDs.merge(permanent) { $1 }
        for link in children { link.context?.adoptPermanentIDs(permanent) }
    }

    /// Objects saved into the parent under temporary IDs take their
    /// permanent ones; references to them follow (as `finishSave` does for
    /// the saving context's own objects).
    func adoptPermanentIDs(_ permanent: [ObjectID: ObjectID]) {
        retiredIDs.merge(permanent) { $1 }
        let all = Array(registry.values)
        for object in all where object.objectID.isTemporary && !object.isInserted {
            guard let id = permanent[object.objectID] else { continue }
            registry[object.objectID] = nil
            object.objectID = id
            registry[id] = object
        }
        func remapped(_ v: PropertyValue) -> PropertyValue? {
            switch v {
            case .toOne(let id?):
                guard let new = permanent[id] else { return nil }
                return .toOne(new)
            case .toMany(let ids):
                guard ids.contains(where: { permanent[$0] != nil }) else { return nil }
                return .toMany(ids.map { permanent[$0] ?? $0 })
            default:
                return nil
            }
        }
        for object in all {
            for (key, value) in object.committed { if let new = remapped(value) { object.committed[key] = new } }
            for (key, value) in object.changes { if let new = remapped(value) { object.changes[key] = new } }
        }
        undoState.remap(permanent)
        passPermanentIDs(permanent)
    }
}

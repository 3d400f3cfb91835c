// Change tracking: a context event becomes a change set, computed from the
// changed objects only. Each changed object is re-judged in memory (entity,
// deleted or not, the predicate on its current values), its old position
// is found by binary search on the sort key it was placed with, and its new
// one by binary search on its new key; sections are runs, so an object
// joins the section of a neighbour with its name, or a new section between
// them. The cost is O(k log n) comparisons plus moving array tails, for k
// changed objects out of n — not a refetch.
//
// Two cases cannot be judged from the changed objects alone, and refetch
// (then diff, with the same machinery) instead: a request with a fetch
// limit or offset (an object leaving pulls another one in), and a request
// whose predicate, sort or section key path reads a relationship when an
// object of another entity changed (Core Data ignores such changes; Quarry
// does not).
//
// How changes are reported so that index paths stay consistent (see
// FetchedResultsChange.swift for how they apply): an object in the results
// before and after is an *update* when it keeps its section and its place
// among the objects that did not change; otherwise a *move*.
import Foundation

extension FetchedResultsController {
    /// Context events arrive here (synchronously, on the context's thread).
    func receive(_ event: ContextEvent) {
        guard fetched, !fetching else { return }
        guard delegate != nil, membersBuilt else {
            // No tracking: the results stay as fetched. Remember that they
            // may be out of date, in case a delegate is set later.
            stale = true
            return
        }
        // A delegate that edits the context makes events while we handle one.
        if handling { queued.append(event); return }
        handling = true
        defer { handling = false }
        var next: ContextEvent? = event
        while let e = next {
            handle(e)
            next = queued.isEmpty ? nil : queued.removeFirst()
        }
    }

    /// Turns tracking on for a delegate set after `performFetch()`.
    func startTracking() {
        guard fetched, delegate != nil else { return }
        if stale { try? performFetch() } else if !membersBuilt { try? buildMembers() }
    }

    private func handle(_ event: ContextEvent) {
        // Only the section names are kept aside (O(sections), not O(objects)):
        // a reload after a failure deletes the old sections whole.
        let before = records.map(\.name)
        do {
            var ids: Set<ObjectID> = []
            var inserted: Set<ObjectID> = []
            var renamed: [ObjectID: ObjectID] = [:]
            var others: [ManagedObject] = []
            switch event {
            case .objectsDidChange(let c):
                ids = c.inserted.union(c.updated).union(c.deleted)
                inserted = c.inserted
                if let merged = context.mergingChanges {
                    // The announcement lists only objects this context holds;
                    // an object it never loaded may now match too.
                    ids.formUnion(merged.updated)
                    inserted.formUnion(merged.updated)
                }
            case .didSave(let c):
                // The changes were announced before the save wrote them;
                // what is new is permanent IDs, which break ties differently.
                for (old, new) in c.permanentIDs {
                    guard let object = byID.removeValue(forKey: old) else { continue }
                    byID[new] = object
                    unsaved[ObjectIdentifier(object)] = nil
                    renamed[old] = new
                    others.append(object)
                }
            }
            var explicit: [ManagedObject] = []
            var faults: [ManagedObject] = []
            var otherEntityChanged = false
            for id in ids {
                if let object = byID[id] { explicit.append(object); continue }
                guard isKind(id.entity) else { otherEntityChanged = true; continue }
                if let object = context.registeredObject(for: id) {
                    explicit.append(object)
                } else if inserted.contains(id) {
                    // Saved by another context: one query loads them all.
                    let object = context.object(with: id)
                    faults.append(object)
                    explicit.append(object)
                }
            }
            if faults.count > 1 {
                let batch = FaultBatch(ids: faults.map(\.objectID))
                for f in faults where f.isFault { f.batch = batch }
            }
            // Deleting an unsaved object that was announced is not announced again.
            for object in unsaved.values where object.isDeleted || object.context == nil { explicit.append(object) }

            var change: FetchedResultsChange
            if fetchRequest.fetchLimit != nil || fetchRequest.fetchOffset > 0 || (otherEntityChanged && readsOtherObjects) {
                change = try refetchAndDiff(explicit: explicit, others: others)
            } else {
                change = try apply(explicit: explicit, others: others) { [unowned self] in try self.belongs($0) }
            }
            change.renamed = renamed
            report(change)
        } catch {
            trackingError = error
            do {
                try performFetch()
                report(reloadChange(from: before))
            } catch {
                trackingError = error
                stale = true
                membersBuilt = false
            }
        }
        if cacheName != nil { writeCacheIfSaved() }
    }

    /// Whether the request reads other objects (through relationships).
    var readsOtherObjects: Bool {
        context.readsRelationships(fetchRequest) || (sectionNameKeyPath.map { !$0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } } ?? false)
    }

    func isKind(_ entity: String) -> Bool {
        context.model.entity(named: entity).map { Context.selects(fetchRequest, $0, in: context.model) } ?? false
    }

    /// Whether an object belongs in the results now, judged in memory.
    func belongs(_ object: ManagedObject) throws -> Bool {
        guard object.context === context, !object.isDeleted, Context.selects(fetchRequest, object.entity, in: context.model) else { return false }
        guard let predicate else { return true }
        return try predicate.evaluate(.object(ObjectReference(object)))
    }

    /// Refetches, then diffs: every object of the old or new results is a
    /// candidate; only those that entered, left or moved are reported.
    private func refetchAndDiff(explicit: [ManagedObject], others: [ManagedObject]) throws -> FetchedResultsChange {
        fetching = true
        defer { fetching = false }
        let fresh = try context.fetch(fetchRequest)
        let members = Set(fresh.map(ObjectIdentifier.init))
        return try apply(explicit: explicit, others: others + objects + fresh) { members.contains(ObjectIdentifier($0)) }
    }

    /// Every old section deleted (with its objects), every new one inserted
    /// and filled: what is reported when tracking failed and the results
    /// were refetched.
    func reloadChange(from before: [String]) -> FetchedResultsChange {
        var change = FetchedResultsChange()
        for (s, name) in before.enumerated().reversed() { change.sections.append(.init(type: .delete, name: name, index: s)) }
        for (s, section) in snapshot.sections.enumerated() {
            change.sections.append(.init(type: .insert, name: section.name, index: s))
            for (i, id) in section.objectIDs.enumerated() {
                change.objects.append(.init(type: .insert, objectID: id, from: nil, to: IndexPath(item: i, section: s)))
            }
        }
        return change
    }

    /// Tells the delegate, in Core Data's order.
    func report(_ change: FetchedResultsChange) {
        guard !change.isEmpty else { return }
        builtSections = nil
        lastChange = change
        guard let delegate else { return }
        let structural = !change.sections.isEmpty || !change.objects.isEmpty
        if structural { delegate.controllerWillChangeContent(self) }
        let current = change.sections.contains { $0.type == .insert } ? sections ?? [] : []
        for s in change.sections {
            let section = s.type == .insert && current.indices.contains(s.index) ? current[s.index]
                : FetchedResultsSection(name: s.name, indexTitle: sectionIndexTitle(forSectionName: s.name), slice: [])
            delegate.controller(self, didChange: section, atSectionIndex: s.index, for: s.type)
        }
        for o in change.objects {
            let object = byID[o.objectID] ?? context.registeredObject(for: o.objectID) ?? removedObjects[o.objectID]
            if let object { delegate.controller(self, didChange: object, at: o.from, for: o.type, newIndexPath: o.to) }
        }
        removedObjects = [:]
        delegate.controller(self, didChangeContentWith: change)
        if structural { delegate.controllerDidChangeContent(self) }
    }
}

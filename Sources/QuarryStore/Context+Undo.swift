// Undo and redo. Every change goes through three primitives — set a value,
// insert, delete — and each records a step with the value before and after,
// so a group of steps can be replayed backwards (undo) or forwards (redo)
// without recording anything new. A group is one top-level operation
// (`insert`, `delete`, `setValue`, `add`, `remove`: inverse updates join the
// group of the edit that caused them), or everything between
// `beginUndoGrouping()` and `endUndoGrouping()`. Delete propagation joins the
// most recent group, so undoing a delete also brings back its cascade.
//
// As in Core Data: `save()` keeps the undo stack (undoing a saved change makes
// the object dirty again with the old value), `rollback()` and `reset()`
// clear it, and a new change clears the redo stack. Undoing a saved insert
// deletes the object; undoing a saved delete re-inserts it under its old
// primary key (the next save writes the row back with that key; if SQLite
// has meanwhile reused that key for a new row, that save fails and rolls back).
// Known gap: the delete rules that an undone saved insert triggers are
// applied by the next `processPendingChanges()` and recorded into the
// latest undo group, not into the group that was undone.

/// One recorded change.
enum UndoStep {
    case value(ManagedObject, key: String, before: PropertyValue?, after: PropertyValue)
    case insert(ManagedObject)
    case delete(ManagedObject)
}

/// Groups of steps, kept flat: one list of steps and where each group
/// ends, rather than an array per group. A save of 500k single-edit groups
/// then costs one growing list of chunks and one array of ends, not 500k
/// small arrays to allocate and free. Steps past the last group's end form
/// the open group (being recorded).
struct UndoGroups {
    private(set) var steps = ChunkedList<UndoStep>()
    /// `ends[i]`: one past the last step of group i.
    private(set) var ends: [Int] = []

    var isEmpty: Bool { ends.isEmpty }
    /// Where the open group starts.
    var openStart: Int { ends.last ?? 0 }
    var hasOpenSteps: Bool { steps.count > openStart }

    mutating func record(_ step: consuming UndoStep) { steps.append(step) }
    /// Closes the open steps as a group of their own.
    mutating func closeOpen() { if hasOpenSteps { ends.append(steps.count) } }
    /// Adds the open steps to the last closed group (or makes them the first).
    mutating func mergeOpenIntoLast() {
        guard hasOpenSteps else { return }
        if ends.isEmpty { ends.append(steps.count) } else { ends[ends.count - 1] = steps.count }
    }
    mutating func dropOpen() { steps.truncate(to: openStart) }

    /// Adds a closed group (before any open steps).
    mutating func append(_ group: [UndoStep]) {
        guard !group.isEmpty else { return }
        let open = steps.removeSuffix(from: openStart)
        steps.append(contentsOf: group)
        ends.append(steps.count)
        steps.append(contentsOf: open)
    }

    mutating func popLast() -> [UndoStep]? {
        guard let end = ends.popLast() else { return nil }
        let start = ends.last ?? 0
        // Open steps (if any) sit after the group: set aside, then put back.
        let open = steps.removeSuffix(from: end)
        let group = steps.removeSuffix(from: start)
        steps.append(contentsOf: open)
        return group
    }

    mutating func removeAll() {
        // Every top-level edit clears the redo stack: usually it is empty.
        guard !steps.isEmpty || !ends.isEmpty else { return }
        steps.removeAll()
        ends = []
    }

    mutating func mapSteps(_ transform: (UndoStep) -> UndoStep) {
        steps.mapInPlace(transform)
    }
}

struct UndoState {
    var isEnabled = true
    /// Closed groups, then the open one's steps while `depth > 0`.
    var undoStack = UndoGroups()
    var redoStack = UndoGroups()
    var depth = 0
    /// True while undoing or redoing: the replay itself records nothing.
    var replaying = false

    /// Object IDs in recorded values follow a save's temporary → permanent mapping.
    mutating func remap(_ permanent: [ObjectID: ObjectID]) {
        guard !permanent.isEmpty else { return }
        func map(_ v: PropertyValue?) -> PropertyValue? {
            switch v {
            case .toOne(let id?)?: return .toOne(permanent[id] ?? id)
            case .toMany(let ids)?: return .toMany(ids.map { permanent[$0] ?? $0 })
            default: return v
            }
        }
        func mapStep(_ step: UndoStep) -> UndoStep {
            if case .value(let o, let k, let b, let a) = step { return .value(o, key: k, before: map(b), after: map(a)!) }
            return step
        }
        undoStack.mapSteps(mapStep)
        redoStack.mapSteps(mapStep)
    }
}

extension Context {
    /// Whether changes are recorded for undo (on by default).
    public var isUndoEnabled: Bool {
        get { undoState.isEnabled }
        set { undoState.isEnabled = newValue; if !newValue { removeAllUndoActions() } }
    }

    public var canUndo: Bool { !undoState.undoStack.isEmpty || undoState.undoStack.hasOpenSteps }
    public var canRedo: Bool { !undoState.redoStack.isEmpty }

    /// Starts a group: the changes until the matching `endUndoGrouping()` undo together.
    public func beginUndoGrouping() {
        if undoState.depth == 0 && undoState.undoStack.hasOpenSteps { undoState.undoStack.dropOpen() }
        undoState.depth += 1
    }

    public func endUndoGrouping() {
        guard undoState.depth > 0 else { return }
        undoState.depth -= 1
        if undoState.depth == 0 && undoState.undoStack.hasOpenSteps {
            undoState.undoStack.closeOpen()
            undoState.redoStack.removeAll()
        }
    }

    public func removeAllUndoActions() {
        undoState.undoStack.removeAll()
        undoState.redoStack.removeAll()
    }

    /// Runs one top-level operation as its own group (or inside the open one).
    func groupUndo<T>(_ body: () throws -> T) rethrows -> T {
        beginUndoGrouping()
        defer { endUndoGrouping() }
        return try body()
    }

    /// Delete propagation: its steps join the latest group.
    func undoGroupingForPropagation(_ body: () throws -> Void) throws {
        if undoState.depth > 0 { return try body() }
        undoState.depth = 1
        undoState.undoStack.dropOpen()
        defer {
            undoState.depth = 0
            undoState.undoStack.mergeOpenIntoLast()
        }
        try body()
    }

    func recordUndo(_ step: consuming UndoStep) {
        guard undoState.isEnabled, !undoState.replaying else { return }
        undoState.undoStack.record(step)
        if undoState.depth == 0 { undoState.undoStack.closeOpen() }
    }

    /// Reverts the latest group of changes (closing an open group first).
    public func undo() {
        while undoState.depth > 0 { endUndoGrouping() }
        try? processPendingChanges()
        guard let group = undoState.undoStack.popLast() else { return }
        replay { for step in group.reversed() { revert(step) } }
        undoState.redoStack.append(group)
    }

    /// Re-applies the latest undone group.
    public func redo() {
        guard let group = undoState.redoStack.popLast() else { return }
        replay { for step in group { apply(step) } }
        undoState.undoStack.append(group)
    }

    private func replay(_ body: () -> Void) {
        undoState.replaying = true
        body()
        undoState.replaying = false
        announceChanges()
    }

    private func revert(_ step: UndoStep) {
        switch step {
        case .value(let object, let key, let before, _):
            setCurrent(object, key, before)
        case .insert(let object):
            if object.isInserted && object.objectID.isTemporary {
                // Never saved: it leaves the context (redo brings it back).
                registry[object.objectID] = nil
                pending.remove(object)
                object.isInserted = false
                object.context = nil
                unannounced.deleted.insert(object.objectID)
            } else if !object.isDeleted {
                object.context = self
                markDeleted(object)
            }
        case .delete(let object):
            if object.context == nil {
                // The delete was saved: the object comes back as an insert of its old row.
                object.context = self
                for (key, value) in object.committed where object.changes[key] == nil { object.changes[key] = value }
                object.isInserted = true
                registry[object.objectID] = object
                unannounced.inserted.insert(object.objectID)
            }
            object.isDeleted = false
            unpropagatedDeletes.removeAll { $0 === object }
            notePending(object)
        }
    }

    private func apply(_ step: UndoStep) {
        switch step {
        case .value(let object, let key, _, let after):
            setCurrent(object, key, after)
        case .insert(let object):
            if object.isDeleted && !object.isInserted {
                object.isDeleted = false
                notePending(object)
            } else {
                object.context = self
                object.isInserted = true
                registry[object.objectID] = object
                notePending(object)
                unannounced.inserted.insert(object.objectID)
            }
        case .delete(let object):
            if object.context === self && !object.isDeleted { markDeleted(object) }
            unpropagatedDeletes.removeAll { $0 === object }
        }
    }

    /// Sets the current value without recording: `nil` means "the saved value".
    private func setCurrent(_ object: ManagedObject, _ key: String, _ value: PropertyValue?) {
        if let value, object.isInserted || object.committed[key] != value {
            object.changes[key] = value
        } else {
            object.changes[key] = nil
        }
        notePending(object)
        if !object.isInserted { unannouncedUpdates.insert(object) }
    }
}

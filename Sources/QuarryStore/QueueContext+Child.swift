// Child contexts of a queue context — Core Data's scratch-pad contexts
// (`parent`): edits made in a child reach the parent only when the child
// saves, and the store only when the parent saves; a child thrown away
// takes its edits with it; a child's fetches see the parent's unsaved
// changes (Context+Parent.swift does all of that for plain contexts).
//
// A child reads its parent's objects whenever it faults or fetches, and
// pushes into them when it saves, so it must never run while its parent
// does. Core Data lets the child have a queue of its own and hops to the
// parent's for each such step; here the child runs on its parent's queue
// instead — its `perform`s are serialised with the parent's, which is
// always correct and costs only the parallelism the two would otherwise
// have (the parent's store has one connection either way). It is not
// adopted by the parent's StoreContainer: its saves are not the store's,
// so no other context may merge them.
import Dispatch

extension QueueContext {
    /// A new child of this context, on this context's queue: it sees this
    /// context's unsaved changes, and its `save()` pushes into this context.
    ///
    /// ```swift
    /// let scratch = background.newChildContext(name: "editor")
    /// try await scratch.perform { child in
    ///     let draft = try child.insert("Department")
    ///     try draft.setValue("Draft", forKey: "name")
    ///     try child.save()           // into the parent, not the store
    /// }
    /// try await background.perform { try $0.save() }   // now in the store
    /// ```
    public func newChildContext(name: String? = nil) -> QueueContext {
        // The child registers with its parent: done on the parent's queue.
        performAndWait { parent in
            QueueContext(context: Context(parent: parent), name: name ?? self.name.map { $0 + ".child" }, queue: queue)
        }
    }
}

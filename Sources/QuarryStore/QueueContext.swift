// A context on a serial queue of its own — Core Data's private-queue (and
// main-queue) context — for code on Swift concurrency and threads. A plain
// `Context` is confined to whoever made it; a `QueueContext` owns one and
// lets any task or thread reach it only through `perform` (async: the work
// is queued, the caller suspends, the closure's value or error comes back)
// or `performAndWait` (blocks; runs inline when already on the queue, so it
// nests as Core Data's does).
//
// What crosses: the closures are @Sendable (they cannot capture a caller's
// context or objects by accident unless those claim Sendable) and a
// `perform` returns only Sendable values — object IDs, values, change sets,
// dictionaries — never the context. A limit to know: `ManagedObject`
// itself claims Sendable (it can sit inside a `Value`, which is Sendable),
// so the compiler does not stop an object being returned from `perform`;
// using it outside the closure is a data race. Return its `objectID`.
//
// Each queue context has its store, and so its database connection, to
// itself: on SQLite (WAL) the contexts read at once and write one at a
// time (each waits for the write lock up to its busy timeout); on
// PostgreSQL each holds one session. A `StoreContainer` hands them out and
// carries each save's changes to the others.
import Dispatch
import Foundation
import Synchronization

/// A ``Context`` reached only through its own serial queue.
///
/// ```swift
/// let background = try container.newBackgroundContext()
/// let id = try await background.perform { context in
///     let sales = try context.insert("Department")
///     try sales.setValue("Sales", forKey: "name")
///     try context.save()
///     return sales.objectID
/// }
/// ```
public final class QueueContext: @unchecked Sendable {
    // @unchecked: `context` — and through it the store, its connection and
    // every object it registers — and `historyMark` are touched only by work
    // running on `queue`; the two flags are guarded by `lock`; the rest
    // never changes.
    public let queue: DispatchQueue
    public let name: String?
    private let context: Context
    /// Set on `queue` to this context's identity: how `performAndWait`
    /// knows it is already running there (several contexts may share a
    /// queue, the main one).
    private let onQueue = DispatchSpecificKey<ObjectIdentifier>()
    private let lock = NSLock()
    /// Atomic rather than under `lock`: the container reads it for every
    /// context after every save of any of them (StoreContainer.deliver).
    private let mergesChanges = Atomic<Bool>(false)
    private var mergesHistory = false
    /// The last history transaction merged into the context (touched on
    /// `queue` only; StoreContainer+History.swift).
    var historyMark: HistoryToken?

    /// A context over `store` on `queue` (a new serial queue when nil). The
    /// store is handed over: nothing else may use it from now on.
    public convenience init(store: sending SQLStore, name: String? = nil, queue: DispatchQueue? = nil) {
        self.init(context: Context(store: store), name: name, queue: queue)
    }

    /// Over `context`, made for it and used by nothing else (a child's:
    /// QueueContext+Child.swift).
    init(context: Context, name: String?, queue: DispatchQueue?) {
        self.name = name
        self.queue = queue ?? DispatchQueue(label: "quarry.context" + (name.map { ".\($0)" } ?? ""))
        self.context = context
        context.name = name
        self.queue.setSpecific(key: onQueue, value: ObjectIdentifier(self))
    }

    deinit {
        queue.setSpecific(key: onQueue, value: nil)
    }

    /// Whether saves of the other contexts of its ``StoreContainer`` are
    /// merged into this one as they commit (Core Data's
    /// `automaticallyMergesChangesFromParent`): objects they updated become
    /// faults that read the saved values, deleted ones leave it. Off by
    /// default, as in Core Data.
    public var automaticallyMergesChanges: Bool {
        get { mergesChanges.load(ordering: .acquiring) }
        set { mergesChanges.store(newValue, ordering: .releasing) }
    }

    /// Whether each `perform` and `performAndWait` (not nested in another)
    /// first merges the store's history transactions the context has not
    /// merged yet — how a context on SQLite, which has no notifications,
    /// sees other processes' saves when it next reads. Costs a query of the
    /// history table each time; needs history tracking on in the store.
    public var mergesHistoryBeforeEachPerform: Bool {
        get { lock.withLock { mergesHistory } }
        set { lock.withLock { mergesHistory = newValue } }
    }

    /// Whether the caller is running on this context's queue. For a context
    /// on the main queue, code on the main thread outside any queued block
    /// (a program's top level) counts too; the converse does not hold: once
    /// a program calls `dispatchMain()`, Linux drains the main queue on
    /// another thread, so the thread is not the test.
    public var isOnQueue: Bool {
        DispatchQueue.getSpecific(key: onQueue) == ObjectIdentifier(self)
            || (queue === DispatchQueue.main && Thread.isMainThread)
    }

    /// Runs `body` on the context directly, from whatever thread: only while
    /// the queue context is not yet shared (a container sets it up so).
    func configureBeforeSharing(_ body: (Context) -> Void) { body(context) }

    /// Runs `body` on the context's queue after the work queued before it,
    /// and returns what it returns (or throws what it throws). The caller
    /// suspends meanwhile; it does not block a thread.
    public func perform<T: Sendable, Failure: Error>(
        _ body: @escaping @Sendable (Context) throws(Failure) -> T
    ) async throws(Failure) -> T {
        let result: Result<T, Failure> = await withCheckedContinuation { continuation in
            queue.async {
                self.catchUpIfAsked()
                continuation.resume(returning: Result { () throws(Failure) -> T in try body(self.context) })
            }
        }
        return try result.get()
    }

    /// Runs `body` on the context's queue and waits for it: inline when the
    /// caller is already on the queue (a `performAndWait` inside a `perform`
    /// or another `performAndWait` nests instead of deadlocking).
    public func performAndWait<T>(_ body: (Context) throws -> T) rethrows -> T {
        if isOnQueue { return try body(context) }
        return try queue.sync {
            catchUpIfAsked()
            return try body(context)
        }
    }

    /// On the queue, before a perform's work: the history merge, when asked for.
    private func catchUpIfAsked() {
        if mergesHistoryBeforeEachPerform { mergeNewHistory() }
    }

    /// Queues `body` and returns at once (Core Data's `perform(_:)`); what
    /// it throws is lost, so it takes none.
    public func enqueue(_ body: @escaping @Sendable (Context) -> Void) {
        queue.async { body(self.context) }
    }
}

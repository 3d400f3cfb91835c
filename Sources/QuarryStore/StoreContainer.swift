// The container of a store's queue contexts — Core Data's
// NSPersistentContainer: one database, a view context on the main queue for
// what a user sees, and background contexts made on demand for imports and
// other writes, each on its own serial queue with its own connection.
//
// It also carries changes between them. Every context it made tells it of
// each save (the context's `.didSave` event, with permanent IDs); the
// container hands those changes to every other live context that has
// `automaticallyMergesChanges` on, on that context's own queue, where
// `merge(changes:)` turns the objects the save updated into faults that
// read the saved values next time and drops the deleted ones. A context
// that is not merging keeps what it read until it refetches or refreshes —
// as Core Data's do. Saves by anyone else (another process, a store opened
// outside the container) are not seen this way: they arrive through
// persistent history (StoreContainer+History.swift: LISTEN/NOTIFY on
// PostgreSQL, a read before each perform or `mergeHistory()` on SQLite).
import Dispatch
import Foundation

/// One database and the queue contexts over it.
///
/// ```swift
/// let container = try StoreContainer(path: "company.sqlite", model: model)
/// container.viewContext.automaticallyMergesChanges = true
/// try await container.performBackgroundTask { context in
///     let zoe = try context.insert("Employee")
///     try zoe.setValue("Zoë", forKey: "name")
///     try context.save()                     // the view context hears of it
/// }
/// ```
public final class StoreContainer: @unchecked Sendable {
    // @unchecked: `contexts` and `made` are guarded by `lock`; the rest never changes.
    public let model: Model
    /// The context for what a user sees, on the main queue (or the queue given).
    public let viewContext: QueueContext
    private let open: @Sendable () throws -> SQLStore
    private let lock = NSLock()
    private var contexts: [WeakQueueContext] = []
    private var made = 0

    /// A container over the SQLite file at `path`, made (or migrated, as
    /// `migration` says) here, once, before any context opens it.
    /// `busyTimeout`: how long a context's save waits for another's write
    /// lock before failing.
    public convenience init(path: String, model: Model, migration: MigrationPolicy = .none,
                            busyTimeout: Double = 30, viewQueue: DispatchQueue = .main) throws {
        // Each context has a connection of its own: an in-memory database
        // would be a different, empty one for each.
        guard path != ":memory:", !path.isEmpty else { throw ContainerError.privateDatabase(path: path) }
        let first = try SQLStore(path: path, model: model, migration: migration)
        first.database.close()
        try self.init(model: model, viewQueue: viewQueue) { try SQLStore(path: path, model: model, busyTimeout: busyTimeout) }
    }

    /// A container whose contexts each get a store from `open` — a new
    /// connection to one database every call (PostgreSQL:
    /// `SQLStore(postgres: PostgresDatabase(url:options:), model:)`).
    public init(model: Model, viewQueue: DispatchQueue = .main, opening open: @escaping @Sendable () throws -> SQLStore) throws {
        self.model = model
        self.open = open
        viewContext = QueueContext(store: try open(), name: "view", queue: viewQueue)
        adopt(viewContext)
    }

    /// A new context on a serial queue of its own, over a new connection.
    public func newBackgroundContext(name: String? = nil) throws -> QueueContext {
        let number = lock.withLock { made += 1; return made }
        let context = QueueContext(store: try open(), name: name ?? "background-\(number)")
        adopt(context)
        return context
    }

    /// Runs `body` on a new background context, which goes when it returns.
    public func performBackgroundTask<T: Sendable>(_ body: @escaping @Sendable (Context) throws -> T) async throws -> T {
        try await newBackgroundContext().perform(body)
    }

    /// The live contexts the container made (the view context first).
    public var liveContexts: [QueueContext] {
        lock.withLock {
            contexts.removeAll { $0.context == nil }
            return contexts.compactMap(\.context)
        }
    }

    /// Listens to `context`'s saves, to hand them to the others.
    private func adopt(_ context: QueueContext) {
        // Not through the queue: the context is not shared yet, and the
        // view context's queue (the main one) may not be running.
        context.configureBeforeSharing { inner in
            context.markHistory(inner)
            _ = inner.addObserver { [weak self, weak context] event in
                guard case .didSave(let changes) = event, let self, let context else { return }
                self.deliver(changes, savedBy: context)
            }
        }
        lock.withLock { contexts.append(WeakQueueContext(context)) }
    }

    /// Queues the merge of `changes` on each other context that merges.
    /// This runs after every save of every context, under the container's
    /// lock: the flag is read without a lock (QueueContext's is atomic), and
    /// the list is pruned of dropped contexts only when one is found.
    private func deliver(_ changes: ContextChanges, savedBy saver: QueueContext) {
        let merging: [QueueContext] = lock.withLock {
            var merging: [QueueContext] = [], dropped = false
            for weak in contexts {
                guard let other = weak.context else { dropped = true; continue }
                if other !== saver, other.automaticallyMergesChanges { merging.append(other) }
            }
            if dropped { contexts.removeAll { $0.context == nil } }
            return merging
        }
        for other in merging { other.enqueue { $0.merge(changes: changes) } }
    }
}

/// What a container refuses.
public enum ContainerError: Error, Equatable, CustomStringConvertible {
    /// A database only one connection can see (SQLite's `:memory:`): each
    /// context would have a different, empty one.
    case privateDatabase(path: String)

    public var description: String {
        switch self {
        case .privateDatabase(let path):
            return "a container's contexts each open their own connection, so they cannot share the database '\(path)' (SQLite's in-memory databases are one per connection); give a file path"
        }
    }
}

extension ContainerError: QuarryError {
    public var report: ErrorReport { ErrorReport(code: "R002", message: description) }
}

/// A container's reference to a context it made: the context goes when its
/// user drops it. A class: copying a struct holding a weak reference copies
/// the weak reference (a side-table update), and the list is read after
/// every save.
private final class WeakQueueContext {
    weak var context: QueueContext?
    init(_ context: QueueContext) { self.context = context }
}

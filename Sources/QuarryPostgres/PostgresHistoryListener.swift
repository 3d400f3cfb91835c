// LISTEN/NOTIFY for persistent history: a PostgreSQL store that records
// history sends "schema token" on the `quarry_history` channel in each
// transaction that writes history (HistoryRecorder.swift; the server
// delivers it at COMMIT, never for a rollback). A listener holds a
// connection of its own, hears every such notification for its schema, and
// calls back with the token — on one of NIO's event-loop threads, so the
// callback must only hand work on (StoreContainer's `mergeHistory()` queues
// a merge on each context's queue and returns).
//
// Notifications from other schemas on the same database (another app, or a
// test's neighbour) arrive on the same channel and are ignored here.
import Foundation
import NIOCore
import PostgresNIO
import QuarryStore

/// Hears the history transactions other sessions commit in one schema.
///
/// ```swift
/// let listener = try container.listenForHistory(url: url)   // contexts that merge changes catch up
/// defer { listener.stop() }
/// ```
public final class PostgresHistoryListener: @unchecked Sendable {
    // @unchecked: `database` is used by init and `stop` only, `stopped`
    // under `lock`; postgres-nio runs the handler on its event loop.
    private let database: PostgresDatabase
    private let listening: PostgresListenContext
    private let lock = NSLock()
    private var stopped = false
    /// The schema whose transactions it hears (its connection's `current_schema()`).
    public let schema: String

    /// Connects (the URL's schema, or `options.schema`) and listens;
    /// `onTransaction` gets each committed transaction's token.
    public init(url: PostgresURL, options: PostgresDatabase.Options = .init(),
                onTransaction: @escaping @Sendable (HistoryToken) -> Void) throws {
        database = try PostgresDatabase(url: url, options: options)
        let schema = database.schema
        self.schema = schema
        listening = database.connection.addListener(channel: HistoryNotification.channel) { _, notification in
            guard let heard = HistoryNotification.parse(notification.payload), heard.schema == schema else { return }
            onTransaction(heard.token)
        }
        // postgres-nio sends LISTEN itself when the first listener is
        // added; saying it again is harmless and makes sure it ran before
        // init returns (a save right after is heard).
        try database.run("LISTEN \(PostgresIdentifier.quoted(HistoryNotification.channel))", [])
    }

    /// Stops listening and closes the connection.
    public func stop() {
        // The listen context's promise may be completed only once.
        guard lock.withLock({ () -> Bool in defer { stopped = true }; return !stopped }) else { return }
        listening.stop()
        database.close()
    }

    deinit { stop() }
}

extension StoreContainer {
    /// A listener whose every heard transaction makes the container's
    /// merging contexts catch up with the history (`mergeHistory()`). The
    /// store must record history (`SQLStore.setHistoryTracking(true)`).
    public func listenForHistory(url: PostgresURL, options: PostgresDatabase.Options = .init()) throws -> PostgresHistoryListener {
        try PostgresHistoryListener(url: url, options: options) { [weak self] _ in self?.mergeHistory() }
    }
}

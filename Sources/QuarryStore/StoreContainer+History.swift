// Changes made outside a container — by another process, or another
// container on the same database — reach its contexts through persistent
// history (Context+History.swift). `mergeHistory()` has each context that
// merges changes read the transactions after the last one it merged and
// merge them, on its own queue. Who calls it: PostgreSQL's
// `PostgresHistoryListener` (QuarryPostgres), when another session's
// transaction commits (LISTEN/NOTIFY); on SQLite, which has no such
// signal, the app (after a timer, or before showing data) — or each
// perform, for a context with `mergesHistoryBeforeEachPerform` on.
//
// A context's own saves and those of its container's other contexts come
// back this way too (they are in the history); merging them again only
// refreshes objects that already hold those values.

extension StoreContainer {
    /// Queues, on each context that merges changes, a merge of the history
    /// transactions it has not merged yet. Needs history tracking on in the
    /// store (`SQLStore.setHistoryTracking(true)`); without it there is
    /// nothing to read, and nothing happens.
    public func mergeHistory() {
        for context in liveContexts where context.automaticallyMergesChanges {
            context.enqueue { _ in context.mergeNewHistory() }
        }
    }
}

extension QueueContext {
    /// On the queue: merges the history after `historyMark`, and moves the
    /// mark. Best effort, like the merge of a save: when the history cannot
    /// be read (tracking off, a lost connection) the context keeps what it
    /// holds, the mark stays, and the next call reads from there again.
    func mergeNewHistory() {
        performAndWait { context in
            guard let transactions = try? context.store.history(after: historyMark), let last = transactions.last else { return }
            context.merge(history: transactions)
            historyMark = last.token
        }
    }

    /// Where history reading starts: the store's last transaction now (run
    /// when a container adopts the context, before it is shared).
    func markHistory(_ context: Context) {
        historyMark = try? context.store.lastHistoryToken()
    }
}

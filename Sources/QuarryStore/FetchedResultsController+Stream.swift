// A controller's change sets as an asynchronous sequence, for code that
// reads with `for await` rather than implementing a delegate: iOS 13's
// snapshot callback, as an AsyncStream. `changeSets()` makes the controller
// track changes (it installs a delegate of its own, replacing any other)
// and hands each change set to the stream as the controller's context
// reports it. The values are Sendable (`FetchedResultsChange`: object IDs
// and index paths), so the reader may be any task; the controller itself
// stays on its context's queue or thread.
//
// The stream buffers every change set until read, and ends when the
// controller goes, when another delegate (or another `changeSets()`)
// replaces it, or when the reader stops.

/// The delegate behind `changeSets()`.
final class FetchedResultsChangeStream: FetchedResultsDelegate {
    let continuation: AsyncStream<FetchedResultsChange>.Continuation

    init(_ continuation: AsyncStream<FetchedResultsChange>.Continuation) { self.continuation = continuation }

    func controller(_ controller: FetchedResultsController, didChangeContentWith change: FetchedResultsChange) {
        continuation.yield(change)
    }

    deinit { continuation.finish() }
}

extension FetchedResultsController {
    /// Every change set from now on, as an asynchronous sequence.
    ///
    /// ```swift
    /// let changes = controller.changeSets()
    /// try controller.performFetch()
    /// Task { for await change in changes { print(change.json) } }
    /// ```
    public func changeSets() -> AsyncStream<FetchedResultsChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: FetchedResultsChange.self)
        let streamer = FetchedResultsChangeStream(continuation)
        // The delegate is weak: the controller keeps its own streamer.
        changeStream = streamer
        delegate = streamer
        return stream
    }
}

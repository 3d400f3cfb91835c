// A batched fetch on a queue context as an asynchronous sequence: each
// step runs on the context's queue, loads the next batch of the request
// (`fetchBatched`: IDs first, then one query per batch) and hands back what
// `transform` makes of the batch's objects — Sendable values, since objects
// stay on the queue. Pull-based: a batch is loaded only when the reader asks
// for it, so a slow reader does not make the context load the whole result,
// and the memory rule of batched fetches holds (at most a few batches of
// objects alive).
//
// The IDs are a snapshot taken at the first step, as for `fetchBatched`.

extension QueueContext {
    /// The request's objects, a batch of `request.fetchBatchSize` at a time
    /// (the whole result when it is 0), each batch turned into `T` on the
    /// context's queue.
    ///
    /// ```swift
    /// var request = FetchRequest(entity: "Employee", sortDescriptors: [QuerySortDescriptor("name")])
    /// request.fetchBatchSize = 500
    /// for try await names in background.batches(of: request, { $0.map { $0["name"] } }) { print(names.count) }
    /// ```
    public func batches<T: Sendable>(of request: FetchRequest,
                                     _ transform: @escaping @Sendable ([ManagedObject]) throws -> T) -> QueueContextBatches<T> {
        QueueContextBatches(context: self, request: request, transform: transform)
    }
}

/// The batches of a request on a queue context (``QueueContext/batches(of:_:)``).
public struct QueueContextBatches<T: Sendable>: AsyncSequence, Sendable {
    public typealias Element = T
    let context: QueueContext
    let request: FetchRequest
    let transform: @Sendable ([ManagedObject]) throws -> T

    public func makeAsyncIterator() -> Iterator {
        Iterator(context: context, cursor: BatchCursor(request: request, transform: transform))
    }

    public struct Iterator: AsyncIteratorProtocol {
        let context: QueueContext
        let cursor: BatchCursor<T>

        public mutating func next() async throws -> T? {
            let cursor = self.cursor
            return try await context.perform { try cursor.step($0) }
        }
    }
}

/// Where a batch sequence stands; used only on its context's queue.
final class BatchCursor<T: Sendable>: @unchecked Sendable {
    // @unchecked: every member is read and written inside `perform` on one
    // context's queue, one step at a time.
    private let request: FetchRequest
    private let transform: @Sendable ([ManagedObject]) throws -> T
    private var result: BatchedFetchResult?
    private var next = 0
    private var finished = false

    init(request: FetchRequest, transform: @escaping @Sendable ([ManagedObject]) throws -> T) {
        self.request = request
        self.transform = transform
    }

    /// The next batch, transformed; nil after the last.
    func step(_ context: Context) throws -> T? {
        if finished { return nil }
        if result == nil {
            var request = self.request
            // A batch size of 0 (Core Data's "no batching") is one batch of everything.
            if request.fetchBatchSize <= 0 { request.fetchBatchSize = max(1, try context.count(request)) }
            result = try context.fetchBatched(request)
        }
        guard let result, next < result.batchCount else {
            // Done: the result (and its last batch of objects) goes.
            self.result = nil
            finished = true
            return nil
        }
        defer { next += 1 }
        return try transform(try result.batch(at: next))
    }
}

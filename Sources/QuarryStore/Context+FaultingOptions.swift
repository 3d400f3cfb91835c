// `returnsObjectsAsFaults` (Core Data's flag; true by default) for a
// context's fetch. What faulting exists in Quarry (Context+Faulting.swift):
// - a fetch without `fetchBatchSize` reads every row it selects and fills
//   the objects at once. Core Data returns faults there but keeps the rows
//   in its row cache, so reading a value costs no query in either; the flag
//   changes nothing here (objects report `isFault == false`).
// - a fetch with `fetchBatchSize > 0` selects only the IDs and returns
//   faults, each batch loaded by one query when one of its objects is first
//   read. With `returnsObjectsAsFaults = false` the first batch is loaded
//   by the fetch itself, so its objects are realized and reading them runs
//   no further query; later batches still load on first touch — as Core
//   Data, which realizes the first batch and leaves the rest lazy.
// Relationships stay faults either way (loaded on first touch or through
// `relationshipKeyPathsForPrefetching`), as in Core Data.

extension Context {
    /// Loads the first batch of a batched fetch's faults when the request
    /// asks for realized objects.
    func realizeFirstBatch(of objects: [ManagedObject], _ request: FetchRequest) throws {
        guard !request.returnsObjectsAsFaults, let first = objects.prefix(request.fetchBatchSize).first(where: \.isFault) else { return }
        try fireFault(first)
    }
}

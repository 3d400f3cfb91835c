// The asynchronous sequences: a fetched-results controller's change sets
// (`changeSets()`), each the same value the delegate gets and each taking
// the snapshot before it to the one after; and a queue context's batched
// fetch (`batches(of:_:)`), which loads a batch only when the reader asks
// and gives every object once, in order, on SQLite and PostgreSQL.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Asynchronous sequences: change sets and batches")
struct AsyncSequenceTests {
    @Test func changeSetsArriveInOrderAndTakeTheFirstSnapshotToTheLast() async throws {
        let (store, ids) = try peopleStore([("Ann", 30, "Sales"), ("Bob", 41, "R&D")])
        let context = Context(store: store)
        let controller = FetchedResultsController(fetchRequest: try employees(sortedBy: ["department.name", "name"]), context: context,
                                                  sectionNameKeyPath: "department.name", cacheName: nil)
        let stream = controller.changeSets()
        try controller.performFetch()
        let first = controller.snapshot
        // An insert, an edit that moves a row, a delete that empties a section.
        let cy = try context.insert("Employee")
        try cy.setValue("Cy", forKey: "name")
        try cy.setValue(context.object(with: ids["Sales"]!), forKey: "department")
        try context.save()
        try context.object(with: ids["Ann"]!).setValue("Zed", forKey: "name")
        try context.save()
        try context.delete(context.object(with: ids["Bob"]!))
        try context.save()
        let final = controller.snapshot
        let last = controller.lastChange
        // Unsetting the delegate ends the stream after what it holds.
        controller.delegate = nil
        var received: [FetchedResultsChange] = []
        for await change in stream { received.append(change) }
        // At least one per save (a save also reports its new objects' permanent IDs).
        #expect(received.count >= 3)
        #expect(received.reduce(first) { $1.applied(to: $0) } == final)
        #expect(received.last == last)
        #expect(final.sections.map(\.name) == ["Sales"])
    }

    @Test func anotherDelegateEndsTheStream() async throws {
        let (store, _) = try peopleStore([("Ann", 30, "Sales")])
        let controller = FetchedResultsController(fetchRequest: try employees(sortedBy: ["name"]), context: Context(store: store),
                                                  sectionNameKeyPath: nil, cacheName: nil)
        let stream = controller.changeSets()
        let other = RecordingDelegate()
        controller.delegate = other
        var count = 0
        for await _ in stream { count += 1 }
        #expect(count == 0)   // reached only because the stream finished
        #expect(controller.delegate === other)
    }

    @Test(arguments: TestEngine.available)
    func batchesComeOnePerStepInOrder(engine: TestEngine) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-batches-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = QueueContextTests.model
        let store = engine == .sqlite ? try SQLStore(path: folder.appendingPathComponent("b.sqlite").path, model: model)
                                      : try engine.emptyStore(model: model)
        for i in 0..<25 { _ = try store.insert("Counter", ["name": .string(String(format: "c%02d", i)), "value": .int(Int64(i))]) }
        let context = QueueContext(store: store)
        var request = FetchRequest(entity: "Counter", sortDescriptors: [QuerySortDescriptor("name")])
        request.fetchBatchSize = 10
        let steps = Steps()
        var names: [[String]] = []
        for try await batch in context.batches(of: request, { objects in
            steps.add()
            return objects.map { $0["name"]?.stringValue ?? "?" }
        }) {
            names.append(batch)
            // Pull-based: no batch is loaded ahead of the reader.
            #expect(steps.count == names.count)
        }
        #expect(names.map(\.count) == [10, 10, 5])
        #expect(names.flatMap { $0 } == (0..<25).map { String(format: "c%02d", $0) })
        // No batch size: one batch of everything.
        request.fetchBatchSize = 0
        var whole: [Int] = []
        for try await batch in context.batches(of: request, { $0.count }) { whole.append(batch) }
        #expect(whole == [25])
    }

    /// Counts transform calls (made on the context's queue).
    final class Steps: @unchecked Sendable {
        // @unchecked: guarded by `lock`.
        private let lock = NSLock()
        private var n = 0
        func add() { lock.withLock { n += 1 } }
        var count: Int { lock.withLock { n } }
    }
}

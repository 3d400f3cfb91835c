// An attribute set on a clean saved object outside any undo group takes a
// path of its own (`Context.setAttribute`), written out for bulk edits. The
// same edit inside an explicit undo group of its own takes the general path
// and must leave everything the same: values, pending state, undo and redo,
// the events observers get and what a save writes. Seeded random sequences
// run on two contexts, one per path, over two copies of the same store.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Context: the attribute-set path")
struct ContextSetAttributeTests {
    /// Everything observable about a context and its employees.
    private struct Snapshot: Equatable {
        var ages: [Value?]
        var updated: [Bool]
        var hasChanges: Bool
        var canUndo: Bool
        var canRedo: Bool
    }

    private func snapshot(_ context: Context, _ objects: [ManagedObject]) -> Snapshot {
        Snapshot(ages: objects.map { $0["age"] }, updated: objects.map(\.isUpdated), hasChanges: context.hasChanges,
                 canUndo: context.canUndo, canRedo: context.canRedo)
    }

    @Test(arguments: 1...12)
    func bothPathsAgree(seed: UInt64) throws {
        var generator = Seeded(state: seed)
        let (fastStore, _) = try smallCompany()
        let (groupedStore, _) = try smallCompany()
        let fast = Context(store: fastStore), grouped = Context(store: groupedStore)
        var fastEvents: [ContextEvent] = [], groupedEvents: [ContextEvent] = []
        fast.addObserver { fastEvents.append($0) }
        grouped.addObserver { groupedEvents.append($0) }
        let fastObjects = try fast.fetch(FetchRequest(entity: "Employee"))
        let groupedObjects = try grouped.fetch(FetchRequest(entity: "Employee"))
        let saved = fastObjects.map { $0["age"] }
        for step in 0..<120 {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5:
                let i = Int.random(in: 0..<fastObjects.count, using: &generator)
                // Often the saved value back, sometimes nil.
                let value: Value = [saved[i] ?? .null, .null, .int(Int64.random(in: 20...60, using: &generator))]
                    .randomElement(using: &generator)!
                try fastObjects[i].setValue(value, forKey: "age")
                grouped.beginUndoGrouping()
                try groupedObjects[i].setValue(value, forKey: "age")
                grouped.endUndoGrouping()
            case 5, 6:
                fast.undo()
                grouped.undo()
            case 7:
                fast.redo()
                grouped.redo()
            case 8:
                try fast.processPendingChanges()
                try grouped.processPendingChanges()
            default:
                // Every age set is valid (nil is allowed, 20...60 within bounds): saves succeed.
                try fast.save()
                try grouped.save()
            }
            #expect(snapshot(fast, fastObjects) == snapshot(grouped, groupedObjects), "step \(step)")
            #expect(fastEvents == groupedEvents, "step \(step)")
        }
        try fast.save()
        try grouped.save()
        #expect(try dump(fastStore) == dump(groupedStore))
    }

    @Test(arguments: TestEngine.available)
    func anObserverAddedAfterEditsHearsOfThem(engine: TestEngine) throws {
        let (store, _) = try smallCompany(engine)
        let context = Context(store: store)
        let people = try context.fetch(FetchRequest(entity: "Employee"))
        // With no one listening, edits only stamp their objects.
        try people[0].setValue(.int(41), forKey: "age")
        try people[1].setValue(people[1]["salary"]!, forKey: "salary")   // the saved value: touched, not changed
        var events: [ContextEvent] = []
        let token = context.addObserver { events.append($0) }
        try people[2].setValue(.int(42), forKey: "age")
        try context.processPendingChanges()
        #expect(events == [.objectsDidChange(ContextChanges(updated: Set(people.prefix(3).map(\.objectID))))])
        // Listening stops with the last observer and starts again with the next.
        context.removeObserver(token)
        try people[0].setValue(.int(43), forKey: "age")
        events = []
        context.addObserver { events.append($0) }
        try context.processPendingChanges()
        #expect(events == [.objectsDidChange(ContextChanges(updated: [people[0].objectID]))])
        try context.processPendingChanges()
        #expect(events.count == 1, "nothing new to announce")
    }
}

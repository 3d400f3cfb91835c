// Child contexts of queue contexts (QueueContext+Child.swift), on SQLite
// and PostgreSQL: a child's save reaches its parent and not the store until
// the parent saves; a child dropped unsaved changes nothing; a child's
// fetch sees the parent's unsaved changes; a child runs on its parent's
// queue, so a `performAndWait` of one inside the other's `perform` nests;
// many tasks editing through a child and its parent at once leave exactly
// their edits. ThreadSanitizer runs this suite in CI (its name matches
// Scripts/sanitizers.sh thread's filter).
import Foundation
import QuarryPostgresTestSupport
import Testing
@testable import QuarryStore

@Suite("Child contexts of queue contexts", .serialized)
struct ChildQueueContextTests {
    typealias Setup = QueueContextTests.Setup
    static let hangMinutes = QueueContextTests.hangMinutes

    static func storedNames(_ context: QueueContext) async throws -> [String] {
        try await context.perform { context in
            try context.store.database.rows(#"SELECT "name" FROM "Counter" ORDER BY "name""#, as: [.string]).compactMap {
                if case .string(let s) = $0[0] { s } else { nil }
            }
        }
    }

    @Test(HangGuard.timeLimit(minutes: Self.hangMinutes), arguments: TestEngine.available)
    func aChildSavesIntoItsParentAndTheParentToTheStore(engine: TestEngine) async throws {
        let fixture = try Setup(engine)
        let parent = try fixture.container.newBackgroundContext(name: "editor")
        let child = parent.newChildContext()
        #expect(child.queue === parent.queue)
        #expect(child.name == "editor.child")
        let draft = try await child.perform { context in
            let counter = try context.insert("Counter")
            try counter.setValue("draft", forKey: "name")
            try counter.setValue(3, forKey: "value")
            try context.save()
            return counter.objectID
        }
        // In the parent, unsaved; not in the store.
        let pending = await parent.perform { context in (context.insertedObjects.map(\.objectID), context.object(with: draft)["value"]) }
        #expect(pending.0 == [draft])
        #expect(pending.1 == .int(3))
        #expect(try await Self.storedNames(parent) == [])
        try await parent.perform { try $0.save() }
        #expect(try await Self.storedNames(parent) == ["draft"])
    }

    @Test(HangGuard.timeLimit(minutes: Self.hangMinutes), arguments: TestEngine.available)
    func aChildSeesItsParentsUnsavedChangesAndDroppingItChangesNothing(engine: TestEngine) async throws {
        let fixture = try Setup(engine)
        let parent = try fixture.container.newBackgroundContext()
        let saved = try await QueueContextTests.insertCounter(parent, "saved", 1)
        try await parent.perform { context in
            try context.insert("Counter").setValue("unsaved", forKey: "name")
            try context.object(with: saved).setValue(10, forKey: "value")
        }
        do {
            let child = parent.newChildContext()
            let seen = try await child.perform { context in
                let all = try context.fetch(FetchRequest(entity: "Counter", sortDescriptors: [QuerySortDescriptor("name")]))
                let names = all.map { $0["name"] }
                // Edits the child will not save.
                try context.object(with: saved).setValue(99, forKey: "value")
                try context.insert("Counter").setValue("scratch", forKey: "name")
                return (names, context.object(with: saved)["value"])
            }
            #expect(seen.0 == [.string("saved"), .string("unsaved")])
            #expect(seen.1 == .int(99))
        }
        // The child is gone unsaved: the parent holds its own edits only.
        let after = await parent.perform { context in
            (context.object(with: saved)["value"], context.insertedObjects.compactMap { $0["name"] })
        }
        #expect(after.0 == .int(10))
        #expect(after.1 == [.string("unsaved")])
    }

    @Test(HangGuard.timeLimit(minutes: Self.hangMinutes), arguments: TestEngine.available)
    func aChildAndItsParentNestOnTheirOneQueue(engine: TestEngine) async throws {
        let fixture = try Setup(engine)
        let parent = try fixture.container.newBackgroundContext()
        let child = parent.newChildContext()
        let nested = await parent.perform { outer in
            child.performAndWait { inner in (outer !== inner, child.isOnQueue, parent.isOnQueue, inner.parent === outer) }
        }
        #expect(nested == (true, true, true, true))
        // From outside both queues neither counts as on its queue.
        #expect(!child.isOnQueue && !parent.isOnQueue)
    }

    /// Tasks incrementing one counter, half through the child (saving into
    /// the parent), half through the parent; then the parent saves once.
    @Test(HangGuard.timeLimit(minutes: Self.hangMinutes), arguments: TestEngine.available)
    func tasksEditingThroughAChildAndItsParentAtOnceKeepEveryEdit(engine: TestEngine) async throws {
        let fixture = try Setup(engine)
        let parent = try fixture.container.newBackgroundContext()
        let id = try await QueueContextTests.insertCounter(parent, "shared", 0)
        let child = parent.newChildContext()
        let tasks = 40
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<tasks {
                let through = i % 2 == 0 ? child : parent
                group.addTask {
                    try await through.perform { context in
                        // A child's object keeps what it read: refresh it from the parent first.
                        let counter = context.object(with: id)
                        if context.parent != nil { context.refresh(counter, mergeChanges: false) }
                        guard case .int(let v)? = counter["value"] else { throw ContextError.fetchError("no counter") }
                        try counter.setValue(.int(v + 1), forKey: "value")
                        if context.parent != nil { try context.save() }
                    }
                }
            }
            try await group.waitForAll()
        }
        try await parent.perform { try $0.save() }
        let stored = try await parent.perform { context in
            try context.store.database.rows(#"SELECT "value" FROM "Counter""#, as: [.int])
        }
        #expect(stored == [[.int(Int64(tasks))]])
    }
}

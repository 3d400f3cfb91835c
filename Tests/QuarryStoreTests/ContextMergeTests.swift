// Change events and merging: `.objectsDidChange` when pending changes are
// processed, `.didSave` with permanent IDs after a save, and a second context
// (on the same store, or on its own store over the same file) brought up to
// date with `merge(changes:)`.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Context: events and merging")
struct ContextMergeTests {
    final class Recorder {
        var events: [ContextEvent] = []
    }

    @Test(arguments: TestEngine.available)
    func didSaveCarriesPermanentIDs(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        let recorder = Recorder()
        context.addObserver { recorder.events.append($0) }
        let d = try context.insert("Department")
        try d.setValue(.string("Legal"), forKey: "name")
        let temporary = d.objectID
        try context.object(with: ids["Ann"]!).setValue(.int(1), forKey: "salary")
        try context.delete(context.object(with: ids["Cy"]!))
        try context.save()
        guard case .didSave(let changes)? = recorder.events.last else {
            Issue.record("no didSave: \(recorder.events)")
            return
        }
        #expect(changes.inserted == [d.objectID] && !d.objectID.isTemporary)
        #expect(changes.updated == [ids["Ann"]!])
        #expect(changes.deleted == [ids["Cy"]!])
        #expect(changes.permanentIDs == [temporary: d.objectID])
    }

    @Test(arguments: TestEngine.available)
    func objectsDidChangeWhenPendingChangesAreProcessed(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        let recorder = Recorder()
        let token = context.addObserver { recorder.events.append($0) }
        let e = try context.insert("Employee")
        try e.setValue(.string("Dee"), forKey: "name")
        try context.object(with: ids["Bob"]!).setValue(.int(1), forKey: "salary")
        #expect(recorder.events.isEmpty)
        try context.processPendingChanges()
        #expect(recorder.events == [.objectsDidChange(ContextChanges(inserted: [e.objectID], updated: [ids["Bob"]!]))])
        try context.processPendingChanges()
        #expect(recorder.events.count == 1)
        context.removeObserver(token)
        try context.save()
        #expect(recorder.events.count == 1)
    }

    @Test(arguments: TestEngine.available)
    func mergeRefreshesUpdatedDropsDeletedAndSeesInserted(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let main = Context(store: store), background = Context(store: store)
        let ann = main.object(with: ids["Ann"]!), bob = main.object(with: ids["Bob"]!)
        let sales = main.object(with: ids["Sales"]!)
        #expect(ann["salary"] == .int(60_000) && names(sales.objects(forKey: "employees")).sorted() == ["Ann", "Bob"])
        try ann.setValue(.string("Annie"), forKey: "name")   // an unsaved edit that must survive the merge

        let recorder = Recorder()
        main.addObserver { recorder.events.append($0) }
        background.addObserver { event in
            if case .didSave(let changes) = event { main.merge(changes: changes) }
        }
        try background.object(with: ids["Ann"]!).setValue(.int(99_000), forKey: "salary")
        let dee = try background.insert("Employee")
        try dee.setValue(.string("Dee"), forKey: "name")
        try dee.setValue(background.object(with: ids["Sales"]!), forKey: "department")
        try background.delete(background.object(with: ids["Bob"]!))
        try background.save()

        #expect(ann["salary"] == .int(99_000))
        #expect(ann["name"] == .string("Annie") && ann.isUpdated)
        #expect(bob.context == nil && main.registeredObject(for: ids["Bob"]!) == nil)
        #expect(names(sales.objects(forKey: "employees")).sorted() == ["Annie", "Dee"])
        #expect(names(try main.fetch(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary > 50000")))).sorted() == ["Annie", "Cy"])
        guard case .objectsDidChange(let changes)? = recorder.events.first else {
            Issue.record("no objectsDidChange: \(recorder.events)")
            return
        }
        #expect(changes.inserted == [dee.objectID])
        #expect(changes.deleted == [ids["Bob"]!])
        #expect(changes.updated.contains(ids["Ann"]!) && changes.updated.contains(ids["Sales"]!))
    }

    @Test func contextsOnTwoStoresOverOneFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-context-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let model = try ModelReader.read(from: Fixture.modelPath)
        let mainStore = try SQLStore(path: path, model: model)
        let main = Context(store: mainStore)
        let d = try main.insert("Department")
        try d.setValue(.string("Sales"), forKey: "name")
        try main.save()
        #expect(d.objectID.primaryKey > 0)

        let backgroundStore = try SQLStore(path: path, model: model)
        let background = Context(store: backgroundStore)
        let same = background.object(with: d.objectID)
        try same.setValue(.string("Sales & Marketing"), forKey: "name")
        var saved: ContextChanges?
        background.addObserver { if case .didSave(let c) = $0 { saved = c } }
        try background.save()
        #expect(d["name"] == .string("Sales"))
        main.merge(changes: try #require(saved))
        #expect(d["name"] == .string("Sales & Marketing"))
    }
}

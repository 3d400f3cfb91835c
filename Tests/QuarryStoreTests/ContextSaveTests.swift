// Delete rules applied by a context (Cascade, Nullify, and many-to-many
// links), checked in memory and on disk — and against the store's own batch
// delete, which must leave exactly the same rows — plus rollback.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Context: delete rules and rollback")
struct ContextSaveTests {
    @Test(arguments: TestEngine.available)
    func cascadeDeletesDependentsInMemoryAndOnDisk(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        let sales = context.object(with: ids["Sales"]!)
        let ann = context.object(with: ids["Ann"]!)
        try context.delete(sales)
        try context.processPendingChanges()
        #expect(ann.isDeleted && context.object(with: ids["Bob"]!).isDeleted)
        #expect(Set(context.deletedObjects.map(\.objectID)) == [ids["Sales"]!, ids["Ann"]!, ids["Bob"]!])
        // Nullify on Employee.projects: Apollo loses Ann before the save.
        let apollo = context.object(with: ids["Apollo"]!)
        #expect(apollo.objects(forKey: "members").isEmpty && apollo.isUpdated)
        try context.save()
        #expect(try store.count(FetchRequest(entity: "Employee")) == 1)
        #expect(try store.database.rows("SELECT COUNT(*) FROM \"_Employee_projects\"").first?.first == .int(0))
        #expect(ann.context == nil && context.registeredObject(for: ids["Ann"]!) == nil)
    }

    @Test(arguments: TestEngine.available)
    func nullifyClearsTheInverse(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        let sales = context.object(with: ids["Sales"]!)
        #expect(sales.objects(forKey: "employees").count == 2)
        try context.delete(context.object(with: ids["Ann"]!))
        _ = try context.fetch(FetchRequest(entity: "Department"))   // fetches process pending changes
        #expect(names(sales.objects(forKey: "employees")) == ["Bob"])
        #expect(sales.isUpdated)
        try context.save()
        let fresh = Context(store: store)
        #expect(names(fresh.object(with: ids["Sales"]!).objects(forKey: "employees")) == ["Bob"])
        #expect(try store.fetch(FetchRequest(entity: "Department")).count == 2)
    }

    @Test(arguments: TestEngine.available)
    func deletingAnUnsavedObjectForgetsIt(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let before = try dump(store)
        let context = Context(store: store)
        let e = try context.insert("Employee")
        try e.setValue(context.object(with: ids["Sales"]!), forKey: "department")
        try context.delete(e)
        try context.processPendingChanges()
        #expect(context.insertedObjects.isEmpty && context.deletedObjects.isEmpty)
        #expect(!context.object(with: ids["Sales"]!).objects(forKey: "employees").contains(e))
        try context.save()
        #expect(try dump(store) == before)
    }

    /// The same departments deleted by a context and by `batchDelete` on twin
    /// stores leave the same rows.
    @Test(arguments: TestEngine.available, ["Sales", "R&D", "Empty"])
    func contextDeleteAgreesWithBatchDelete(engine: TestEngine, department: String) throws {
        let viaContext = try Fixture.store(engine: engine), viaBatch = try Fixture.store(engine: engine)
        #expect(try dump(viaContext) == dump(viaBatch))
        let predicate = try Parser.parsePredicate("name == %@", arguments: [.string(department)])
        let context = Context(store: viaContext)
        for d in try context.fetch(FetchRequest(entity: "Department", predicate: predicate)) { try context.delete(d) }
        try context.save()
        try viaBatch.batchDelete(entity: "Department", predicate: predicate)
        #expect(try dump(viaContext) == dump(viaBatch))
        #expect(try viaContext.count(FetchRequest(entity: "Department")) == 7)
    }

    @Test(arguments: TestEngine.available)
    func rollbackDiscardsEveryKindOfChange(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let before = try dump(store)
        let context = Context(store: store)
        let ann = context.object(with: ids["Ann"]!), bob = context.object(with: ids["Bob"]!)
        let sales = context.object(with: ids["Sales"]!), ops = context.object(with: ids["Ops"]!)
        try ann.setValue(.int(1), forKey: "salary")
        try ann.setValue(ops, forKey: "department")
        try context.delete(bob)
        let new = try context.insert("Project")
        try new.add(ann, to: "members")
        context.rollback()
        #expect(!context.hasChanges)
        #expect(ann["salary"] == .int(60_000) && !ann.isUpdated)
        #expect(ann.object(forKey: "department") === sales)
        #expect(names(sales.objects(forKey: "employees")).sorted() == ["Ann", "Bob"])
        #expect(ops.objects(forKey: "employees").isEmpty)
        #expect(!bob.isDeleted)
        #expect(new.context == nil && context.registeredObject(for: new.objectID) == nil)
        #expect(names(ann.objects(forKey: "projects")) == ["Apollo"])
        #expect(!context.canUndo)
        try context.save()
        #expect(try dump(store) == before)
    }

    @Test(arguments: TestEngine.available)
    func savingNothingWritesNothing(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        _ = context.object(with: ids["Ann"]!)["name"]
        let changes = store.database.changeCounter
        try context.save()
        #expect(store.database.changeCounter == changes)
    }
}

// Undo and redo: sequences of edits undone and redone step by step, groups
// (implicit per operation, explicit with begin/end), relationships with their
// inverses, a delete with its cascade, and undo after a save.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Context: undo and redo")
struct ContextUndoTests {
    enum Step: String, CaseIterable, Sendable { case set70, set80, undo, redo }

    /// Salary of Ann after each step of a sequence; nil where the step changes nothing.
    static let sequences: [([Step], [Int64])] = [
        ([.set70, .set80, .undo, .undo, .redo, .redo], [70_000, 80_000, 70_000, 60_000, 70_000, 80_000]),
        ([.set70, .undo, .undo, .redo, .redo], [70_000, 60_000, 60_000, 70_000, 70_000]),
        ([.set70, .undo, .set80, .redo, .undo], [70_000, 60_000, 80_000, 80_000, 60_000]),
        ([.redo, .undo, .set80], [60_000, 60_000, 80_000]),
    ]

    @Test(arguments: TestEngine.available, 0..<sequences.count)
    func salarySequence(engine: TestEngine, index: Int) throws {
        let (steps, expected) = Self.sequences[index]
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        let ann = context.object(with: ids["Ann"]!)
        for (step, salary) in zip(steps, expected) {
            switch step {
            case .set70: try ann.setValue(.int(70_000), forKey: "salary")
            case .set80: try ann.setValue(.int(80_000), forKey: "salary")
            case .undo: context.undo()
            case .redo: context.redo()
            }
            #expect(ann["salary"] == .int(salary), "after \(step)")
            #expect(ann.isUpdated == (salary != 60_000), "after \(step)")
        }
    }

    @Test(arguments: TestEngine.available)
    func undoInsertRemovesAndRedoRestores(engine: TestEngine) throws {
        let (store, _) = try smallCompany(engine)
        let context = Context(store: store)
        let e = try context.insert("Employee")
        try e.setValue(.string("Dee"), forKey: "name")
        context.undo()
        #expect(e["name"] == .null && e.isInserted)
        context.undo()
        #expect(!context.hasChanges && e.context == nil && context.registeredObject(for: e.objectID) == nil)
        context.redo()
        context.redo()
        #expect(e.context === context && e.isInserted && e["name"] == .string("Dee"))
        try context.save()
        #expect(names(try context.fetch(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("name == 'Dee'")))) == ["Dee"])
    }

    @Test(arguments: TestEngine.available)
    func relationshipEditUndoesBothSides(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        let ann = context.object(with: ids["Ann"]!)
        let sales = context.object(with: ids["Sales"]!), ops = context.object(with: ids["Ops"]!)
        try ann.setValue(ops, forKey: "department")
        #expect(names(sales.objects(forKey: "employees")) == ["Bob"] && names(ops.objects(forKey: "employees")) == ["Ann"])
        context.undo()
        #expect(ann.object(forKey: "department") === sales)
        #expect(names(sales.objects(forKey: "employees")).sorted() == ["Ann", "Bob"] && ops.objects(forKey: "employees").isEmpty)
        #expect(!context.hasChanges)
        context.redo()
        #expect(ann.object(forKey: "department") === ops && names(sales.objects(forKey: "employees")) == ["Bob"])
    }

    @Test(arguments: TestEngine.available)
    func undoDeleteBringsBackTheCascade(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        let sales = context.object(with: ids["Sales"]!), ann = context.object(with: ids["Ann"]!)
        let apollo = context.object(with: ids["Apollo"]!)
        try context.delete(sales)
        try context.processPendingChanges()
        #expect(ann.isDeleted && apollo.objects(forKey: "members").isEmpty)
        context.undo()
        #expect(!sales.isDeleted && !ann.isDeleted && !context.object(with: ids["Bob"]!).isDeleted)
        #expect(apollo.objects(forKey: "members") == [ann])
        #expect(!context.hasChanges)
    }

    @Test(arguments: TestEngine.available)
    func explicitGroupUndoesTogether(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        let ann = context.object(with: ids["Ann"]!)
        try ann.setValue(.int(1), forKey: "age")
        context.beginUndoGrouping()
        try ann.setValue(.string("Anne"), forKey: "name")
        try ann.setValue(.int(99), forKey: "salary")
        context.endUndoGrouping()
        context.undo()
        #expect(ann["name"] == .string("Ann") && ann["salary"] == .int(60_000) && ann["age"] == .int(1))
        context.undo()
        #expect(ann["age"] == .int(30) && !context.hasChanges && !context.canUndo)
    }

    @Test(arguments: TestEngine.available)
    func newChangeClearsRedo(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        let ann = context.object(with: ids["Ann"]!)
        try ann.setValue(.int(1), forKey: "salary")
        context.undo()
        #expect(context.canRedo)
        try ann.setValue(.int(2), forKey: "salary")
        #expect(!context.canRedo)
        context.redo()
        #expect(ann["salary"] == .int(2))
    }

    @Test(arguments: TestEngine.available)
    func undoAfterSaveMakesTheOldValuePendingAgain(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        let ann = context.object(with: ids["Ann"]!)
        try ann.setValue(.int(70_000), forKey: "salary")
        try context.save()
        context.undo()
        #expect(ann["salary"] == .int(60_000) && ann.isUpdated)
        try context.save()
        #expect(try store.count(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary == 60000"))) == 1)
    }

    @Test(arguments: TestEngine.available)
    func undoSavedInsertAndSavedDelete(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        let d = try context.insert("Department")
        try d.setValue(.string("Legal"), forKey: "name")
        try context.save()
        context.undo()   // the name
        context.undo()   // the insert: a saved object is deleted
        #expect(d.isDeleted)
        try context.save()
        #expect(try store.count(FetchRequest(entity: "Department")) == 2)

        let cy = context.object(with: ids["Cy"]!)
        try context.delete(cy)
        try context.save()
        #expect(try store.count(FetchRequest(entity: "Employee")) == 2)
        context.undo()   // the delete: the row comes back under its old key
        #expect(cy.isInserted && cy.objectID == ids["Cy"]!)
        try context.save()
        let back = try store.fetch(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("name == 'Cy'")))
        #expect(back.map(\.id) == [ids["Cy"]!])
        #expect(back.first?.values["salary"] == .int(90_000))
    }

    @Test(arguments: TestEngine.available)
    func disabledUndoRecordsNothing(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        context.isUndoEnabled = false
        try context.object(with: ids["Ann"]!).setValue(.int(1), forKey: "salary")
        #expect(!context.canUndo)
        context.undo()
        #expect(context.object(with: ids["Ann"]!)["salary"] == .int(1))
    }
}

// The fetched-results controller, example by example: sections and their
// index titles (non-ASCII names included), object(at:) and indexPath(for:),
// the errors, the three modes (no delegate, delegate, delegate + cache are
// in FetchedResultsCacheTests), the delegate's calls and their order,
// changing the request, merges from another context, and the JSON form.
import Foundation
import Testing
@testable import QuarryStore

/// Records every delegate call as a line, and every change set.
final class RecordingDelegate: FetchedResultsDelegate {
    var calls: [String] = []
    var changes: [FetchedResultsChange] = []

    func controllerWillChangeContent(_ controller: FetchedResultsController) { calls.append("will") }
    func controller(_ controller: FetchedResultsController, didChange object: ManagedObject, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        func p(_ i: IndexPath?) -> String { i.map { "\($0.section).\($0.item)" } ?? "-" }
        calls.append("\(type) \(names([object])[0]) \(p(indexPath)) \(p(newIndexPath))")
    }
    func controller(_ controller: FetchedResultsController, didChange section: FetchedResultsSection, atSectionIndex index: Int,
                    for type: FetchedResultsChangeType) {
        calls.append("section \(type) \(section.name) \(index)")
    }
    func controller(_ controller: FetchedResultsController, didChangeContentWith change: FetchedResultsChange) { changes.append(change) }
    func controllerDidChangeContent(_ controller: FetchedResultsController) { calls.append("did") }
}

/// A store of employees with chosen names, ages and departments.
func peopleStore(_ people: [(String, Int64?, String?)]) throws -> (SQLStore, [String: ObjectID]) {
    let store = try emptyCompanyStore()
    var ids: [String: ObjectID] = [:]
    for (name, age, department) in people {
        var toOne: [String: ObjectID] = [:]
        if let department {
            if ids[department] == nil { ids[department] = try store.insert("Department", ["name": .string(department)]) }
            toOne["department"] = ids[department]!
        }
        var values: [String: Value] = ["name": .string(name)]
        if let age { values["age"] = .int(age) }
        ids[name] = try store.insert("Employee", values, toOne: toOne)
    }
    return (store, ids)
}

func employees(sortedBy keys: [String], predicate: String? = nil) throws -> FetchRequest {
    FetchRequest(entity: "Employee", predicate: try predicate.map { try Parser.parsePredicate($0) },
                 sortDescriptors: keys.map { QuerySortDescriptor($0) })
}

func layout(_ c: FetchedResultsController) -> [String] {
    (c.sections ?? []).map { "\($0.name): " + names($0.objects).joined(separator: " ") }
}

@Suite("Fetched results: sections and paths")
struct FetchedResultsSectionTests {
    static let people: [(String, Int64?, String?)] = [
        ("Zoë", 30, "Sales"), ("Ann", 30, "Sales"), ("Émile", 41, "R&D"), ("bob", 41, nil), ("佐藤", 52, "R&D"), ("Cy", nil, "Ops"),
    ]

    @Test func sectionsByAttribute() throws {
        let (store, _) = try peopleStore(Self.people)
        let c = FetchedResultsController(fetchRequest: try employees(sortedBy: ["age", "name"]), context: Context(store: store),
                                         sectionNameKeyPath: "age")
        #expect(c.sections == nil && c.fetchedObjects == nil)
        try c.performFetch()
        #expect(layout(c) == [": Cy", "30: Ann Zoë", "41: bob Émile", "52: 佐藤"])
        #expect(c.sections!.map(\.numberOfObjects) == [1, 2, 2, 1])
        #expect(c.fetchedObjects!.count == 6)
    }

    @Test func sectionsThroughARelationship() throws {
        let (store, _) = try peopleStore(Self.people)
        let c = FetchedResultsController(fetchRequest: try employees(sortedBy: ["department.name", "name"]), context: Context(store: store),
                                         sectionNameKeyPath: "department.name")
        try c.performFetch()
        #expect(layout(c) == [": bob", "Ops: Cy", "R&D: Émile 佐藤", "Sales: Ann Zoë"])
    }

    @Test func noSectionKeyPathMeansOneSectionEvenWhenEmpty() throws {
        let (store, _) = try peopleStore(Self.people)
        let c = FetchedResultsController(fetchRequest: try employees(sortedBy: ["name"], predicate: "age > 100"), context: Context(store: store))
        try c.performFetch()
        #expect(c.sections!.count == 1 && c.sections![0].numberOfObjects == 0 && c.sections![0].name == "")
        let d = FetchedResultsController(fetchRequest: try employees(sortedBy: ["name"], predicate: "age > 100"), context: Context(store: store),
                                         sectionNameKeyPath: "age")
        try d.performFetch()
        #expect(d.sections!.isEmpty)
    }

    // Core Data's default title is the capitalised first letter; accents stay.
    @Test(arguments: [("Zoë", "Z"), ("émile", "É"), ("e\u{301}mile", "E\u{301}"), ("佐藤", "佐"), ("ßtraße", "Ss"), ("42", "4"), ("", nil)] as [(String, String?)])
    func defaultIndexTitle(name: String, title: String?) {
        #expect(FetchedResultsController.defaultSectionIndexTitle(forSectionName: name) == title)
    }

    @Test func indexTitlesAndTheirSections() throws {
        let (store, _) = try peopleStore([("anna", 1, nil), ("Ann", 1, nil), ("émile", 1, nil), ("Émile", 1, nil), ("Bo", 1, nil)])
        // Sections by name (one per name), titles by first letter: repeated titles appear once.
        let c = FetchedResultsController(fetchRequest: try employees(sortedBy: ["name"]), context: Context(store: store), sectionNameKeyPath: "name")
        try c.performFetch()
        #expect(c.sections!.map(\.name) == ["Ann", "Bo", "anna", "Émile", "émile"])
        #expect(c.sections!.map(\.indexTitle) == ["A", "B", "A", "É", "É"])
        #expect(c.sectionIndexTitles == ["A", "B", "É"])
        #expect(c.section(forSectionIndexTitle: "A", at: 0) == 0)
        #expect(c.section(forSectionIndexTitle: "É", at: 2) == 3)
        #expect(c.section(forSectionIndexTitle: "Q", at: 0) == nil)
    }

    @Test func delegateChoosesIndexTitles() throws {
        final class Initials: FetchedResultsDelegate {
            func controller(_ controller: FetchedResultsController, sectionIndexTitleForSectionName name: String) -> String? { "#" + name }
        }
        let (store, _) = try peopleStore(Self.people)
        let c = FetchedResultsController(fetchRequest: try employees(sortedBy: ["age"]), context: Context(store: store), sectionNameKeyPath: "age")
        let delegate = Initials()
        c.delegate = delegate
        try c.performFetch()
        #expect(c.sectionIndexTitles == ["#", "#30", "#41", "#52"])
    }

    @Test func objectAtAndIndexPathForAgree() throws {
        let (store, _) = try peopleStore(Self.people)
        for tracking in [false, true] {
            let c = FetchedResultsController(fetchRequest: try employees(sortedBy: ["age", "name"]), context: Context(store: store),
                                             sectionNameKeyPath: "age")
            let delegate = RecordingDelegate()
            if tracking { c.delegate = delegate }
            try c.performFetch()
            for (s, section) in c.sections!.enumerated() {
                for (i, object) in section.objects.enumerated() {
                    let path = IndexPath(item: i, section: s)
                    #expect(c.object(at: path) === object)
                    #expect(c.indexPath(for: object) == path)
                }
            }
            #expect(c.object(ifAt: IndexPath(item: 5, section: 0)) == nil)
            #expect(c.object(ifAt: IndexPath(item: 0, section: 9)) == nil)
            let stranger = try c.context.insert("Department")
            #expect(c.indexPath(for: stranger) == nil)
        }
    }

    @Test func errors() throws {
        let (store, _) = try peopleStore(Self.people)
        let unsorted = FetchedResultsController(fetchRequest: FetchRequest(entity: "Employee"), context: Context(store: store))
        #expect(throws: FetchedResultsError.missingSortDescriptors(entity: "Employee")) { try unsorted.performFetch() }
        // Sections by department, sorted by name: Sales comes back after R&D.
        let split = FetchedResultsController(fetchRequest: try employees(sortedBy: ["name"]), context: Context(store: store),
                                             sectionNameKeyPath: "department.name")
        #expect(throws: FetchedResultsError.self) { try split.performFetch() }
        #expect(split.sections == nil)
        #expect(FetchedResultsError.sectionsNotContiguous(section: "Sales", keyPath: "department.name", firstSortKey: "name").description
            .contains("sort by 'department.name' first"))
    }

    @Test func changingTheRequestThenPerformFetch() throws {
        let (store, _) = try peopleStore(Self.people)
        let c = FetchedResultsController(fetchRequest: try employees(sortedBy: ["name"]), context: Context(store: store))
        try c.performFetch()
        #expect(names(c.fetchedObjects!) == ["Ann", "Cy", "Zoë", "bob", "Émile", "佐藤"])
        c.fetchRequest.sortDescriptors = [QuerySortDescriptor("name", ascending: false)]
        c.fetchRequest.predicate = try Parser.parsePredicate("age >= 41")
        try c.performFetch()
        #expect(names(c.fetchedObjects!) == ["佐藤", "Émile", "bob"])
    }
}

@Suite("Fetched results: tracking")
struct FetchedResultsTrackingTests {
    @Test func withoutADelegateNothingIsTracked() throws {
        let (store, ids) = try peopleStore([("Ann", 30, nil), ("Bob", 40, nil)])
        let context = Context(store: store)
        let c = FetchedResultsController(fetchRequest: try employees(sortedBy: ["name"]), context: context)
        try c.performFetch()
        try context.object(with: ids["Ann"]!).setValue(.string("Zed"), forKey: "name")
        try context.insert("Employee").setValue(.string("Al"), forKey: "name")
        try context.save()
        #expect(names(c.fetchedObjects!) == ["Zed", "Bob"])   // as fetched (Ann, Bob), not re-sorted
        #expect(c.lastChange == nil)
        try c.performFetch()
        #expect(names(c.fetchedObjects!) == ["Al", "Bob", "Zed"])
    }

    @Test func delegateHearsInsertDeleteMoveUpdateInOrder() throws {
        let (store, ids) = try peopleStore([("Ann", 30, "A"), ("Bob", 30, "A"), ("Cy", 40, "B"), ("Di", 50, "C")])
        let context = Context(store: store)
        let c = FetchedResultsController(fetchRequest: try employees(sortedBy: ["age", "name"]), context: context, sectionNameKeyPath: "age")
        let d = RecordingDelegate()
        c.delegate = d
        try c.performFetch()
        #expect(layout(c) == ["30: Ann Bob", "40: Cy", "50: Di"])
        let before = c.snapshot

        try context.object(with: ids["Ann"]!).setValue(.int(50), forKey: "age")      // move to another section
        try context.object(with: ids["Bob"]!).setValue(.string("Bo"), forKey: "name") // update in place
        try context.delete(context.object(with: ids["Cy"]!))                         // its section goes
        let eve = try context.insert("Employee")
        try eve.setValue(.string("Eve"), forKey: "name")
        try eve.setValue(.int(60), forKey: "age")                                    // a new section
        try context.processPendingChanges()

        #expect(layout(c) == ["30: Bo", "50: Ann Di", "60: Eve"])
        #expect(d.calls == ["will", "section delete 40 1", "section insert 60 2",
                            "delete Cy 1.0 -", "insert Eve - 2.0", "move Ann 0.0 1.0", "update Bo 0.1 0.0", "did"])
        #expect(d.changes.count == 1 && d.changes[0].applied(to: before) == c.snapshot)
        #expect(c.lastChange == d.changes[0])
    }

    @Test func saveRenamesUnsavedObjects() throws {
        let (store, _) = try peopleStore([("Ann", 30, nil)])
        let context = Context(store: store)
        let c = FetchedResultsController(fetchRequest: try employees(sortedBy: ["name"]), context: context)
        let d = RecordingDelegate()
        c.delegate = d
        try c.performFetch()
        let bob = try context.insert("Employee")
        try bob.setValue(.string("Bob"), forKey: "name")
        try context.processPendingChanges()
        let temporary = bob.objectID
        let before = c.snapshot
        try context.save()
        #expect(d.changes.last?.renamed == [temporary: bob.objectID])
        #expect(d.changes.last!.applied(to: before) == c.snapshot)
        #expect(c.indexPath(for: bob) == IndexPath(item: 1, section: 0))
        try context.delete(bob)
        try context.save()
        #expect(names(c.fetchedObjects!) == ["Ann"])
    }

    @Test func deletingAnAnnouncedUnsavedObjectIsSeen() throws {
        let (store, _) = try peopleStore([("Ann", 30, nil)])
        let context = Context(store: store)
        let c = FetchedResultsController(fetchRequest: try employees(sortedBy: ["name"]), context: context)
        let d = RecordingDelegate()
        c.delegate = d
        try c.performFetch()
        let bob = try context.insert("Employee")
        try bob.setValue(.string("Bob"), forKey: "name")
        try context.processPendingChanges()
        try context.delete(bob)
        try context.object(with: c.fetchedObjects![0].objectID).setValue(.int(31), forKey: "age")
        try context.processPendingChanges()
        #expect(names(c.fetchedObjects!) == ["Ann"])
        #expect(d.calls.suffix(4) == ["will", "delete Bob 0.1 -", "update Ann 0.0 0.0", "did"])
    }

    @Test func delegateSetAfterFetchStartsTracking() throws {
        let (store, ids) = try peopleStore([("Ann", 30, nil), ("Bob", 40, nil)])
        let context = Context(store: store)
        let c = FetchedResultsController(fetchRequest: try employees(sortedBy: ["name"]), context: context)
        try c.performFetch()
        let d = RecordingDelegate()
        c.delegate = d
        try context.object(with: ids["Ann"]!).setValue(.string("Zed"), forKey: "name")
        try context.processPendingChanges()
        #expect(d.calls == ["will", "move Zed 0.0 0.1", "did"])
    }

    @Test func mergeFromABackgroundContext() throws {
        let (store, ids) = try peopleStore([("Ann", 30, "Sales"), ("Bob", 40, "Sales"), ("Cy", 50, "Ops")])
        let main = Context(store: store), background = Context(store: store)
        background.addObserver { if case .didSave(let changes) = $0 { main.merge(changes: changes) } }
        let c = FetchedResultsController(fetchRequest: try employees(sortedBy: ["department.name", "name"], predicate: "age < 45"), context: main,
                                         sectionNameKeyPath: "department.name")
        let d = RecordingDelegate()
        c.delegate = d
        try c.performFetch()
        #expect(layout(c) == ["Sales: Ann Bob"])
        let before = c.snapshot
        try background.object(with: ids["Cy"]!).setValue(.int(20), forKey: "age")    // not registered in main: now it matches
        try background.delete(background.object(with: ids["Bob"]!))
        let dee = try background.insert("Employee")
        try dee.setValue(.string("Dee"), forKey: "name")
        try dee.setValue(.int(22), forKey: "age")
        try dee.setValue(background.object(with: ids["Sales"]!), forKey: "department")
        try background.save()
        #expect(layout(c) == ["Ops: Cy", "Sales: Ann Dee"])
        #expect(d.changes.reduce(before) { $1.applied(to: $0) } == c.snapshot)
        // A department renamed elsewhere: the request reads department.name, so the controller refetches.
        try background.object(with: ids["Ops"]!).setValue(.string("Tech"), forKey: "name")
        try background.save()
        #expect(layout(c) == ["Sales: Ann Dee", "Tech: Cy"])
        #expect(d.calls.suffix(5) == ["will", "section delete Ops 0", "section insert Tech 1", "move Cy 0.0 1.0", "did"])
    }

    // The merged save names an object main never loaded: it must still be judged.
    @Test func mergedUpdateOfAnObjectNeverLoaded() throws {
        let (store, ids) = try peopleStore([("Ann", 30, nil), ("Cy", 50, nil)])
        let main = Context(store: store), background = Context(store: store)
        background.addObserver { if case .didSave(let changes) = $0 { main.merge(changes: changes) } }
        let c = FetchedResultsController(fetchRequest: try employees(sortedBy: ["name"], predicate: "age < 45"), context: main)
        let d = RecordingDelegate()
        c.delegate = d
        try c.performFetch()
        #expect(main.registeredObject(for: ids["Cy"]!) == nil)
        try background.object(with: ids["Cy"]!).setValue(.int(20), forKey: "age")
        try background.save()
        #expect(names(c.fetchedObjects!) == ["Ann", "Cy"])
        #expect(d.calls == ["will", "insert Cy - 0.1", "did"])
    }

    @Test func fetchLimitIsTrackedByRefetching() throws {
        let (store, ids) = try peopleStore([("Ann", 30, nil), ("Bob", 40, nil), ("Cy", 50, nil)])
        let context = Context(store: store)
        var request = try employees(sortedBy: ["age"])
        request.fetchLimit = 2
        let c = FetchedResultsController(fetchRequest: request, context: context)
        let d = RecordingDelegate()
        c.delegate = d
        try c.performFetch()
        try context.delete(context.object(with: ids["Ann"]!))
        try context.processPendingChanges()
        #expect(names(c.fetchedObjects!) == ["Bob", "Cy"])
        #expect(d.calls == ["will", "delete Ann 0.0 -", "insert Cy - 0.1", "did"])
    }

    @Test func jsonRoundTrips() throws {
        let change = FetchedResultsChange(
            sections: [.init(type: .delete, name: "Zoë's", index: 2), .init(type: .insert, name: "R&D", index: 0)],
            objects: [.init(type: .delete, objectID: ObjectID(entity: "Employee", primaryKey: 3), from: IndexPath(item: 1, section: 2), to: nil),
                      .init(type: .move, objectID: ObjectID(entity: "Employee", primaryKey: 7), from: IndexPath(item: 0, section: 1), to: IndexPath(item: 4, section: 0))],
            renamed: [ObjectID(entity: "Employee", primaryKey: -1): ObjectID(entity: "Employee", primaryKey: 9)])
        #expect(change.json == #"{"objects":[{"from":[2,1],"object":"Employee/3","type":"delete"},{"from":[1,0],"object":"Employee/7","to":[0,4],"type":"move"}],"renamed":{"Employee/-1":"Employee/9"},"sections":[{"index":2,"name":"Zoë's","type":"delete"},{"index":0,"name":"R&D","type":"insert"}]}"#)
        #expect(try FetchedResultsChange(json: change.json) == change)
        #expect(throws: (any Error).self) { try FetchedResultsChange(json: #"{"objects":[],"renamed":{"nope":"Employee/1"},"sections":[]}"#) }
    }
}

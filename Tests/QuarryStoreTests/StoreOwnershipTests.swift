// Who owns what, proved by weak references: a store owns its registered
// objects and its connection, a context owns its objects and its store, and
// nothing of theirs outlives the last strong reference from outside. The
// cases read relationships both ways first (Employee.department and its
// inverse Department.employees, the many-to-many Employee.projects and
// Project.members), which makes related objects reference each other: a
// cycle that the store must break when it lets go of its objects — on
// `forgetObjects()`, after a batch change, and when it goes. LeakSanitizer
// (Scripts/sanitizers.sh address) checks the same thing for every test; these
// say it where it is meant.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Store and object ownership")
struct StoreOwnershipTests {
    /// Weak references to what a test made, read after its strong ones are gone.
    final class Watch {
        weak var store: SQLStore?
        weak var database: AnyObject?
        weak var ann: StoredObject?
        weak var sales: StoredObject?
        weak var apollo: StoredObject?
        weak var context: Context?
        weak var managedAnn: ManagedObject?
        weak var managedSales: ManagedObject?
    }

    @Test(arguments: TestEngine.available)
    func aStoreAndItsRelatedObjectsAreFreedWithTheLastReference(engine: TestEngine) throws {
        let watch = Watch()
        try {
            let (store, _) = try smallCompany(engine)
            let (ann, sales, apollo) = try loadCycles(store)
            watch.store = store
            watch.database = store.database as AnyObject
            watch.ann = ann
            watch.sales = sales
            watch.apollo = apollo
        }()
        #expect(watch.ann == nil)
        #expect(watch.sales == nil)
        #expect(watch.apollo == nil)
        #expect(watch.store == nil)
        #expect(watch.database == nil, "the store's connection is closed and freed with it")
    }

    @Test
    func forgottenObjectsAreFreedWhileTheStoreStaysOpen() throws {
        let (store, _) = try smallCompany()
        let watch = Watch()
        try {
            let (ann, sales, apollo) = try loadCycles(store)
            watch.ann = ann
            watch.sales = sales
            watch.apollo = apollo
        }()
        #expect(watch.ann != nil, "registered objects live as long as the store remembers them")
        store.forgetObjects()
        #expect(watch.ann == nil)
        #expect(watch.sales == nil)
        #expect(watch.apollo == nil)
        #expect(try store.count(FetchRequest(entity: "Employee")) == 3)
    }

    @Test
    func aBatchChangeLetsGoOfTheObjectsItMadeStale() throws {
        let (store, _) = try smallCompany()
        let watch = Watch()
        try {
            let (ann, sales, _) = try loadCycles(store)
            watch.ann = ann
            watch.sales = sales
        }()
        let updated = try store.batchUpdate(entity: "Employee", predicate: nil,
                                            set: [("age", try Parser.parseExpression("40"))])
        #expect(updated == 3)
        #expect(watch.ann == nil)
        #expect(watch.sales == nil)
    }

    @Test
    func anObjectKeptPastForgettingReloadsItsRelationships() throws {
        let (store, ids) = try smallCompany()
        let (ann, sales, _) = try loadCycles(store)
        store.forgetObjects()
        // The dropped cache reloads from the store: the same row, now as the
        // store's newly registered object.
        let department = try #require(object(ann.value(forKey: "department")))
        #expect(department.id == ids["Sales"])
        #expect(department !== sales)
        #expect(department === store.registered(ids["Sales"]!))
        #expect(department.value(forKey: "name") == .string("Sales"))
        #expect(objects(ann.value(forKey: "projects")).map(\.id) == [ids["Apollo"]!])
    }

    @Test(arguments: TestEngine.available)
    func aContextWithItsObjectsAndStoreIsFreedWithTheLastReference(engine: TestEngine) throws {
        let watch = Watch()
        try {
            let (store, _) = try smallCompany(engine)
            let context = Context(store: store)
            let employees = try context.fetch(FetchRequest(entity: "Employee", sortDescriptors: [QuarrySQL.QuerySortDescriptor("name")]))
            let ann = try #require(employees.first)
            let sales = try #require(ann["department"].flatMap(managed))
            #expect(sales["employees"].map(managedObjects)?.contains { $0 === ann } == true)
            try ann.setValue(.int(31), forKey: "age") // an unsaved change too
            watch.store = store
            watch.database = store.database as AnyObject
            watch.context = context
            watch.managedAnn = ann
            watch.managedSales = sales
        }()
        #expect(watch.managedAnn == nil)
        #expect(watch.managedSales == nil)
        #expect(watch.context == nil)
        #expect(watch.store == nil)
        #expect(watch.database == nil)
    }

    // MARK: - Helpers

    /// Fetches everything and reads relationships both ways, so that Ann,
    /// Sales and Apollo reference each other; checks that they do.
    private func loadCycles(_ store: SQLStore) throws -> (StoredObject, StoredObject, StoredObject) {
        let employees = try store.fetch(FetchRequest(entity: "Employee", sortDescriptors: [QuarrySQL.QuerySortDescriptor("name")]))
        let ann = try #require(employees.first)
        #expect(ann.value(forKey: "name") == .string("Ann"))
        let sales = try #require(object(ann.value(forKey: "department")))
        #expect(objects(sales.value(forKey: "employees")).contains { $0 === ann })
        let apollo = try #require(objects(ann.value(forKey: "projects")).first)
        #expect(objects(apollo.value(forKey: "members")).contains { $0 === ann })
        return (ann, sales, apollo)
    }

    private func object(_ value: Value?) -> StoredObject? {
        if case .object(let reference)? = value { return reference.object as? StoredObject }
        return nil
    }

    private func objects(_ value: Value?) -> [StoredObject] {
        guard case .array(let values)? = value else { return [] }
        return values.compactMap { object($0) }
    }

    private func managed(_ value: Value) -> ManagedObject? {
        if case .object(let reference) = value { return reference.object as? ManagedObject }
        return nil
    }

    private func managedObjects(_ value: Value) -> [ManagedObject] {
        guard case .array(let values) = value else { return [] }
        return values.compactMap(managed)
    }
}

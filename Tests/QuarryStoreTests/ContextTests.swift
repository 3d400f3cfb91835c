// Context basics: insert with defaults, set and read values, the change
// sets, uniquing (one object per row: `===`), faults that load on first touch
// and batches that load together, relationships with their inverses, and
// permanent IDs after save. Shared helpers for the other Context* tests sit
// at the bottom.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Context: objects, uniquing, faulting")
struct ContextTests {
    @Test(arguments: TestEngine.available)
    func insertAppliesDefaultsAndIsPending(engine: TestEngine) throws {
        let context = Context(store: try emptyCompanyStore(engine))
        #expect(!context.hasChanges)
        let e = try context.insert("Employee")
        #expect(e.objectID.isTemporary)
        #expect(e.isInserted && !e.isUpdated && !e.isDeleted && !e.isFault)
        #expect(e["salary"] == .int(50_000))
        #expect(e["active"] == .bool(true))
        #expect(e["age"] == .null)
        #expect(e["nonsense"] == nil)
        #expect(context.hasChanges)
        #expect(context.insertedObjects == [e])
        #expect(context.registeredObject(for: e.objectID) === e)
    }

    @Test(arguments: TestEngine.available)
    func unknownEntityAndKeyAreClearErrors(engine: TestEngine) throws {
        let context = Context(store: try emptyCompanyStore(engine))
        #expect(throws: ContextError.unknownEntity("Employe", suggestion: "Employee")) { try context.insert("Employe") }
        let e = try context.insert("Employee")
        #expect(throws: ContextError.unknownKey("nmae", entity: "Employee", suggestion: "name")) { try e.setValue(.string("x"), forKey: "nmae") }
        #expect(throws: ContextError.toManyNeedsAddOrRemove(key: "projects", entity: "Employee")) { try e.setValue(.null, forKey: "projects") }
        let p = try context.insert("Project")
        #expect(throws: ContextError.wrongEntity(key: "department", expected: "Department", got: "Project")) { try e.setValue(p, forKey: "department") }
    }

    @Test(arguments: TestEngine.available)
    func saveGivesPermanentIDsAndWritesRows(engine: TestEngine) throws {
        let store = try emptyCompanyStore(engine)
        let context = Context(store: store)
        let d = try context.insert("Department")
        try d.setValue(.string("Sales"), forKey: "name")
        let e = try context.insert("Employee")
        try e.setValue(.string("Zoë"), forKey: "name")
        try e.setValue(d, forKey: "department")
        let temporary = e.objectID
        try context.save()
        #expect(!e.objectID.isTemporary && !d.objectID.isTemporary)
        #expect(e.objectID != temporary)
        #expect(context.registeredObject(for: e.objectID) === e)
        #expect(context.registeredObject(for: temporary) == nil)
        #expect(!context.hasChanges && !e.isInserted)
        let rows = try store.fetch(FetchRequest(entity: "Employee"))
        #expect(rows.map(\.id) == [e.objectID])
        #expect(rows[0].values["name"] == .string("Zoë"))
        #expect(rows[0].values["_fk_department"] == .int(d.objectID.primaryKey))
    }

    @Test(arguments: TestEngine.available)
    func updateMarksUpdatedAndChangedValues(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        let ann = context.object(with: ids["Ann"]!)
        #expect(ann.isFault)
        try ann.setValue(.int(70_000), forKey: "salary")
        #expect(ann.isUpdated && context.updatedObjects == [ann])
        #expect(ann.changedValues == ["salary": .int(70_000)])
        // Setting it back to the saved value is no change at all.
        try ann.setValue(.int(60_000), forKey: "salary")
        #expect(!ann.isUpdated && !context.hasChanges)
        try ann.setValue(.int(80_000), forKey: "salary")
        try context.save()
        #expect(try store.fetch(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary == 80000"))).count == 1)
    }

    @Test(arguments: TestEngine.available)
    func uniquingGivesOneObjectPerRow(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        let all = try context.fetch(FetchRequest(entity: "Employee", sortDescriptors: [QuerySortDescriptor("name")]))
        let again = try context.fetch(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("name == 'Ann'")))
        #expect(again.count == 1 && again[0] === all[0])
        #expect(context.object(with: ids["Ann"]!) === all[0])
        let sales = all[0].object(forKey: "department")
        #expect(sales != nil && sales === all[1].object(forKey: "department"))
        #expect(sales === context.object(with: ids["Sales"]!))
        // Another context has its own objects for the same rows.
        let other = Context(store: store)
        #expect(other.object(with: ids["Ann"]!) !== all[0])
    }

    @Test(arguments: TestEngine.available)
    func faultsLoadOnFirstTouch(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        let ann = context.object(with: ids["Ann"]!)
        #expect(ann.isFault && context.statistics.faultLoads == 0)
        #expect(ann["name"] == .string("Ann"))
        #expect(!ann.isFault && context.statistics.faultLoads == 1)
        _ = ann["salary"]
        #expect(context.statistics.faultLoads == 1)
        // The to-one target is a fault until read.
        let sales = ann.object(forKey: "department")!
        #expect(sales.isFault)
        #expect(sales["name"] == .string("Sales"))
        #expect(context.statistics.faultLoads == 2)
    }

    @Test(arguments: TestEngine.available)
    func toManyLoadsOnceWithItsRows(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        let sales = context.object(with: ids["Sales"]!)
        let employees = sales.objects(forKey: "employees")
        #expect(employees.count == 2 && context.statistics.relationshipLoads == 1)
        #expect(Set(employees.compactMap { if case .string(let s)? = $0["name"] { s } else { nil } }) == ["Ann", "Bob"])
        // The relationship's query brought the rows: no fault fired per employee.
        #expect(context.statistics.faultLoads == 0)
        _ = sales.objects(forKey: "employees")
        #expect(context.statistics.relationshipLoads == 1)
    }

    @Test(arguments: TestEngine.available)
    func batchedFetchReturnsFaultsLoadedOneBatchAtATime(engine: TestEngine) throws {
        let store = try Fixture.store(engine: engine)
        let context = Context(store: store)
        var request = FetchRequest(entity: "Employee", sortDescriptors: [QuerySortDescriptor("salary")])
        request.fetchBatchSize = 20
        let objects = try context.fetch(request)
        #expect(objects.count == 160)
        #expect(objects.allSatisfy { $0.isFault })
        _ = objects[25]["name"]
        #expect(context.statistics.faultLoads == 1)
        #expect(objects[20..<40].allSatisfy { !$0.isFault })
        #expect(objects[0..<20].allSatisfy { $0.isFault } && objects[40...].allSatisfy { $0.isFault })
        _ = objects[39]["name"]
        #expect(context.statistics.faultLoads == 1)
        // The order is the SQL order: salaries ascend.
        let salaries = objects.prefix(40).map { $0["salary"]! }
        #expect(salaries == salaries.sorted { SortOrder.compare($0, $1, caseInsensitive: false) < 0 })
    }

    @Test(arguments: TestEngine.available)
    func inversesFollowEveryEdit(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        let ann = context.object(with: ids["Ann"]!)
        let sales = context.object(with: ids["Sales"]!), ops = context.object(with: ids["Ops"]!)
        try ann.setValue(ops, forKey: "department")
        #expect(!sales.objects(forKey: "employees").contains(ann))
        #expect(ops.objects(forKey: "employees").contains(ann))
        try sales.add(ann, to: "employees")
        #expect(ann.object(forKey: "department") === sales)
        #expect(!ops.objects(forKey: "employees").contains(ann))
        let apollo = context.object(with: ids["Apollo"]!)
        try ann.add(apollo, to: "projects")
        #expect(apollo.objects(forKey: "members").contains(ann))
        try apollo.remove(ann, from: "members")
        #expect(!ann.objects(forKey: "projects").contains(apollo))
        try context.save()
        let fresh = Context(store: store)
        #expect(fresh.object(with: ids["Ann"]!).object(forKey: "department")?.objectID == ids["Sales"])
        #expect(fresh.object(with: ids["Ops"]!).objects(forKey: "employees").isEmpty)
    }

    @Test(arguments: TestEngine.available)
    func aFaultWhoseRelationshipChangedStillLoadsItsRowAfterSave(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        let ops = context.object(with: ids["Ops"]!)
        try context.object(with: ids["Ann"]!).setValue(ops, forKey: "department")
        #expect(ops.isUpdated && ops.isFault)
        try context.save()
        #expect(ops["name"] == .string("Ops"))
        #expect(names(ops.objects(forKey: "employees")) == ["Ann"])
    }

    @Test(arguments: TestEngine.available)
    func manyToManySavesJoinRows(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        let p = try context.insert("Project")
        try p.setValue(.string("Gemini"), forKey: "name")
        try p.add(context.object(with: ids["Bob"]!), to: "members")
        try p.add(context.object(with: ids["Ann"]!), to: "members")
        try context.save()
        let fresh = Context(store: store)
        let members = fresh.object(with: p.objectID).objects(forKey: "members").map(\.objectID)
        #expect(Set(members) == [ids["Ann"]!, ids["Bob"]!])
        #expect(fresh.object(with: ids["Bob"]!).objects(forKey: "projects").map(\.objectID) == [p.objectID])
    }

    @Test(arguments: TestEngine.available)
    func resetForgetsEverything(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        let ann = context.object(with: ids["Ann"]!)
        let new = try context.insert("Department")
        context.reset()
        #expect(!context.hasChanges && context.registeredObjects.isEmpty)
        #expect(ann.context == nil && new.context == nil)
        #expect(context.object(with: ids["Ann"]!) !== ann)
        #expect(throws: ContextError.objectNotInContext(ann.objectID)) { try ann.setValue(.int(1), forKey: "salary") }
    }
}

// MARK: - Helpers shared by the Context* tests

func emptyCompanyStore(_ engine: TestEngine = .sqlite) throws -> SQLStore {
    try engine.emptyStore(model: try ModelReader.read(from: Fixture.modelPath))
}

/// Sales (Ann 60k, Bob 40k), Ops (no one), Cy (no department), project Apollo (Ann).
func smallCompany(_ engine: TestEngine = .sqlite) throws -> (SQLStore, [String: ObjectID]) {
    let store = try emptyCompanyStore(engine)
    var ids: [String: ObjectID] = [:]
    ids["Sales"] = try store.insert("Department", ["name": .string("Sales"), "budget": .double(1000)])
    ids["Ops"] = try store.insert("Department", ["name": .string("Ops")])
    ids["Ann"] = try store.insert("Employee", ["name": .string("Ann"), "salary": .int(60_000), "age": .int(30)], toOne: ["department": ids["Sales"]!])
    ids["Bob"] = try store.insert("Employee", ["name": .string("Bob"), "salary": .int(40_000), "age": .int(50)], toOne: ["department": ids["Sales"]!])
    ids["Cy"] = try store.insert("Employee", ["name": .string("Cy"), "salary": .int(90_000)])
    ids["Apollo"] = try store.insert("Project", ["name": .string("Apollo")])
    try store.link(ids["Ann"]!, "projects", ids["Apollo"]!)
    return (store, ids)
}

/// Every row of every table, as text: equal dumps mean an unchanged store.
/// Every row of every table, as text. Without the row versions unless
/// `versions`: they count writes, which two ways to the same data (a
/// context's save and a batch request) make differently.
func dump(_ store: SQLStore, versions: Bool = false) throws -> [String] {
    let tables = try store.database.tableNames().filter { !$0.hasPrefix("sqlite_") && $0 != "_quarry_metadata" }.sorted()
    var lines: [String] = []
    for table in tables {
        let names = try store.database.rows(store.database.dialect == .sqlite
            ? "SELECT name FROM pragma_table_info(?) ORDER BY cid"
            : "SELECT column_name::text FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
            [.string(table)])
        let version = names.firstIndex { $0.first == .string(StoreMapping.versionColumn) }
        for row in try store.database.rows("SELECT * FROM \(SQLIdentifier.quoted(table)) ORDER BY 1, 2") {
            let shown = row.enumerated().filter { versions || $0.offset != version }.map { Printer.format($0.element) }
            lines.append(table + ": " + shown.joined(separator: ", "))
        }
    }
    return lines
}

func names(_ objects: [ManagedObject]) -> [String] {
    objects.map { if case .string(let s)? = $0["name"] { s } else { "?" } }
}

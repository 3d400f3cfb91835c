// Fetching with unsaved changes (`includesPendingChanges`): inserted objects
// that match appear, deleted ones disappear, changed values are what the
// predicate sees — also through relationships, and also for counts and
// dictionary results (where Core Data would ignore them). The strongest
// check is differential: what a context answers before saving must be what
// the store answers in SQL after saving the same changes.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Context: fetching with pending changes", .serialized)
struct ContextFetchTests {
    func request(_ format: String, sort: [QuarrySQL.QuerySortDescriptor] = [QuerySortDescriptor("name")]) throws -> FetchRequest {
        FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate(format), sortDescriptors: sort)
    }

    @Test(arguments: TestEngine.available)
    func insertedUpdatedAndDeletedObjectsAreSeen(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        let wellPaid = try request("salary > 50000")
        #expect(names(try context.fetch(wellPaid)) == ["Ann", "Cy"])
        let dee = try context.insert("Employee")
        try dee.setValue(.string("Dee"), forKey: "name")
        try dee.setValue(.int(70_000), forKey: "salary")
        try context.object(with: ids["Bob"]!).setValue(.int(55_000), forKey: "salary")
        try context.object(with: ids["Ann"]!).setValue(.int(10_000), forKey: "salary")
        try context.delete(context.object(with: ids["Cy"]!))
        #expect(names(try context.fetch(wellPaid)) == ["Bob", "Dee"])
        #expect(try context.count(wellPaid) == 2)
        // Without pending changes: the saved state (still the context's objects).
        #expect(names(try context.fetch(wellPaid, includesPendingChanges: false)) == ["Ann", "Cy"])
        #expect(try context.count(wellPaid, includesPendingChanges: false) == 2)
        #expect(try context.count(try request("salary > 0"), includesPendingChanges: false) == 3)
        #expect(try context.count(try request("salary > 0")) == 3)
    }

    @Test(arguments: TestEngine.available)
    func predicatesReadChangesThroughRelationships(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        try context.object(with: ids["Sales"]!).setValue(.string("Marketing"), forKey: "name")
        #expect(names(try context.fetch(try request("department.name == 'Marketing'"))) == ["Ann", "Bob"])
        #expect(try context.fetch(try request("department.name == 'Sales'")).isEmpty)
        try context.object(with: ids["Cy"]!).setValue(context.object(with: ids["Ops"]!), forKey: "department")
        #expect(names(try context.fetch(try request("department != nil"))) == ["Ann", "Bob", "Cy"])
        // Sorting by a changed related value.
        let sorted = try context.fetch(try request("TRUEPREDICATE", sort: [QuerySortDescriptor("department.name"), QuerySortDescriptor("name")]))
        #expect(names(sorted) == ["Ann", "Bob", "Cy"])
        try context.object(with: ids["Ops"]!).setValue(.string("Accounts"), forKey: "name")
        #expect(names(try context.fetch(try request("TRUEPREDICATE", sort: [QuerySortDescriptor("department.name"), QuerySortDescriptor("name")]))) == ["Cy", "Ann", "Bob"])
    }

    @Test(arguments: TestEngine.available)
    func sortLimitAndOffsetApplyAfterTheChanges(engine: TestEngine) throws {
        let (store, _) = try smallCompany(engine)
        let context = Context(store: store)
        for (name, salary) in [("Eve", 65_000), ("Fay", 45_000)] {
            let e = try context.insert("Employee")
            try e.setValue(.string(name), forKey: "name")
            try e.setValue(.int(Int64(salary)), forKey: "salary")
        }
        var r = try request("TRUEPREDICATE", sort: [QuerySortDescriptor("salary", ascending: false)])
        #expect(names(try context.fetch(r)) == ["Cy", "Eve", "Ann", "Fay", "Bob"])
        r.fetchOffset = 1
        r.fetchLimit = 2
        #expect(names(try context.fetch(r)) == ["Eve", "Ann"])
        #expect(try context.count(r) == 2)
    }

    @Test(arguments: TestEngine.available)
    func dictionariesAndAggregatesIncludePendingChanges(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let context = Context(store: store)
        var totals = FetchRequest(entity: "Employee", sortDescriptors: [QuerySortDescriptor("dept")])
        totals.propertiesToFetch = [try FetchProperty(keyPath: "department.name"), FetchProperty(name: "total", expression: try Parser.parseExpression("sum:(salary)"))]
        totals.propertiesToFetch[0].name = "dept"
        totals.propertiesToGroupBy = [try FetchProperty(keyPath: "department.name")]
        let saved = try context.fetchDictionaries(totals)
        #expect(saved.map { $0["total"] } == [.int(90_000), .int(100_000)])
        let dee = try context.insert("Employee")
        try dee.setValue(.string("Dee"), forKey: "name")
        try dee.setValue(context.object(with: ids["Ops"]!), forKey: "department")
        try context.object(with: ids["Bob"]!).setValue(.int(45_000), forKey: "salary")
        let pending = try context.fetchDictionaries(totals)
        #expect(pending.map { $0["dept"] } == [.null, .string("Ops"), .string("Sales")])
        #expect(pending.map { $0["total"] } == [.int(90_000), .int(50_000), .int(105_000)])
        // Core Data would answer from the saved rows; so does includesPendingChanges: false.
        #expect(try context.fetchDictionaries(totals, includesPendingChanges: false).map { $0["total"] } == [.int(90_000), .int(100_000)])
        try context.save()
        let sql = try context.fetchDictionaries(totals)
        #expect(sql.map { $0["dept"] } == pending.map { $0["dept"] })
        #expect(sql.map { $0["total"].map(SortOrder.number) } == pending.map { $0["total"].map(SortOrder.number) })
    }

    /// Random edits, then every differential predicate: the objects a context
    /// selects before saving are the objects SQL selects after saving.
    @Test(arguments: TestEngine.available, [1, 2, 3] as [UInt64])
    func pendingAnswersEqualSavedAnswers(engine: TestEngine, seed: UInt64) throws {
        let store = try Fixture.store(engine: engine)
        let context = Context(store: store)
        var rng = Seeded(state: seed)
        try randomEdits(context, &rng)
        #expect(context.hasChanges)
        let predicates = DifferentialTests.employeePredicates.filter { !$0.contains("FUNCTION") }
        var before: [[ObjectIdentifier]] = []
        var changedByEdits = 0
        for format in predicates {
            let request = FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate(format))
            before.append(try context.fetch(request).map(ObjectIdentifier.init))
            if try context.fetch(request, includesPendingChanges: false).map(ObjectIdentifier.init) != before.last { changedByEdits += 1 }
        }
        // The edits matter: many answers differ from the saved state's.
        #expect(changedByEdits > predicates.count / 3, "\(changedByEdits) of \(predicates.count)")
        let counts = try predicates.map { try context.count(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate($0))) }
        try context.save()
        #expect(!context.hasChanges)
        var disagreements: [String] = []
        for (i, format) in predicates.enumerated() {
            let after = try context.fetch(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate(format))).map(ObjectIdentifier.init)
            if after != before[i] || counts[i] != after.count { disagreements.append("\(format): \(before[i].count) before, \(after.count) after") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    func randomEdits(_ context: Context, _ rng: inout Seeded) throws {
        let employees = try context.fetch(FetchRequest(entity: "Employee"))
        let departments = try context.fetch(FetchRequest(entity: "Department"))
        let projects = try context.fetch(FetchRequest(entity: "Project"))
        func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
        for _ in 0..<40 {
            let e = pick(employees)
            guard !e.isDeleted else { continue }
            switch Int.random(in: 0..<7, using: &rng) {
            case 0: try e.setValue(.int(Int64(Int.random(in: 0...200_000, using: &rng))), forKey: "salary")
            case 1: try e.setValue(Bool.random(using: &rng) ? .int(Int64(Int.random(in: 16...90, using: &rng))) : .null, forKey: "age")
            case 2: try e.setValue(.string(pick(Fixture.names)), forKey: "name")
            case 3: try e.setValue(Bool.random(using: &rng) ? pick(departments) : nil, forKey: "department")
            case 4: try e.add(pick(projects), to: "projects")
            case 5: if let p = e.objects(forKey: "projects").first { try e.remove(p, from: "projects") }
            default: try context.delete(e)
            }
        }
        for i in 0..<6 {
            let e = try context.insert("Employee")
            try e.setValue(.string(pick(Fixture.names) + " new"), forKey: "name")
            try e.setValue(.int(Int64(Int.random(in: 0...200_000, using: &rng))), forKey: "salary")
            if i % 2 == 0 { try e.setValue(pick(departments), forKey: "department") }
            if i % 3 == 0 { try e.add(pick(projects), to: "projects") }
        }
        try pick(departments).setValue(.string("Renamed"), forKey: "name")
        try pick(projects).setValue(.double(499), forKey: "budget")
    }
}

// Parent/child contexts (Context+Parent*.swift), on SQLite and PostgreSQL:
// what a child's fetch and count return for each kind of unsaved change in
// its parent (the SQL and memory engines agreeing), a child's save landing
// in the parent as the parent's own pending changes with nothing in the
// store until the parent saves (rows checked by SQL), rollback, grandchildren,
// object IDs across the chain, conflicts per merge policy, and what a child
// refuses.
import Foundation
import QuarrySQL
import Testing
@testable import QuarryStore

enum ChildFixture {
    static let yaml = """
    entities:
      Dept:
        attributes:
          name: { type: string, optional: false }
          budget: { type: integer64, default: 0, min: 0 }
        relationships:
          emps: { to: Emp, many: true, inverse: dept, delete: cascade }
      Emp:
        attributes:
          name: { type: string, optional: false }
          salary: { type: integer64, default: 0 }
        relationships:
          dept: { to: Dept, inverse: emps }
          tags: { to: Tag, many: true, inverse: emps }
      Tag:
        attributes:
          name: { type: string, optional: false, unique: true }
        relationships:
          emps: { to: Emp, many: true, inverse: tags }
      Crate:
        attributes:
          name: { type: string, optional: false }
        relationships:
          items: { to: Item, many: true, ordered: true, inverse: crate }
      Item:
        attributes:
          name: { type: string, optional: false }
        relationships:
          crate: { to: Crate, inverse: items }
    """
    static let model = try! ModelReader.read(yaml: yaml, file: "child.yaml")

    /// Sales (budget 100: ann 100, bob 200), Ops (budget 50: cat 300); tag
    /// red on ann and bob, blue on none; crate box holding i1, i2, i3 in that order.
    static func seeded(_ engine: TestEngine) throws -> SQLStore {
        let store = try engine.emptyStore(model: model)
        let c = Context(store: store)
        func make(_ entity: String, _ name: String, _ values: [String: Value] = [:]) throws -> ManagedObject {
            let o = try c.insert(entity)
            try o.setValue(.string(name), forKey: "name")
            for (k, v) in values { try o.setValue(v, forKey: k) }
            return o
        }
        let sales = try make("Dept", "Sales", ["budget": 100]), ops = try make("Dept", "Ops", ["budget": 50])
        let ann = try make("Emp", "ann", ["salary": 100]), bob = try make("Emp", "bob", ["salary": 200]), cat = try make("Emp", "cat", ["salary": 300])
        try ann.setValue(sales, forKey: "dept")
        try bob.setValue(sales, forKey: "dept")
        try cat.setValue(ops, forKey: "dept")
        let red = try make("Tag", "red")
        _ = try make("Tag", "blue")
        try red.add(ann, to: "emps")
        try red.add(bob, to: "emps")
        let box = try make("Crate", "box")
        for n in ["i1", "i2", "i3"] { try box.add(try make("Item", n), to: "items") }
        try c.save()
        return store
    }

    /// The object of `entity` named `name`, as `context` sees it.
    static func one(_ context: Context, _ entity: String, _ name: String) throws -> ManagedObject {
        let found = try context.fetch(FetchRequest(entity: entity, predicate: try Parser.parsePredicate("name == '\(name)'")))
        guard found.count == 1 else { throw ContextError.fetchError("\(found.count) \(entity) named \(name)") }
        return found[0]
    }

    static func names(_ objects: [ManagedObject]) -> [String] {
        objects.map { if case .string(let s)? = $0["name"] { return s } else { return "?" } }
    }

    /// Rows of a query as text, for comparing with expected rows.
    static func rows(_ store: SQLStore, _ sql: String, _ kinds: [SQLValueKind]) throws -> [String] {
        try store.database.rows(sql, [], as: kinds).map { row in
            row.map { v -> String in
                switch v {
                case .string(let s): return "'\(s)'"
                case .int(let i): return "\(i)"
                case .null: return "nil"
                default: return "\(v)"
                }
            }.joined(separator: " ")
        }
    }

    /// Employees with salary and department, by SQL.
    static func employees(_ store: SQLStore) throws -> [String] {
        try rows(store, #"SELECT e."name", e."salary", d."name" FROM "Emp" e LEFT JOIN "Dept" d ON d."_pk" = e."dept" ORDER BY e."name""#, [.string, .int, .string])
    }

    /// Tag name → employee names, by SQL over the join table.
    static func tagging(_ store: SQLStore) throws -> [String] {
        guard case .joinTable(let join, let source, let target)? = store.mapping.storage(of: "tags", of: "Emp") else { return ["no join table"] }
        return try rows(store, "SELECT t.\"name\", e.\"name\" FROM \"\(join)\" j JOIN \"Emp\" e ON e.\"_pk\" = j.\"\(source)\" JOIN \"Tag\" t ON t.\"_pk\" = j.\"\(target)\" ORDER BY t.\"name\", e.\"name\"", [.string, .string])
    }

    /// Item names of crate box in their order, by SQL.
    static func crateOrder(_ store: SQLStore) throws -> [String] {
        let order = store.mapping.orderPrefix(of: "items", of: "Crate", alias: "i")
        return try rows(store, "SELECT i.\"name\" FROM \"Item\" i JOIN \"Crate\" c ON c.\"_pk\" = i.\"crate\" WHERE c.\"name\" = 'box' ORDER BY \(order)i.\"_pk\"", [.string])
    }
}

/// A change made to a context of the fixture, by name.
typealias ContextEdit = @Sendable (Context) throws -> Void

@Suite("Parent/child contexts", .serialized)
struct ChildContextTests {
    typealias F = ChildFixture

    // MARK: - Reading through the parent

    /// A parent change, a request, and what a child's fetch returns.
    struct ReadCase: Sendable, CustomTestStringConvertible {
        let name: String
        let parent: ContextEdit
        let child: ContextEdit?
        let entity: String
        let predicate: String?
        let sort: [QuarrySQL.QuerySortDescriptor]
        let expected: [String]
        var testDescription: String { name }
    }

    static let readCases: [ReadCase] = [
        ReadCase(name: "no change", parent: { _ in }, child: nil, entity: "Emp", predicate: "salary > 150",
                 sort: [QuerySortDescriptor("name")], expected: ["bob", "cat"]),
        ReadCase(name: "parent inserts a matching object", parent: { c in
            let dan = try c.insert("Emp"); try dan.setValue("dan", forKey: "name"); try dan.setValue(400, forKey: "salary")
        }, child: nil, entity: "Emp", predicate: "salary > 150", sort: [QuerySortDescriptor("name")], expected: ["bob", "cat", "dan"]),
        ReadCase(name: "parent inserts a non-matching object", parent: { c in
            let dan = try c.insert("Emp"); try dan.setValue("dan", forKey: "name"); try dan.setValue(10, forKey: "salary")
        }, child: nil, entity: "Emp", predicate: "salary > 150", sort: [QuerySortDescriptor("name")], expected: ["bob", "cat"]),
        ReadCase(name: "parent updates the filtered key in and out", parent: { c in
            try F.one(c, "Emp", "ann").setValue(250, forKey: "salary")
            try F.one(c, "Emp", "bob").setValue(10, forKey: "salary")
        }, child: nil, entity: "Emp", predicate: "salary > 150", sort: [QuerySortDescriptor("name")], expected: ["ann", "cat"]),
        ReadCase(name: "parent updates the sorted key", parent: { c in
            try F.one(c, "Emp", "ann").setValue(500, forKey: "salary")
        }, child: nil, entity: "Emp", predicate: nil, sort: [QuerySortDescriptor("salary", ascending: false)], expected: ["ann", "cat", "bob"]),
        ReadCase(name: "parent deletes an object", parent: { c in
            try c.delete(try F.one(c, "Emp", "bob"))
        }, child: nil, entity: "Emp", predicate: "salary > 150", sort: [QuerySortDescriptor("name")], expected: ["cat"]),
        ReadCase(name: "parent deletes a department (cascade)", parent: { c in
            try c.delete(try F.one(c, "Dept", "Sales"))
        }, child: nil, entity: "Emp", predicate: nil, sort: [QuerySortDescriptor("name")], expected: ["cat"]),
        ReadCase(name: "parent moves an employee (to-one)", parent: { c in
            try F.one(c, "Emp", "cat").setValue(try F.one(c, "Dept", "Sales"), forKey: "dept")
        }, child: nil, entity: "Emp", predicate: "dept.name == 'Sales'", sort: [QuerySortDescriptor("name")], expected: ["ann", "bob", "cat"]),
        ReadCase(name: "parent tags an employee (many-to-many)", parent: { c in
            try F.one(c, "Tag", "red").add(try F.one(c, "Emp", "cat"), to: "emps")
            try F.one(c, "Tag", "red").remove(try F.one(c, "Emp", "ann"), from: "emps")
        }, child: nil, entity: "Emp", predicate: "ANY tags.name == 'red'", sort: [QuerySortDescriptor("name")], expected: ["bob", "cat"]),
        ReadCase(name: "parent's to-many count", parent: { c in
            let dan = try c.insert("Emp"); try dan.setValue("dan", forKey: "name")
            try dan.setValue(try F.one(c, "Dept", "Ops"), forKey: "dept")
        }, child: nil, entity: "Dept", predicate: "emps.@count >= 2", sort: [QuerySortDescriptor("name")], expected: ["Ops", "Sales"]),
        ReadCase(name: "parent and child both change", parent: { c in
            try F.one(c, "Emp", "ann").setValue(250, forKey: "salary")
        }, child: { c in
            try F.one(c, "Emp", "cat").setValue(1, forKey: "salary")
            let eve = try c.insert("Emp"); try eve.setValue("eve", forKey: "name"); try eve.setValue(999, forKey: "salary")
        }, entity: "Emp", predicate: "salary > 150", sort: [QuerySortDescriptor("salary")], expected: ["bob", "ann", "eve"]),
        ReadCase(name: "child deletes what its parent inserted", parent: { c in
            let dan = try c.insert("Emp"); try dan.setValue("dan", forKey: "name"); try dan.setValue(400, forKey: "salary")
        }, child: { c in
            try c.delete(try F.one(c, "Emp", "dan"))
        }, entity: "Emp", predicate: "salary > 150", sort: [QuerySortDescriptor("name")], expected: ["bob", "cat"]),
    ]

    @Test(arguments: TestEngine.available, readCases)
    func childFetchSeesTheParentsChanges(engine: TestEngine, c: ReadCase) throws {
        let store = try F.seeded(engine)
        let parent = Context(store: store)
        try c.parent(parent)
        let child = Context(parent: parent)
        try c.child?(child)
        var request = FetchRequest(entity: c.entity, predicate: try c.predicate.map { try Parser.parsePredicate($0) }, sortDescriptors: c.sort)
        for engineKind in FetchEngine.allCases {
            #expect(F.names(try child.fetch(request, engine: engineKind)) == c.expected, "\(engineKind)")
            #expect(try child.count(request, engine: engineKind) == c.expected.count, "\(engineKind)")
        }
        // Dictionary results agree.
        var dictionaries = request
        dictionaries.propertiesToFetch = [FetchProperty(name: "name", expression: try Parser.parseExpression("name"))]
        #expect(try child.fetchDictionaries(dictionaries).map { $0["name"] } == c.expected.map { .string($0) })
        // Without its own pending changes a child still sees its parent's: they are its "store".
        if c.child == nil {
            #expect(F.names(try child.fetch(request, includesPendingChanges: false)) == c.expected)
            #expect(try child.count(request, includesPendingChanges: false) == c.expected.count)
        }
        // A grandchild sees the same (its parent's view is the child's).
        let grandchild = Context(parent: child)
        #expect(F.names(try grandchild.fetch(request)) == c.expected)
        #expect(F.names(try grandchild.fetch(request, engine: .memory)) == c.expected)
        // Limits and offsets apply to the corrected answer.
        request.fetchLimit = 1
        request.fetchOffset = 1
        #expect(F.names(try child.fetch(request)) == Array(c.expected.dropFirst().prefix(1)))
        // The store is untouched.
        #expect(try F.employees(store) == ["'ann' 100 'Sales'", "'bob' 200 'Sales'", "'cat' 300 'Ops'"])
    }

    @Test(arguments: TestEngine.available)
    func childObjectsShowTheParentsUnsavedValues(engine: TestEngine) throws {
        let parent = Context(store: try F.seeded(engine))
        let ann = try F.one(parent, "Emp", "ann")
        try ann.setValue(777, forKey: "salary")
        let dan = try parent.insert("Emp")
        try dan.setValue("dan", forKey: "name")
        try dan.setValue(ann.object(forKey: "dept"), forKey: "dept")
        let child = Context(parent: parent)
        // A fault made from an ID fills from the parent's object.
        let childAnn = child.object(with: ann.objectID)
        #expect(childAnn.isFault)
        #expect(childAnn["salary"] == .int(777))
        #expect(!childAnn.isUpdated && !child.hasChanges)
        let childDan = child.object(with: dan.objectID)
        #expect(childDan["name"] == .string("dan") && !childDan.isInserted)
        // Relationships read the parent's current members.
        let sales = try #require(childAnn.object(forKey: "dept"))
        #expect(F.names(sales.objects(forKey: "emps")).sorted() == ["ann", "bob", "dan"])
        #expect(childDan.object(forKey: "dept") === sales)
        // An object the parent deleted is gone for the child: from its
        // fetches, and from the object once refreshed (until then it keeps
        // the values it read, as in Core Data).
        let childBob = try #require(sales.objects(forKey: "emps").first { $0["name"] == .string("bob") })
        try parent.delete(try F.one(parent, "Emp", "bob"))
        #expect(F.names(try child.fetch(FetchRequest(entity: "Emp", sortDescriptors: [QuerySortDescriptor("name")]))) == ["ann", "cat", "dan"])
        #expect(childBob["name"] == .string("bob"))
        child.refresh(childBob, mergeChanges: false)
        #expect(throws: ContextError.self) { try childBob.loadValue(forKey: "name") }
        // The child's statistics show no store query of its own.
        #expect(child.statistics.queries == 0)
    }

    // MARK: - Saving into the parent

    /// A child's edit; the parent's change sets after the child saves; the store after the parent saves.
    struct SaveCase: Sendable, CustomTestStringConvertible {
        let name: String
        let edit: ContextEdit
        let inserted: Int, updated: Int, deleted: Int
        let employees: [String]
        let tagging: [String]
        let crate: [String]
        var testDescription: String { name }
    }

    static let seedEmployees = ["'ann' 100 'Sales'", "'bob' 200 'Sales'", "'cat' 300 'Ops'"]
    static let seedTagging = ["'red' 'ann'", "'red' 'bob'"]
    static let seedCrate = ["'i1'", "'i2'", "'i3'"]

    static let saveCases: [SaveCase] = [
        SaveCase(name: "insert with to-one", edit: { c in
            let dan = try c.insert("Emp"); try dan.setValue("dan", forKey: "name"); try dan.setValue(5, forKey: "salary")
            try dan.setValue(try F.one(c, "Dept", "Ops"), forKey: "dept")
        }, inserted: 1, updated: 1, deleted: 0,
                 employees: seedEmployees + ["'dan' 5 'Ops'"], tagging: seedTagging, crate: seedCrate),
        SaveCase(name: "update an attribute", edit: { c in
            try F.one(c, "Emp", "bob").setValue(222, forKey: "salary")
        }, inserted: 0, updated: 1, deleted: 0,
                 employees: ["'ann' 100 'Sales'", "'bob' 222 'Sales'", "'cat' 300 'Ops'"], tagging: seedTagging, crate: seedCrate),
        SaveCase(name: "update a to-one", edit: { c in
            try F.one(c, "Emp", "ann").setValue(try F.one(c, "Dept", "Ops"), forKey: "dept")
        }, inserted: 0, updated: 3, deleted: 0,
                 employees: ["'ann' 100 'Ops'", "'bob' 200 'Sales'", "'cat' 300 'Ops'"], tagging: seedTagging, crate: seedCrate),
        SaveCase(name: "update a to-many", edit: { c in
            try F.one(c, "Dept", "Ops").add(try F.one(c, "Emp", "bob"), to: "emps")
        }, inserted: 0, updated: 3, deleted: 0,
                 employees: ["'ann' 100 'Sales'", "'bob' 200 'Ops'", "'cat' 300 'Ops'"], tagging: seedTagging, crate: seedCrate),
        SaveCase(name: "many-to-many add and remove", edit: { c in
            let red = try F.one(c, "Tag", "red"), blue = try F.one(c, "Tag", "blue")
            try red.remove(try F.one(c, "Emp", "ann"), from: "emps")
            try blue.add(try F.one(c, "Emp", "cat"), to: "emps")
        }, inserted: 0, updated: 4, deleted: 0,
                 employees: seedEmployees, tagging: ["'blue' 'cat'", "'red' 'bob'"], crate: seedCrate),
        SaveCase(name: "ordered insert and move", edit: { c in
            let box = try F.one(c, "Crate", "box")
            let i0 = try c.insert("Item"); try i0.setValue("i0", forKey: "name")
            try box.insert(i0, at: 0, into: "items")
            try box.move(from: 3, to: 1, in: "items")
        }, inserted: 1, updated: 1, deleted: 0,
                 employees: seedEmployees, tagging: seedTagging, crate: ["'i0'", "'i3'", "'i1'", "'i2'"]),
        SaveCase(name: "delete (nullify)", edit: { c in
            try c.delete(try F.one(c, "Emp", "ann"))
        }, inserted: 0, updated: 2, deleted: 1,
                 employees: ["'bob' 200 'Sales'", "'cat' 300 'Ops'"], tagging: ["'red' 'bob'"], crate: seedCrate),
        SaveCase(name: "delete with cascade", edit: { c in
            try c.delete(try F.one(c, "Dept", "Sales"))
        }, inserted: 0, updated: 1, deleted: 3,
                 employees: ["'cat' 300 'Ops'"], tagging: [], crate: seedCrate),
        SaveCase(name: "insert then delete (nothing)", edit: { c in
            let tmp = try c.insert("Emp"); try tmp.setValue("tmp", forKey: "name")
            try c.delete(tmp)
        }, inserted: 0, updated: 0, deleted: 0, employees: seedEmployees, tagging: seedTagging, crate: seedCrate),
    ]

    @Test(arguments: TestEngine.available, saveCases)
    func childSaveLandsInTheParentThenTheStore(engine: TestEngine, c: SaveCase) throws {
        let store = try F.seeded(engine)
        let parent = Context(store: store)
        var events: [ContextEvent] = []
        parent.addObserver { events.append($0) }
        let child = Context(parent: parent)
        try c.edit(child)
        try child.save()
        #expect(!child.hasChanges)
        // The parent holds the changes as its own; the store has none of them.
        #expect(parent.insertedObjects.count == c.inserted)
        #expect(parent.updatedObjects.count == c.updated)
        #expect(parent.deletedObjects.count == c.deleted)
        #expect(parent.hasChanges == (c.inserted + c.updated + c.deleted > 0))
        #expect(try F.employees(store) == Self.seedEmployees)
        #expect(try F.tagging(store) == Self.seedTagging)
        #expect(try F.crateOrder(store) == Self.seedCrate)
        // One change set announced by the parent, one undo group that takes it all back.
        let announced = events.filter { if case .objectsDidChange = $0 { return true } else { return false } }
        #expect(announced.count == (parent.hasChanges ? 1 : 0))
        if parent.hasChanges {
            parent.undo()
            #expect(!parent.hasChanges)
            parent.redo()
            try parent.processPendingChanges()
            #expect(parent.insertedObjects.count == c.inserted && parent.deletedObjects.count == c.deleted)
        }
        try parent.save()
        #expect(try F.employees(store) == c.employees)
        #expect(try F.tagging(store) == c.tagging)
        #expect(try F.crateOrder(store) == c.crate)
        // The child, now reading the saved state through its parent, agrees.
        let reread = Context(parent: parent)
        let expected = c.employees.map { String($0.split(separator: " ")[0].dropFirst().dropLast()) }
        #expect(F.names(try reread.fetch(FetchRequest(entity: "Emp", sortDescriptors: [QuerySortDescriptor("name")]))) == expected)
    }

    @Test(arguments: TestEngine.available)
    func childSaveValidatesAndLeavesTheParentAloneOnFailure(engine: TestEngine) throws {
        let store = try F.seeded(engine)
        let parent = Context(store: store)
        let child = Context(parent: parent)
        let nameless = try child.insert("Emp")
        try F.one(child, "Dept", "Ops").setValue(-5, forKey: "budget")
        #expect(throws: ValidationError.self) { try child.save() }
        #expect(!parent.hasChanges && child.hasChanges && nameless.isInserted)
        try nameless.setValue("neo", forKey: "name")
        try F.one(child, "Dept", "Ops").setValue(5, forKey: "budget")
        try child.save()
        #expect(parent.insertedObjects.count == 1 && parent.updatedObjects.count == 1)
    }

    /// Uniqueness is the store's to judge (as in Core Data): a child's save
    /// lets a duplicate through, the root's save refuses it.
    @Test(arguments: TestEngine.available)
    func uniquenessIsJudgedWhenTheRootSaves(engine: TestEngine) throws {
        let store = try F.seeded(engine)
        let parent = Context(store: store)
        let child = Context(parent: parent)
        let twin = try child.insert("Tag")
        try twin.setValue("red", forKey: "name")
        try child.save()
        #expect(parent.insertedObjects.count == 1)
        do {
            try parent.save()
            Issue.record("the duplicate was saved")
        } catch let error as ValidationError {
            #expect(error.failures.contains { if case .notUnique = $0.reason { return true } else { return false } })
        }
        #expect(try F.rows(store, #"SELECT "name" FROM "Tag" ORDER BY "name""#, [.string]) == ["'blue'", "'red'"])
    }

    @Test(arguments: TestEngine.available)
    func rollbackAndDiscardingAChildLeaveTheParentAlone(engine: TestEngine) throws {
        let store = try F.seeded(engine)
        let parent = Context(store: store)
        try F.one(parent, "Emp", "ann").setValue(111, forKey: "salary")
        do {
            let child = Context(parent: parent)
            try F.one(child, "Emp", "ann").setValue(999, forKey: "salary")
            try child.delete(try F.one(child, "Emp", "bob"))
            _ = try child.insert("Emp")
            child.rollback()
            #expect(!child.hasChanges)
            #expect(try F.one(child, "Emp", "ann")["salary"] == .int(111))
            #expect(try child.count(FetchRequest(entity: "Emp")) == 3)
            let scratch = Context(parent: parent)
            try F.one(scratch, "Emp", "cat").setValue(0, forKey: "salary")
            // `scratch` goes without saving.
        }
        #expect(parent.updatedObjects.count == 1 && parent.insertedObjects.isEmpty && parent.deletedObjects.isEmpty)
        #expect(try F.one(parent, "Emp", "ann")["salary"] == .int(111))
        #expect(try F.one(parent, "Emp", "cat")["salary"] == .int(300))
    }

    // MARK: - Object IDs

    @Test(arguments: TestEngine.available)
    func insertedObjectsKeepTheirIDUntilTheRootSaves(engine: TestEngine) throws {
        let store = try F.seeded(engine)
        let root = Context(store: store)
        let child = Context(parent: root)
        let grandchild = Context(parent: child)
        let zed = try grandchild.insert("Emp")
        try zed.setValue("zed", forKey: "name")
        try zed.setValue(try F.one(grandchild, "Dept", "Ops"), forKey: "dept")
        let temporary = zed.objectID
        try grandchild.save()
        // Same temporary ID one level up, and nothing in the root yet.
        #expect(zed.objectID == temporary && temporary.isTemporary && !zed.isInserted)
        let inChild = try #require(child.registeredObject(for: temporary))
        #expect(inChild.isInserted && inChild["name"] == .string("zed"))
        #expect(root.registeredObject(for: temporary) == nil && !root.hasChanges)
        try child.save()
        let inRoot = try #require(root.registeredObject(for: temporary))
        #expect(inRoot.isInserted)
        try root.save()
        // After the root saves: the permanent ID everywhere down the chain.
        let permanent = inRoot.objectID
        #expect(!permanent.isTemporary)
        #expect(inChild.objectID == permanent && zed.objectID == permanent)
        #expect(grandchild.registeredObject(for: permanent) === zed && child.registeredObject(for: permanent) === inChild)
        // An ID kept from before resolves to the saved row.
        #expect(grandchild.object(with: temporary) === zed)
        #expect(root.object(with: temporary) === inRoot)
        // References follow: Ops lists zed under its permanent ID.
        let ops = try F.one(grandchild, "Dept", "Ops")
        #expect(ops.objects(forKey: "emps").contains { $0 === zed })
        #expect(try F.employees(store).contains("'zed' 0 'Ops'"))
        // A fresh edit of zed in the grandchild goes all the way to its row.
        try zed.setValue(42, forKey: "salary")
        try grandchild.save()
        try child.save()
        try root.save()
        #expect(try F.employees(store).contains("'zed' 42 'Ops'"))
    }

    @Test(arguments: TestEngine.available)
    func grandchildrenReadAndSaveByTheSameRule(engine: TestEngine) throws {
        let store = try F.seeded(engine)
        let root = Context(store: store)
        try F.one(root, "Emp", "ann").setValue(150, forKey: "salary")
        let child = Context(parent: root)
        try F.one(child, "Emp", "bob").setValue(250, forKey: "salary")
        let grandchild = Context(parent: child)
        #expect(try F.one(grandchild, "Emp", "ann")["salary"] == .int(150))
        #expect(try F.one(grandchild, "Emp", "bob")["salary"] == .int(250))
        let request = FetchRequest(entity: "Emp", predicate: try Parser.parsePredicate("salary >= 150"), sortDescriptors: [QuerySortDescriptor("salary")])
        #expect(F.names(try grandchild.fetch(request)) == ["ann", "bob", "cat"])
        try F.one(grandchild, "Emp", "cat").setValue(1, forKey: "salary")
        try grandchild.save()
        #expect(F.names(try child.fetch(request)) == ["ann", "bob"])
        #expect(F.names(try root.fetch(request)) == ["ann", "bob", "cat"])   // the root has not seen the child's changes (bob 200, cat 300)
        try child.save()
        #expect(F.names(try root.fetch(request)) == ["ann", "bob"])
        try root.save()
        #expect(try F.employees(store) == ["'ann' 150 'Sales'", "'bob' 250 'Sales'", "'cat' 1 'Ops'"])
    }

    // MARK: - Conflicts

    /// A policy, and the parent's and store's salary of bob and budget of Sales after both saves.
    struct ConflictCase: Sendable, CustomTestStringConvertible {
        let policy: MergePolicy
        let refused: Bool
        /// bob's salary and name in the parent after the child's save.
        let salary: Int64, name: String
        var testDescription: String { policy.rawValue }
    }

    // The child read bob (200, "bob") and set salary 999; the parent then set salary 300 and name "rob".
    static let conflictCases: [ConflictCase] = [
        ConflictCase(policy: .error, refused: true, salary: 300, name: "rob"),
        ConflictCase(policy: .rollback, refused: false, salary: 300, name: "rob"),
        ConflictCase(policy: .overwrite, refused: false, salary: 999, name: "bob"),
        ConflictCase(policy: .mergeByPropertyObjectTrump, refused: false, salary: 999, name: "rob"),
        ConflictCase(policy: .mergeByPropertyStoreTrump, refused: false, salary: 300, name: "rob"),
    ]

    @Test(arguments: TestEngine.available, conflictCases)
    func aConflictWithTheParentFollowsTheMergePolicy(engine: TestEngine, c: ConflictCase) throws {
        let store = try F.seeded(engine)
        let parent = Context(store: store)
        let child = Context(parent: parent)
        child.mergePolicy = c.policy
        let bob = try F.one(child, "Emp", "bob")
        try bob.setValue(999, forKey: "salary")
        let parentBob = try F.one(parent, "Emp", "bob")
        try parentBob.setValue(300, forKey: "salary")
        try parentBob.setValue("rob", forKey: "name")
        if c.refused {
            do {
                try child.save()
                Issue.record("the save went through")
            } catch let error as MergeConflictError {
                let conflict = try #require(error.conflicts.first)
                #expect(error.conflicts.count == 1 && conflict.inParent && conflict.objectID == bob.objectID)
                #expect(conflict.keys.map(\.key) == ["name", "salary"])
                #expect(conflict.keys.last == MergeConflict.Key(key: "salary", read: .int(200), store: .int(300), new: .int(999)))
                #expect(error.description.contains("changed in the parent context"))
            }
            #expect(child.hasChanges && bob["salary"] == .int(999))
        } else {
            try child.save()
            #expect(!child.hasChanges)
            // The child's object ends as the parent's.
            #expect(bob["salary"] == .int(c.salary) && bob["name"] == .string(c.name))
        }
        #expect(parentBob["salary"] == .int(c.salary) && parentBob["name"] == .string(c.name))
        try parent.save()
        #expect(try F.employees(store).contains("'\(c.name)' \(c.salary) 'Sales'"))
    }

    @Test(arguments: TestEngine.available, [MergePolicy.error, .overwrite])
    func anObjectTheParentDeletedStaysDeleted(engine: TestEngine, policy: MergePolicy) throws {
        let parent = Context(store: try F.seeded(engine))
        let child = Context(parent: parent)
        child.mergePolicy = policy
        let bob = try F.one(child, "Emp", "bob")
        try bob.setValue(1, forKey: "salary")
        try parent.delete(try F.one(parent, "Emp", "bob"))
        if policy == .error {
            do {
                try child.save()
                Issue.record("the save went through")
            } catch let error as MergeConflictError {
                #expect(error.conflicts.count == 1 && error.conflicts[0].deletedInStore && error.conflicts[0].inParent)
                #expect(error.description.contains("was deleted in the parent context"))
            }
        } else {
            try child.save()
            #expect(bob.context == nil)
            #expect(parent.deletedObjects.count == 1 && parent.updatedObjects.allSatisfy { $0["name"] != .string("bob") })
        }
    }

    @Test(arguments: TestEngine.available)
    func concurrentToManyChangesAreMergedNotLost(engine: TestEngine) throws {
        let store = try F.seeded(engine)
        let parent = Context(store: store)
        let child = Context(parent: parent)
        // The child reads red's members, then the parent adds cat and the child adds… no one new but removes ann.
        try F.one(child, "Tag", "red").remove(try F.one(child, "Emp", "ann"), from: "emps")
        try F.one(parent, "Tag", "red").add(try F.one(parent, "Emp", "cat"), to: "emps")
        try child.save()
        try parent.save()
        #expect(try F.tagging(store) == ["'red' 'bob'", "'red' 'cat'"])
    }

    // MARK: - Refusals

    @Test(arguments: TestEngine.available)
    func whatAChildCannotDoIsRefused(engine: TestEngine) throws {
        let parent = Context(store: try F.seeded(engine))
        let child = Context(parent: parent)
        var batched = FetchRequest(entity: "Emp")
        batched.fetchBatchSize = 2
        #expect(throws: ChildContextError(operation: "fetchBatched")) { try child.fetchBatched(batched) }
        #expect(throws: ChildContextError(operation: "batchUpdate")) {
            try child.batchUpdate(entity: "Emp", predicate: nil, set: [("salary", try Parser.parseExpression("salary + 1"))])
        }
        #expect(throws: ChildContextError(operation: "batchDelete")) { try child.batchDelete(entity: "Emp", predicate: nil) }
        #expect(throws: ChildContextError(operation: "batchInsert")) { try child.batchInsert("Emp", objects: [["name": "x"]]) }
        let controller = FetchedResultsController(fetchRequest: FetchRequest(entity: "Emp", sortDescriptors: [QuerySortDescriptor("name")]), context: child)
        #expect(throws: ChildContextError(operation: "a fetched results controller")) { try controller.performFetch() }
        // The store saw nothing.
        #expect(try F.employees(parent.store) == Self.seedEmployees)
    }
}

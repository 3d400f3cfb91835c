// Validation on save: each kind of bad input is refused with the entity,
// object, property and reason, every failure of a save is reported at once,
// and a refused save leaves both the store (row for row) and the context's
// pending changes as they were. A failure inside the SQL transaction itself
// rolls back everything written before it.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Context: validation on save")
struct ContextValidationTests {
    /// Teams of 2–3 players (Deny on delete), codes of 2–5 UTF-16 units.
    static let teamModel = Model(entities: [
        Entity(name: "Team", attributes: [
            Attribute(name: "code", type: .string, isOptional: false, minimum: .int(2), maximum: .int(5)),
            Attribute(name: "blob", type: .binary, maximum: .int(3)),
            Attribute(name: "founded", type: .date, minimum: .date(0)),
            Attribute(name: "ratio", type: .double, minimum: .double(0), maximum: .double(1)),
        ], relationships: [
            Relationship(name: "players", destination: "Player", isToMany: true, isOptional: false, minCount: 2, maxCount: 3,
                         inverse: "team", deleteRule: .deny),
        ], uniquenessConstraints: [UniquenessConstraint(["code"])]),
        Entity(name: "Player", attributes: [Attribute(name: "name", type: .string)],
               relationships: [Relationship(name: "team", destination: "Team", isOptional: false, inverse: "players")]),
    ])

    /// Employee attribute values that must fail, with the reason.
    static let employeeCases: [(String, Value, ValidationReason)] = [
        ("name", .null, .required),
        ("salary", .null, .required),
        ("age", .int(15), .tooSmall(minimum: .int(16))),
        ("age", .int(121), .tooLarge(maximum: .int(120))),
        ("age", .int(40_000), .tooLarge(maximum: .int(32_767))),
        ("salary", .int(-1), .tooSmall(minimum: .int(0))),
        ("email", .string("not an address"), .patternMismatch(pattern: "[^@ ]+@[^@ ]+")),
        ("email", .string("a@b c"), .patternMismatch(pattern: "[^@ ]+@[^@ ]+")),
        ("salary", .string("lots"), .typeMismatch(expected: "Integer 64", got: "string")),
        ("active", .string("yes"), .typeMismatch(expected: "Boolean", got: "string")),
        ("startDate", .uuid(UUID()), .typeMismatch(expected: "Date", got: "UUID")),
    ]

    @Test(arguments: 0..<employeeCases.count)
    func badEmployeeValueIsRefused(index: Int) throws {
        let (key, value, reason) = Self.employeeCases[index]
        let (store, _) = try smallCompany()
        let before = try dump(store)
        let context = Context(store: store)
        let e = try context.insert("Employee")
        try e.setValue(.string("Dee"), forKey: "name")
        try e.setValue(value, forKey: key)
        let error = try #require(throws: ValidationError.self) { try context.save() }
        #expect(error.failures == [ValidationFailure(entity: "Employee", objectID: e.objectID, property: key, reason: reason)])
        #expect(error.description.contains("Employee.\(key)"))
        #expect(try dump(store) == before)
        #expect(e.isInserted && e.objectID.isTemporary && context.insertedObjects == [e])
    }

    @Test(arguments: TestEngine.available)
    func validValuesPass(engine: TestEngine) throws {
        let (store, _) = try smallCompany(engine)
        let context = Context(store: store)
        let e = try context.insert("Employee")
        for (key, value) in [("name", Value.string("Dee")), ("age", .int(16)), ("email", .string("dee@example.com")), ("salary", .int(0))] {
            try e.setValue(value, forKey: key)
        }
        try context.save()
        #expect(!e.objectID.isTemporary)
    }

    /// Team attribute values: lengths in UTF-16 units, dates, doubles.
    static let teamCases: [(String, Value, ValidationReason?)] = [
        ("code", .string("A"), .tooShort(minimumLength: 2, length: 1)),
        ("code", .string("ABCDEF"), .tooLong(maximumLength: 5, length: 6)),
        ("code", .string("😀"), nil),
        ("code", .string("😀😀😀"), .tooLong(maximumLength: 5, length: 6)),
        ("code", .string("Zoë"), nil),
        ("blob", .data([1, 2, 3, 4]), .tooLong(maximumLength: 3, length: 4)),
        ("blob", .data([1, 2, 3]), nil),
        ("founded", .date(-1), .tooSmall(minimum: .date(0))),
        ("ratio", .double(1.5), .tooLarge(maximum: .double(1))),
        ("ratio", .int(1), nil),
    ]

    @Test(arguments: 0..<teamCases.count)
    func teamAttribute(index: Int) throws {
        let (key, value, reason) = Self.teamCases[index]
        let store = try SQLStore(path: ":memory:", model: Self.teamModel)
        let context = Context(store: store)
        let team = try validTeam(context, players: 2)
        try team.setValue(value, forKey: key)
        if let reason {
            let error = try #require(throws: ValidationError.self) { try context.save() }
            #expect(error.failures == [ValidationFailure(entity: "Team", objectID: team.objectID, property: key, reason: reason)])
            #expect(try dump(store).isEmpty)
        } else {
            try context.save()
            #expect(try store.count(FetchRequest(entity: "Team")) == 1)
        }
    }

    @Test(arguments: [(0, ValidationReason.tooFewRelated(minimum: 2, count: 0)), (1, .tooFewRelated(minimum: 2, count: 1)),
                      (2, nil), (3, nil), (4, .tooManyRelated(maximum: 3, count: 4))])
    func toManyCounts(players: Int, reason: ValidationReason?) throws {
        let store = try SQLStore(path: ":memory:", model: Self.teamModel)
        let context = Context(store: store)
        let team = try validTeam(context, players: players)
        if let reason {
            let error = try #require(throws: ValidationError.self) { try context.save() }
            #expect(error.failures.map(\.reason) == [reason])
            #expect(error.failures.map(\.property) == ["players"])
        } else {
            try context.save()
            #expect(team.objects(forKey: "players").count == players)
        }
    }

    @Test func requiredToOne() throws {
        let context = Context(store: try SQLStore(path: ":memory:", model: Self.teamModel))
        let loner = try context.insert("Player")
        let error = try #require(throws: ValidationError.self) { try context.save() }
        #expect(error.failures == [ValidationFailure(entity: "Player", objectID: loner.objectID, property: "team", reason: .required)])
    }

    @Test func denyRefusesDeleteWhileRelatedObjectsRemain() throws {
        let store = try SQLStore(path: ":memory:", model: Self.teamModel)
        let context = Context(store: store)
        let team = try validTeam(context, players: 2)
        try context.save()
        let before = try dump(store)
        try context.delete(team)
        let error = try #require(throws: ValidationError.self) { try context.save() }
        #expect(error.failures == [ValidationFailure(entity: "Team", objectID: team.objectID, property: "players", reason: .deleteDenied(related: 2))])
        #expect(try dump(store) == before)
        #expect(team.isDeleted && context.deletedObjects == [team])
        // Deleting the players too is allowed.
        for p in team.objects(forKey: "players") { try context.delete(p) }
        try context.save()
        #expect(try dump(store).isEmpty)
    }

    @Test(arguments: TestEngine.available)
    func uniquenessAgainstTheStoreAndAmongPendingObjects(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        let before = try dump(store)
        let context = Context(store: store)
        let copy = try context.insert("Department")
        try copy.setValue(.string("Sales"), forKey: "name")
        let a = try context.insert("Department"), b = try context.insert("Department")
        try a.setValue(.string("New"), forKey: "name")
        try b.setValue(.string("New"), forKey: "name")
        let error = try #require(throws: ValidationError.self) { try context.save() }
        #expect(error.failures == [
            ValidationFailure(entity: "Department", objectID: copy.objectID, property: "name", reason: .notUnique(properties: ["name"], conflicting: ids["Sales"]!)),
            ValidationFailure(entity: "Department", objectID: b.objectID, property: "name", reason: .notUnique(properties: ["name"], conflicting: a.objectID)),
        ])
        #expect(try dump(store) == before)
        // Renaming the saved Sales in the same save frees its name.
        try context.object(with: ids["Sales"]!).setValue(.string("Old Sales"), forKey: "name")
        try b.setValue(.string("Newer"), forKey: "name")
        try context.save()
        #expect(try store.count(FetchRequest(entity: "Department")) == 5)
    }

    @Test(arguments: TestEngine.available)
    func everyFailureIsReportedAtOnce(engine: TestEngine) throws {
        let (store, _) = try smallCompany(engine)
        let context = Context(store: store)
        let e = try context.insert("Employee")
        try e.setValue(.int(200), forKey: "age")
        let d = try context.insert("Department")
        try d.setValue(.double(-5), forKey: "budget")
        let error = try #require(throws: ValidationError.self) { try context.save() }
        #expect(Set(error.failures.map { "\($0.entity).\($0.property)" }) == ["Employee.name", "Employee.age", "Department.name", "Department.budget"])
        #expect(error.description.contains("4 validation failures"))
    }

    @Test(arguments: TestEngine.available)
    func failedStatementRollsBackTheWholeSave(engine: TestEngine) throws {
        let (store, ids) = try smallCompany(engine)
        // A trigger makes the second statement of the save fail, after the first has run.
        switch engine {
        case .sqlite:
            try store.database.run("CREATE TRIGGER boom BEFORE UPDATE ON \"Employee\" BEGIN SELECT RAISE(ABORT, 'boom'); END")
        case .postgres:
            try store.database.run("CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'boom'; END $$")
            try store.database.run("CREATE TRIGGER boom BEFORE UPDATE ON \"Employee\" FOR EACH ROW EXECUTE FUNCTION boom()")
        }
        let before = try dump(store)
        let context = Context(store: store)
        let d = try context.insert("Department")
        try d.setValue(.string("Legal"), forKey: "name")
        try context.object(with: ids["Ann"]!).setValue(.int(1), forKey: "salary")
        #expect(throws: (any Error).self) { try context.save() }
        #expect(try dump(store) == before)
        #expect(d.isInserted && d.objectID.isTemporary && context.hasChanges)
        try store.database.run(engine == .sqlite ? "DROP TRIGGER boom" : "DROP TRIGGER boom ON \"Employee\"")
        try context.save()
        #expect(!d.objectID.isTemporary)
        #expect(try store.count(FetchRequest(entity: "Department")) == 3)
    }

    func validTeam(_ context: Context, players: Int) throws -> ManagedObject {
        let team = try context.insert("Team")
        try team.setValue(.string("T1"), forKey: "code")
        for i in 0..<players {
            let p = try context.insert("Player")
            try p.setValue(.string("P\(i)"), forKey: "name")
            try p.setValue(team, forKey: "team")
        }
        return team
    }
}

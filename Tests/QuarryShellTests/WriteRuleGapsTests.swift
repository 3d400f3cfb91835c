// The write rules beyond one attribute and the top level, on SQLite and
// PostgreSQL: a uniqueness constraint over several attributes checked
// before an UPDATE writes (in the model's words, the store untouched), a
// one-to-one set by UPDATE keeping its other side consistent or refused,
// and ISO 8601 text read as a date inside SUBQUERY predicates and function
// arguments — the same answer from the SQL and the memory engine.
import Foundation
import QuarryPostgresTestSupport
import Testing
@testable import QuarryShell

/// Rooms unique by (code, floor); desks and cars one-to-one with people
/// (the key on the Desk and Car rows: their "Entity.name" sorts first).
struct RoomsFixture {
    static let model = """
    entities:
      Building:
        attributes: { name: { type: string, optional: false } }
        relationships:
          rooms: { to: Room, many: true, inverse: building }
      Room:
        attributes:
          code: string
          floor: integer16
          opened: date
        relationships:
          building: { to: Building, inverse: rooms }
        unique: [[code, floor]]
      Person:
        attributes: { name: { type: string, optional: false } }
        relationships:
          desk: { to: Desk, inverse: owner }
          car: { to: Car, inverse: driver }
      Desk:
        attributes: { label: string }
        relationships:
          owner: { to: Person, inverse: desk }
      Car:
        attributes: { plate: string }
        relationships:
          driver: { to: Person, optional: false, inverse: car }
    """

    static let setUp = """
        INSERT Person {name: 'Ann'}; INSERT Person {name: 'Bob'};
        INSERT Desk {label: 'D1', owner: 'Person/1'}; INSERT Desk {label: 'D2'};
        INSERT Car {plate: 'C1', driver: 'Person/1'}; INSERT Car {plate: 'C2', driver: 'Person/2'};
        INSERT Building {name: 'Main'}; INSERT Building {name: 'Annex'};
        INSERT Room {code: 'A', floor: 1, opened: '2020-01-01', building: 1};
        INSERT Room {code: 'A', floor: 2, opened: '2021-06-01', building: 1};
        INSERT Room {code: 'B', floor: 1, opened: '2019-03-01', building: 2};
        """

    let session: ShellSession
    let capture = Capture()
    let snapshots: CompanyFixtureSnapshot

    init(_ database: TestDatabase) throws {
        let location = try database.freshLocation("rooms")
        let model = NSTemporaryDirectory() + "quarry-rooms-\(getpid())-\(UInt32.random(in: 0 ... .max)).yaml"
        try Self.model.write(toFile: model, atomically: true, encoding: .utf8)
        let made = runShell(location, model: model, Self.setUp)
        #expect(made.status == 0, "\(made)")
        let capture = self.capture
        session = ShellSession(location: location, output: { capture.out += $0 }, errors: { capture.err += $0 })
        #expect(session.setUp(modelPath: nil, openStore: true) == 0)
        snapshots = CompanyFixtureSnapshot(location: location, session: session)
    }

    func run(_ script: String, arguments: [Value] = []) -> Transcript {
        capture.out = ""
        capture.err = ""
        session.arguments = arguments
        let status = session.run(script, stopOnError: true)
        return Transcript(out: capture.out, err: capture.err, status: status)
    }
}

@Suite("Shell write rules: several attributes, one-to-one, dates inside", .serialized)
struct WriteRuleGapsTests {
    /// (statement, %@ arguments, error code, what the message says)
    static let refused: [(String, [Value], String, String)] = [
        ("UPDATE Room SET floor = 1 WHERE code == 'A' AND floor == 2", [], "R007", "Room.code+floor 'A', 1 already exists (Room/1)"),
        ("UPDATE Room SET code = 'A' WHERE code == 'B'", [], "R007", "Room.code+floor 'A', 1 already exists (Room/1)"),
        ("UPDATE Room SET floor = 3", [], "R007", "Room.code+floor must be unique; the update would give 'A', 3 to both Room/1 and Room/2"),
        ("UPDATE Room SET code = 'C', floor = 5", [], "R007", "Room.code+floor must be unique; the update would give 'C', 5 to 3 objects"),
        ("INSERT Room {code: 'B', floor: 1}", [], "R006", "Room.code+floor 'B', 1 already exists (Room/3)"),
        ("UPDATE Desk SET owner = %@", [.string("Person/1")], "R007", "Desk.owner is one-to-one (Person.desk); the update would give Person/1 to 2 objects"),
        ("UPDATE Car SET driver = 1 WHERE plate == 'C2'", [], "R007", "Car.driver is one-to-one (Person.car); Person/1 belongs to Car/1, whose driver is required"),
        ("UPDATE Person SET desk = 2 WHERE name == 'Bob'", [], "R004", "Person.desk is kept on the Desk side; set it there"),
    ]

    static var cases: [(TestDatabase, Int)] { TestDatabase.available.flatMap { d in refused.indices.map { (d, $0) } } }

    @Test(arguments: cases)
    func refusedWritesChangeNothing(database: TestDatabase, index: Int) throws {
        let (statement, arguments, code, fragment) = Self.refused[index]
        let rooms = try RoomsFixture(database)
        let before = try rooms.snapshots.snapshot()
        let t = rooms.run(statement + ";", arguments: arguments)
        #expect(t.status == 1, "\(statement): \(t)")
        #expect(t.err.contains("error[\(code)]") && t.err.contains(fragment), "\(statement): \(t)")
        for leak in ["SQLite error", "UPDATE \"", "SQLSTATE", "constraint failed"] { #expect(!t.err.contains(leak), "\(statement): \(t)") }
        #expect(try rooms.snapshots.snapshot() == before, "\(statement) changed the store")
        // In a transaction rolled back, the store is as it was too.
        let rolledBack = rooms.run("BEGIN; UPDATE Room SET floor = 9 WHERE code == 'B'; ROLLBACK;")
        #expect(rolledBack.status == 0, "\(rolledBack)")
        #expect(try rooms.snapshots.snapshot() == before, "a rolled-back transaction changed the store")
    }

    @Test(arguments: TestDatabase.available)
    func allowedUpdatesKeepTheRules(database: TestDatabase) throws {
        let rooms = try RoomsFixture(database)
        rooms.session.mode = .csv
        // Giving an object the values it already has, or values no one holds.
        var t = rooms.run("UPDATE Room SET floor = 1 WHERE code == 'A' AND floor == 1; UPDATE Room SET floor = 4 WHERE code == 'B';"
                          + " FETCH Room PROPERTIES code, floor SORT BY code, floor;")
        #expect(t.status == 0 && t.out.hasSuffix("code,floor\r\nA,1\r\nA,2\r\nB,4\r\n"), "\(t)")
        // A desk moves to Ann: her old desk lets go of her (one-to-one), on both sides.
        t = rooms.run("UPDATE Desk SET owner = %@ WHERE label == 'D2'; FETCH Desk PROPERTIES label, owner.name SORT BY label;"
                      + " FETCH Person PROPERTIES name, desk.label SORT BY name;", arguments: [.string("Person/1")])
        #expect(t.status == 0, "\(t)")
        #expect(t.out.contains("label,owner.name\r\nD1,\r\nD2,Ann\r\n"), "\(t)")
        #expect(t.out.contains("name,desk.label\r\nAnn,D2\r\nBob,\r\n"), "\(t)")
        // A car's driver moved to a person without a car: nothing else changes.
        t = rooms.run("UPDATE Car SET driver = 2 WHERE plate == 'C2'; COUNT Car WHERE driver == nil;")
        #expect(t.status == 0 && t.out.hasSuffix("count\r\n0\r\n"), "\(t)")
    }

    /// (predicate on Building or Room, the rooms or buildings it must count)
    static let dates: [(String, String, Int)] = [
        ("Building", "SUBQUERY(rooms, $r, $r.opened >= '2020-01-01').@count == 2", 1),
        ("Building", "SUBQUERY(rooms, $r, $r.opened >= '2020-01-01').@count >= 1", 1),
        ("Building", "SUBQUERY(rooms, $r, $r.opened < '2020-01-01T00:00:00Z').@count > 0", 1),
        ("Building", "SUBQUERY(rooms, $r, $r.opened BETWEEN {'2019-01-01', '2020-12-31'}).@count == 1", 2),
        ("Building", "SUBQUERY(rooms, $r, SUBQUERY($r.building.rooms, $s, $s.opened > '2021-01-01').@count > 0).@count > 0", 1),
        ("Room", "opened == max:({opened, '2020-06-01'})", 1),
        ("Room", "opened >= min:({'2020-01-01', '2021-01-01'})", 2),
        ("Room", "NOT (opened < '2020-01-01') AND building.name == 'Main'", 2),
    ]

    static var dateCases: [(TestDatabase, Int)] { TestDatabase.available.flatMap { d in dates.indices.map { (d, $0) } } }

    @Test(arguments: dateCases)
    func isoDatesInsideSubqueriesAndFunctions(database: TestDatabase, index: Int) throws {
        let (entity, predicate, expected) = Self.dates[index]
        let rooms = try RoomsFixture(database)
        rooms.session.mode = .csv
        for engine in ["sql", "memory"] {
            let t = rooms.run(".engine \(engine)\nCOUNT \(entity) WHERE \(predicate);")
            #expect(t.status == 0 && t.out == "count\r\n\(expected)\r\n", "\(engine): \(predicate): \(t)")
        }
    }
}

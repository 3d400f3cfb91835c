// The model's rules on the shell's writes, on SQLite and PostgreSQL: every
// refused INSERT and UPDATE fails with its code and the model's words (never
// the database's message or SQL), and leaves the store exactly as it was —
// the SQLite file (and its WAL) byte for byte, every PostgreSQL table row
// for row. Then what the rules let through: a to-one set from an object
// reference, `SET %K`, and ISO 8601 text for dates in INSERT, UPDATE and
// comparisons.
import Foundation
import QuarryPostgresTestSupport
import Testing
@testable import QuarryShell

/// A company store (the embedded example's data) for one test, with a session on it.
struct CompanyFixture {
    let location: StoreLocation
    let session: ShellSession
    let capture = Capture()

    init(_ database: TestDatabase, arguments: [Value] = []) throws {
        location = try database.freshLocation("rules")
        let store = try location.openStore(model: try DefaultStore.model(), modelFile: StoreModelTests.company)
        try DefaultStore.fill(store)
        store.database.close()
        let capture = self.capture
        session = ShellSession(location: location, output: { capture.out += $0 }, errors: { capture.err += $0 })
        session.arguments = arguments
        #expect(session.setUp(modelPath: nil, openStore: true) == 0)
    }

    /// Runs one script; returns its status and what it printed.
    func run(_ script: String) -> Transcript {
        capture.out = ""
        capture.err = ""
        let status = session.run(script, stopOnError: true)
        return Transcript(out: capture.out, err: capture.err, status: status)
    }

    func snapshot() throws -> [String] { try CompanyFixtureSnapshot(location: location, session: session).snapshot() }
}

/// Everything a store holds: the SQLite file and its WAL as bytes, or every
/// PostgreSQL table's rows in key order.
struct CompanyFixtureSnapshot {
    let location: StoreLocation
    let session: ShellSession

    func snapshot() throws -> [String] {
        switch location {
        case .sqlite(let path):
            return ["", "-wal"].map { suffix in
                (FileManager.default.contents(atPath: path + suffix) ?? Data()).base64EncodedString()
            }
        default:
            let database = try #require(session.openStore).database
            return try database.tableNames().sorted().map { table in
                "\(table): " + (try database.rows("SELECT * FROM \"\(table)\" ORDER BY 1, 2")).map { "\($0)" }.joined(separator: "; ")
            }
        }
    }
}

@Suite("Shell write rules", .serialized)
struct WriteRulesTests {
    /// (statement, its %@ arguments, error code, what the message says)
    static let refused: [(String, [Value], String, [String])] = [
        ("INSERT Employee {age: 200}", [], "R006", ["2 rules failed", "Employee.name is required", "Employee.age is greater than the maximum 120"]),
        ("INSERT Employee {name: 'X', email: 'nope'}", [], "R006", ["Employee.email does not match the pattern"]),
        ("INSERT Employee {name: 'X', age: 99999}", [], "R006", ["Employee.age"]),
        ("INSERT Employee {name: 'X', startDate: 'soon'}", [], "R006", ["Employee.startDate holds Date"]),
        ("INSERT Department {name: 'Sales'}", [], "R006", ["Department.name 'Sales' already exists (Department/2)"]),
        ("INSERT Employee {name: 'X', department: 99}", [], "R007", ["Employee.department: no Department/99"]),
        ("INSERT Employee {name: 'X', department: %@}", [.string("Employee/2")], "S008", ["takes a Department, not Employee/2"]),
        ("INSERT Employee {name: 'X', department: 'Foo/3'}", [], "S008", ["no entity 'Foo'"]),
        ("UPDATE Employee SET age = 99999999999", [], "R006", ["Employee.age is an integer16 (-32768…32767)"]),
        ("UPDATE Employee SET age = age * 1000 WHERE age > 40", [], "R006", ["Employee.age is an integer16 (-32768…32767)"]),
        ("UPDATE Employee SET salary = salary * 99999999999999", [], "R006", ["Employee.salary"]),
        ("UPDATE Employee SET salary = 1.5", [], "R006", ["Employee.salary holds Integer 64, not a number with a fraction"]),
        ("INSERT Employee {name: 'X', projects: 1}", [], "B003", ["'projects' is a to-many relationship of Employee"]),
        ("UPDATE Employee SET age = 'old'", [], "R006", ["Employee.age holds Integer 16, not string"]),
        ("UPDATE Employee SET startDate = 'not a date'", [], "R006", ["Employee.startDate holds Date, not string"]),
        ("UPDATE Employee SET name = nil", [], "R006", ["Employee.name is required"]),
        ("UPDATE Department SET name = 'Sales' WHERE name == 'Legal'", [], "R007", ["Department.name 'Sales' already exists (Department/2)"]),
        ("UPDATE Department SET name = 'Same'", [], "R007", ["Department.name must be unique; the update would give 'Same' to 10 objects"]),
        ("UPDATE Employee SET department = 99 WHERE name BEGINSWITH 'J'", [], "R007", ["Employee.department: no Department/99"]),
        ("UPDATE Employee SET department = %@", [.string("Employee/2")], "S008", ["takes a Department, not Employee/2"]),
    ]

    static var cases: [(TestDatabase, Int)] { TestDatabase.available.flatMap { d in refused.indices.map { (d, $0) } } }

    @Test(arguments: cases)
    func refusedWritesChangeNothing(database: TestDatabase, index: Int) throws {
        let (statement, arguments, code, fragments) = Self.refused[index]
        let company = try CompanyFixture(database, arguments: arguments)
        let before = try company.snapshot()
        let t = company.run(statement + ";")
        #expect(t.status != 0, "\(statement): \(t)")
        #expect(t.err.contains("error[\(code)]"), "\(statement): \(t)")
        for fragment in fragments { #expect(t.err.contains(fragment), "\(statement): \(t)") }
        // Never the database's own words or the SQL that failed.
        for leak in ["SQLite error", "INSERT INTO", "UPDATE \"", "SQLSTATE", "constraint failed"] {
            #expect(!t.err.contains(leak), "\(statement): \(t)")
        }
        #expect(try company.snapshot() == before, "\(statement) changed the store")
    }

    /// Deny: deleting a publisher that still has books is refused in the
    /// model's words, and deletes nothing; a book's ISBN keeps its pattern.
    @Test(arguments: TestDatabase.available)
    func denyAndPatternsOnTheBooksModel(database: TestDatabase) throws {
        let location = try database.freshLocation("books")
        let books = packageRoot.appendingPathComponent("Examples/Models/Books.yaml").path
        let setUp = runShell(location, model: books, """
            INSERT Publisher {name: 'Penguin'};
            INSERT Book {title: 'Le Petit Prince', isbn: '9782070612758', price: 8.5, publisher: 1};
            """)
        #expect(setUp.status == 0, "\(setUp)")
        let capture = Capture()
        let session = ShellSession(location: location, output: { capture.out += $0 }, errors: { capture.err += $0 })
        #expect(session.setUp(modelPath: nil, openStore: true) == 0)
        let fixture = CompanyFixtureSnapshot(location: location, session: session)
        for (statement, code, fragment) in [
            ("DELETE Publisher WHERE name == 'Penguin'", "R006", "Publisher.books has the Deny rule"),
            ("INSERT Book {title: 'X', isbn: '12'}", "R006", "Book.isbn does not match the pattern"),
            ("INSERT Book {title: 'X', isbn: '9782070612758'}", "R006", "Book.isbn '9782070612758' already exists (Book/1)"),
            ("INSERT Book {title: 'X', isbn: '9780000000001', price: -1}", "R006", "Book.price is less than the minimum 0"),
        ] {
            let before = try fixture.snapshot()
            capture.err = ""
            #expect(session.run(statement + ";", stopOnError: true) == 1, "\(statement): \(capture.err)")
            #expect(capture.err.contains("error[\(code)]") && capture.err.contains(fragment), "\(statement): \(capture.err)")
            #expect(try fixture.snapshot() == before, "\(statement) changed the store")
        }
    }

    @Test(arguments: TestDatabase.available)
    func allowedWritesFollowTheModel(database: TestDatabase) throws {
        let company = try CompanyFixture(database)
        let one = "email == 'employee1@example.com'"
        // A to-one set from an object reference, and a key given as %K
        // (each statement reads the --arg values from the first).
        company.session.arguments = [.string("Department/3")]
        var t = company.run("UPDATE Employee SET department = %@ WHERE \(one);")
        #expect(t.status == 0 && t.out == "updated 1 object\n", "\(t)")
        company.session.arguments = [.string("age")]
        t = company.run("UPDATE Employee SET %K = 33 WHERE \(one);")
        #expect(t.status == 0 && t.out == "updated 1 object\n", "\(t)")
        company.session.arguments = []
        company.session.mode = .csv
        t = company.run("FETCH Employee PROPERTIES department.name, age WHERE \(one);")
        #expect(t.out.contains("Marketing,33"), "\(t)")
        // ISO 8601 text for a date: in INSERT, UPDATE and comparisons, as the shell prints dates.
        t = company.run("""
            INSERT Employee {name: 'Dana', startDate: '2020-02-03T04:05:06Z', department: 'Department/2'};
            UPDATE Employee SET startDate = '2019-01-01' WHERE \(one);
            FETCH Employee PROPERTIES name, startDate WHERE startDate <= '2020-02-03T04:05:06Z' AND startDate >= '2019-01-01' SORT BY startDate;
            COUNT Employee WHERE startDate == '2019-01-01T00:00:00Z' OR startDate BETWEEN {'2020-02-03T04:05:06Z', '2020-02-03T04:05:06Z'};
            """)
        #expect(t.status == 0, "\(t)")
        #expect(t.out.contains("inserted\r\nEmployee/201\r\n"), "\(t)")
        #expect(t.out.contains("name,startDate\r\nŁukasz Smith,2019-01-01T00:00:00Z\r\n"), "\(t)")
        #expect(t.out.contains("Dana,2020-02-03T04:05:06Z\r\ncount\r\n2\r\n"), "\(t)")
        // Setting a to-one to nil.
        t = company.run("UPDATE Employee SET department = nil WHERE \(one); COUNT Employee WHERE department == nil;")
        #expect(t.status == 0 && t.out.hasSuffix("count\r\n1\r\n"), "\(t)")
    }
}

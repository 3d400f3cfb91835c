// The differential test: every predicate runs twice on the same store —
// lowered to SQL (with its residual), and in memory by the evaluator over the
// fetched objects — and both must select exactly the same objects, on every
// engine (SQLite, and PostgreSQL when there is a server), and PostgreSQL's
// SQL must select what SQLite's does. Hand-picked predicates cover each
// operator family and Apple's nil rules; thousands of random ones, from a
// fixed seed, cover their combinations.
import Foundation
import Testing
@testable import QuarryStore

/// SplitMix64, seeded: the same fixture and predicates on every machine.
struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum Fixture {
    static let modelPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/Models/Company.yaml").path
    static let names = ["José", "Zoë", "Müller", "MÜLLER", "muller", "John", "joanna", "Łukasz", "Anna", "Jörg", "佐藤",
                        "e\u{301}mile", "O'Brien", "100%", "a_b", "star*", "what?", "back\\slash", "", "İsmail", "ıvan", "Straße", "J\u{30C}ordan"]

    /// A store with departments, employees and projects, nulls included.
    static func store(seed: UInt64 = 42, engine: TestEngine = .sqlite) throws -> SQLStore {
        let store = try engine.emptyStore(model: try ModelReader.read(from: modelPath))
        var rng = Seeded(state: seed)
        var departments: [ObjectID] = []
        for d in 0..<8 {
            var values: [String: Value] = ["name": .string(["Sales", "R&D", "Zoë's", "Marketing", "Ops", "Legal", "Support", "Empty"][d])]
            if d % 3 != 0 { values["budget"] = .double(Double(Int.random(in: 0...1_000_000, using: &rng))) }
            departments.append(try store.insert("Department", values))
        }
        var projects: [ObjectID] = []
        for p in 0..<12 {
            var values: [String: Value] = ["name": .string(["Apollo", "Gemini", "Zeus", "Ünïcode", "Mercury", "a*b"][p % 6] + " \(p)")]
            values["budget"] = .double(Double(Int.random(in: 0...500, using: &rng)))
            if p % 4 != 0 { values["deadline"] = .date(Double(Int.random(in: 0...1_000_000_000, using: &rng))) }
            projects.append(try store.insert("Project", values))
        }
        for e in 0..<160 {
            var values: [String: Value] = [
                "name": .string(names[Int.random(in: 0..<names.count, using: &rng)] + (e % 5 == 0 ? "" : " \(e % 13)")),
                "salary": .int(Int64(Int.random(in: 0...200_000, using: &rng))),
                "active": .bool(Bool.random(using: &rng)),
            ]
            if e % 7 != 0 { values["age"] = .int(Int64(Int.random(in: 16...90, using: &rng))) }
            if e % 3 != 0 { values["startDate"] = .date(Double(Int.random(in: -100_000_000...800_000_000, using: &rng))) }
            if e % 4 != 0 { values["email"] = .string("user\(e)@example.com") }
            var toOne: [String: ObjectID] = [:]
            if e % 9 != 0 { toOne["department"] = departments[Int.random(in: 0..<7, using: &rng)] }
            let id = try store.insert("Employee", values, toOne: toOne)
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                try store.link(id, "projects", projects[Int.random(in: 0..<projects.count, using: &rng)])
            }
        }
        return store
    }
}

/// The primary keys each engine selects, or the code of the error it
/// raised: two engines that both fail agree only if they fail the same way.
func outcomes(_ store: SQLStore, _ entity: String, _ format: String) throws -> (sql: EngineOutcome, memory: EngineOutcome) {
    let predicate = try Parser.parsePredicate(format)
    let request = FetchRequest(entity: entity, predicate: predicate)
    let sql = EngineOutcome { try store.fetch(request, engine: .sql) }
    let memory = EngineOutcome { try store.fetch(request, engine: .memory) }
    return (sql, memory)
}

@Suite("Differential: SQL and memory agree", .serialized)
struct DifferentialTests {
    static let stores = EngineStores { try Fixture.store(engine: $0) }

    /// Both engines' SQL, memory, and (off SQLite) SQLite's SQL agree.
    func check(_ engine: TestEngine, _ entity: String, _ format: String) throws {
        let (sql, memory) = try outcomes(try Self.stores.store(engine), entity, format)
        #expect(sql == memory, "\(format): sql \(sql), memory \(memory)")
        if engine != .sqlite {
            let (reference, _) = try outcomes(try Self.stores.store(.sqlite), entity, format)
            #expect(sql == reference, "\(format): \(engine) sql \(sql), sqlite \(reference)")
        }
    }

    static let employeePredicates: [String] = [
        "salary > 50000", "salary == 0", "salary != 100", "age > 40", "NOT (age > 40)", "age == nil", "age != nil",
        "NOT (age == nil)", "age < nil", "age BETWEEN {20, 30}", "NOT age BETWEEN {20, 30}", "age IN {20, 30, 40, nil}",
        "NOT (age IN {20, 30})", "age == '30'", "age != '30'", "active == YES", "active == NO", "active != YES",
        "name == 'José'", "name ==[c] 'josé'", "name ==[d] 'Jose'", "name ==[cd] 'jose'", "name ==[cd] 'muller'",
        "name BEGINSWITH 'Jo'", "name BEGINSWITH[c] 'jo'", "name BEGINSWITH[cd] 'jo'", "name BEGINSWITH[cd] 'e'",
        "name ENDSWITH '3'", "name ENDSWITH[c] 'SE'", "name CONTAINS 'ü'", "name CONTAINS[cd] 'u'", "name CONTAINS[c] 'ss'",
        "name LIKE 'J*'", "name LIKE[c] 'j?s*'", "name LIKE '*%*'", "name LIKE '*_*'", "name LIKE '*\\\\**'",
        "name LIKE '*\\\\?*'", "name LIKE ''", "name MATCHES '[A-Z].*'", "name MATCHES[c] 'j.*'", "name == ''",
        "name < 'M'", "name >= 'a'", "name <[c] 'm'", "'an' IN name", "'AN' IN[c] name", "name IN {'Anna', 'Zoë 1'}",
        "name IN[cd] {'anna', 'zoe'}", "email == nil", "email ENDSWITH '.com'", "NOT (email ENDSWITH '.com')",
        "startDate > CAST(0, 'NSDate')", "startDate < CAST(0, 'NSDate') OR startDate == nil",
        "department == nil", "department != nil", "department.name == 'Sales'", "department.name != 'Sales'",
        "NOT (department.name == 'Sales')", "department.budget > 500000", "department.budget == nil",
        "ANY projects.budget > 250", "ALL projects.budget > 250", "NONE projects.budget > 250",
        "NOT (ANY projects.budget > 250)", "ANY projects.name BEGINSWITH 'A'", "projects.@count == 0", "projects.@count > 1",
        "projects.@sum.budget > 500", "projects.@avg.budget > 200", "projects.@max.budget < 100", "projects.@min.budget == nil",
        "count:(projects) >= 2", "SUBQUERY(projects, $p, $p.budget > 100 AND $p.name CONTAINS 'o').@count > 0",
        "'Zeus 2' IN projects.name", "(salary + 1000) * 2 > 150000", "salary - age > 1000", "salary / 2 > 30000",
        "salary ** 2 > 4", "salary > 100000 OR (age < 30 AND active == YES)", "NOT (salary > 100000 OR age < 30)",
        "TRUEPREDICATE", "FALSEPREDICATE", "NOT TRUEPREDICATE", "department.employees.@count > 20",
        "ANY department.employees.salary > 190000", "salary > 50000 AND FUNCTION(SELF, 'missing') == 1",
        "active == 1", "active == 2", "name BEGINSWITH[c] 'ǰ'", "name ==[c] 'ǰordan 1'", "name IN[c] {'ǰordan', 'x'}", "age == 30.0", "age > 29.5", "salary & 1 == 1", "salary | 1 == salary",
        // A part that raises (CAST of a name that is no number) beside parts that decide:
        // SQLite sends MATCHES[c] and ENDSWITH to SQL, PostgreSQL keeps MATCHES[c] in
        // memory; the answers agree because an error stands only when no part decides.
        "CAST(name, 'NSNumber') == nil AND (name MATCHES[c] 'j.*' AND email ENDSWITH 'müller')",
        "CAST(name, 'NSNumber') == nil AND name MATCHES[c] 'zz.*'", "name MATCHES[c] 'zz.*' AND CAST(name, 'NSNumber') == nil",
        "CAST(name, 'NSNumber') == 1 OR name MATCHES[c] '.*'",
        // PostgreSQL would compile these for minutes or call them too complex: they run in memory there.
        "name MATCHES '" + String(repeating: "J?", count: 300) + ".*'", "name MATCHES '(a{1,255}){1,255}|J.*'",
    ]

    @Test(arguments: TestEngine.available, employeePredicates)
    func employeePredicate(engine: TestEngine, format: String) throws {
        try check(engine, "Employee", format)
    }

    static let departmentPredicates: [String] = [
        "ANY employees.salary > 190000", "ALL employees.active == YES", "NONE employees.age < 20", "employees.@count > 20",
        "employees.@count == 0", "employees.@avg.salary > 100000", "employees.@sum.salary > 2000000",
        "average:(employees.salary) > 90000", "max:(employees.age) > 85", "SUBQUERY(employees, $e, $e.age > 60).@count > 3",
        "SUBQUERY(employees, $e, SUBQUERY($e.projects, $p, $p.budget > 400).@count > 0).@count > 2",
        "ANY employees.projects.budget > 490", "ANY employees.department.name == 'Sales'", "budget > 100000", "name ==[cd] \"zoe's\"",
    ]

    @Test(arguments: TestEngine.available, departmentPredicates)
    func departmentPredicate(engine: TestEngine, format: String) throws {
        try check(engine, "Department", format)
    }

    @Test(arguments: TestEngine.available)
    func sortedFetchesAgree(engine: TestEngine) throws {
        let store = try Self.stores.store(engine)
        for sorts in [[QuerySortDescriptor("name")], [QuerySortDescriptor("age", ascending: false), QuerySortDescriptor("name")],
                      [QuerySortDescriptor("department.name"), QuerySortDescriptor("salary", ascending: false)],
                      [QuerySortDescriptor("name", caseInsensitive: true)], [QuerySortDescriptor("startDate")]] {
            var request = FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary > 20000"), sortDescriptors: sorts)
            request.fetchLimit = 25
            request.fetchOffset = 5
            let sql = try store.fetch(request, engine: .sql).map(\.id.primaryKey)
            let memory = try store.fetch(request, engine: .memory).map(\.id.primaryKey)
            #expect(sql == memory, "\(sorts)")
            #expect(sql.count == 25)
            if engine != .sqlite {
                #expect(sql == (try Self.stores.store(.sqlite).fetch(request, engine: .sql).map(\.id.primaryKey)), "\(sorts)")
            }
        }
    }
}

/// 1,500 random predicates from a fixed seed, in five slices that run side
/// by side, each on stores of its own (the differential suite above shares
/// its stores and so runs serialized; this test, inside it, ran alone on
/// one core for the last minute of the whole test run).
@Suite("Differential: SQL and memory agree on random predicates")
struct RandomDifferentialTests {
    static let predicates: [String] = {
        var rng = Seeded(state: 7)
        var generator = PredicateGenerator()
        return (0..<1_500).map { _ in generator.predicate(depth: 3, using: &rng) }
    }()
    static let slices = 5

    @Test(arguments: TestEngine.available, 0..<slices)
    func randomPredicatesAgree(engine: TestEngine, slice: Int) throws {
        let store = try Fixture.store(engine: engine)
        let reference = engine == .sqlite ? store : try Fixture.store(engine: .sqlite)
        let size = Self.predicates.count / Self.slices
        var disagreements: [String] = []
        var checked = 0
        for format in Self.predicates[(slice * size)..<((slice + 1) * size)] {
            let (sql, memory) = try outcomes(store, "Employee", format)
            if sql != memory { disagreements.append(format) }
            if engine != .sqlite, try outcomes(reference, "Employee", format).sql != sql { disagreements.append("\(format) (vs sqlite)") }
            checked += 1
        }
        #expect(checked == size)
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(checked) disagree, e.g. \(disagreements.prefix(5))")
    }
}

/// Random Employee predicates over every operator family the store supports.
struct PredicateGenerator {
    let strings = ["'Jo'", "'jo'", "'josé'", "'ZOË'", "'muller'", "'3'", "''", "'%'", "'a_b'", "'*'", "'?'", "'e'", "'ss'", "'İ'", "'ı'"]
    let patterns = ["'J*'", "'*o*'", "'?o*'", "'*\\\\**'", "'*%*'", "'a_b*'", "''", "'*'"]

    func pick<T>(_ items: [T], _ rng: inout Seeded) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }

    mutating func predicate(depth: Int, using rng: inout Seeded) -> String {
        if depth > 0 && Int.random(in: 0..<3, using: &rng) == 0 {
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: return "NOT (" + predicate(depth: depth - 1, using: &rng) + ")"
            case 1: return "(" + predicate(depth: depth - 1, using: &rng) + " AND " + predicate(depth: depth - 1, using: &rng) + ")"
            default: return "(" + predicate(depth: depth - 1, using: &rng) + " OR " + predicate(depth: depth - 1, using: &rng) + ")"
            }
        }
        let options = pick(["", "[c]", "[d]", "[cd]", "[n]"], &rng)
        switch Int.random(in: 0..<11, using: &rng) {
        case 0: return "name \(pick(["==", "!=", "<", ">=", "BEGINSWITH", "ENDSWITH", "CONTAINS"], &rng))\(options) \(pick(strings, &rng))"
        case 1: return "name LIKE\(options) \(pick(patterns, &rng))"
        case 2: return "age \(pick(["==", "!=", "<", "<=", ">", ">="], &rng)) \(pick(["30", "nil", "45.5", "'30'", "0"], &rng))"
        case 3: return "salary \(pick(["BETWEEN {50000, 150000}", "IN {0, 100, 50000}", "> 100000", "< 20000"], &rng))"
        case 4: return "active \(pick(["==", "!="], &rng)) \(pick(["YES", "NO", "nil", "1"], &rng))"
        case 5: return "department.name \(pick(["==", "!=", "BEGINSWITH", "CONTAINS"], &rng))\(options) \(pick(["'Sales'", "'zoe'", "'s'", "nil"], &rng))"
        case 6: return "\(pick(["ANY", "ALL", "NONE"], &rng)) projects.\(pick(["budget > 250", "budget < 100", "name CONTAINS[cd] 'o'", "deadline == nil"], &rng))"
        case 7: return "projects.@\(pick(["count", "sum.budget", "avg.budget", "max.budget", "min.budget"], &rng)) \(pick([">", "<", "=="], &rng)) \(pick(["0", "1", "250", "nil"], &rng))"
        case 8: return "\(pick(["email", "startDate", "department", "age", "department.budget"], &rng)) \(pick(["==", "!="], &rng)) nil"
        case 9: return "startDate \(pick([">", "<"], &rng)) CAST(\(pick(["0", "300000000", "-50000000"], &rng)), 'NSDate')"
        default: return "SUBQUERY(projects, $p, $p.budget > \(pick(["100", "300"], &rng))).@count \(pick([">", "=="], &rng)) \(pick(["0", "1"], &rng))"
        }
    }
}

// The pieces: regular expressions generated and matched (checked against
// NSRegularExpression), realistic values by attribute name, factory
// generators (sequence, oneOf with weights, range with step, date range,
// expression, null ratio), relationship distributions, edge-case contents,
// the example factories' counts, and the command's outcomes.
import Foundation
import Testing
@testable import QuarryFixtures

@Suite struct GeneratorTests {
    static let patterns = ["[A-Z]{3}-[0-9]{4}", "[^@ ]+@[^@ ]+", "[0-9]{9}[0-9X]|97[89][0-9]{10}", "(ab|cd)+x?", "\\d{3}\\.\\w+",
                           "[a-z]{2,5}(-[a-z]{2,5}){0,3}", "colou?r", "a.c", "[\\d_]+", "(?:x|y){2}z*"]

    @Test(arguments: patterns)
    func patternsGenerateMatchingStrings(_ pattern: String) throws {
        let p = try RegexPattern(pattern)
        let icu = try NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z")
        var r = FixtureRandom(seed: 5)
        for _ in 0..<300 {
            let s = p.generate(&r)
            #expect(icu.firstMatch(in: s, range: NSRange(location: 0, length: s.utf16.count)) != nil, "\(s)")
            #expect(p.matches(s))
        }
    }

    @Test(arguments: [("[A-Z]{3}", "ABC", true), ("[A-Z]{3}", "ABCD", false), ("[^@ ]+@[^@ ]+", "a b@c", false),
                      ("[^@ ]+@[^@ ]+", "jose.muller@example.com", true), ("a|ab", "ab", true), ("(a+)+b", "aaaaaaaaaaaaaaaaaaaaaaab", true),
                      ("x*", "", true), ("[0-9]{9}[0-9X]|97[89][0-9]{10}", "9780306406157", true), ("colou?r", "colour", true)])
    func matcherAgreesWithICU(_ pattern: String, _ text: String, _ expected: Bool) throws {
        #expect(try RegexPattern(pattern).matches(text) == expected)
        let icu = try NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z")
        #expect((icu.firstMatch(in: text, range: NSRange(location: 0, length: text.utf16.count)) != nil) == expected)
    }

    @Test(arguments: ["(?=a)b", "\\bword", "\\p{L}+", "(a", "[z-a]"])
    func unsupportedPatternsSaySo(_ pattern: String) {
        #expect(throws: RegexPattern.Unsupported.self) { try RegexPattern(pattern) }
    }

    @Test func realisticValuesByName() throws {
        let model = try ModelReader.read(from: Fixtures.examples + "/Models/Company.yaml")
        let employees = try FixtureGenerator(model: model, seed: 8, counts: ["Employee": 2_000]).objects(of: "Employee")
        let names = employees.compactMap { if case .string(let s)? = $0["name"] { s } else { nil } }
        let nonASCII = names.filter { !$0.allSatisfy(\.isASCII) }
        #expect(Double(nonASCII.count) / Double(names.count) > 0.15)
        #expect(names.contains { $0.unicodeScalars.contains { $0.value >= 0x4E00 } })   // CJK
        let salaries = employees.compactMap { if case .int(let n)? = $0["salary"] { n } else { nil } }
        #expect(salaries.allSatisfy { (30_000...180_000).contains($0) && $0 % 500 == 0 || $0 == 50_000 })
        let emails = employees.compactMap { if case .string(let s)? = $0["email"] { s } else { nil } }
        #expect(emails.allSatisfy { $0.contains("@") && $0.allSatisfy(\.isASCII) })
        // E-mail from the row's own name: "José Müller" → jose.muller@...
        let paired = employees.filter { if case .string(let n)? = $0["name"], case .string(let e)? = $0["email"] {
            TextMaker.emailLocalPart(n).isEmpty || e.hasPrefix(TextMaker.emailLocalPart(n)) } else { true } }
        #expect(paired.count == employees.count)
        let nulls = employees.filter { $0["age"] == .null }.count
        #expect(nulls > 100 && nulls < 320) // optional: about 10 % null
    }

    @Test func factoryGenerators() throws {
        let model = try ModelReader.read(from: Fixtures.examples + "/Models/Company.yaml")
        let factories = try FactoriesReader.read(yaml: """
        entities:
          Employee:
            count: 1000
            attributes:
              name: { sequence: "E-{n:4}" }
              age: { oneOf: [20, 30, 40], weights: [8, 1, 1], null ratio: 0 }
              salary: { range: [40000, 41000], step: 250 }
              startDate: { date range: [2020-01-01, 2020-01-31] }
              active: { ratio: 0.25 }
              email: { pattern: 'e[0-9]{3}@example\\.org', null ratio: 0 }
          Department:
            attributes:
              budget: { expression: "$n * 1000 + $count", null ratio: 0 }
        """)
        let rows = try FixtureGenerator(model: model, factories: factories, seed: 1).objects(of: "Employee")
        #expect(rows[0]["name"] == .string("E-0001"))
        #expect(rows[999]["name"] == .string("E-1000"))
        #expect(rows.allSatisfy { if case .string(let e)? = $0["email"] { e.hasPrefix("e") && e.hasSuffix("@example.org") && e.count == 16 } else { false } })
        let departments = try FixtureGenerator(model: model, factories: factories, seed: 1).objects(of: "Department")
        #expect(departments.map { $0["budget"] } == (1...10).map { Value.double(Double($0 * 1000 + 10)) })
        let ages = rows.map { $0["age"] }
        #expect(ages.filter { $0 == .int(20) }.count > 700)
        #expect(Set(rows.compactMap { if case .int(let n)? = $0["salary"] { n } else { nil } }) == Set<Int64>([40_000, 40_250, 40_500, 40_750, 41_000]))
        let day = 86_400.0, start = FixtureValues.date("2020-01-01")!
        #expect(rows.allSatisfy { if case .date(let d)? = $0["startDate"] { d >= start && d <= start + 30 * day && d.truncatingRemainder(dividingBy: day) == 0 } else { $0["startDate"] == .null } })
        let active = rows.filter { $0["active"] == .bool(true) }.count
        #expect(active > 180 && active < 320)
    }

    @Test func zipfSkewsChildrenPerParent() throws {
        let model = try ModelReader.read(from: Fixtures.examples + "/Models/Company.yaml")
        func counts(_ shape: String) throws -> [Int] {
            let factories = try FactoriesReader.read(yaml: "entities:\n  Department:\n    relationships:\n      employees: { distribution: \(shape) }\n")
            let path = try generate(model, factories, counts: ["Employee": 10_000, "Department": 100, "Project": 0])
            let db = try SQLiteConnection(path: path)
            return try db.query("SELECT count(*) FROM Employee GROUP BY department ORDER BY 1 DESC").map { if case .int(let n) = $0[0] { Int(n) } else { 0 } }
        }
        let uniform = try counts("uniform"), zipf = try counts("zipf"), normal = try counts("normal")
        #expect(uniform.first! < 200 && uniform.last! > 40)
        #expect(zipf.first! > 1_000)                     // the biggest department has a tenth of everyone
        #expect(zipf[50] < 60)
        #expect(normal.first! < 400 && normal.last! > 0)
    }

    @Test func perParentMakesTheChildCount() throws {
        let model = try ModelReader.read(from: Fixtures.examples + "/Models/Books.yaml")
        let factories = try FactoriesReader.read(from: Fixtures.examples + "/Fixtures/books.yaml")
        let generator = try FixtureGenerator(model: model, factories: factories)
        let counts = try generator.plannedCounts
        #expect(counts["Publisher"] == 12)
        let books = try #require(counts["Book"])
        #expect(books >= 12 * 5 && books <= 12 * 120)
        let path = try generate(model, factories, seed: generator.seed)
        let db = try SQLiteConnection(path: path)
        let perPublisher = try db.query("SELECT count(*) FROM Book GROUP BY publisher").map { if case .int(let n) = $0[0] { Int(n) } else { 0 } }
        #expect(perPublisher.allSatisfy { (5...120).contains($0) })
        #expect(perPublisher.reduce(0, +) == books)
    }

    @Test func tasksExampleMakesTenThousand() throws {
        let model = try ModelReader.read(from: Fixtures.examples + "/Models/Tasks.yaml")
        let factories = try FactoriesReader.read(from: Fixtures.examples + "/Fixtures/tasks.yaml")
        let path = try generate(model, factories)
        let db = try SQLiteConnection(path: path)
        #expect(try db.scalar("SELECT count(*) FROM Task") == .int(10_000))
        #expect(try db.scalar("SELECT task FROM Task WHERE _pk = 10000") == .string("Task 10000"))
        let done = try db.scalar("SELECT sum(done) FROM Task")
        #expect(done != .null)
    }

    @Test func edgeCaseModeContents() throws {
        let model = try ModelReader.read(from: Fixtures.examples + "/Models/Company.yaml")
        let rows = try FixtureGenerator(model: model, seed: 1, counts: ["Employee": 200], edgeCases: true).objects(of: "Employee")
        let names = Set(rows.compactMap { if case .string(let s)? = $0["name"] { s } else { nil } })
        for s in ["", "%", "_", "*", "?", "'", "\"", "\\", "é", "q\u{307}\u{323}", "佐藤", " leading", "new\nline"] {
            #expect(names.contains(s.precomposedStringWithCanonicalMapping), "missing \(s.debugDescription)")
        }
        #expect(names.contains { $0.count >= 10_000 })
        let ages = rows.compactMap { $0["age"] }
        #expect([Value.int(16), .int(120), .int(17), .int(119)].allSatisfy(ages.contains))
        #expect(!ages.contains(.int(Int64(Int16.max))))   // outside the model's max: filtered
        let salaries = rows.compactMap { $0["salary"] }
        #expect(salaries.contains(.int(Int64.max)) && salaries.contains(.int(0)))
        #expect(rows.contains { $0["startDate"] == .date(FixturePlan.defaultReference) })
        #expect(rows.filter { $0["age"] == .null }.count > 20)   // nulls everywhere allowed
        let departments = try FixtureGenerator(model: model, seed: 1, counts: ["Department": 40], edgeCases: true).objects(of: "Department")
        let budgets = departments.compactMap { $0["budget"] }
        #expect(budgets.contains(.double(Double.greatestFiniteMagnitude)) && !budgets.contains(.double(-1)))
        #expect(budgets.allSatisfy { if case .double(let d) = $0 { d.isFinite } else { $0 == .null } })
    }

    @Test func commandOutcomes() throws {
        let model = Fixtures.examples + "/Models/Tasks.yaml"
        let out = Fixtures.temporaryPath("cmd.sqlite")
        let ok = FixturesCommand.run(model: model, out: out, counts: ["Task=25"], seed: 3)
        #expect(ok.exitCode == 0)
        #expect(ok.stdout == "wrote 25 objects (Task 25) to \(out), seed 3\n")
        #expect(FixturesCommand.run(model: model, out: out, counts: ["Task"]).exitCode == 64)
        #expect(FixturesCommand.run(model: model, out: out, format: "xml").exitCode == 64)
        #expect(FixturesCommand.run(model: model, out: Fixtures.temporaryPath("x.unknown")).exitCode == 64)
        #expect(FixturesCommand.run(model: "/nonexistent.yaml", out: out).exitCode == 66)
        let bad = FixturesCommand.run(model: model, out: out, counts: ["Tsk=3"])
        #expect(bad.exitCode == 65)
        #expect(bad.stderr == "--count: error: --count names no entity 'Tsk' (entities: Task) (did you mean 'Task'?)\n")
        let factories = Fixtures.temporaryPath("f.yaml")
        try "entities:\n  Task:\n    attributes:\n      tsk: { sequence: \"T{n}\" }\n".write(toFile: factories, atomically: true, encoding: .utf8)
        let located = FixturesCommand.run(model: model, out: out, factories: factories)
        #expect(located.exitCode == 65)
        #expect(located.stderr.hasPrefix("\(factories):4:7: error: Task has no attribute 'tsk'"))
    }
}

// Every generated store passes the model's rules, checked in SQL by
// StoreChecker: the example models with their example factories, a model
// built to be awkward (inheritance, required to-ones, to-many minimums and
// maximums, one-to-one, many-to-many with bounds on both sides, an ordered
// to-many without inverse, regexes, composite uniqueness, every attribute
// type), several seeds, and edge-case mode.
import Foundation
import Testing
@testable import QuarryFixtures

let awkwardModel = """
entities:
  Person:
    abstract: true
    attributes:
      name: { type: string, optional: false, min: 1, max: 40 }
      age: { type: integer16, min: 18, max: 70 }
      uid: { type: uuid, optional: false, unique: true }
      rate: { type: double, min: 0, max: 1 }
      joined: { type: date, min: 2020-01-01, max: 2023-12-31 }
      photo: { type: binary, max: 32 }
      website: uri
    relationships:
      team: { to: Team, optional: false, inverse: members }
    unique: [[name, age]]
  Employee:
    parent: Person
    attributes:
      active: { type: boolean, optional: false, default: true }
      level: { type: integer32, default: 1, min: 1, max: 9 }
    relationships:
      badge: { to: Badge, inverse: holder }
      mentor: Employee
      skills: { to: Skill, many: true, min: 1, max: 4, inverse: people }
  Contractor:
    parent: Person
    attributes:
      agency: { type: string, optional: false }
  Team:
    attributes:
      name: { type: string, optional: false, unique: true }
      code: { type: string, optional: false, unique: true, regex: '[A-Z]{3}-[0-9]{2}' }
      budget: { type: decimal, min: 0 }
    relationships:
      members: { to: Person, many: true, min: 2, max: 30 }
      favourites: { to: Skill, many: true, ordered: true, max: 3 }
  Badge:
    attributes:
      number: { type: integer64, optional: false, unique: true, min: 1000, max: 99999 }
    relationships:
      holder: { to: Employee, optional: false }
  Skill:
    attributes:
      label: { type: string, optional: false, unique: true }
    relationships:
      people: { to: Employee, many: true, min: 1 }
"""

func generate(_ model: Model, _ factories: Factories = Factories(), seed: UInt64 = 1, counts: [String: Int] = [:],
              edgeCases: Bool = false, format: FixtureFormat = .sqlite) throws -> String {
    let path = Fixtures.temporaryPath("store." + format.rawValue)
    try FixtureGenerator(model: model, factories: factories, seed: seed, counts: counts, edgeCases: edgeCases).write(to: path, format: format)
    return path
}

@Suite struct ConstraintTests {
    static let examples: [(model: String, factories: String?)] = [
        ("Company.yaml", "company.yaml"), ("Tasks.yaml", "tasks.yaml"), ("Books.yaml", "books.yaml"),
        ("Company.yaml", nil), ("Books.yaml", nil), ("Company.xcdatamodeld", nil),
    ]

    @Test(arguments: examples)
    func exampleStoresAreValid(_ example: (model: String, factories: String?)) throws {
        let model = try ModelReader.read(from: Fixtures.examples + "/Models/" + example.model)
        let factories = try example.factories.map { try FactoriesReader.read(from: Fixtures.examples + "/Fixtures/" + $0) } ?? Factories()
        let path = try generate(model, factories, counts: example.model == "Company.yaml" ? ["Employee": 2_000] : [:])
        #expect(try StoreChecker(path: path, model: model).violations() == [])
    }

    @Test(arguments: [1, 2, 3, 99, 12345] as [UInt64])
    func awkwardModelIsValid(seed: UInt64) throws {
        let model = try ModelReader.read(yaml: awkwardModel)
        let counts = ["Employee": 120, "Contractor": 30, "Team": 8, "Badge": 90, "Skill": 12]
        let path = try generate(model, seed: seed, counts: counts)
        let checker = try StoreChecker(path: path, model: model)
        let problems = try checker.violations()
        #expect(problems == [], "\(problems)")
        // Every badge has a holder (required), and no employee holds two.
        #expect(try checker.count("SELECT count(DISTINCT holder) FROM Badge") == 90)
        // Ordered links carry positions 0, 1, ... per team.
        #expect(try checker.count("SELECT count(*) FROM _Team_favourites WHERE position < 0 OR position > 2") == 0)
    }

    @Test(arguments: [1, 7] as [UInt64])
    func edgeCaseStoresAreValid(seed: UInt64) throws {
        let model = try ModelReader.read(yaml: awkwardModel)
        let path = try generate(model, seed: seed, counts: ["Employee": 80, "Contractor": 20, "Team": 6, "Badge": 50, "Skill": 10], edgeCases: true)
        #expect(try StoreChecker(path: path, model: model).violations() == [])
    }

    @Test func companyEdgeCasesAreValid() throws {
        let model = try ModelReader.read(from: Fixtures.examples + "/Models/Company.yaml")
        let path = try generate(model, counts: ["Employee": 300, "Department": 60, "Project": 20], edgeCases: true)
        #expect(try StoreChecker(path: path, model: model).violations() == [])
    }

    @Test func inverseConsistencyThroughTheStore() throws {
        // The store reads both directions from one key: each employee's
        // department lists that employee, and project members list projects.
        let model = try ModelReader.read(from: Fixtures.examples + "/Models/Company.yaml")
        let path = try generate(model, counts: ["Employee": 200, "Department": 10, "Project": 15])
        let store = try SQLStore(path: path, model: model)
        let inDepartment = try Evaluator.compile(try Parser.parsePredicate("department == nil OR SELF IN department.employees"))
        let inProjects = try Evaluator.compile(try Parser.parsePredicate("SUBQUERY(members, $m, $m.projects.@count == 0).@count == 0"))
        for employee in try store.fetch(FetchRequest(entity: "Employee")) {
            #expect(try inDepartment.evaluate(.object(ObjectReference(employee))))
        }
        for project in try store.fetch(FetchRequest(entity: "Project")) {
            #expect(try inProjects.evaluate(.object(ObjectReference(project))))
        }
    }

    @Test func inheritedManyToManyFollowsTheStoreMapping() throws {
        // A many-to-many declared on an abstract parent has one join table,
        // named after the parent (_Person_skills), for every sub-entity: the
        // side fixtures fill is the side the store reads.
        let model = try ModelReader.read(yaml: """
        entities:
          Person:
            abstract: true
            relationships:
              skills: { to: Skill, many: true, min: 1, inverse: people }
          Employee: { parent: Person }
          Skill:
            relationships:
              people: { to: Person, many: true }
        """)
        let path = try generate(model, counts: ["Employee": 20, "Skill": 5])
        let checker = try StoreChecker(path: path, model: model)
        #expect(try checker.count("SELECT count(DISTINCT source) FROM _Person_skills") == 20)
        let problems = try checker.violations()
        #expect(problems == [])
    }

    @Test func parentsMinimumAndMaximumHold() throws {
        let model = try ModelReader.read(yaml: """
        entities:
          Parent:
            relationships:
              kids: { to: Kid, many: true, min: 3, max: 5, inverse: parent }
          Kid:
            relationships:
              parent: { to: Parent, optional: false }
        """)
        for (parents, kids) in [(10, 30), (10, 50), (10, 41)] {
            let path = try generate(model, counts: ["Parent": parents, "Kid": kids])
            let checker = try StoreChecker(path: path, model: model)
            #expect(try checker.violations() == [])
            #expect(try checker.count("SELECT count(*) FROM Kid WHERE parent IS NULL") == 0)
        }
    }
}

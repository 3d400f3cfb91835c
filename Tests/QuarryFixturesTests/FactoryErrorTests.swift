// Each kind of bad factories file, bad count or impossible request gives a
// FixtureError of its kind, at its line and column (or `--count`), with a
// message naming the entity and property — and no output file, whether the
// problem is found while planning or halfway through writing.
import Foundation
import Testing
@testable import QuarryFixtures

struct BadFactory: Sendable, CustomStringConvertible {
    let name: String
    let yaml: String
    let kind: FixtureErrorKind
    let line: Int?
    let column: Int?
    let fragment: String
    var counts: [String: Int] = [:]
    var description: String { name }
}

@Suite struct FactoryErrorTests {
    static let company = try! ModelReader.read(from: Fixtures.examples + "/Models/Company.yaml")

    static let cases: [BadFactory] = [
        BadFactory(name: "malformed YAML", yaml: "entities:\n  Employee: [\n", kind: .syntax, line: 3, column: 1, fragment: "malformed YAML"),
        BadFactory(name: "no entities", yaml: "seed: 3\n", kind: .structure, line: 1, column: 1, fragment: "no 'entities:'"),
        BadFactory(name: "unknown top key", yaml: "entites: {}\n", kind: .structure, line: 1, column: 1, fragment: "unknown key 'entites'"),
        BadFactory(name: "unknown entity", yaml: "entities:\n  Employe: { count: 3 }\n", kind: .unknownEntity, line: 2, column: 3,
                   fragment: "no entity 'Employe'"),
        BadFactory(name: "unknown attribute", yaml: "entities:\n  Employee:\n    attributes:\n      salery: { range: [1, 2] }\n",
                   kind: .unknownProperty, line: 4, column: 7, fragment: "Employee has no attribute 'salery'"),
        BadFactory(name: "relationship as attribute", yaml: "entities:\n  Employee:\n    attributes:\n      department: city\n",
                   kind: .unknownProperty, line: 4, column: 7, fragment: "is a relationship"),
        BadFactory(name: "unknown relationship", yaml: "entities:\n  Department:\n    relationships:\n      staff: { per: 3 }\n",
                   kind: .unknownProperty, line: 4, column: 7, fragment: "no relationship 'staff'"),
        BadFactory(name: "unknown generator key", yaml: "entities:\n  Employee:\n    attributes:\n      age: { rnage: [1, 2] }\n",
                   kind: .structure, line: 4, column: 14, fragment: "unknown key 'rnage'"),
        BadFactory(name: "two generators", yaml: "entities:\n  Employee:\n    attributes:\n      age: { range: [20, 30], value: 4 }\n",
                   kind: .structure, line: 4, column: 31, fragment: "more than one generator"),
        BadFactory(name: "range on a string", yaml: "entities:\n  Employee:\n    attributes:\n      name: { range: [1, 5] }\n",
                   kind: .invalidGenerator, line: 4, column: 23, fragment: "'range' is for numbers and dates"),
        BadFactory(name: "range below minimum", yaml: "entities:\n  Employee:\n    attributes:\n      age: { range: [10, 30] }\n",
                   kind: .invalidGenerator, line: 4, column: 22, fragment: "below the minimum 16"),
        BadFactory(name: "not a number", yaml: "entities:\n  Employee:\n    attributes:\n      salary: { value: lots }\n",
                   kind: .invalidGenerator, line: 4, column: 24, fragment: "'lots' is not an integer"),
        BadFactory(name: "bad pattern", yaml: "entities:\n  Employee:\n    attributes:\n      name: { pattern: '(?=x)a' }\n",
                   kind: .invalidGenerator, line: 4, column: 24, fragment: "cannot be generated"),
        BadFactory(name: "bad expression", yaml: "entities:\n  Employee:\n    attributes:\n      salary: { expression: '$n *' }\n",
                   kind: .invalidGenerator, line: 4, column: 29, fragment: "does not compile"),
        BadFactory(name: "unknown kind", yaml: "entities:\n  Employee:\n    attributes:\n      name: persn name\n",
                   kind: .invalidGenerator, line: 4, column: 13, fragment: "unknown kind 'persn name'"),
        BadFactory(name: "null ratio on required", yaml: "entities:\n  Employee:\n    attributes:\n      name: { kind: city, null ratio: 0.5 }\n",
                   kind: .invalidGenerator, line: 4, column: 7, fragment: "required, so its null ratio must be 0"),
        BadFactory(name: "impossible uniqueness", yaml: "entities:\n  Department:\n    count: 5\n    attributes:\n      name: { oneOf: [A, B, C] }\n",
                   kind: .impossibleUniqueness, line: 5, column: 22, fragment: "only 3 distinct values for 5 objects"),
        BadFactory(name: "negative count", yaml: "entities:\n  Employee: { count: -4 }\n", kind: .invalidCount, line: 2, column: 22,
                   fragment: "whole number ≥ 0"),
        BadFactory(name: "per outside bounds", yaml: "entities:\n  Department:\n    relationships:\n      employees: { per: [1, 5], distribution: lumpy }\n",
                   kind: .structure, line: 4, column: 47, fragment: "unknown distribution 'lumpy'"),
        BadFactory(name: "unknown count entity", yaml: "entities: {}\n", kind: .unknownEntity, line: nil, column: nil,
                   fragment: "--count names no entity 'Employes'", counts: ["Employes": 3]),
    ]

    @Test(arguments: cases)
    func errorIsLocated(_ bad: BadFactory) throws {
        let out = Fixtures.temporaryPath("never.sqlite")
        do {
            let factories = try FactoriesReader.read(yaml: bad.yaml, file: "bad.yaml")
            try FixtureGenerator(model: Self.company, factories: factories, counts: bad.counts).write(to: out)
            Issue.record("no error for \(bad.name)")
        } catch {
            #expect(error.kind == bad.kind)
            #expect(error.line == bad.line)
            #expect(error.column == bad.column)
            #expect(error.message.contains(bad.fragment), "\(error)")
            #expect(error.file == (bad.counts.isEmpty ? "bad.yaml" : "--count"))
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func suggestionsForMisspelledNames() throws {
        let factories = try FactoriesReader.read(yaml: "entities:\n  Employee:\n    attributes:\n      salery: { range: [1, 2] }\n", file: "f.yaml")
        #expect(throws: FixtureError.self) { try FixtureGenerator(model: Self.company, factories: factories) }
        do { _ = try FixtureGenerator(model: Self.company, factories: factories) } catch {
            #expect(error.suggestion == "salary")
            #expect(error.description == "f.yaml:4:7: error: Employee has no attribute 'salery' (did you mean 'salary'?)")
        }
    }

    static let unsatisfiable: [(yaml: String, counts: [String: Int], fragment: String)] = [
        // A required to-one with nothing to point at.
        ("entities:\n  A:\n    relationships:\n      b: { to: B, optional: false }\n  B: {}\n", ["A": 3, "B": 0], "A.b is required, but there are no B objects"),
        // The parents' minimum needs more children than there are.
        ("entities:\n  P:\n    relationships:\n      kids: { to: K, many: true, min: 4, inverse: p }\n  K:\n    relationships:\n      p: { to: P, optional: false }\n",
         ["P": 10, "K": 30], "P.kids needs at least 4 each"),
        // The parents' maximum cannot hold every required child.
        ("entities:\n  P:\n    relationships:\n      kids: { to: K, many: true, max: 2, inverse: p }\n  K:\n    relationships:\n      p: { to: P, optional: false }\n",
         ["P": 10, "K": 30], "holds at most 2 each"),
        // One-to-one, required on both sides, with unequal counts.
        ("entities:\n  A:\n    relationships:\n      b: { to: B, optional: false, inverse: a }\n  B:\n    relationships:\n      a: { to: A, optional: false }\n",
         ["A": 5, "B": 4], "one-to-one"),
        // A many-to-many whose targets each need more links than sources can give.
        ("entities:\n  A:\n    relationships:\n      bs: { to: B, many: true, max: 1, inverse: as }\n  B:\n    relationships:\n      as: { to: A, many: true, min: 2 }\n",
         ["A": 5, "B": 5], "needs at least 2 each"),
    ]

    @Test(arguments: 0..<unsatisfiable.count)
    func countsThatRequiredRelationshipsCannotMeet(_ index: Int) throws {
        let (yaml, counts, fragment) = Self.unsatisfiable[index]
        let model = try ModelReader.read(yaml: yaml)
        #expect {
            _ = try FixtureGenerator(model: model, counts: counts)
        } throws: { error in
            guard let e = error as? FixtureError else { return false }
            return e.kind == .unsatisfiableRelationship && e.message.contains(fragment) && e.file == "--count"
        }
    }

    @Test func errorAtTheCountInTheFactoriesFile() throws {
        let model = try ModelReader.read(yaml: Self.unsatisfiable[1].yaml)
        let factories = try FactoriesReader.read(yaml: "entities:\n  P:\n    count: 10\n  K:\n    count: 30\n", file: "f.yaml")
        do { _ = try FixtureGenerator(model: model, factories: factories) } catch {
            #expect((error.file, error.line, error.column) == ("f.yaml", 5, 12))
        }
    }

    @Test(arguments: FixtureFormat.allCases)
    func noPartialFileWhenGenerationFailsHalfway(format: FixtureFormat) throws {
        // The expression turns into text on row 40: an error after 39 rows were written.
        let factories = try FactoriesReader.read(yaml: """
        entities:
          Employee:
            count: 100
            attributes:
              salary: { expression: "TERNARY($n < 40, $n * 1000, 'oops')" }
        """, file: "late.yaml")
        let out = Fixtures.temporaryPath("late." + format.rawValue)
        #expect {
            try FixtureGenerator(model: Self.company, factories: factories).write(to: out, format: format)
        } throws: { error in
            guard let e = error as? FixtureError else { return false }
            return e.kind == .invalidGenerator && e.message.contains("row 40") && e.line == 5
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        let folder = URL(fileURLWithPath: out).deletingLastPathComponent().path
        let name = URL(fileURLWithPath: out).lastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(name) }.isEmpty)
    }

    @Test func failedRunKeepsThePreviousFile() throws {
        let out = Fixtures.temporaryPath("keep.json")
        try Data("previous".utf8).write(to: URL(fileURLWithPath: out))
        let factories = try FactoriesReader.read(yaml: "entities:\n  Employee:\n    attributes:\n      salary: { expression: \"'x'\" }\n")
        #expect(throws: FixtureError.self) { try FixtureGenerator(model: Self.company, factories: factories).write(to: out) }
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "previous")
    }
}

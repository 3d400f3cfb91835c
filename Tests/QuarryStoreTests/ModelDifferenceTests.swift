// The classification of model changes (ModelDifference+Rules.swift): each
// change between a base model and a variant, found by kind and judged
// inferable or not as Core Data's lightweight migration would (with
// Quarry's stated choices for numeric widening). One row per rule.
import Foundation
import Testing
@testable import QuarryStore

enum MigrationModels {
    /// The model every case starts from; variants edit its text.
    static let base = """
    entities:
      Department:
        attributes:
          name: string
        relationships:
          employees: { to: Employee, many: true, inverse: department }
      Employee:
        attributes:
          name: string
          age: integer16
          nickname: string
          rating: float
          level: { type: integer32, optional: false, default: 1 }
        relationships:
          department: { to: Department, inverse: employees }
          mentor: { to: Employee }

    """

    /// The base model with each (old, new) text replaced, in order.
    static func variant(_ edits: [(String, String)]) -> String {
        var text = base
        for (old, new) in edits {
            precondition(text.contains(old), "no '\(old)' in the base model")
            text = text.replacingOccurrences(of: old, with: new)
        }
        return text
    }

    static func model(_ edits: [(String, String)]) throws -> Model {
        try ModelReader.read(yaml: variant(edits), file: "variant.yaml")
    }

    // Edits used by several suites.
    static let addEmail = ("      nickname: string\n", "      nickname: string\n      email: string\n")
    static let addEmailDefault = ("      nickname: string\n", "      nickname: string\n      email: { type: string, default: none }\n")
    static let addRequiredNoDefault = ("      nickname: string\n", "      nickname: string\n      badge: { type: integer32, optional: false }\n")
    static let addRequiredDefault = ("      nickname: string\n", "      nickname: string\n      badge: { type: integer32, optional: false, default: 7 }\n")
    static let removeNickname = ("      nickname: string\n", "")
    static let renameNickname = ("      nickname: string\n", "      alias: { type: string, userInfo: { renamingIdentifier: nickname } }\n")
    static let ageTo64 = ("age: integer16", "age: integer64")
    static let ageToDouble = ("age: integer16", "age: double")
    static let ageToString = ("age: integer16", "age: string")
    static let ratingToDouble = ("rating: float", "rating: double")
    static let ratingToInteger = ("rating: float", "rating: integer32")
    static let nicknameRequired = ("nickname: string", "nickname: { type: string, optional: false, default: '?' }")
    static let nicknameRequiredNoDefault = ("nickname: string", "nickname: { type: string, optional: false }")
    static let levelOptional = ("level: { type: integer32, optional: false, default: 1 }", "level: { type: integer32, default: 1 }")
    static let levelDefault = ("level: { type: integer32, optional: false, default: 1 }", "level: { type: integer32, optional: false, default: 2 }")
    static let levelBounds = ("level: { type: integer32, optional: false, default: 1 }", "level: { type: integer32, optional: false, default: 1, max: 10 }")
    static let addProject = ("  Employee:\n", "  Project:\n    attributes:\n      title: string\n  Employee:\n")
    static let removeMentor = ("      mentor: { to: Employee }\n", "")
    static let renameMentor = ("      mentor: { to: Employee }\n", "      coach: { to: Employee, userInfo: { renamingIdentifier: mentor } }\n")
    static let mentorToMany = ("      mentor: { to: Employee }\n", "      mentor: { to: Employee, many: true }\n")
    static let departmentToMany = ("department: { to: Department, inverse: employees }", "department: { to: Department, many: true, inverse: employees }")
    static let employeesToOne = ("employees: { to: Employee, many: true, inverse: department }", "employees: { to: Employee, inverse: department }")
    static let indexName = ("      mentor: { to: Employee }\n", "      mentor: { to: Employee }\n    indexes: [name]\n")
    static let uniqueName = ("      mentor: { to: Employee }\n", "      mentor: { to: Employee }\n    unique: [[name]]\n")
    static let uniqueNickname = ("      mentor: { to: Employee }\n", "      mentor: { to: Employee }\n    unique: [[nickname]]\n")
    static let renameEmployee: [(String, String)] = [
        ("  Employee:\n", "  Staff:\n    userInfo: { renamingIdentifier: Employee }\n"),
        ("employees: { to: Employee,", "employees: { to: Staff,"), ("mentor: { to: Employee }", "mentor: { to: Staff }"),
    ]
    static let employeeUnderPerson = ("  Employee:\n", "  Person:\n    attributes:\n      born: date\n  Employee:\n    parent: Person\n")
}

@Suite("Model differences and what a lightweight migration infers")
struct ModelDifferenceTests {
    typealias K = ModelChange.Kind

    /// (name, edits of the new model, the changes expected: kind and whether inferable).
    static let cases: [(String, [(String, String)], [(K, Bool)])] = [
        ("same model", [], []),
        ("optional attribute added", [MigrationModels.addEmail], [(.attributeAdded, true)]),
        ("attribute with a default added", [MigrationModels.addEmailDefault], [(.attributeAdded, true)]),
        ("required attribute without default added", [MigrationModels.addRequiredNoDefault], [(.attributeAdded, false)]),
        ("required attribute with default added", [MigrationModels.addRequiredDefault], [(.attributeAdded, true)]),
        ("attribute removed", [MigrationModels.removeNickname], [(.attributeRemoved, true)]),
        ("attribute renamed by renaming identifier", [MigrationModels.renameNickname], [(.attributeRenamed, true)]),
        ("integer16 → integer64", [MigrationModels.ageTo64], [(.typeChanged, true)]),
        ("integer16 → double", [MigrationModels.ageToDouble], [(.typeChanged, true)]),
        ("integer16 → string", [MigrationModels.ageToString], [(.typeChanged, false)]),
        ("float → double", [MigrationModels.ratingToDouble], [(.typeChanged, true)]),
        ("float → integer32", [MigrationModels.ratingToInteger], [(.typeChanged, false)]),
        ("optional → required with default", [MigrationModels.nicknameRequired], [(.madeRequired, true), (.defaultChanged, true)]),
        ("optional → required without default", [MigrationModels.nicknameRequiredNoDefault], [(.madeRequired, false)]),
        ("required → optional", [MigrationModels.levelOptional], [(.madeOptional, true)]),
        ("default changed", [MigrationModels.levelDefault], [(.defaultChanged, true)]),
        ("bounds changed", [MigrationModels.levelBounds], [(.metadataChanged, true)]),
        ("entity added", [MigrationModels.addProject], [(.entityAdded, true)]),
        ("relationship removed", [MigrationModels.removeMentor], [(.relationshipRemoved, true)]),
        ("relationship renamed", [MigrationModels.renameMentor], [(.relationshipRenamed, true)]),
        ("to-one → to-many (no inverse)", [MigrationModels.mentorToMany], [(.toOneBecameToMany, true)]),
        ("to-one → to-many (many-to-many)", [MigrationModels.departmentToMany], [(.toOneBecameToMany, true)]),
        ("to-many → to-one", [MigrationModels.employeesToOne], [(.toManyBecameToOne, false)]),
        ("index added", [MigrationModels.indexName], [(.indexAdded, true)]),
        ("uniqueness constraint added", [MigrationModels.uniqueName], [(.uniquenessAdded, true)]),
        ("entity renamed", MigrationModels.renameEmployee, [(.entityRenamed, true)]),
        ("parent changed", [MigrationModels.employeeUnderPerson], [(.entityAdded, true), (.parentChanged, false)]),
        ("renamed and widened", [MigrationModels.renameNickname, MigrationModels.ageTo64], [(.typeChanged, true), (.attributeRenamed, true)]),
    ]

    @Test(arguments: cases)
    func classification(name: String, edits: [(String, String)], expected: [(K, Bool)]) throws {
        let difference = ModelDifference(from: try MigrationModels.model([]), to: try MigrationModels.model(edits))
        let found = difference.changes.map { "\($0.kind) \($0.isInferable)" }.sorted()
        #expect(found == expected.map { "\($0.0) \($0.1)" }.sorted(), "\(name): \(difference.changes)")
        #expect(difference.isInferable == expected.allSatisfy(\.1), "\(name)")
        for change in difference.refusals { #expect(change.description.contains("refused: "), "\(change)") }
    }

    /// Quarry's numeric widening choices, every pair of numeric types.
    static let widening: [(AttributeType, AttributeType, Bool)] = [
        (.integer16, .integer32, true), (.integer32, .integer64, true), (.integer16, .integer64, true),
        (.integer64, .integer32, false), (.integer32, .integer16, false),
        (.integer16, .double, true), (.integer32, .double, true), (.integer64, .double, false),
        (.integer32, .decimal, true), (.integer64, .decimal, false), (.integer16, .float, true), (.integer32, .float, false),
        (.float, .double, true), (.double, .float, false), (.double, .integer64, false),
        (.string, .integer64, false), (.date, .double, false), (.boolean, .integer16, false), (.string, .uri, false),
    ]

    @Test(arguments: widening)
    func typeWidening(from: AttributeType, to: AttributeType, inferable: Bool) {
        #expect((ModelDifference.typeChangeRefusal(from: from, to: to) == nil) == inferable)
    }

    @Test func aModelSharingNoEntityIsUnrelated() throws {
        let other = try ModelReader.read(yaml: "entities:\n  Counter:\n    attributes:\n      n: integer64\n", file: "other.yaml")
        let difference = ModelDifference(from: try MigrationModels.model([]), to: other)
        #expect(difference.sharesNoEntity)
        #expect(throws: MigrationError.unrelatedModel(location: "x")) { try Migration(difference, dialect: .sqlite, location: "x") }
    }

    @Test func aNewEntityMayTakeTheNameOfARenamedOne() throws {
        // Employee becomes Staff; a new Employee comes first in the file.
        let new = try MigrationModels.model(MigrationModels.renameEmployee + [
            ("entities:\n", "entities:\n  Employee:\n    attributes:\n      badge: string\n"),
        ])
        let difference = ModelDifference(from: try MigrationModels.model([]), to: new)
        #expect(difference.entityMatch["Staff"] == "Employee" && difference.entityMatch["Employee"] == nil, "\(difference.changes)")
        #expect(difference.changes.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.entityAdded, .entityRenamed])
    }

    @Test func renamesMayComeFromTheCaller() throws {
        let new = try MigrationModels.model([("      nickname: string\n", "      alias: string\n")])
        let difference = ModelDifference(from: try MigrationModels.model([]), to: new, renames: ["Employee.alias": "nickname"])
        #expect(difference.changes.map(\.kind) == [.attributeRenamed])
    }
}

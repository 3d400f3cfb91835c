// Models built in code: the same validation as files (without positions),
// and the lookup helpers.
import Foundation
import QuarrySyntax
import Testing
@testable import QuarryModel

struct CodeCase: Sendable, CustomStringConvertible {
    var name: String
    var model: Model
    var kind: ModelErrorKind
    var message: String
    var description: String { name }
}

private func model(_ entities: Entity...) -> Model { Model(entities: entities) }

let codeCases: [CodeCase] = [
    CodeCase(name: "string default on an integer", model: model(Entity(name: "E", attributes: [
        Attribute(name: "n", type: .integer32, defaultValue: .string("1"))])),
             kind: .invalidValue, message: "default value \"1\" is not an integer"),
    CodeCase(name: "integer default out of range", model: model(Entity(name: "E", attributes: [
        Attribute(name: "n", type: .integer16, defaultValue: .int(40_000))])),
             kind: .invalidValue, message: "is not an integer from -32768 to 32767"),
    CodeCase(name: "double minimum on a string", model: model(Entity(name: "E", attributes: [
        Attribute(name: "s", type: .string, minimum: .double(1.5))])),
             kind: .invalidValue, message: "minimum 1.5 is not a length"),
    CodeCase(name: "bounds on a UUID", model: model(Entity(name: "E", attributes: [
        Attribute(name: "u", type: .uuid, maximum: .int(3))])),
             kind: .invalidValue, message: "a UUID attribute has no maximum"),
    CodeCase(name: "regular expression on a number", model: model(Entity(name: "E", attributes: [
        Attribute(name: "n", type: .double, regularExpression: "[0-9]+")])),
             kind: .invalidValue, message: "only string attributes take a regular expression"),
    CodeCase(name: "minimum above maximum", model: model(Entity(name: "E", attributes: [
        Attribute(name: "d", type: .decimal, minimum: .decimal(5), maximum: .int(2))])),
             kind: .invalidRange, message: "minimum 5 is greater than maximum 2"),
    CodeCase(name: "two entities named alike", model: model(Entity(name: "E"), Entity(name: "E")),
             kind: .duplicateName, message: "entity 'E' is defined twice"),
    CodeCase(name: "unknown destination", model: model(Entity(name: "E", relationships: [
        Relationship(name: "r", destination: "F")])),
             kind: .unknownEntity, message: "no entity named 'F'"),
    CodeCase(name: "inverse without its partner's agreement", model: model(
        Entity(name: "A", relationships: [Relationship(name: "b", destination: "B", inverse: "a")]),
        Entity(name: "B", relationships: [Relationship(name: "a", destination: "A")])),
             kind: .inverseMismatch, message: "its inverse B.a names no inverse"),
    CodeCase(name: "index on a fetched property", model: model(Entity(name: "E",
        fetchedProperties: [try! FetchedProperty(name: "f", destination: "E", predicateFormat: nil)],
        fetchIndexes: [FetchIndex(name: "byF", elements: [FetchIndexElement(property: "f")])])),
             kind: .structure, message: "'f' is a fetched property"),
    CodeCase(name: "empty index", model: model(Entity(name: "E", fetchIndexes: [FetchIndex(name: "none", elements: [])])),
             kind: .structure, message: "index 'none' of E has no elements"),
    CodeCase(name: "template for an unknown entity", model: Model(entities: [Entity(name: "E")], fetchRequestTemplates: [
        FetchRequestTemplate(name: "t", entity: "F", predicate: nil)]),
             kind: .unknownEntity, message: "fetch request 't': no entity named 'F'"),
]

@Suite struct ModelInCodeTests {
    @Test(arguments: codeCases)
    func validation(_ c: CodeCase) {
        let errors = c.model.validationErrors()
        #expect(errors.count == 1, "\(errors)")
        let e = errors.first
        #expect(e?.kind == c.kind)
        #expect(e?.message.contains(c.message) == true, "\(String(describing: e))")
        #expect(e?.file == "<model>" && e?.line == nil)
        #expect(throws: ModelError.self) { try c.model.validate() }
    }

    @Test func aValidModelInCode() throws {
        let m = Model(entities: [
            Entity(name: "Person", isAbstract: true, attributes: [
                Attribute(name: "name", type: .string, isOptional: false, minimum: .int(1), regularExpression: "[A-Z].*")]),
            Entity(name: "Employee", parent: "Person", attributes: [
                Attribute(name: "salary", type: .integer64, defaultValue: .int(0), minimum: .int(0), maximum: .int(1_000_000)),
                Attribute(name: "hired", type: .date, minimum: .date(0)),
                Attribute(name: "rate", type: .double, defaultValue: .int(1))],
                relationships: [Relationship(name: "team", destination: "Team", inverse: "members")],
                uniquenessConstraints: [UniquenessConstraint(["name"])]),
            Entity(name: "Team", relationships: [
                Relationship(name: "members", destination: "Employee", isToMany: true, inverse: "team")]),
        ], fetchRequestTemplates: [try FetchRequestTemplate(name: "rich", entity: "Employee", predicateFormat: "salary > $min")])
        #expect(m.validationErrors().isEmpty, "\(m.validationErrors())")
        try m.validate()
        #expect(m.file == "<model>")
    }

    @Test func anInverseMustBeAPropertyOfTheDestination() {
        // Team.members leads to Person, but `team` is declared on the
        // sub-entity Employee: Person objects have no `team`, so Xcode
        // would not offer it as the inverse.
        let m = Model(entities: [
            Entity(name: "Person"),
            Entity(name: "Employee", parent: "Person",
                   relationships: [Relationship(name: "team", destination: "Team", inverse: "members")]),
            Entity(name: "Team", relationships: [
                Relationship(name: "members", destination: "Person", isToMany: true, inverse: "team")]),
        ])
        // Employee.team itself is fine: its inverse leads to Person, an
        // ancestor of Employee, and names `team` back.
        #expect(m.validationErrors().map(\.message) == [
            "relationship 'members' of Team: its inverse 'team' is not a relationship of Person",
        ])
    }

    @Test func lookups() throws {
        var m = Model(entities: [Entity(name: "A"), Entity(name: "B", parent: "A")])
        #expect(m.entity(named: "B")?.parent == "A")
        #expect(m.entity(named: "b") == nil)  // names are case-sensitive, as in Core Data
        m.entities.append(Entity(name: "C", parent: "B"))
        #expect(m.entity(named: "C") != nil)  // the name index follows edits
        #expect(m.entity(named: "A")?.allSubentities(in: m).map(\.name) == ["B", "C"])
        #expect(m.entity(named: "C")?.ancestors(in: m).map(\.name) == ["B", "A"])
        m.entities.removeFirst()
        #expect(m.entity(named: "A") == nil)
        #expect(m.entity(named: "B")?.ancestors(in: m).isEmpty == true)
    }

    @Test func templatesCompareByMeaning() throws {
        let a = try FetchRequestTemplate(name: "t", entity: "E", predicateFormat: "a > 1 && b == 'x'")
        let b = try FetchRequestTemplate(name: "t", entity: "E", predicateFormat: #"a > 1 AND b == "x""#)
        #expect(a == b)
        let c = try FetchRequestTemplate(name: "t", entity: "E", predicateFormat: "a > 2 AND b == 'x'")
        #expect(a != c)
        #expect(throws: Diagnostic.self) { try FetchRequestTemplate(name: "t", entity: "E", predicateFormat: "a >") }
        let printed = FetchRequestTemplate(name: "t", entity: "E", predicate: a.predicate)
        #expect(printed.predicateFormat == #"a > 1 AND b == "x""#)
    }

    @Test func defaultIndexNames() {
        #expect(FetchIndex.defaultName(for: ["name"]) == "byNameIndex")
        #expect(FetchIndex.defaultName(for: ["lastName", "firstName"]) == "byLastNameFirstNameIndex")
    }
}

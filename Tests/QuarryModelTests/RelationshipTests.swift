// Relationships (to-one, to-many, ordered, many-to-many, inverses, delete
// rules, counts) and entity inheritance, from both formats.
import QuarrySyntax
import Testing
@testable import QuarryModel

@Suite struct RelationshipTests {
    func relationships(_ yaml: String) throws -> [Relationship] {
        let model = try ModelReader.read(yaml: "entities:\n  A:\n    relationships:\n\(yaml)\n  B:\n    relationships:\n      back: A\n")
        return try #require(model.entity(named: "A")).relationships
    }

    @Test func shorthands() throws {
        let rs = try relationships("      one: B\n      many: [B]")
        #expect(rs[0] == Relationship(name: "one", destination: "B"))
        #expect(rs[0].isToMany == false && rs[0].maxCount == 1 && rs[0].isOptional && rs[0].deleteRule == .nullify)
        #expect(rs[1] == Relationship(name: "many", destination: "B", isToMany: true))
        #expect(rs[1].maxCount == nil)
    }

    @Test(arguments: [("nullify", DeleteRule.nullify), ("cascade", .cascade), ("deny", .deny),
                      ("noAction", .noAction), ("'no action'", .noAction), ("Cascade", .cascade)])
    func deleteRulesFromYAML(_ text: String, _ rule: DeleteRule) throws {
        #expect(try relationships("      r: { to: B, delete: \(text) }")[0].deleteRule == rule)
    }

    @Test(arguments: DeleteRule.allCases)
    func deleteRulesFromXML(_ rule: DeleteRule) throws {
        let model = try ModelReader.read(xml: Fixtures.xml("""
            <entity name="A">
                <relationship name="r" optional="YES" maxCount="1" deletionRule="\(rule.rawValue)" destinationEntity="A"/>
            </entity>
        """))
        #expect(model.entity(named: "A")?.relationships.first?.deleteRule == rule)
    }

    @Test func absentDeletionRuleIsNullifyAndAbsentOptionalIsRequired() throws {
        let model = try ModelReader.read(xml: Fixtures.xml("""
            <entity name="A">
                <relationship name="r" maxCount="1" destinationEntity="A"/>
            </entity>
        """))
        let r = try #require(model.entity(named: "A")?.relationships.first)
        #expect(r.deleteRule == .nullify)
        #expect(r.isOptional == false)
        #expect(r.minCount == 1)  // normalized: a required to-one needs one object
    }

    @Test func orderedToManyWithCounts() throws {
        let r = try relationships("      r: { to: B, many: true, ordered: true, min: 1, max: 5, optional: false }")[0]
        #expect(r.isToMany && r.isOrdered && !r.isOptional && r.minCount == 1 && r.maxCount == 5)
        let model = try ModelReader.read(xml: Fixtures.xml("""
            <entity name="A">
                <relationship name="r" toMany="YES" ordered="YES" minCount="1" maxCount="5" deletionRule="Nullify" destinationEntity="A"/>
                <relationship name="s" optional="YES" toMany="YES" maxCount="0" deletionRule="Nullify" destinationEntity="A"/>
            </entity>
        """))
        let x = try #require(model.entity(named: "A")).relationships
        #expect(x[0].isOrdered && x[0].minCount == 1 && x[0].maxCount == 5)
        #expect(x[1].maxCount == nil)  // Xcode's 0 means unbounded
    }

    @Test func toOneCountsAreNormalized() {
        // Xcode writes minCount="1" on optional to-one relationships too.
        let xcodeStyle = Relationship(name: "r", destination: "B", isOptional: true, minCount: 1, maxCount: 1)
        #expect(xcodeStyle == Relationship(name: "r", destination: "B"))
        #expect(xcodeStyle.minCount == 0)
    }

    @Test func manyToManyWithInverseOnOneSideInYAML() throws {
        let model = try ModelReader.read(yaml: """
            entities:
              Employee:
                relationships:
                  projects: { to: Project, many: true, inverse: members }
              Project:
                relationships:
                  members: [Employee]
            """)
        let members = try #require(model.entity(named: "Project")?.relationships.first)
        #expect(members.inverse == "projects")  // filled in from the other side
        #expect(members.isToMany)
        #expect(model.entity(named: "Employee")?.relationships.first?.inverse == "members")
    }

    @Test func inheritance() throws {
        let model = try ModelReader.read(xml: Fixtures.inheritanceXML)
        let person = try #require(model.entity(named: "Person"))
        let employee = try #require(model.entity(named: "Employee"))
        #expect(person.isAbstract && !employee.isAbstract)
        #expect(employee.parent == "Person")
        #expect(employee.attributes.map(\.name) == ["salary", "badge"])
        #expect(employee.allAttributes(in: model).map(\.name) == ["name", "email", "identifier", "salary", "badge"])
        #expect(employee.allRelationships(in: model).map(\.name) == ["notes"])
        #expect(employee.property(named: "email") == nil)
        #expect(employee.property(named: "email", in: model)?.name == "email")
        if case .relationship(let notes)? = employee.property(named: "notes", in: model) {
            #expect(notes.isOrdered && notes.deleteRule == .cascade)
        } else {
            Issue.record("Employee should inherit notes")
        }
        #expect(person.subentities(in: model).map(\.name) == ["Employee", "Customer"])
        #expect(model.subentities(of: "Person").map(\.name) == ["Employee", "Customer"])
        #expect(person.allSubentities(in: model).map(\.name) == ["Employee", "Customer"])
        #expect(employee.isKind(of: "Person", in: model))
        #expect(!person.isKind(of: "Employee", in: model))
        #expect(employee.ancestors(in: model).map(\.name) == ["Person"])
    }

    @Test func theInheritanceFixtureReadsTheSameFromYAMLAndXML() throws {
        let x = try ModelReader.read(xml: Fixtures.inheritanceXML)
        let y = try ModelReader.read(yaml: Fixtures.inheritanceYAML)
        for (a, b) in zip(x.entities, y.entities) { #expect(a == b) }
        #expect(x.fetchRequestTemplates == y.fetchRequestTemplates)
        #expect(x.configurations == y.configurations)
        #expect(x == y)
    }

    @Test func xmlExtrasAreRead() throws {
        let model = try ModelReader.read(xml: Fixtures.inheritanceXML)
        let employee = try #require(model.entity(named: "Employee"))
        // legacy indexed="YES" and <compoundIndexes> become fetch indexes
        #expect(employee.fetchIndexes == [FetchIndex(name: "byBadgeIndex", elements: [FetchIndexElement(property: "badge")])])
        #expect(model.entity(named: "Customer")?.fetchIndexes.first?.name == "bySinceNameIndex")
        #expect(employee.uniquenessConstraints == [UniquenessConstraint(["name", "email"])])
        #expect(employee.fetchedProperties.first?.destination == "Employee")
        #expect(employee.fetchedProperties.first?.predicate != nil)
        #expect(model.entity(named: "Person")?.userInfo == ["table": "people"])
        #expect(model.entity(named: "Note")?.attributes.map(\.isTransient) == [false, true, false])
        #expect(model.entity(named: "Note")?.attributes[2].derivation == "length:(text)")
        #expect(model.configurations == [Configuration(name: "Cloud", entities: ["Person", "Note"])])
        let template = try #require(model.fetchRequestTemplate(named: "richEmployees"))
        #expect(template.predicateFormat == #"salary > $minimum AND name BEGINSWITH[cd] "a""#)
        #expect(template.fetchLimit == 20)
    }
}

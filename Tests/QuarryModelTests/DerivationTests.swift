// Derivations parsed and checked at model load: the expressions Core Data
// allows are accepted (with what they read), the rest are refused with a
// message naming the problem; a model file with a refused derivation still
// loads, with a warning naming the entity and attribute (momc accepts it; a
// store refuses the model, see DerivedAttributeTests).
import Testing
@testable import QuarryModel

@Suite("Derivations")
struct DerivationTests {
    static let model = Model(entities: [
        Entity(name: "Department", attributes: [
            Attribute(name: "name", type: .string),
            Attribute(name: "budget", type: .double),
            Attribute(name: "d", type: .string),
        ], relationships: [
            Relationship(name: "employees", destination: "Employee", isToMany: true, inverse: "department"),
            Relationship(name: "boss", destination: "Employee"),
        ]),
        Entity(name: "Employee", attributes: [
            Attribute(name: "name", type: .string),
            Attribute(name: "salary", type: .integer64),
            Attribute(name: "mood", type: .string, isTransient: true),
        ], relationships: [Relationship(name: "department", destination: "Department", inverse: "employees")]),
    ])

    /// (entity, attribute type, derivation, paths read, uses now()).
    static let accepted: [(String, AttributeType, String, [[String]], Bool)] = [
        ("Department", .integer64, "employees.@count", [["employees"]], false),
        ("Department", .integer64, "employees.@sum.salary", [["employees"]], false),
        ("Department", .double, "employees.@avg.salary", [["employees"]], false),
        ("Department", .integer64, "employees.@min.salary + employees.@max.salary", [["employees"]], false),
        ("Department", .string, "lowercase:(name)", [], false),
        ("Department", .string, "uppercase:(boss.name)", [["boss"]], false),
        ("Department", .string, "canonical:(name)", [], false),
        ("Department", .date, "now()", [], true),
        ("Department", .double, "budget * 2 - 1", [], false),
        ("Employee", .string, "department.name", [["department"]], false),
        ("Employee", .string, "department.boss.name", [["department", "boss"]], false),
        ("Employee", .double, "-salary + department.budget / 3", [["department"]], false),
    ]

    @Test(arguments: accepted)
    func acceptedDerivation(c: (String, AttributeType, String, [[String]], Bool)) throws {
        let entity = try #require(Self.model.entity(named: c.0))
        let d = try Derivation.parse(c.2, attribute: Attribute(name: "x", type: c.1, derivation: c.2), of: entity, in: Self.model)
        #expect(d.relationshipPaths == c.3)
        #expect(d.usesNow == c.4)
        #expect(d.isSelfOnly == c.3.isEmpty)
    }

    /// (entity, attribute type, derivation, a piece of the message).
    static let refused: [(String, AttributeType, String, String)] = [
        ("Department", .integer64, "length:(name)", "function length:"),
        ("Department", .integer64, "employees.salary", "is to-many: use an aggregate"),
        ("Department", .integer64, "employees.@sum", "needs one attribute"),
        ("Department", .integer64, "employees.@count.salary", "takes nothing after"),
        ("Department", .string, "boss", "ends at a relationship"),
        ("Department", .string, "nmae", "did you mean 'name'?"),
        ("Department", .integer64, "lowercase:(name)", "gives a string"),
        ("Department", .string, "lowercase:(budget)", "needs a string"),
        ("Department", .string, "lowercase:(name) + 'x'", "must be the whole derivation"),
        ("Department", .string, "employees.@max.nmae", "did you mean 'name'?"),
        ("Employee", .string, "mood", "transient"),
        ("Employee", .integer64, "salary ** 2", "operator **"),
        ("Employee", .integer64, "SUBQUERY(department.employees, $e, $e.salary > 1).@count", "not allowed"),
        ("Employee", .integer64, "salary +", "does not parse"),
    ]

    @Test(arguments: refused)
    func refusedDerivation(c: (String, AttributeType, String, String)) throws {
        let entity = try #require(Self.model.entity(named: c.0))
        do {
            _ = try Derivation.parse(c.2, attribute: Attribute(name: "x", type: c.1, derivation: c.2), of: entity, in: Self.model)
            Issue.record("accepted \(c.2)")
        } catch {
            #expect(error.message.contains(c.3), "\(error.message)")
            #expect(error.hint.contains("employees.@count"))
        }
    }

    @Test func aModelFileWithARefusedDerivationLoadsWithAWarning() throws {
        let yaml = """
            entities:
              Department:
                attributes:
                  name: string
                  n: { type: integer64, derived: "length:(name)" }
                  total: { type: integer64, derived: "employees.@sum.salary" }
                relationships:
                  employees: { to: Employee, many: true, inverse: department }
              Employee:
                attributes:
                  salary: integer64
                relationships:
                  department: { to: Department, inverse: employees }
            """
        let model = try ModelReader.read(yaml: yaml)
        #expect(model.warnings.count == 1)
        #expect(model.warnings.first?.message.contains("derived attribute 'n' of Department") == true)
        #expect(model.warnings.first?.line == 5)
        let error = try #require(model.derivationError())
        #expect(error.message.hasPrefix("derived attribute 'n' of Department: function length: is not allowed"))
        #expect(model.derivations().checked["Department"]?["total"]?.relationshipPaths == [["employees"]])
    }
}

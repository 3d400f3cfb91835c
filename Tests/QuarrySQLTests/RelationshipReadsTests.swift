// Whether a request reads through a relationship (FetchRequest+RelationshipReads):
// a walk over the request's syntax trees against the model's relationships,
// not a search of the printed predicate. The cases a word search got wrong
// (a relationship's name inside a string) and the ones only a tree shows
// (a sort key, a fetched property, a path under SELF or a variable).
import Testing
@testable import QuarrySQL

@Suite("Relationship reads")
struct RelationshipReadsTests {
    /// (entity, predicate, sort keys, fetched property expressions, reads a relationship).
    static let cases: [(String, String?, [String], [String], Bool)] = [
        ("Employee", "salary > 5", [], [], false),
        ("Employee", "department.name == 'Sales'", [], [], true),
        ("Employee", "SELF.department.name == 'Sales'", [], [], true),
        // A string is no key path: a word search said yes here.
        ("Employee", "name == 'department'", [], [], false),
        ("Department", "name == 'employees' OR budget > 3", [], [], false),
        ("Employee", "ANY projects.budget > 1", [], [], true),
        ("Employee", "SUBQUERY(projects, $p, $p.budget > 1).@count > 0", [], [], true),
        ("Department", "employees.@count > 2", [], [], true),
        ("Project", "NOT (members.@count > 0)", [], [], true),
        ("Employee", "salary + age > 3 AND active == YES", [], [], false),
        ("Employee", "TERNARY(department == nil, 1, 2) == 1", [], [], true),
        ("Employee", "department IN %@", [], [], true),
        ("Employee", nil, ["department.name"], [], true),
        ("Employee", nil, ["salary", "name"], [], false),
        ("Employee", nil, [], ["department.name"], true),
        ("Employee", nil, [], ["salary * 2"], false),
        // A method of the object may read anything of it.
        ("Employee", "FUNCTION(SELF, 'uppercaseName') == 'A'", [], [], true),
        ("Employee", "FUNCTION('abc', 'uppercaseString') == name", [], [], false),
    ]

    @Test(arguments: cases)
    func readsRelationships(entity: String, predicate: String?, sorts: [String], properties: [String], expected: Bool) throws {
        var request = FetchRequest(entity: entity, predicate: try predicate.map { try Parser.parsePredicate($0, arguments: $0.contains("%@") ? [.array([])] : nil) },
                                   sortDescriptors: sorts.map { QuerySortDescriptor($0) })
        request.propertiesToFetch = try properties.enumerated().map { FetchProperty(name: "p\($0.offset)", expression: try Parser.parseExpression($0.element)) }
        #expect(request.readsRelationships(in: companyModel) == expected)
    }
}

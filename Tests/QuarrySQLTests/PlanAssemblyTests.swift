// How the planner assembles a statement: the `_entity` filters of shared
// (inheritance) tables at every level, the COUNT cut out of the fetch, row
// aliases past the ones spelled in advance, joins shared by the predicate and
// the sort keys, and the byte buffer (SQLText) everything is written into.
import Foundation
import Testing
@testable import QuarrySQL

/// One table per hierarchy: Person (abstract) → Employee → Manager, and
/// Contractor, share "Person"; a relationship's destination or a fetched
/// sub-entity needs a filter on `_entity`.
let hierarchyModel = try! ModelReader.read(yaml: """
entities:
  Company:
    attributes: { name: string }
    relationships:
      people: { to: Person, many: true, inverse: company }
  Person:
    abstract: true
    attributes: { name: string, age: integer32 }
    relationships:
      company: { to: Company }
      badge: { to: Badge, inverse: holder }
  Employee:
    parent: Person
    attributes: { salary: integer64 }
    relationships:
      boss: { to: Manager, inverse: reports }
  Manager:
    parent: Employee
    attributes: { bonus: double }
    relationships:
      reports: { to: Employee, many: true, inverse: boss }
  Contractor:
    parent: Person
    attributes: { rate: double, salary: string }
  Badge:
    attributes: { code: string }
    relationships:
      holder: { to: Person, inverse: badge }
""", file: "hierarchy.yaml")
let hierarchyMapping = StoreMapping(model: hierarchyModel)

@Suite("Plan assembly")
struct PlanAssemblyTests {
    static let hierarchyCases: [(String, String, String, [Value])] = [
        ("Employee", "boss.name == 'b'",
         #"SELECT t0."_pk", t0."_entity", t0."name", t0."age", t0."salary", t0."company", t0."boss", t0."bonus", t0."_version" FROM "Person" t0 LEFT JOIN "Person" t1 ON t1."_pk" = t0."boss" AND t1."_entity" IN (?) WHERE t0."_entity" IN (?, ?) AND (t1."name" = ?) ORDER BY t0."_pk""#,
         [.string("Manager"), .string("Employee"), .string("Manager"), .string("b")]),
        ("Manager", "ANY reports.salary > 5",
         #"SELECT t0."_pk", t0."_entity", t0."name", t0."age", t0."salary", t0."bonus", t0."company", t0."boss", t0."_version" FROM "Person" t0 WHERE t0."_entity" IN (?) AND (EXISTS (SELECT 1 FROM "Person" t1 WHERE t1."boss" = t0."_pk" AND t1."_entity" IN (?, ?) AND (t1."salary" > ?))) ORDER BY t0."_pk""#,
         [.string("Manager"), .string("Employee"), .string("Manager"), .int(5)]),
        ("Manager", "SUBQUERY(reports, $r, $r.boss.name == 'x').@count > 0",
         #"SELECT t0."_pk", t0."_entity", t0."name", t0."age", t0."salary", t0."bonus", t0."company", t0."boss", t0."_version" FROM "Person" t0 WHERE t0."_entity" IN (?) AND ((SELECT COUNT(*) FROM "Person" t1 LEFT JOIN "Person" t2 ON t2."_pk" = t1."boss" AND t2."_entity" IN (?) WHERE t1."boss" = t0."_pk" AND t1."_entity" IN (?, ?) AND (t2."name" = ?)) > ?) ORDER BY t0."_pk""#,
         [.string("Manager"), .string("Manager"), .string("Employee"), .string("Manager"), .string("x"), .int(0)]),
        ("Contractor", "salary == '5'",
         #"SELECT t0."_pk", t0."_entity", t0."name", t0."age", t0."rate", t0."Contractor_salary", t0."company", t0."_version" FROM "Person" t0 WHERE t0."_entity" IN (?) AND (t0."Contractor_salary" = ?) ORDER BY t0."_pk""#,
         [.string("Contractor"), .string("5")]),
        ("Badge", "holder.company.name == 'c'",
         #"SELECT t0."_pk", t0."_entity", t0."code", t0."holder", t0."_version" FROM "Badge" t0 LEFT JOIN "Person" t1 ON t1."_pk" = t0."holder" LEFT JOIN "Company" t2 ON t2."_pk" = t1."company" WHERE t2."name" = ? ORDER BY t0."_pk""#,
         [.string("c")]),
    ]

    @Test(arguments: hierarchyCases)
    func sharedTablesAreFilteredAtEveryLevel(entity: String, format: String, sql: String, arguments: [Value]) throws {
        let plan = try SQLPlanner.plan(FetchRequest(entity: entity, predicate: try Parser.parsePredicate(format)), mapping: hierarchyMapping)
        #expect(plan.sql.sql == sql)
        #expect(plan.sql.arguments == arguments)
    }

    /// (entity, predicate, sort keys, limit, offset) on the company model.
    static let countCases: [(String, String, [String], Int?, Int)] = [
        ("Employee", "department.name == 'Sales' AND salary > 50000", [], nil, 0),
        ("Employee", "department.name == 'Sales' AND salary > 50000", ["department.budget"], 30, 0),
        ("Employee", "ANY projects.budget > 100", ["name"], 10, 5),
        ("Employee", "salary > 1", [], nil, 7),
        ("Employee", "TRUEPREDICATE", ["department.name", "age"], nil, 0),
        ("Department", "employees.@count > 2 AND name BEGINSWITH[c] 's'", [], 3, 1),
        ("Employee", "salary ** 2 > 4", [], 10, 0),
    ]

    @Test(arguments: countCases)
    func countIsTheFetchWithoutOrderOrLimit(entity: String, format: String, sorts: [String], limit: Int?, offset: Int) throws {
        let request = FetchRequest(entity: entity, predicate: try Parser.parsePredicate(format),
                                   sortDescriptors: sorts.map { QuerySortDescriptor($0) }, fetchLimit: limit, fetchOffset: offset)
        let plan = try SQLPlanner.plan(request, mapping: companyMapping)
        guard plan.residual == nil else {
            // Memory decides which rows count: no COUNT in SQL.
            #expect(plan.countSQL == nil)
            return
        }
        let sql = plan.sql.sql
        let from = try #require(sql.range(of: " FROM "))
        let order = try #require(sql.range(of: " ORDER BY ", options: .backwards))
        let count = try #require(plan.countSQL)
        #expect(count.sql == "SELECT COUNT(*) " + sql[sql.index(after: from.lowerBound)..<order.lowerBound])
        let paging = limit != nil ? 2 : offset > 0 ? 1 : 0
        #expect(count.arguments == Array(plan.sql.arguments.dropLast(paging)))
    }

    @Test func aliasesPastTheOnesSpelledInAdvance() throws {
        // Each to-many quantifier takes a row alias and a join-table alias:
        // twelve of them number aliases up to t23 and j24.
        let format = (1...12).map { "ANY projects.budget > \($0)" }.joined(separator: " AND ")
        let plan = try SQLPlanner.plan(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate(format)), mapping: companyMapping)
        let expected = (0..<12).map { i in
            #"(EXISTS (SELECT 1 FROM "_Employee_projects" j\#(2 * i + 2) JOIN "Project" t\#(2 * i + 1) ON t\#(2 * i + 1)."_pk" = j\#(2 * i + 2)."target" WHERE j\#(2 * i + 2)."source" = t0."_pk" AND (t\#(2 * i + 1)."budget" > ?)))"#
        }.joined(separator: " AND ")
        let whereClause = try #require(plan.sql.sql.range(of: " WHERE "))
        let order = try #require(plan.sql.sql.range(of: " ORDER BY ", options: .backwards))
        #expect(String(plan.sql.sql[whereClause.upperBound..<order.lowerBound]) == expected)
        #expect(plan.sql.arguments == (1...12).map { .int(Int64($0)) })
    }

    @Test func sortKeysShareThePredicatesJoins() throws {
        let request = FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("department.name == 'Sales'"),
                                   sortDescriptors: [QuerySortDescriptor("department.name", ascending: false), QuerySortDescriptor("department.budget")])
        let sql = try SQLPlanner.plan(request, mapping: companyMapping).sql.sql
        #expect(sql.components(separatedBy: "LEFT JOIN").count == 2, "one join: \(sql)")
        #expect(sql.hasSuffix(#" ORDER BY t1."name" DESC, t1."budget", t0."_pk""#))
    }
}

@Suite("SQL text buffer")
struct SQLTextTests {
    static let pieces = ["", "a", "t0.", #""name""#, " = ?", "é", "佐藤", String(repeating: "x", count: 15), String(repeating: "y", count: 40)]

    @Test(arguments: [0, 1, 2, 3, 5, 9])
    func concatIsTheJoinedPieces(count: Int) {
        let chosen = (0..<count).map { Self.pieces[($0 * 5 + count) % Self.pieces.count] }
        // The variadic call takes its pieces one by one, so build the call
        // from up to nine explicit arguments.
        let padded = chosen + Array(repeating: "", count: 9 - count)
        let joined = SQLText.concat(padded[0], padded[1], padded[2], padded[3], padded[4], padded[5], padded[6], padded[7], padded[8])
        #expect(joined == chosen.joined())
        #expect(joined.utf8.count == chosen.reduce(0) { $0 + $1.utf8.count })
    }

    @Test func bufferGrowsAndKeepsArgumentsInOrder() {
        var text = SQLText(capacity: 4)
        var expected = ""
        var arguments: [Value] = []
        for i in 0..<50 {
            let piece = Self.pieces[i % Self.pieces.count]
            if i % 3 == 0 {
                text.appendLiteral(" AND ")
                expected += " AND "
            }
            if i % 4 == 0 {
                text.append(SQLFragment(piece + "?", [.int(Int64(i))]))
                expected += piece + "?"
                arguments.append(.int(Int64(i)))
            } else {
                text.append(piece)
                expected += piece
            }
        }
        #expect(text.string == expected)
        #expect(text.count == expected.utf8.count)
        #expect(text.arguments == arguments)
        #expect(text.fragment == SQLFragment(expected, arguments))
        // A cut with a prefix, as COUNT is made (bytes 2..<20 are ASCII).
        let bytes = Array(expected.utf8)
        #expect(text.string(2..<20, after: "SELECT ") == "SELECT " + String(decoding: bytes[2..<20], as: UTF8.self))
        #expect(text.string(0..<0, after: "") == "")
    }
}

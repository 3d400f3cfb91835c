// Variants of a planned statement made by replacing a part (SelectStatement)
// instead of editing its text: the same rows selecting only their keys,
// without order, and the same condition in an UPDATE. The expected texts are
// the ones the text-editing code produced (EXPLAIN before plans were parts),
// so the change of method changed no statement.
import Foundation
import Testing
@testable import QuarrySQL

@Suite("Plans as parts")
struct PlanPartsTests {
    static func mapping(_ name: String) -> StoreMapping { name == "company" ? companyMapping : hierarchyMapping }

    /// (mapping, entity, predicate, set key, set expression, UPDATE text, arguments).
    static let updates: [(String, String, String?, String, String, String, [Value])] = [
        ("company", "Employee", "age > 30", "salary", "salary * 2",
         #"UPDATE "Employee" AS t0 SET "salary" = (t0."salary" * ?), "_version" = t0."_version" + 1 WHERE t0."age" > ?"#, [.int(2), .int(30)]),
        ("company", "Employee", nil, "salary", "5", #"UPDATE "Employee" AS t0 SET "salary" = ?, "_version" = t0."_version" + 1"#, [.int(5)]),
        // A join in the selection: the UPDATE goes through the keys.
        ("company", "Employee", "department.name == 'Sales'", "salary", "salary + 1",
         #"UPDATE "Employee" AS t0 SET "salary" = (t0."salary" + ?), "_version" = t0."_version" + 1 WHERE t0."_pk" IN (SELECT t0."_pk" FROM "Employee" t0 LEFT JOIN "Department" t1 ON t1."_pk" = t0."department" WHERE t1."name" = ?)"#,
         [.int(1), .string("Sales")]),
        // A subquery is no join of the statement: the WHERE applies directly.
        ("company", "Employee", "ANY projects.budget > 3", "name", "'x'",
         #"UPDATE "Employee" AS t0 SET "name" = ?, "_version" = t0."_version" + 1 WHERE EXISTS (SELECT 1 FROM "_Employee_projects" j2 JOIN "Project" t1 ON t1."_pk" = j2."target" WHERE j2."source" = t0."_pk" AND (t1."budget" > ?))"#,
         [.string("x"), .int(3)]),
        ("hierarchy", "Employee", "age > 3", "salary", "salary + 1",
         #"UPDATE "Person" AS t0 SET "salary" = (t0."salary" + ?), "_version" = t0."_version" + 1 WHERE t0."_entity" IN (?, ?) AND (t0."age" > ?)"#,
         [.int(1), .string("Employee"), .string("Manager"), .int(3)]),
        ("hierarchy", "Manager", nil, "bonus", "2", #"UPDATE "Person" AS t0 SET "bonus" = ?, "_version" = t0."_version" + 1 WHERE t0."_entity" IN (?)"#,
         [.int(2), .string("Manager")]),
        ("hierarchy", "Employee", "boss.name == 'x'", "salary", "1",
         #"UPDATE "Person" AS t0 SET "salary" = ?, "_version" = t0."_version" + 1 WHERE t0."_pk" IN (SELECT t0."_pk" FROM "Person" t0 LEFT JOIN "Person" t1 ON t1."_pk" = t0."boss" AND t1."_entity" IN (?) WHERE t0."_entity" IN (?, ?) AND (t1."name" = ?))"#,
         [.int(1), .string("Manager"), .string("Employee"), .string("Manager"), .string("x")]),
    ]

    @Test(arguments: updates)
    func updateReusesTheSelectionsCondition(mapping: String, entity: String, predicate: String?, key: String, expression: String,
                                            sql: String, arguments: [Value]) throws {
        let update = try #require(try SQLPlanner.planUpdate(entity: entity, predicate: predicate.map { try Parser.parsePredicate($0) },
                                                             set: [(key, try Parser.parseExpression(expression))], mapping: Self.mapping(mapping)))
        #expect(update.sql == sql)
        #expect(update.arguments == arguments)
    }

    /// (mapping, entity, predicate, sort keys, limit, offset).
    static let fetches: [(String, String, String?, [String], Int?, Int)] = [
        ("company", "Employee", nil, [], nil, 0),
        ("company", "Employee", "salary > 5 AND name BEGINSWITH 'a'", ["name"], 10, 3),
        ("company", "Employee", "department.name == 'Sales'", ["department.budget"], nil, 4),
        ("company", "Department", "employees.@count > 2", [], 3, 0),
        ("hierarchy", "Employee", "boss.name == 'b'", ["age"], nil, 0),
        ("hierarchy", "Person", nil, [], nil, 2),
    ]

    @Test(arguments: fetches)
    func onlyTheKeysOfTheSameRows(mapping: String, entity: String, predicate: String?, sorts: [String], limit: Int?, offset: Int) throws {
        let request = FetchRequest(entity: entity, predicate: try predicate.map { try Parser.parsePredicate($0) },
                                   sortDescriptors: sorts.map { QuerySortDescriptor($0) }, fetchLimit: limit, fetchOffset: offset)
        let plan = try SQLPlanner.plan(request, mapping: Self.mapping(mapping))
        #expect(plan.statement.sql == plan.sql, "the plan's text is its statement's")
        // The keys: what cutting the text at FROM gave.
        let keys = plan.statement.selecting(columns: [StoreMapping.primaryKey, StoreMapping.entityColumn]).sql
        let from = try #require(plan.sql.sql.range(of: " FROM "))
        #expect(keys.sql == #"SELECT t0."_pk", t0."_entity""# + plan.sql.sql[from.lowerBound...])
        #expect(keys.arguments == plan.sql.arguments)
        // Unordered: everything before ORDER BY.
        let unordered = plan.statement.unordered().sql
        let order = try #require(plan.sql.sql.range(of: " ORDER BY ", options: .backwards))
        #expect(unordered.sql == String(plan.sql.sql[..<order.lowerBound]))
        let paging = limit != nil ? 2 : offset > 0 ? 1 : 0
        #expect(unordered.arguments == Array(plan.sql.arguments.dropLast(paging)))
        // The SELECT clause alone, for loading rows by other conditions.
        #expect(plan.statement.selectClause == String(plan.sql.sql[..<from.lowerBound]))
    }

    @Test func whereClauseIsTheConditionAlone() throws {
        let plan = try SQLPlanner.plan(FetchRequest(entity: "Manager", predicate: try Parser.parsePredicate("bonus > 1.5 AND age < 9")),
                                       mapping: hierarchyMapping)
        let clause = plan.statement.whereClause
        #expect(clause.sql == #" WHERE t0."_entity" IN (?) AND ((t0."bonus" > ?) AND (t0."age" < ?))"#)
        #expect(clause.arguments == [.string("Manager"), .double(1.5), .int(9)])
        var none = plan.statement
        none.condition = SelectCondition()
        #expect(none.whereClause.sql == "")
    }

    /// A constant conjunct folds away by its value, whatever its text.
    static let constants: [(String, String?)] = [
        ("TRUEPREDICATE", nil),
        ("salary > 1 AND TRUEPREDICATE", #"t0."salary" > ?"#),
        ("NOT FALSEPREDICATE", nil),
        ("FALSEPREDICATE OR salary > 1", #"t0."salary" > ?"#),
        ("FALSEPREDICATE", "FALSE"),
    ]

    @Test(arguments: constants)
    func constantConditionsFold(format: String, condition: String?) throws {
        let plan = try SQLPlanner.plan(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate(format)), mapping: companyMapping)
        #expect(plan.statement.condition.conjuncts.map(\.sql) == (condition.map { [$0] } ?? []))
    }
}

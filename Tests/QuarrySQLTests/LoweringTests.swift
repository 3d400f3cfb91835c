// Exact SQL and arguments for each operator family, on the company model of
// Examples/Models: the lowering's contract, checked text for text.
import Foundation
import Testing
@testable import QuarrySQL

let companyModel: Model = {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/Models/Company.yaml").path
    return try! ModelReader.read(from: path)
}()
let companyMapping = StoreMapping(model: companyModel)

/// The WHERE condition (and residual) a predicate lowers to for an entity.
func lower(_ format: String, _ args: [Value] = [], entity: String = "Employee") throws -> (String, [Value], String?) {
    let request = FetchRequest(entity: entity, predicate: try Parser.parsePredicate(format, arguments: args))
    let plan = try SQLPlanner.plan(request, mapping: companyMapping)
    let sql = plan.sql.sql
    let whereStart = sql.range(of: " WHERE ")
    let orderStart = sql.range(of: " ORDER BY ")!
    let from = sql.range(of: " FROM ")!.upperBound
    let joinsEnd = sql.range(of: " t0", range: from..<sql.endIndex)!.upperBound
    let joins = String(sql[joinsEnd..<(whereStart?.lowerBound ?? orderStart.lowerBound)])
    let condition = whereStart.map { String(sql[$0.upperBound..<orderStart.lowerBound]) } ?? ""
    return ((joins.isEmpty ? "" : joins.trimmingCharacters(in: .whitespaces) + " | ") + condition, plan.sql.arguments,
            plan.residual.map(Printer.format))
}

@Suite("SQL lowering")
struct LoweringTests {
    static let cases: [(String, [Value], String, [Value])] = [
        ("salary > 50000", [], #"t0."salary" > ?"#, [.int(50000)]),
        ("salary == 50000", [], #"t0."salary" = ?"#, [.int(50000)]),
        ("salary != 50000", [], #"t0."salary" IS NOT ?"#, [.int(50000)]),
        ("NOT (age > 5)", [], #"(t0."age" > ?) IS NOT TRUE"#, [.int(5)]),
        ("NOT (salary > 5)", [], #"(t0."salary" > ?) IS NOT TRUE"#, [.int(5)]),
        ("age == nil", [], #"t0."age" IS NULL"#, []),
        ("age != nil", [], #"t0."age" IS NOT NULL"#, []),
        ("age < nil", [], "FALSE", []),
        ("age == '30'", [], "FALSE", []),
        ("age != '30'", [], "", []),
        ("active == YES", [], #"t0."active" = ?"#, [.int(1)]),
        ("age BETWEEN {20, 30}", [], #"(t0."age" >= ? AND t0."age" <= ?)"#, [.int(20), .int(30)]),
        ("age IN {20, 30, 'x'}", [], #"t0."age" IN (?, ?)"#, [.int(20), .int(30)]),
        ("age IN {20, nil}", [], #"(t0."age" IN (?) OR t0."age" IS NULL)"#, [.int(20)]),
        ("name ==[cd] 'MÜLLER'", [], #"quarry_fold(t0."name", 3) = ?"#, [.string("muller")]),
        ("name BEGINSWITH[cd] 'jo'", [], #"quarry_begins(t0."name", ?, 3)"#, [.string("jo")]),
        ("name ENDSWITH 'son'", [], #"quarry_ends(t0."name", ?, 0)"#, [.string("son")]),
        ("name CONTAINS[c] 'an'", [], #"quarry_contains(t0."name", ?, 1)"#, [.string("an")]),
        ("'an' IN name", [], #"quarry_contains(t0."name", ?, 0)"#, [.string("an")]),
        ("name LIKE 'J?s*'", [], #"quarry_like(t0."name", ?, 0)"#, [.string("J?s*")]),
        ("name MATCHES '[A-Z].*'", [], #"quarry_matches(t0."name", ?, 0)"#, [.string("[A-Z].*")]),
        ("salary LIKE 'x'", [], "FALSE", []),
        ("department.name == 'Sales'", [],
         #"LEFT JOIN "Department" t1 ON t1."_pk" = t0."department" | t1."name" = ?"#, [.string("Sales")]),
        ("department.name == 'Sales' AND department.budget > 5", [],
         #"LEFT JOIN "Department" t1 ON t1."_pk" = t0."department" | (t1."name" = ?) AND (t1."budget" > ?)"#, [.string("Sales"), .int(5)]),
        ("department == nil", [], #"t0."department" IS NULL"#, []),
        ("ANY projects.budget > 100", [],
         #"EXISTS (SELECT 1 FROM "_Employee_projects" j2 JOIN "Project" t1 ON t1."_pk" = j2."target" WHERE j2."source" = t0."_pk" AND (t1."budget" > ?))"#,
         [.int(100)]),
        ("ALL projects.budget > 100", [],
         #"NOT EXISTS (SELECT 1 FROM "_Employee_projects" j2 JOIN "Project" t1 ON t1."_pk" = j2."target" WHERE j2."source" = t0."_pk" AND ((t1."budget" > ?) IS NOT TRUE))"#,
         [.int(100)]),
        ("NONE projects.name == 'X'", [],
         #"NOT EXISTS (SELECT 1 FROM "_Employee_projects" j2 JOIN "Project" t1 ON t1."_pk" = j2."target" WHERE j2."source" = t0."_pk" AND (t1."name" = ?))"#,
         [.string("X")]),
        ("projects.@count > 2", [],
         #"(SELECT COUNT(*) FROM "_Employee_projects" j2 JOIN "Project" t1 ON t1."_pk" = j2."target" WHERE j2."source" = t0."_pk") > ?"#, [.int(2)]),
        ("'X' IN projects.name", [],
         #"EXISTS (SELECT 1 FROM "_Employee_projects" j2 JOIN "Project" t1 ON t1."_pk" = j2."target" WHERE j2."source" = t0."_pk" AND (? = t1."name"))"#,
         [.string("X")]),
        ("(salary + 1000) * 2 > 100000", [], #"((t0."salary" + ?) * ?) > ?"#, [.int(1000), .int(2), .int(100000)]),
        ("1 == 1", [], "", []),
    ]

    @Test(arguments: cases)
    func lowersToExactSQL(format: String, args: [Value], sql: String, arguments: [Value]) throws {
        let (condition, bound, residual) = try lower(format, args)
        #expect(condition == sql)
        #expect(bound == arguments)
        #expect(residual == nil)
    }

    static let departmentCases: [(String, String, [Value])] = [
        ("ANY employees.salary > 100000",
         #"EXISTS (SELECT 1 FROM "Employee" t1 WHERE t1."department" = t0."_pk" AND (t1."salary" > ?))"#, [.int(100000)]),
        // @avg divides by the elements (a nil counts as 0); average: is AVG.
        ("employees.@avg.age > 50",
         #"(SELECT (TOTAL(t1."age") / NULLIF(COUNT(*), 0)) FROM "Employee" t1 WHERE t1."department" = t0."_pk") > ?"#, [.int(50)]),
        ("average:(employees.age) > 50",
         #"(SELECT AVG(t1."age") FROM "Employee" t1 WHERE t1."department" = t0."_pk") > ?"#, [.int(50)]),
        // Integer 64: the exact sum (high and low 32 bits apart) rounded once (PredicateLowering+Averages).
        ("employees.@avg.salary > 50000",
         #"(SELECT ((CAST(COALESCE(SUM((t1."salary") >> 32), 0) AS REAL) * 4294967296.0 + CAST(COALESCE(SUM((t1."salary") & 4294967295), 0) AS REAL)) / NULLIF(COUNT(*), 0)) FROM "Employee" t1 WHERE t1."department" = t0."_pk") > ?"#, [.int(50000)]),
        ("average:(employees.salary) > 50000",
         #"(SELECT ((CAST(COALESCE(SUM((t1."salary") >> 32), 0) AS REAL) * 4294967296.0 + CAST(COALESCE(SUM((t1."salary") & 4294967295), 0) AS REAL)) / NULLIF(COUNT(t1."salary"), 0)) FROM "Employee" t1 WHERE t1."department" = t0."_pk") > ?"#, [.int(50000)]),
        ("count:(employees) == 0",
         #"(SELECT COUNT(*) FROM "Employee" t1 WHERE t1."department" = t0."_pk") = ?"#, [.int(0)]),
        ("employees.@sum.age >= 10",
         #"(SELECT COALESCE(SUM(t1."age"), 0) FROM "Employee" t1 WHERE t1."department" = t0."_pk") >= ?"#, [.int(10)]),
        ("SUBQUERY(employees, $e, $e.active == NO AND $e.age > 60).@count > 0",
         #"(SELECT COUNT(*) FROM "Employee" t1 WHERE t1."department" = t0."_pk" AND ((t1."active" = ?) AND (t1."age" > ?))) > ?"#,
         [.int(0), .int(60), .int(0)]),
        ("ANY employees.projects.name == 'Apollo'",
         #"EXISTS (SELECT 1 FROM "Employee" t1 JOIN "_Employee_projects" j3 ON j3."source" = t1."_pk" JOIN "Project" t2 ON t2."_pk" = j3."target" WHERE t1."department" = t0."_pk" AND (t2."name" = ?))"#,
         [.string("Apollo")]),
    ]

    @Test(arguments: departmentCases)
    func toManyFromDepartments(format: String, sql: String, arguments: [Value]) throws {
        let (condition, bound, residual) = try lower(format, entity: "Department")
        #expect(condition == sql)
        #expect(bound == arguments)
        #expect(residual == nil)
    }

    @Test(arguments: [("salary ** 2 > 4", "salary ** 2 > 4"), ("FUNCTION(SELF, 'f') == 1", #"FUNCTION(SELF, "f") == 1"#),
                      ("name == 'a' AND salary ** 2 > 4", "salary ** 2 > 4"), ("salary / 0 > 1", "salary / 0 > 1"),
                      // The evaluator raises on a sum of dates; an Integer 64 sum may overflow.
                      ("department.employees.@sum.startDate > 5", "department.employees.@sum.startDate > 5"),
                      ("department.employees.@avg.startDate > 5", "department.employees.@avg.startDate > 5"),
                      ("department.employees.@sum.salary > 5", "department.employees.@sum.salary > 5")])
    func unsupportedPartsBecomeResidual(format: String, residual: String) throws {
        let (_, _, rest) = try lower(format)
        #expect(rest == residual)
    }

    static let bindErrors: [(String, DiagnosticCode, String)] = [
        ("salry > 5", .unknownKeyInModel, "did you mean 'salary'?"),
        ("projects.budget > 5", .toManyWithoutQuantifier, "use ANY, ALL or NONE before the comparison, or @count"),
        ("department.nam == 'x'", .unknownKeyInModel, "did you mean 'name'?"),
        ("salary.foo == 1", .keyAfterAttribute, ""),
        ("name.@count == 1", .keyAfterAttribute, ""),
        ("department.@count == 1", .notAToManyKeyPath, ""),
    ]

    @Test(arguments: bindErrors)
    func bindErrorsAreLocatedAndHelpful(format: String, code: DiagnosticCode, hint: String) throws {
        do {
            _ = try lower(format)
            Issue.record("accepted \(format)")
        } catch let d as Diagnostic {
            #expect(d.code == code)
            #expect(d.stage == .bind)
            if !hint.isEmpty { #expect(d.hints.contains(hint), "\(d.hints)") }
        }
    }

    @Test func unknownEntityIsABindError() {
        #expect(throws: Diagnostic.self) { try SQLPlanner.plan(FetchRequest(entity: "Employe"), mapping: companyMapping) }
    }

    @Test func fullSelectWithSortLimitAndOffset() throws {
        var request = FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary > 50000"))
        request.sortDescriptors = [QuerySortDescriptor("department.name", ascending: false), QuerySortDescriptor("name", caseInsensitive: true)]
        request.fetchLimit = 30
        request.fetchOffset = 10
        let plan = try SQLPlanner.plan(request, mapping: companyMapping)
        #expect(plan.sql.sql == #"SELECT t0."_pk", t0."_entity", t0."name", t0."age", t0."salary", t0."startDate", t0."active", t0."email", t0."department", t0."_version" FROM "Employee" t0 LEFT JOIN "Department" t1 ON t1."_pk" = t0."department" WHERE t0."salary" > ? ORDER BY t1."name" DESC, quarry_fold(t0."name", 1), t0."_pk" LIMIT ? OFFSET ?"#)
        #expect(plan.sql.arguments == [.int(50000), .int(30), .int(10)])
        #expect(plan.countSQL?.sql == #"SELECT COUNT(*) FROM "Employee" t0 LEFT JOIN "Department" t1 ON t1."_pk" = t0."department" WHERE t0."salary" > ?"#)
    }

    @Test func schemaForTheCompanyModel() {
        let statements = SchemaBuilder.createStatements(for: companyMapping)
        #expect(statements.contains(#"CREATE TABLE "Employee" ("_pk" INTEGER PRIMARY KEY, "_entity" TEXT NOT NULL, "name" TEXT, "age" INTEGER, "salary" INTEGER, "startDate" REAL, "active" INTEGER, "email" TEXT, "department" INTEGER, "_version" INTEGER NOT NULL DEFAULT 1, FOREIGN KEY ("department") REFERENCES "Department"("_pk") DEFERRABLE INITIALLY DEFERRED)"#))
        #expect(statements.contains(#"CREATE TABLE "_Employee_projects" ("source" INTEGER NOT NULL REFERENCES "Employee"("_pk") ON DELETE CASCADE, "target" INTEGER NOT NULL REFERENCES "Project"("_pk") ON DELETE CASCADE, PRIMARY KEY ("source", "target")) WITHOUT ROWID"#))
        #expect(statements.contains { $0.hasPrefix(#"CREATE UNIQUE INDEX "Department_unique_0" ON "Department" ("name")"#) })
    }
}

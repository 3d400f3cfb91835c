// Scenarios 2, 3, 6 (in SQL), 7, 8 and 9 of PERFORMANCE.md on a
// 1M-employee SQLite store (100 departments), each beside its hand-written
// baseline in the same run:
//   2. parse + bind + lower to SQL vs preparing the emitted SQL (≤ 0.5×);
//   3. fetch with filter and sort, all rows and LIMIT 30, objects
//      materialized, vs the same SQL read through SQLite's column calls into
//      Swift structs (≤ 1.10×);
//   6. counting `name BEGINSWITH[cd] 'jo'` vs counting `name LIKE 'jo%'`
//      with SQLite's ASCII-only LIKE (≤ 2×);
//   7. aggregates (count:, average: per department, GROUP BY) vs the
//      hand-written SQL (≤ 1.10×);
//   8. batch update and delete of about half the rows vs one hand-written
//      UPDATE / DELETE (≤ 1.10×);
//   9. the per-object path (context fetch, set, save) vs a cached-statement
//      UPDATE loop in one transaction (≤ 1.5×).
// Scenarios 8 and 9 also have a baseline making the same writes as Quarry:
// row versions raised (and, per object, held to the version read).
import Benchmark
import CompanyData
import Foundation
import QuarryStore

/// A row held to its version had changed: cannot happen in this benchmark.
struct BenchmarkConflict: Error {}

/// The 1M-employee store (CompanyData), with a copy of the employees for
/// the batch delete benchmark to restore from.
nonisolated(unsafe) let store: SQLStore = {
    let store = makeCompanyStore("bench", employees: 1_000_000)
    try! store.sqlite!.execute(#"CREATE TABLE "EmployeeBackup" AS SELECT * FROM "Employee""#)
    return store
}()

let filter = "salary > 100000"
let request: FetchRequest = {
    var r = FetchRequest(entity: "Employee", predicate: try! Parser.parsePredicate(filter))
    r.sortDescriptors = [QuerySortDescriptor("salary", ascending: false)]
    return r
}()

/// The baseline: the SQL Quarry emits, read column by column into structs.
func handWritten(_ sql: SQLFragment) throws -> [EmployeeRow] { try readEmployeeRows(store, sql) }

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock], maxDuration: .seconds(10), maxIterations: 10)
    _ = store

    let typical = "department.name == 'Dept 7' AND salary > 50000"
    Benchmark("2 quarry: parse + bind + lower", configuration: .init(scalingFactor: .kilo, maxIterations: 100_000)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try SQLPlanner.plan(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate(typical)), mapping: store.mapping))
        }
    }
    let emitted = try! SQLPlanner.plan(FetchRequest(entity: "Employee", predicate: try! Parser.parsePredicate(typical)), mapping: store.mapping).sql.sql
    Benchmark("2 baseline: prepare the emitted SQL", configuration: .init(scalingFactor: .kilo, maxIterations: 100_000)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try store.sqlite!.prepare(emitted)) }
    }

    Benchmark("3 quarry: fetch salary > 100000 sorted, all rows, objects") { _ in
        store.forgetObjects()
        blackHole(try store.fetch(request).count)
    }
    Benchmark("3 baseline: same SQL into structs, all rows") { _ in
        blackHole(try handWritten(try SQLPlanner.plan(request, mapping: store.mapping).sql).count)
    }
    let limited: FetchRequest = { var r = request; r.fetchLimit = 30; return r }()
    Benchmark("3 quarry: fetch sorted LIMIT 30, objects", configuration: .init(maxIterations: 50)) { _ in
        store.forgetObjects()
        blackHole(try store.fetch(limited).count)
    }
    Benchmark("3 baseline: same SQL LIMIT 30 into structs", configuration: .init(maxIterations: 50)) { _ in
        blackHole(try handWritten(try SQLPlanner.plan(limited, mapping: store.mapping).sql).count)
    }

    // Scenario 6 in SQL: the Unicode-correct prefix match (Quarry's folding
    // function) vs SQLite's own LIKE, which folds ASCII letters only.
    let prefix = FetchRequest(entity: "Employee", predicate: try! Parser.parsePredicate("name BEGINSWITH[cd] 'jo'"))
    Benchmark("6 quarry: count name BEGINSWITH[cd] 'jo' in SQL") { _ in
        blackHole(try store.count(prefix))
    }
    Benchmark("6 baseline: count name LIKE 'jo%' in SQL (ASCII-only)") { _ in
        blackHole(try store.sqlite!.query(#"SELECT COUNT(*) FROM "Employee" WHERE "name" LIKE 'jo%'"#).count)
    }

    let perDepartment: FetchRequest = {
        var r = FetchRequest(entity: "Department", sortDescriptors: [QuerySortDescriptor("name")])
        r.propertiesToFetch = [try! FetchProperty(keyPath: "name"),
                               FetchProperty(name: "headcount", expression: try! Parser.parseExpression("count:(employees)")),
                               FetchProperty(name: "avg", expression: try! Parser.parseExpression("average:(employees.salary)"))]
        return r
    }()
    Benchmark("7 quarry: count:(employees), average:(employees.salary) per department") { _ in
        blackHole(try store.fetchDictionaries(perDepartment).count)
    }
    Benchmark("7 baseline: correlated subqueries by hand") { _ in
        blackHole(try store.sqlite!.query(#"SELECT d."name", (SELECT COUNT(*) FROM "Employee" e WHERE e."department" = d."_pk"), (SELECT AVG(e."salary") FROM "Employee" e WHERE e."department" = d."_pk") FROM "Department" d ORDER BY d."name""#).count)
    }
    let grouped: FetchRequest = {
        var r = FetchRequest(entity: "Employee", sortDescriptors: [QuerySortDescriptor("dept")])
        r.propertiesToFetch = [FetchProperty(name: "dept", expression: try! Parser.parseExpression("department.name")),
                               FetchProperty(name: "avg", expression: try! Parser.parseExpression("average:(salary)"))]
        r.propertiesToGroupBy = [try! FetchProperty(keyPath: "department.name")]
        return r
    }()
    Benchmark("7 quarry: GROUP BY department.name, average:(salary)") { _ in
        blackHole(try store.fetchDictionaries(grouped).count)
    }
    Benchmark("7 baseline: GROUP BY by hand") { _ in
        blackHole(try store.sqlite!.query(#"SELECT d."name", AVG(e."salary") FROM "Employee" e LEFT JOIN "Department" d ON d."_pk" = e."department" GROUP BY d."name" ORDER BY d."name""#).count)
    }

    // Scenario 9: the same change made object by object through a context
    // save, vs a cached-statement UPDATE loop in one transaction (the
    // per-object path's baseline), on the 500k active employees.
    Benchmark("9 quarry: context fetch, set, save of 500k objects", configuration: .init(maxIterations: 3)) { _ in
        let context = Context(store: store)
        let objects = try context.fetch(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("active == YES")))
        for o in objects {
            if case .int(let age)? = o.value(forKey: "age") { try o.setValue(.int(age + 1), forKey: "age") }
        }
        try context.save()
        store.forgetObjects()
        blackHole(objects.count)
    }
    Benchmark("9 baseline: cached-statement UPDATE loop", configuration: .init(maxIterations: 3)) { _ in
        let keys = try store.sqlite!.query(#"SELECT "_pk", "age" FROM "Employee" WHERE "active" = 1"#)
        try store.sqlite!.transaction {
            let update = try store.sqlite!.prepare(#"UPDATE "Employee" SET "age" = ? WHERE "_pk" = ?"#)
            for row in keys {
                guard case .int(let pk) = row[0], case .int(let age) = row[1] else { continue }
                try update.bind([.int(age + 1), .int(pk)])
                _ = try update.step()
                update.reset()
            }
        }
        blackHole(keys.count)
    }

    // The same loop keeping what a Quarry save keeps: each row held to the
    // version read and its version raised (optimistic locking), so that
    // another writer's change is not lost — the baseline for the same writes
    // with the same isolation.
    Benchmark("9 baseline: cached-statement UPDATE loop, versions held and raised", configuration: .init(maxIterations: 3)) { _ in
        let keys = try store.sqlite!.query(#"SELECT "_pk", "age", "_version" FROM "Employee" WHERE "active" = 1"#)
        try store.sqlite!.transaction {
            let update = try store.sqlite!.prepare(#"UPDATE "Employee" SET "age" = ?, "_version" = "_version" + 1 WHERE "_pk" = ? AND "_version" = ?"#)
            for row in keys {
                guard case .int(let pk) = row[0], case .int(let age) = row[1], case .int(let version) = row[2] else { continue }
                try update.bind([.int(age + 1), .int(pk), .int(version)])
                _ = try update.step()
                guard store.sqlite!.changes == 1 else { throw BenchmarkConflict() }
                update.reset()
            }
        }
        blackHole(keys.count)
    }

    let half = try! Parser.parsePredicate("active == YES")
    Benchmark("8 quarry: batch update of 500k rows") { _ in
        blackHole(try store.batchUpdate(entity: "Employee", predicate: half, set: [("age", try Parser.parseExpression("age + 1"))]))
    }
    Benchmark("8 baseline: one hand-written UPDATE") { _ in
        try store.sqlite!.transaction { try store.sqlite!.execute(#"UPDATE "Employee" SET "age" = "age" + 1 WHERE "active" = 1"#) }
    }
    // The same UPDATE raising the row versions too, as Quarry's does (the
    // same writes: without it, other writers' saves would not see the change
    // as a conflict).
    Benchmark("8 baseline: one hand-written UPDATE raising row versions") { _ in
        try store.sqlite!.transaction { try store.sqlite!.execute(#"UPDATE "Employee" SET "age" = "age" + 1, "_version" = "_version" + 1 WHERE "active" = 1"#) }
    }
    func restore() throws {
        try store.sqlite!.transaction {
            try store.sqlite!.execute(#"DELETE FROM "Employee""#)
            try store.sqlite!.execute(#"INSERT INTO "Employee" SELECT * FROM "EmployeeBackup""#)
        }
    }
    Benchmark("8 quarry: batch delete of 500k rows", configuration: .init(maxIterations: 5)) { benchmark in
        try restore()
        benchmark.startMeasurement()
        blackHole(try store.batchDelete(entity: "Employee", predicate: half))
        benchmark.stopMeasurement()
    }
    Benchmark("8 baseline: one hand-written DELETE", configuration: .init(maxIterations: 5)) { benchmark in
        try restore()
        benchmark.startMeasurement()
        try store.sqlite!.transaction { try store.sqlite!.execute(#"DELETE FROM "Employee" WHERE "active" = 1"#) }
        benchmark.stopMeasurement()
    }
}

// When the planner offers to sort a fetch's rows in memory (SQLPlanner+
// MemorySort.swift): only when every sort key (at most three) is a plain
// numeric column of the fetched rows, on SQLite, with no limit, offset or
// residual; the unsorted SELECT is the sorted one without its ORDER BY, and
// the keys name the right columns of it. Whether memory then sorts exactly
// as SQLite does is QuarryStoreTests/MemorySortTests.swift.
import Testing
@testable import QuarrySQL

@Suite("Memory sort plans")
struct MemorySortPlanTests {
    /// (entity, sort keys with "-" for descending, expected key columns with
    /// "-" for descending; nil when memory must not sort). Columns are those
    /// of the row SELECT (0 `_pk`, 1 `_entity`; see PlanAssemblyTests).
    static let cases: [(String, [String], [String]?)] = [
        ("Employee", ["salary"], ["salary"]),
        ("Employee", ["-age", "salary"], ["-age", "salary"]),
        ("Manager", ["bonus", "-salary", "age"], ["bonus", "-salary", "age"]),
        ("Contractor", ["rate"], ["rate"]),
        // Strings sort by collation: SQL's.
        ("Employee", ["name"], nil),
        ("Employee", ["salary", "name"], nil),
        ("Contractor", ["salary"], nil),
        // More keys than the sorter's records hold.
        ("Manager", ["bonus", "-salary", "age", "bonus"], nil),
        // A key through a relationship is a joined column, not the row's.
        ("Employee", ["boss.bonus"], nil),
        ("Employee", ["boss.age", "age"], nil),
    ]

    @Test(arguments: cases)
    func offeredOnlyForNumericColumnsOfTheRow(entity: String, sorts: [String], expected: [String]?) throws {
        let request = FetchRequest(entity: entity, sortDescriptors: sorts.map { QuerySortDescriptor(String($0.trimmingPrefix("-")), ascending: !$0.hasPrefix("-")) })
        let plan = try SQLPlanner.plan(request, mapping: hierarchyMapping)
        guard let expected else {
            #expect(plan.memorySort == nil)
            return
        }
        let memorySort = try #require(plan.memorySort)
        // The same SELECT, cut before its ORDER BY, with the same arguments.
        let orderBy = try #require(plan.sql.sql.range(of: " ORDER BY "))
        #expect(memorySort.unsorted.sql == String(plan.sql.sql[..<orderBy.lowerBound]))
        #expect(memorySort.unsorted.arguments == plan.sql.arguments)
        // Each key is the column its attribute is selected as.
        let selected = plan.sql.sql.dropFirst("SELECT ".count).prefix { $0 != "F" }.split(separator: ", ")
        let named = memorySort.keys.map { key in
            (key.ascending ? "" : "-") + selected[key.column].split(separator: ".").last!.trimmingCharacters(in: .init(charactersIn: "\" "))
        }
        #expect(named == expected)
    }

    @Test func notWithALimitOffsetResidualOrOnPostgres() throws {
        let sorted = [QuerySortDescriptor("salary")]
        let limited = FetchRequest(entity: "Employee", sortDescriptors: sorted, fetchLimit: 10)
        #expect(try SQLPlanner.plan(limited, mapping: hierarchyMapping).memorySort == nil)
        let offset = FetchRequest(entity: "Employee", sortDescriptors: sorted, fetchOffset: 3)
        #expect(try SQLPlanner.plan(offset, mapping: hierarchyMapping).memorySort == nil)
        let residual = FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("salary ** 2 > 4"), sortDescriptors: sorted)
        let plan = try SQLPlanner.plan(residual, mapping: hierarchyMapping)
        #expect(plan.residual != nil && plan.memorySort == nil)
        let postgres = StoreMapping(model: hierarchyModel, dialect: .postgres)
        #expect(try SQLPlanner.plan(FetchRequest(entity: "Employee", sortDescriptors: sorted), mapping: postgres).memorySort == nil)
        // Nothing to sort by: the rows come in key order anyway.
        #expect(try SQLPlanner.plan(FetchRequest(entity: "Employee"), mapping: hierarchyMapping).memorySort == nil)
        // A predicate's joins and arguments stay in the unsorted SELECT.
        let joined = FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("boss.name == 'b' AND salary > 5"), sortDescriptors: sorted)
        let memorySort = try #require(try SQLPlanner.plan(joined, mapping: hierarchyMapping).memorySort)
        #expect(memorySort.unsorted.sql.contains("LEFT JOIN") && !memorySort.unsorted.sql.contains("ORDER BY"))
        #expect(memorySort.unsorted.arguments == [.string("Manager"), .string("Employee"), .string("Manager"), .string("b"), .int(5)])
    }
}

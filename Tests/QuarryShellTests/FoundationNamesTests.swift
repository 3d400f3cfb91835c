// Quarry's names beside Foundation's: a file that imports Foundation and
// every Quarry module this target reaches can write Foundation's
// `Predicate`, `Expression` and `SortDescriptor` and Quarry's
// `QueryPredicate`, `QueryExpression` and `QuerySortDescriptor`, all
// unqualified. (Quarry's were called `Predicate`, `Expression` and
// `SortDescriptor`, so in such a file neither could be written bare — and an
// alias kept under the old name still took Foundation's `Predicate<Int>`
// for Quarry's. A name that collides again stops this file compiling.)
import Foundation
import QuarryCoreData
import QuarryFixtures
import QuarryShell
import QuarryStatements
import QuarryStore
import Testing

@Suite struct FoundationNamesTests {
    @Test func foundationsAndQuarrysNamesLiveSideBySide() throws {
        // Foundation's.
        let foundationPredicate: Predicate<Int> = #Predicate<Int> { $0 > 1 }
        #expect(try foundationPredicate.evaluate(2))
        let foundationSort = SortDescriptor(\String.count)
        #expect(["ccc", "a"].sorted(using: foundationSort) == ["a", "ccc"])
        let foundationExpression: Foundation.Expression<Int, Int>? = nil
        #expect(foundationExpression == nil)

        // Quarry's.
        let predicate: QueryPredicate = try Parser.parsePredicate("name BEGINSWITH[cd] 'jo'")
        #expect(try Evaluator.compile(predicate).evaluate(["name": "José"]))
        let expression: QueryExpression = try Parser.parseExpression("2 + 3")
        #expect(try Evaluator.compile(expression).evaluate([:]) == .int(5))
        let sort = QuerySortDescriptor("name", caseInsensitive: true)
        #expect(FetchRequest(entity: "Employee", sortDescriptors: [sort]).sortDescriptors == [sort])
    }
}

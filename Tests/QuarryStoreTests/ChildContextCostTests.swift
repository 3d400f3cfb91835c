// What reading and saving through a parent costs, measured in the debug test
// build beside the same work on a context over the store. Skipped unless
// QUARRY_CHILD_COST is set (a number of rows, e.g. 20000):
//   QUARRY_CHILD_COST=20000 swift test --skip-build --filter ChildContextCost
// prints, per engine: a fetch of every row (a root context over the store;
// a child of a fresh root: the root's fetch plus the child's copies), the
// same fetch with one unsaved change in the parent (the child's answer then
// comes from the parent's in-memory correction), an edit of every row saved
// (root: to the store; child: into its parent, then the parent's save).
import Foundation
import Testing
@testable import QuarryStore

@Suite("Parent/child context cost (opt-in)", .serialized)
struct ChildContextCostTests {
    static let rows = Int(ProcessInfo.processInfo.environment["QUARRY_CHILD_COST"] ?? "")

    static func timed(_ body: () throws -> Void) rethrows -> Double {
        let start = Date()
        try body()
        return Date().timeIntervalSince(start)
    }

    @Test(.enabled(if: rows != nil), arguments: TestEngine.available)
    func readingAndSavingThroughAParent(engine: TestEngine) throws {
        let count = Self.rows ?? 0
        let store = try engine.emptyStore(model: ChildFixture.model)
        let seed = Context(store: store)
        for i in 0..<count {
            let e = try seed.insert("Emp")
            try e.setValue(.string("E\(i)"), forKey: "name")
            try e.setValue(.int(Int64(i)), forKey: "salary")
        }
        try seed.save()
        let request = FetchRequest(entity: "Emp", predicate: try Parser.parsePredicate("salary >= 0"), sortDescriptors: [QuerySortDescriptor("salary")])

        let root = Context(store: store)
        var rootFetchCount = 0
        let rootFetch = try Self.timed { rootFetchCount = try root.fetch(request).count }
        #expect(rootFetchCount == count)
        let child = Context(parent: Context(store: store))
        var childFetchCount = 0
        let childFetch = try Self.timed { childFetchCount = try child.fetch(request).count }
        #expect(childFetchCount == count)

        let dirtyRoot = Context(store: store)
        _ = try dirtyRoot.insert("Emp").setValue("new", forKey: "name")
        var rootPendingCount = 0
        let rootPending = try Self.timed { rootPendingCount = try dirtyRoot.fetch(request).count }
        #expect(rootPendingCount == count + 1)
        let dirtyChild = Context(parent: dirtyRoot)
        var childPendingCount = 0
        let childPending = try Self.timed { childPendingCount = try dirtyChild.fetch(request).count }
        #expect(childPendingCount == count + 1)

        for e in try root.fetch(request) { try e.setValue(1, forKey: "salary") }
        let rootSave = try Self.timed { try root.save() }
        let parent = Context(store: store)
        let editor = Context(parent: parent)
        for e in try editor.fetch(request) { try e.setValue(2, forKey: "salary") }
        let childSave = try Self.timed { try editor.save() }
        let parentSave = try Self.timed { try parent.save() }
        #expect(try Context(store: store).count(FetchRequest(entity: "Emp", predicate: try Parser.parsePredicate("salary == 2"))) == count)

        func ms(_ s: Double) -> String { String(format: "%.0f ms", s * 1000) }
        print("child cost \(engine.rawValue) \(count) rows: fetch root \(ms(rootFetch)), child \(ms(childFetch)); "
              + "fetch with a pending insert root \(ms(rootPending)), child \(ms(childPending)); "
              + "save of every row root \(ms(rootSave)), child into parent \(ms(childSave)) + parent \(ms(parentSave))")
    }
}

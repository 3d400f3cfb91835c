// The differential runner shrinks the data as well as the predicate
// (EngineFuzzer+DataShrinking.swift). A disagreement is injected — an
// engine that answers the SQL rows but leaves out every employee named
// `target` — on a copy of the fixture store (8 departments, 12 projects,
// 200 employees with projects); the shrunk data set must be minimal: the one
// employee that shows the fault, no links, and only the values its insert
// needs (non-optional name, salary, active) left non-nil. The script that
// rebuilds it, written into an empty store, gives the same data back.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Fuzzer: a disagreement's data is shrunk", .serialized)
struct DataShrinkingTests {
    static let format = "salary > 60000"

    /// An engine pair where the second answers wrongly for objects named `target`.
    static func faulty(target: String) -> ([(String, SQLStore)]) -> Bool {
        { stores in
            let store = stores[0].1
            let request = FetchRequest(entity: "Employee", predicate: try! Parser.parsePredicate(format))
            let right = EngineOutcome { try store.fetch(request, engine: .memory) }
            let wrong = EngineOutcome { try store.fetch(request, engine: .sql).filter { $0.value(forKey: "name") != .string(target) } }
            // The same disagreement, not another: both answer rows (a
            // value set to nil where the model forbids it may make one
            // engine fail instead, which is a different case).
            guard case .rows = right, case .rows = wrong else { return false }
            return right != wrong
        }
    }

    @Test func anInjectedDisagreementShrinksToOneObject() throws {
        let source = try Fixture.store(engine: .sqlite)
        let data = try FuzzDataSet.read(source)
        #expect(data.objects.count > 100 && data.links.count > 100, "the fixture has data to shrink: \(data)")
        let matching = try source.fetch(FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate(Self.format)))
        let names = matching.compactMap { o -> String? in
            if case .string(let s)? = o.value(forKey: "name") { return s } else { return nil }
        }
        let target = try #require(names.first)
        let scratch = try TestEngine.sqlite.emptyStore(model: source.model)
        let small = EngineFuzzer.shrinkData(data, format: Self.format, entity: "Employee", stores: [("sqlite", scratch)],
                                            disagrees: Self.faulty(target: target))
        #expect(small.objects.count == 1, "\(small)")
        #expect(small.links.isEmpty)
        let object = try #require(small.objects.first)
        #expect(object.id.entity == "Employee")
        #expect(object.values.first { $0.name == "name" }?.value == .string(target))
        let kept = Set(object.values.filter { !$0.value.isNull }.map(\.name))
        #expect(kept.isSubset(of: ["name", "salary", "active"]), "values left: \(kept)")
        // The fault still shows on the shrunk data, and not without it.
        #expect(Self.faulty(target: target)([("sqlite", scratch)]))
        try FuzzDataSet.clear(scratch)
        #expect(!Self.faulty(target: target)([("sqlite", scratch)]))
    }

    @Test func theReportHoldsTheScriptAndTheCommands() throws {
        let source = try Fixture.store(engine: .sqlite)
        let data = try FuzzDataSet.read(source)
        let first = try #require(data.objects.first { $0.id.entity == "Employee" })
        let one = data.removingObjects(Set(data.objects.map(\.id).filter { $0 != first.id }))
        #expect(one.objects.count == 1)
        let scratch = try TestEngine.sqlite.emptyStore(model: source.model)
        let report = EngineFuzzer.report(seed: 7, tag: "test", format: "salary > 1", entity: "Employee", data: one, sqlite: scratch)
        #expect(report.contains("seed 7"))
        #expect(report.contains("INSERT Employee {"))
        #expect(report.contains("quarry --store ") && report.contains("--engine memory -c 'FETCH Employee WHERE salary > 1'"))
        let path = NSTemporaryDirectory() + "quarry-fuzz-7-test-min.sqlite"
        // The store file carries its model, as `quarry --store` needs.
        let reopened = try SQLStore(path: path, model: try #require(try SQLStore.storedModel(at: path)))
        #expect(try reopened.count(FetchRequest(entity: "Employee")) == 1)
        #expect(try reopened.count(FetchRequest(entity: "Department")) == 0)
        unlink(path)
    }
}

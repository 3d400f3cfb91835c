// What recording persistent history costs, measured in the debug test build
// with history on and off in the same run. Skipped unless QUARRY_HISTORY_COST
// is set (a number of rows, e.g. 20000):
//   QUARRY_HISTORY_COST=20000 swift test --skip-build --filter HistoryCost
// prints, per engine: a context save inserting that many employees, a save
// updating one attribute of each, a batch update of all of them in one SQL
// UPDATE and one object by object — each with history off, then on.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Persistent history cost (opt-in)", .serialized)
struct HistoryCostTests {
    static let rows = Int(ProcessInfo.processInfo.environment["QUARRY_HISTORY_COST"] ?? "")

    static func run(_ engine: TestEngine, rows count: Int, history: Bool) throws -> [Double] {
        let store = try engine.emptyStore(model: HistoryTests.model)
        if history { try store.setHistoryTracking(true) }
        func timed(_ body: () throws -> Void) rethrows -> Double {
            let start = Date()
            try body()
            return Date().timeIntervalSince(start)
        }
        let c = Context(store: store)
        var staff: [ManagedObject] = []
        for i in 0..<count {
            let e = try c.insert("Employee")
            try e.setValue(.string("E\(i)"), forKey: "name")
            try e.setValue(.int(Int64(i)), forKey: "salary")
            staff.append(e)
        }
        let insert = try timed { try c.save() }
        for e in staff { try e.setValue(.string("n"), forKey: "note") }
        let edit = try timed { try c.save() }
        let sql = try timed { try store.batchUpdate(entity: "Employee", predicate: nil, set: [("salary", try Parser.parseExpression("salary + 1"))]) }
        let objects = try timed { try store.batchUpdate(entity: "Employee", predicate: nil, set: [("note", try Parser.parseExpression("uppercase:(note)"))]) }
        if history {
            let changes = try store.history().map(\.changes.count)
            #expect(changes == [count, count, count, count])
        }
        return [insert, edit, sql, objects]
    }

    @Test(.enabled(if: rows != nil), arguments: TestEngine.available)
    func recordingCost(engine: TestEngine) throws {
        let count = Self.rows ?? 0
        let off = try Self.run(engine, rows: count, history: false)
        let on = try Self.run(engine, rows: count, history: true)
        for (i, name) in ["insert save", "update save", "batch update (SQL)", "batch update (object by object)"].enumerated() {
            print(String(format: "history cost %@ %d rows, %@: off %.0f ms, on %.0f ms (%.2f×)",
                         engine.rawValue, count, name, off[i] * 1000, on[i] * 1000, on[i] / off[i]))
        }
    }
}

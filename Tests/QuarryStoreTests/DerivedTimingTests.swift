// What keeping derived attributes current costs a save, measured in the
// debug test build (the time is the database's). Skipped unless
// QUARRY_DERIVED_TIMING is set (a number of employees, e.g. 20000):
//   QUARRY_DERIVED_TIMING=20000 swift test --skip-build --filter DerivedTiming
// prints, per engine, a context save inserting that many employees into 100
// departments and a save editing 1% of their salaries, with the derived
// model (DerivedAttributeTests) and with the same model without derivations.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Derived attributes timing (opt-in)", .serialized)
struct DerivedTimingTests {
    static let employees = Int(ProcessInfo.processInfo.environment["QUARRY_DERIVED_TIMING"] ?? "")

    static func run(_ model: Model, _ engine: TestEngine, employees count: Int) throws -> (insert: Double, edit: Double, total: Value?) {
        let store = try engine.emptyStore(model: model)
        let c = Context(store: store)
        var departments: [ManagedObject] = []
        for i in 0..<100 {
            let d = try c.insert("Department")
            try d.setValue(.string("D\(i)"), forKey: "name")
            departments.append(d)
        }
        try c.save()
        var staff: [ManagedObject] = []
        for i in 0..<count {
            let e = try c.insert("Employee")
            try e.setValue(.string("E\(i)"), forKey: "name")
            try e.setValue(.int(Int64(1_000 + i % 977)), forKey: "salary")
            try e.setValue(departments[i % 100], forKey: "department")
            staff.append(e)
        }
        var start = Date()
        try c.save()
        let insert = Date().timeIntervalSince(start)
        for e in staff.enumerated() where e.offset % 100 == 0 { try e.element.setValue(.int(5), forKey: "salary") }
        start = Date()
        try c.save()
        let edit = Date().timeIntervalSince(start)
        let total = try Context(store: store).fetch(FetchRequest(entity: "Department", predicate: try Parser.parsePredicate("name == 'D0'"))).first?["total"] ?? nil
        return (insert, edit, total)
    }

    @Test(.enabled(if: employees != nil), arguments: TestEngine.available)
    func saveCost(engine: TestEngine) throws {
        let count = Self.employees ?? 0
        var plain = DerivedModel.model
        for e in plain.entities.indices {
            for a in plain.entities[e].attributes.indices { plain.entities[e].attributes[a].derivation = nil }
        }
        let without = try Self.run(plain, engine, employees: count)
        let with = try Self.run(DerivedModel.model, engine, employees: count)
        print(String(format: "derived timing %@ %d employees: insert save %.0f ms (without derivations %.0f ms, %.2f×), edit 1%% save %.0f ms (without %.0f ms, %.2f×)",
                     engine.rawValue, count, with.insert * 1000, without.insert * 1000, with.insert / without.insert,
                     with.edit * 1000, without.edit * 1000, with.edit / without.edit))
        #expect(with.total != nil && with.total != .null)
    }
}

// The property that makes index paths trustworthy: for random sequences of
// edits (inserts, updates of sort, section and predicate keys, deletes with
// their cascades, department renames, saves, rollbacks, and saves merged in
// from a background context), every change set the controller reports,
// applied to the sections before it, gives exactly the sections after it —
// and those equal what a fresh fetch gives. Many seeds, several requests.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Fetched results: random edits keep index paths consistent", .serialized)
struct FetchedResultsPropertyTests {
    struct Setup: CustomStringConvertible, Sendable {
        var sorts: [QuarrySQL.QuerySortDescriptor]
        var section: String?
        var predicate: String?
        var limit: Int? = nil
        var description: String { "\(sorts.map(\.keyPath)) section \(section ?? "-") \(predicate ?? "") \(limit.map { "limit \($0)" } ?? "")" }
    }

    static let setups: [Setup] = [
        Setup(sorts: [QuerySortDescriptor("name")], section: nil, predicate: "salary > 60000"),
        Setup(sorts: [QuerySortDescriptor("age"), QuerySortDescriptor("name", ascending: false)], section: "age", predicate: nil),
        Setup(sorts: [QuerySortDescriptor("active", ascending: false), QuerySortDescriptor("salary")], section: "active", predicate: "age > 30 OR age == nil"),
        Setup(sorts: [QuerySortDescriptor("department.name"), QuerySortDescriptor("name", caseInsensitive: true)], section: "department.name",
              predicate: "salary BETWEEN {20000, 150000}"),
        Setup(sorts: [QuerySortDescriptor("salary", ascending: false)], section: nil, predicate: nil, limit: 25),
    ]

    static let cases: [(Setup, UInt64)] = setups.flatMap { s in (1...8).map { (s, UInt64($0)) } }

    @Test(arguments: cases)
    func appliedChangesGiveTheNewSections(setup: Setup, seed: UInt64) throws {
        let store = try Fixture.store(seed: seed)
        let main = Context(store: store), background = Context(store: store)
        // Weakly: each context keeps the other's observer (a strong pair would be a cycle).
        background.addObserver { [weak main] in if case .didSave(let changes) = $0 { main?.merge(changes: changes) } }
        main.addObserver { [weak background] in if case .didSave(let changes) = $0 { background?.merge(changes: changes) } }
        var request = FetchRequest(entity: "Employee", predicate: try setup.predicate.map { try Parser.parsePredicate($0) },
                                   sortDescriptors: setup.sorts)
        request.fetchLimit = setup.limit
        let controller = FetchedResultsController(fetchRequest: request, context: main, sectionNameKeyPath: setup.section)
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        try controller.performFetch()
        var rng = Seeded(state: seed &* 7919)
        let departments = try main.fetch(FetchRequest(entity: "Department"))

        for step in 0..<60 {
            let before = controller.snapshot
            delegate.changes = []
            let all = try main.fetch(FetchRequest(entity: "Employee"))
            // NFC text, as the store keeps it: Context's in-memory sort of
            // unsaved objects compares raw bytes, the controller (and SQL) NFC.
            func name() -> String { Fixture.names.randomElement(using: &rng)!.precomposedStringWithCanonicalMapping }
            func some() -> ManagedObject { all[Int.random(in: 0..<all.count, using: &rng)] }
            let operation = Int.random(in: 0..<100, using: &rng)
            switch operation {
            case 0..<15:
                let e = try main.insert("Employee")
                try e.setValue(.string(name() + " new"), forKey: "name")
                try e.setValue(.int(Int64.random(in: 0...200_000, using: &rng)), forKey: "salary")
                try e.setValue(Bool.random(using: &rng) ? .int(Int64.random(in: 20...60, using: &rng)) : .null, forKey: "age")
                try e.setValue(.bool(Bool.random(using: &rng)), forKey: "active")
                try e.setValue(departments.randomElement(using: &rng)!, forKey: "department")
            case 15..<30:
                try some().setValue(.int(Int64.random(in: 0...200_000, using: &rng)), forKey: "salary")
            case 30..<40:
                try some().setValue(.string(name()), forKey: "name")
            case 40..<48:
                try some().setValue(Bool.random(using: &rng) ? .int(Int64.random(in: 16...90, using: &rng)) : .null, forKey: "age")
            case 48..<55:
                let e = some()
                try e.setValue(.bool(e["active"] != .bool(true)), forKey: "active")
            case 55..<65:
                try main.delete(some())
            case 65..<72:
                try some().setValue(Bool.random(using: &rng) ? departments.randomElement(using: &rng)! : nil, forKey: "department")
            case 72..<76:
                let d = departments.randomElement(using: &rng)!
                if d.context != nil && !d.isDeleted { try d.setValue(.string("Dept \(step) \(seed)"), forKey: "name") }
            case 76..<88:
                try main.save()
            case 88..<90:
                main.rollback()
            default:
                // Another context edits a few employees (maybe ones main never loaded) and saves; main merges.
                try main.save()
                let theirs = try background.fetch(FetchRequest(entity: "Employee"))
                for _ in 0..<3 {
                    let e = theirs[Int.random(in: 0..<theirs.count, using: &rng)]
                    if Bool.random(using: &rng) { try e.setValue(.int(Int64.random(in: 0...200_000, using: &rng)), forKey: "salary") }
                    else { try background.delete(e) }
                }
                try background.save()
            }
            try main.processPendingChanges()

            let replayed = delegate.changes.reduce(before) { $1.applied(to: $0) }
            #expect(replayed == controller.snapshot, "step \(step), operation \(operation): \(delegate.changes.map(\.json))")
            let fresh = FetchedResultsController(fetchRequest: request, context: main, sectionNameKeyPath: setup.section)
            try fresh.performFetch()
            #expect(controller.snapshot == fresh.snapshot, "step \(step), operation \(operation)\nkept:\n\(controller.snapshot)\nfresh:\n\(fresh.snapshot)")
            #expect(controller.trackingError == nil)
            if replayed != controller.snapshot || controller.snapshot != fresh.snapshot { return }
        }
    }
}

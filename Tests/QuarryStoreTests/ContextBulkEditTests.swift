// Bulk edits through a context: the storage a fetch, an edit and a save of
// many objects go through — the inline-first change list (ChangedValues),
// the undo stack's chunks (ChunkedList), saved values shared in blocks
// (ValueBlock) and the single-change paths of validation and UPDATE — must
// behave exactly as the plain dictionaries and arrays they replace. The
// containers are checked against a Dictionary or an Array under seeded
// random operations; the store paths by reading back what was written.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Context: bulk edits")
struct ContextBulkEditTests {
    // MARK: - Containers against their plain counterparts

    @Test(arguments: 1...12)
    func changedValuesBehaveAsADictionary(seed: UInt64) {
        var generator = Seeded(state: seed)
        var changes = ChangedValues()
        var reference: [String: PropertyValue] = [:]
        let keys = ["age", "name", "salary", "department", "a very long property name indeed"]
        for step in 0..<400 {
            let key = keys.randomElement(using: &generator)!
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5:
                let value = PropertyValue.attribute(.int(Int64(step)))
                changes[key] = value
                reference[key] = value
            case 5..<8:
                changes[key] = nil
                reference[key] = nil
            case 8:
                if let taken = changes.takeSingle() {
                    #expect(reference.count == 1 && reference[taken.key] == taken.value, "step \(step)")
                    reference = [:]
                } else {
                    #expect(reference.count != 1, "step \(step): one change was not handed over")
                }
            default:
                changes.removeAll()
                reference = [:]
            }
            #expect(changes.count == reference.count, "step \(step)")
            #expect(changes.isEmpty == reference.isEmpty, "step \(step)")
            #expect(changes[key] == reference[key], "step \(step)")
            #expect(Dictionary(uniqueKeysWithValues: changes.map { ($0.key, $0.value) }) == reference, "step \(step)")
            #expect(Set(changes.keys) == Set(reference.keys), "step \(step)")
        }
    }

    @Test(arguments: 1...8)
    func chunkedListBehavesAsAnArray(seed: UInt64) {
        var generator = Seeded(state: seed)
        var list = ChunkedList<Int>()
        var reference: [Int] = []
        var next = 0
        for step in 0..<300 {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<6:
                // Runs long enough to cross the 4096-element chunks both ways.
                for _ in 0..<Int.random(in: 1...3000, using: &generator) {
                    list.append(next)
                    reference.append(next)
                    next += 1
                }
            case 6, 7:
                let start = Int.random(in: 0...reference.count, using: &generator)
                #expect(list.removeSuffix(from: start) == Array(reference[start...]), "step \(step)")
                reference.removeSubrange(start...)
            case 8:
                let start = Int.random(in: 0...reference.count, using: &generator)
                list.truncate(to: start)
                reference.removeSubrange(start...)
            default:
                list.mapInPlace { $0 * 2 }
                reference = reference.map { $0 * 2 }
            }
            #expect(list.count == reference.count, "step \(step)")
            if !reference.isEmpty {
                let i = Int.random(in: 0..<reference.count, using: &generator)
                #expect(list[i] == reference[i], "step \(step) index \(i)")
            }
        }
        #expect((0..<list.count).map { list[$0] } == reference)
    }

    // MARK: - The store paths

    /// `count` employees (ages 20...69, a department every other one).
    private func company(_ engine: TestEngine, employees count: Int) throws -> (SQLStore, [ObjectID]) {
        let store = try emptyCompanyStore(engine)
        let sales = try store.insert("Department", ["name": .string("Sales")])
        var ids: [ObjectID] = []
        for i in 0..<count {
            ids.append(try store.insert("Employee", ["name": .string("E\(i)"), "salary": .int(Int64(1000 + i)), "age": .int(Int64(20 + i % 50))],
                                        toOne: i % 2 == 0 ? ["department": sales] : [:]))
        }
        return (store, ids)
    }

    @Test(arguments: TestEngine.available)
    func manyObjectsReadAndSaveTheirOwnValues(engine: TestEngine) throws {
        // 700 objects fill value blocks of 4, 8, ... 256 rows and more.
        let (store, ids) = try company(engine, employees: 700)
        let context = Context(store: store)
        var request = FetchRequest(entity: "Employee")
        request.sortDescriptors = [QuerySortDescriptor("salary")]
        let objects = try context.fetch(request)
        #expect(objects.map(\.objectID) == ids)
        for (i, o) in objects.enumerated() {
            #expect(o["name"] == .string("E\(i)") && o["salary"] == .int(Int64(1000 + i)) && o["age"] == .int(Int64(20 + i % 50)))
            #expect((o.object(forKey: "department") == nil) == (i % 2 == 1))
        }
        // Every third one is edited once, every fifth twice (two changes).
        for (i, o) in objects.enumerated() where i % 3 == 0 || i % 5 == 0 {
            if i % 3 == 0 { try o.setValue(.int(Int64(100 - i % 50)), forKey: "age") }
            if i % 5 == 0 { try o.setValue(.string("F\(i)"), forKey: "name") }
        }
        try context.save()
        #expect(!context.hasChanges)
        let fresh = try Context(store: store).fetch(request)
        for (i, o) in fresh.enumerated() {
            #expect(o["age"] == .int(Int64(i % 3 == 0 ? 100 - i % 50 : 20 + i % 50)), "employee \(i)")
            #expect(o["name"] == .string(i % 5 == 0 ? "F\(i)" : "E\(i)"), "employee \(i)")
        }
        // The saved objects hold the new values as saved ones: setting one
        // back to what was saved is no change.
        try objects[3].setValue(.int(97), forKey: "age")
        #expect(!context.hasChanges)
    }

    @Test(arguments: TestEngine.available)
    func undoAndRedoManySingleEdits(engine: TestEngine) throws {
        // 300 objects × 15 edits: 4500 undo groups, past one chunk of steps.
        let (store, _) = try company(engine, employees: 300)
        let context = Context(store: store)
        let objects = try context.fetch(FetchRequest(entity: "Employee"))
        let saved = objects.map { $0["age"] }
        for round in 1...15 {
            for o in objects { try o.setValue(.int(Int64(100 + round)), forKey: "age") }
        }
        #expect(objects.allSatisfy { $0["age"] == .int(115) })
        for _ in 0..<(300 * 14) { context.undo() }
        #expect(objects.allSatisfy { $0["age"] == .int(101) })
        for _ in 0..<300 { context.undo() }
        #expect(objects.map { $0["age"] } == saved)
        #expect(!context.hasChanges && !context.canUndo)
        for _ in 0..<450 { context.redo() }
        #expect(objects.prefix(150).allSatisfy { $0["age"] == .int(102) } && objects.suffix(150).allSatisfy { $0["age"] == .int(101) })
        try context.save()
        let fresh = try Context(store: store).fetch(FetchRequest(entity: "Employee"))
        #expect(fresh.map { $0["age"] } == objects.map { $0["age"] })
    }

    /// Bad values set on saved objects: the one-change path of validation
    /// reports what the general one does, alone or beside a second change.
    static let badUpdates: [(key: String, value: Value, reason: ValidationReason)] = [
        ("name", .null, .required),
        ("age", .int(15), .tooSmall(minimum: .int(16))),
        ("age", .int(40_000), .tooLarge(maximum: .int(32_767))),
        ("salary", .int(-1), .tooSmall(minimum: .int(0))),
        ("email", .string("not an address"), .patternMismatch(pattern: "[^@ ]+@[^@ ]+")),
        ("active", .string("yes"), .typeMismatch(expected: "Boolean", got: "string")),
    ]

    @Test(arguments: 0..<badUpdates.count, [false, true])
    func badUpdateOfASavedObjectIsRefused(index: Int, withSecondChange: Bool) throws {
        let (key, value, reason) = Self.badUpdates[index]
        let (store, ids) = try smallCompany()
        let before = try dump(store)
        let context = Context(store: store)
        let objects = try context.fetch(FetchRequest(entity: "Employee"))
        // Bob and Ann get the bad value (in fetch order, so failures follow it).
        let bad = objects.filter { $0.objectID == ids["Ann"] || $0.objectID == ids["Bob"] }
        for o in bad {
            try o.setValue(value, forKey: key)
            if withSecondChange { try o.setValue(.int(77_000), forKey: key == "salary" ? "age" : "salary") }
        }
        let error = try #require(throws: ValidationError.self) { try context.save() }
        let expected = bad.sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
            .map { ValidationFailure(entity: "Employee", objectID: $0.objectID, property: key, reason: reason) }
        if withSecondChange && key != "salary" {
            // The second change is valid; only the bad one is reported.
            #expect(error.failures == expected)
        } else if withSecondChange {
            // 77 000 is too old an age: both properties fail, in model order.
            #expect(error.failures.filter { $0.property == key } == expected)
            #expect(error.failures.count == 4)
        } else {
            #expect(error.failures == expected)
        }
        #expect(try dump(store) == before)
        #expect(context.updatedObjects == Set(bad))
    }
}

// `loadValue(forKey:)` throws what `value(forKey:)` can only park in
// `context.lastFaultError`: a fault whose row another writer deleted, on
// both databases. Loaded rows, unsaved changes and unknown keys read the
// same through both accessors.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Context: fault errors thrown by loadValue", .serialized)
struct LoadValueTests {
    @Test(arguments: TestEngine.available)
    func aFaultWhoseRowIsGoneThrows(engine: TestEngine) throws {
        let store = try emptyCompanyStore(engine)
        let ann = try store.insert("Employee", ["name": .string("Ann"), "salary": .int(50_000)])
        try store.insert("Employee", ["name": .string("Bob"), "salary": .int(60_000)])
        let context = Context(store: store)
        let fault = context.object(with: ann)
        #expect(fault.isFault)
        // Another writer deletes the row before the fault fires.
        _ = try store.batchDelete(entity: "Employee", predicate: try Parser.parsePredicate("name == 'Ann'"))
        #expect(throws: ContextError.self) { try fault.loadValue(forKey: "name") }
        #expect(context.lastFaultError != nil, "the error is also where value(forKey:) callers look")

        // value(forKey:) on another such fault answers nil, as it always has.
        let other = Context(store: store)
        #expect(other.object(with: ann).value(forKey: "name") == .null)
        #expect(other.lastFaultError != nil)
    }

    /// (key, what both accessors answer for Bob)
    static let reads: [(String, Value?)] = [
        ("name", .string("Bob")),
        ("salary", .int(60_000)),
        ("age", .null),
        ("nosuch", nil),
    ]

    @Test(arguments: TestEngine.available, reads)
    func aLoadableObjectReadsTheSameThroughBoth(engine: TestEngine, read: (String, Value?)) throws {
        let store = try emptyCompanyStore(engine)
        let bob = try store.insert("Employee", ["name": .string("Bob"), "salary": .int(60_000)])
        let context = Context(store: store)
        let fault = context.object(with: bob)
        #expect(try fault.loadValue(forKey: read.0) == read.1)
        #expect(fault.value(forKey: read.0) == read.1)
        #expect(context.lastFaultError == nil)
        // An unsaved change is what both read.
        if read.1 != nil {
            try fault.setValue(.string("changed"), forKey: "name")
            #expect(try fault.loadValue(forKey: "name") == .string("changed"))
        }
    }
}

// A batch update skips validation (as Core Data's does) but never writes an
// integer its attribute's type cannot hold: a constant out of range, or one
// the SQL computes, fails with `StoreError.outOfRange` and the update writes
// nothing — on every database, on the SQL path and the object-by-object one.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Batch update type ranges")
struct BatchUpdateRangeTests {
    static let model = Model(entities: [
        Entity(name: "Item", attributes: [
            Attribute(name: "small", type: .integer16),
            Attribute(name: "medium", type: .integer32),
            Attribute(name: "name", type: .string),
        ]),
    ])

    /// (SET key, expression, predicate) that must be refused.
    static let refused: [(String, String, String?)] = [
        ("small", "99999999999", nil),
        ("small", "32768", nil),
        ("small", "-32769", nil),
        ("small", "small * 1000", nil),
        ("medium", "2147483648", nil),
        ("medium", "medium * medium", "name == 'b'"),
        // A residual the SQL cannot say sends the update object by object.
        ("small", "40000", "FUNCTION(name, 'uppercaseString') == 'A'"),
    ]

    static var cases: [(TestEngine, Int)] { TestEngine.available.flatMap { e in refused.indices.map { (e, $0) } } }

    @Test(arguments: cases)
    func outOfRangeValuesAreNeverWritten(engine: TestEngine, index: Int) throws {
        let (key, expression, predicate) = Self.refused[index]
        let store = try engine.emptyStore(model: Self.model)
        try store.insert("Item", ["small": .int(100), "medium": .int(100_000), "name": .string("a")])
        try store.insert("Item", ["small": .int(-7), "medium": .int(2_000_000_000), "name": .string("b")])
        let rows = { try store.database.rows("SELECT \"_pk\", \"small\", \"medium\" FROM \"Item\" ORDER BY \"_pk\"") }
        let before = try rows()
        #expect {
            try store.batchUpdate(entity: "Item", predicate: try predicate.map { try Parser.parsePredicate($0) },
                                  set: [(key, try Parser.parseExpression(expression))])
        } throws: { error in
            guard case StoreError.outOfRange(let k, "Item", _, _, _)? = error as? StoreError else { return false }
            return k == key
        }
        #expect(try rows() == before)
    }

    @Test(arguments: TestEngine.available)
    func valuesInRangeAreWritten(engine: TestEngine) throws {
        let store = try engine.emptyStore(model: Self.model)
        try store.insert("Item", ["small": .int(100), "name": .string("a")])
        #expect(try store.batchUpdate(entity: "Item", predicate: nil, set: [("small", try Parser.parseExpression("small * 327"))]) == 1)
        #expect(try store.database.rows("SELECT \"small\" FROM \"Item\"") == [[.int(32_700)]])
    }
}

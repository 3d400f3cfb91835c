// Fixtures follow the store's names (its saved layout, SQLStore+Layout.swift):
// written into a store whose names differ from what its model derives (a
// migrated store keeps its old names), they give the objects they give a new
// store; a SQLite file or SQL script they create saves the layout they used.
import Foundation
import Testing
@testable import QuarryFixtures

@Suite("Fixtures and the store's layout")
struct FixtureLayoutTests {
    /// Two siblings with a `code`: derived, Album (first) gets `code` and
    /// Book `Book_code`; the store below was laid out the other way.
    static let model = """
    entities:
      Item:
        abstract: true
        attributes:
          title: string
      Album:
        parent: Item
        attributes:
          code: integer32
      Book:
        parent: Item
        attributes:
          code: string

    """

    /// Every object of every concrete entity, printed, by key.
    func objects(_ store: SQLStore) throws -> [String] {
        try ["Album", "Book"].flatMap { entity in
            try store.fetch(FetchRequest(entity: entity)).map { o in
                "\(entity)/\(o.id.primaryKey): " + ["title", "code"].map { Printer.format(o.value(forKey: $0) ?? .null) }.joined(separator: ", ")
            }
        }
    }

    @Test func fixturesFollowTheStoresNames() throws {
        let model = try ModelReader.read(yaml: Self.model, file: "siblings.yaml")
        var layout = StoreMapping(model: model).layoutRecord
        layout.entities["Book"]?.columns["code"] = "code"
        layout.entities["Album"]?.columns["code"] = "Album_code"
        let kept = try SQLStore(path: ":memory:", model: model, layout: layout)
        #expect(kept.mapping.column(for: "code", of: "Album") == "Album_code")
        let fresh = try SQLStore(path: ":memory:", model: model)
        for store in [kept, fresh] { try FixtureGenerator(model: model, seed: 5, counts: ["Album": 4, "Book": 4]).write(into: store) }
        #expect(try objects(kept) == objects(fresh))
        #expect(try objects(kept).contains { $0.hasPrefix("Album/") && !$0.hasSuffix(", nil") })
    }

    @Test(arguments: [FixtureFormat.sqlite, .sql])
    func aCreatedStoreSavesItsLayout(format: FixtureFormat) throws {
        let model = try ModelReader.read(yaml: Self.model, file: "siblings.yaml")
        let path = Fixtures.temporaryPath("layout.\(format)")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FixtureGenerator(model: model, seed: 5).write(to: path, format: format)
        if format == .sqlite {
            let store = try SQLStore(path: path, model: model)
            #expect(try SQLStore.storedLayout(in: store.database) == StoreMapping(model: model).layoutRecord)
        } else {
            let script = try String(contentsOfFile: path, encoding: .utf8)
            let connection = try SQLiteConnection.inMemory()
            try connection.executeScript(script)
            #expect(try SQLStore.storedLayout(in: connection) == StoreMapping(model: model).layoutRecord)
        }
    }
}

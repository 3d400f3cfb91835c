// The layout record (StoreLayoutRecord.swift) and a mapping built from one:
// a record reads back as it was written; a mapping rebuilt from its own
// record is the same mapping; a newer model keeps every name the record
// holds and derives only the new ones, never under a recorded name; a
// recorded storage that no longer fits its relationship is derived anew.
import Foundation
import Testing
@testable import QuarrySQL

@Suite("Store layout record")
struct StoreLayoutRecordTests {
    static let base = """
    entities:
      Item:
        abstract: true
        attributes:
          title: string
      Book:
        parent: Item
        attributes:
          code: string
        relationships:
          owner: { to: Person, inverse: books }
      Person:
        attributes:
          name: string
        relationships:
          books: { to: Book, many: true, ordered: true, inverse: owner }
          badge: { to: Badge, inverse: holder }
          tags: { to: Tag, many: true, inverse: people }
          friends: { to: Person, many: true }
      Badge:
        relationships:
          holder: { to: Person, inverse: badge }
      Tag:
        attributes:
          word: string
        relationships:
          people: { to: Person, many: true, inverse: tags }

    """

    static func model(_ edits: [(String, String)] = []) throws -> Model {
        var text = base
        for (old, new) in edits { text = text.replacingOccurrences(of: old, with: new) }
        return try ModelReader.read(yaml: text, file: "layout.yaml")
    }

    /// Models whose mapping, rebuilt from its own record, must be the same.
    static let shapes: [(String, [(String, String)])] = [
        ("base", []),
        ("a sibling with a colliding attribute", [("  Book:\n", "  Album:\n    parent: Item\n    attributes:\n      code: integer32\n      owner: string\n  Book:\n")]),
        ("reserved column names", [("          name: string\n", "          name: string\n          xmin: integer32\n          ctid: string\n")]),
    ]

    @Test(arguments: shapes.indices)
    func aMappingRebuiltFromItsRecordIsTheSame(index: Int) throws {
        let (name, edits) = Self.shapes[index]
        for dialect in [SQLDialect.sqlite, .postgres] {
            let mapping = StoreMapping(model: try Self.model(edits), dialect: dialect)
            let record = mapping.layoutRecord
            #expect(try StoreLayoutRecord(json: record.json) == record, "\(name)")
            let rebuilt = StoreMapping(model: mapping.model, dialect: dialect, layout: record)
            #expect(rebuilt.layoutRecord == record, "\(name)")
            #expect(SchemaBuilder.createStatements(for: rebuilt) == SchemaBuilder.createStatements(for: mapping), "\(name)")
        }
    }

    @Test func theRecordHoldsEveryName() throws {
        let record = StoreMapping(model: try Self.model()).layoutRecord
        #expect(record.entities["Book"] == StoreLayoutRecord.EntityLayout(table: "Item", columns: ["title": "title", "code": "code"], relationships: [
            "owner": .init(storage: .foreignKey(column: "owner")),
        ]))
        #expect(record.entities["Person"]?.relationships["books"] == .init(storage: .inverseForeignKey(column: "owner"), orderColumn: "_order_Person_books"))
        #expect(record.entities["Person"]?.relationships["tags"]?.storage == .joinTable(table: "_Person_tags", sourceColumn: "source", targetColumn: "target"))
        #expect(record.entities["Tag"]?.relationships["people"]?.storage == .joinTable(table: "_Person_tags", sourceColumn: "target", targetColumn: "source"))
        #expect(record.joinTables.map(\.table) == ["_Person_tags", "_Person_friends"])
        #expect(record.json.contains(#""kind":"joinTable""#))
    }

    /// (what the newer model adds, entity, key, the name kept or given, the name a derivation without the record gives).
    static let kept: [(String, [(String, String)], String, String, String, String)] = [
        ("a sibling before Book with its own code", [("  Book:\n", "  Album:\n    parent: Item\n    attributes:\n      code: integer32\n  Book:\n")],
         "Book", "code", "code", "Book_code"),
        ("the new sibling's colliding attribute", [("  Book:\n", "  Album:\n    parent: Item\n    attributes:\n      code: integer32\n  Book:\n")],
         "Album", "code", "Album_code", "code"),
        // Without the record the to-one shares Book's column `code` (only the entity's own attributes push it aside).
        ("a new sibling's to-one named like a recorded column", [("  Book:\n", "  Album:\n    parent: Item\n    relationships:\n      code: { to: Person }\n  Book:\n")],
         "Album", "code", "Album_code", "code"),
    ]

    @Test(arguments: kept.indices)
    func aNewerModelKeepsTheRecordedNames(index: Int) throws {
        let (what, edits, entity, key, expected, derived) = Self.kept[index]
        let record = StoreMapping(model: try Self.model()).layoutRecord
        let newer = try Self.model(edits)
        let mapping = StoreMapping(model: newer, layout: record)
        let fresh = StoreMapping(model: newer)
        func name(_ m: StoreMapping) -> String? {
            if let c = m.column(for: key, of: entity) { return c }
            if case .foreignKey(let c)? = m.storage(of: key, of: entity) { return c }
            return nil
        }
        #expect(name(mapping) == expected, "\(what)")
        #expect(name(fresh) == derived, "\(what): derived without the record")
        // Every recorded entity keeps every recorded name.
        for (entityName, layout) in record.entities {
            #expect(mapping.layoutRecord.entities[entityName] == layout, "\(what): \(entityName)")
        }
    }

    @Test func aRecordedStorageThatNoLongerFitsIsDerivedAnew() throws {
        var record = StoreMapping(model: try Self.model()).layoutRecord
        // A to-many recorded as a foreign key (a record from another model):
        // a join table, under a name the record does not use.
        record.entities["Person"]?.relationships["friends"] = .init(storage: .foreignKey(column: "friends"))
        let mapping = StoreMapping(model: try Self.model(), layout: record)
        #expect(mapping.storage(of: "friends", of: "Person") == .joinTable(table: "_Person_friends_2", sourceColumn: "source", targetColumn: "target"))
    }

    @Test func aRecordOfALaterFormatIsRefused() throws {
        var record = StoreMapping(model: try Self.model()).layoutRecord
        record.version = 2
        #expect(throws: StoreLayoutRecord.UnknownVersion.self) { try StoreLayoutRecord(json: record.json) }
    }

    /// The saved text is written and read by hand (StoreLayoutRecord+JSON.swift);
    /// stores saved before that hold JSONEncoder's text. Both read the same,
    /// each way, including names JSON must escape (`/` is `\/` in JSONEncoder's).
    @Test(arguments: shapes.indices)
    func theSavedTextAgreesWithTheCodableForm(index: Int) throws {
        var record = StoreMapping(model: try Self.model(Self.shapes[index].1), dialect: .sqlite).layoutRecord
        record.entities["Odd/Name"] = .init(table: "Odd/Na\"me", columns: ["a\u{1}b": "ü\\c", "t\tab": "n\nl"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let codableText = String(decoding: try encoder.encode(record), as: UTF8.self)
        #expect(codableText.contains("\\/"), "JSONEncoder escapes '/', which the reader must undo")
        #expect(try StoreLayoutRecord(json: codableText) == record)
        #expect(try JSONDecoder().decode(StoreLayoutRecord.self, from: Data(record.json.utf8)) == record)
        #expect(try StoreLayoutRecord(json: record.json) == record)
        // Canonical: equal records, equal text, whatever order they were built in.
        var reordered = StoreLayoutRecord(joinTables: record.joinTables)
        for name in record.entities.keys.sorted().reversed() { reordered.entities[name] = record.entities[name] }
        #expect(reordered.json == record.json)
    }

    /// A record that does not read says where.
    static let malformed: [(text: String, path: String)] = [
        ("{", "the record"),
        (#"{"version":1,"entities":[],"joinTables":[]}"#, "entities"),
        (#"{"version":"1","entities":{},"joinTables":[]}"#, "version"),
        (#"{"version":1,"entities":{"A":{"columns":{},"relationships":{}}},"joinTables":[]}"#, "entities.A.table"),
        (#"{"version":1,"entities":{"A":{"table":"A","columns":{"x":3},"relationships":{}}},"joinTables":[]}"#, "entities.A.columns.x"),
        (#"{"version":1,"entities":{"A":{"table":"A","columns":{},"relationships":{"r":{"storage":{"kind":"other"}}}}},"joinTables":[]}"#,
         "entities.A.relationships.r.storage.kind"),
        (#"{"version":1,"entities":{},"joinTables":[{"table":"J","sourceTable":"A","targetTable":"B"}]}"#, "joinTables[0].ordered"),
        (#"{"version":1,"entities":{}}"#, "joinTables"),
    ]

    @Test(arguments: malformed.indices)
    func aMalformedRecordSaysWhere(index: Int) throws {
        let (text, path) = Self.malformed[index]
        let error = #expect(throws: StoreLayoutRecord.Malformed.self) { try StoreLayoutRecord(json: text) }
        #expect(error?.path == path, "\(text)")
    }
}

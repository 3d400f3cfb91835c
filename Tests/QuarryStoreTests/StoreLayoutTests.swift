// The store's table layout is stable: a store made from a base model, with
// rows, is migrated in turn to models that add (a) an entity, (b) a
// sibling sub-entity whose attribute has an existing sibling's name and
// comes before it in the model, (c) a one-to-one whose entities' names sort
// the other way from the base's one-to-one (the existing table gets the
// key), (d) a many-to-many whose owner sorts first — and no table, column
// or join table of the base store changes its name (read from the database
// itself: `PRAGMA table_info`, `information_schema`), and every old row
// reads back as it was. On SQLite and PostgreSQL.
//
// Before stores kept their layout (StoreLayoutRecord), (b) renamed Book's
// column `code` to `Book_code`: the names were derived from the model, in
// model order, at every open.
import Foundation
import QuarryPostgres
import QuarryPostgresTestSupport
import Testing
@testable import QuarryStore

enum LayoutModels {
    static let base = """
    entities:
      Shelf:
        attributes:
          label: string
        relationships:
          items: { to: Item, many: true, inverse: shelf }
      Item:
        abstract: true
        attributes:
          title: string
        relationships:
          shelf: { to: Shelf, inverse: items }
      Book:
        parent: Item
        attributes:
          code: string
      Person:
        attributes:
          name: string
        relationships:
          badge: { to: Badge, inverse: holder }
          tags: { to: Tag, many: true, inverse: people }
      Badge:
        attributes:
          number: integer32
        relationships:
          holder: { to: Person, inverse: badge }
      Tag:
        attributes:
          word: string
        relationships:
          people: { to: Person, many: true, inverse: tags }

    """

    /// (name, edits of the base text).
    static let additions: [(String, [(String, String)])] = [
        ("an entity", [("entities:\n", "entities:\n  Note:\n    attributes:\n      text: string\n")]),
        ("a sibling sub-entity with a colliding attribute, before the existing sibling",
         [("  Book:\n", "  Album:\n    parent: Item\n    attributes:\n      code: integer32\n  Book:\n")]),
        ("a one-to-one whose names sort the other way",
         [("      code: string\n", "      code: string\n    relationships:\n      zine: { to: Zine, inverse: book }\n"),
          ("  Person:\n", "  Zine:\n    attributes:\n      issue: integer32\n    relationships:\n      book: { to: Book, inverse: zine }\n  Person:\n")]),
        ("a many-to-many whose owner sorts first",
         [("entities:\n", "entities:\n  Atlas:\n    attributes:\n      scale: integer32\n    relationships:\n      shelves: { to: Shelf, many: true, inverse: atlases }\n"),
          ("      items: { to: Item, many: true, inverse: shelf }\n",
           "      items: { to: Item, many: true, inverse: shelf }\n      atlases: { to: Atlas, many: true, inverse: shelves }\n")]),
    ]

    static func model(_ edits: [(String, String)]) throws -> Model {
        var text = base
        for (old, new) in edits {
            precondition(text.contains(old), "no '\(old)' in the base model")
            text = text.replacingOccurrences(of: old, with: new)
        }
        return try ModelReader.read(yaml: text, file: "layout.yaml")
    }

    /// Two shelves, two books, two people with badges and tags.
    static func populate(_ store: SQLStore) throws {
        let top = try store.insert("Shelf", ["label": .string("top")])
        let low = try store.insert("Shelf", ["label": .string("low")])
        try store.insert("Book", ["title": .string("Dune"), "code": .string("B-1")], toOne: ["shelf": top])
        try store.insert("Book", ["title": .string("Emma"), "code": .string("B-2")], toOne: ["shelf": low])
        let ann = try store.insert("Person", ["name": .string("Ann")])
        let bob = try store.insert("Person", ["name": .string("Bob")])
        try store.insert("Badge", ["number": .int(7)], toOne: ["holder": ann])
        try store.insert("Badge", ["number": .int(9)], toOne: ["holder": bob])
        let red = try store.insert("Tag", ["word": .string("red")])
        let blue = try store.insert("Tag", ["word": .string("blue")])
        try store.link(ann, "tags", red)
        try store.link(ann, "tags", blue)
        try store.link(bob, "tags", blue)
    }

    /// The tables of the store's schema (Quarry's own `_quarry_…` left out)
    /// with their columns, as the database reports them.
    static func schema(_ store: SQLStore) throws -> [String: Set<String>] {
        let rows = store.database.dialect == .sqlite
            ? try store.database.rows("SELECT m.name, p.name FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p WHERE m.type = 'table'")
            : try store.database.rows("SELECT table_name::text, column_name::text FROM information_schema.columns WHERE table_schema = current_schema()")
        var out: [String: Set<String>] = [:]
        for row in rows {
            guard case .string(let table) = row[0], case .string(let column) = row[1], !table.hasPrefix("_quarry_") else { continue }
            out[table, default: []].insert(column)
        }
        return out
    }

    /// What each of the `columns` of each table holds, straight from the
    /// database: every row, the columns in name order, the rows sorted. A
    /// column that kept its name but now holds another entity's values (a
    /// name taken over after a rename) reads differently.
    static func contents(_ store: SQLStore, _ columns: [String: Set<String>]) throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        for (table, names) in columns {
            let list = names.sorted().map(SQLIdentifier.quoted).joined(separator: ", ")
            let rows = try store.database.rows("SELECT \(list) FROM \(SQLIdentifier.quoted(table)) ORDER BY \(list)")
            out[table] = rows.map { $0.map(Printer.format).joined(separator: " | ") }
        }
        return out
    }

    /// Every object of the base model's concrete entities, read through the
    /// store, with the base model's keys only.
    static func dump(_ store: SQLStore, keys model: Model) throws -> StoreDump {
        store.forgetObjects()
        var out: StoreDump = [:]
        for entity in model.entities where !entity.isAbstract {
            var rows: [String: [String: String]] = [:]
            for object in try store.fetch(FetchRequest(entity: entity.name)) where object.entity == entity.name {
                var fields: [String: String] = [:]
                for a in entity.allAttributes(in: model) { fields[a.name] = Printer.format(object.value(forKey: a.name) ?? .null) }
                for r in entity.allRelationships(in: model) { fields[r.name] = MigrationData.related(object.value(forKey: r.name)) }
                rows["\(object.id.primaryKey)"] = fields
            }
            out[entity.name] = rows
        }
        return out
    }
}

@Suite("The store's layout is kept: added entities and relationships rename nothing", .serialized)
struct StoreLayoutTests {
    typealias L = LayoutModels

    static var matrix: [(TestEngine, Int)] { TestEngine.available.flatMap { e in L.additions.indices.map { (e, $0) } } }

    @Test(arguments: matrix)
    func anAdditionRenamesNothing(engine: TestEngine, index: Int) throws {
        let (name, edits) = L.additions[index]
        let location = try MigrationLocation.fresh(engine)
        defer { location.remove() }
        let base = try L.model([]), new = try L.model(edits)
        let made = try location.open(base)
        try L.populate(made)
        let before = try L.schema(made)
        let stored = try L.contents(made, before)
        let rows = try L.dump(made, keys: base)
        made.database.close()

        let migrated = try location.open(new, migration: .automatic)
        let after = try L.schema(migrated)
        for (table, columns) in before {
            guard let now = after[table] else {
                Issue.record("\(name): table \(table) is gone (tables now: \(after.keys.sorted()))")
                continue
            }
            #expect(columns.subtracting(now).isEmpty, "\(name): \(table) lost \(columns.subtracting(now).sorted()); it has \(now.sorted())")
        }
        // Each old column holds what it held: no name went to another attribute.
        if before.allSatisfy({ after[$0.key].map($0.value.isSubset) ?? false }) {
            let now = try L.contents(migrated, before)
            for (table, lines) in stored { #expect(now[table] == lines, "\(name): \(table) holds other values under its old column names") }
        }
        #expect(try L.dump(migrated, keys: base) == rows, "\(name): the old rows read back as they were")
        // The store works as a store of the new model, and reopens without migrating.
        try migrated.insert("Shelf", ["label": .string("new")])
        migrated.database.close()
        let reopened = try location.open(new)
        #expect(try L.schema(reopened) == after, "\(name)")
        #expect(try L.dump(reopened, keys: base) .filter { $0.key != "Shelf" } == rows.filter { $0.key != "Shelf" }, "\(name)")
        reopened.database.close()
    }
}

extension StoreLayoutTests {
    /// Two siblings with a `code` each: the first in the model got `code`,
    /// the second `Book_code`. The same model with the two swapped changes
    /// nothing stored, but derived names would swap the columns; before
    /// stores kept their layout, opening the store with it was refused
    /// (`schemaMismatch`: the entities in another order). Now it opens
    /// under the store's names and reads the same values.
    @Test(arguments: TestEngine.available)
    func siblingsInAnotherOrderOpenUnderTheStoresNames(engine: TestEngine) throws {
        let location = try MigrationLocation.fresh(engine)
        defer { location.remove() }
        let album = "  Album:\n    parent: Item\n    attributes:\n      code: integer32\n"
        let first = try L.model([("  Book:\n", album + "  Book:\n")])
        let swapped = try L.model([("  Person:\n", album + "  Person:\n")])
        let made = try location.open(first)
        try L.populate(made)
        try made.insert("Album", ["title": .string("Kind of Blue"), "code": .int(42)])
        let before = try L.schema(made)
        let rows = try L.dump(made, keys: first)
        made.database.close()

        let reopened = try location.open(swapped)
        #expect(try L.schema(reopened) == before)
        #expect(try L.dump(reopened, keys: swapped) == rows)
        let found = try reopened.fetch(FetchRequest(entity: "Book", predicate: try Parser.parsePredicate("code == 'B-2'")))
        #expect(found.count == 1)
        reopened.database.close()
    }
}

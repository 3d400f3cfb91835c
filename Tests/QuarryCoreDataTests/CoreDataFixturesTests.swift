// `quarry fixtures --format coredata` (QuarryFixtures/CoreDataFixtureOutput.swift):
// the same seed written as a Quarry store and as a Core Data store must
// hold the same objects — every attribute, every to-one and to-many, read
// back through each store's own read path — and the Core Data file must
// keep Core Data's invariants, checked by hand-written SQL on its Z-tables:
// Z_MAX of each hierarchy's root row at its highest key (sub-entities' rows
// at 0), Z_OPT 1 on every new row, Z_ENT an entity of that table, the
// metadata's version hashes those of the model, nothing but Core Data's
// tables, `PRAGMA integrity_check` ok. A model it cannot write (derived
// attributes) is refused and leaves no file.
import Foundation
import QuarryFixtures
import QuarrySQLite
import Testing
@testable import QuarryCoreData
@testable import QuarryStore

@Suite("Fixtures as a Core Data store")
struct CoreDataFixturesTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/Models").path

    /// Inheritance (two sub-entities in one table), a to-one into the
    /// hierarchy, an ordered to-many and a many-to-many.
    static let zoo = """
    entities:
      Animal:
        abstract: true
        attributes:
          name: { type: string, optional: false }
          born: date
        relationships:
          keeper: { to: Keeper, inverse: animals }
          friends: { to: Animal, many: true, inverse: friendOf }
          friendOf: { to: Animal, many: true, inverse: friends }
      Cat:
        parent: Animal
        attributes:
          lives: integer16
      Bird:
        parent: Animal
        attributes:
          canFly: boolean
          wingspan: double
      Keeper:
        attributes:
          name: string
          salary: { type: decimal, optional: true }
        relationships:
          animals: { to: Animal, many: true, ordered: true, inverse: keeper }
          favourite: { to: Animal }
    """

    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "quarry-cdfixtures-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// (model file or inline YAML, counts).
    static let cases: [(String, [String])] = [
        ("Company.yaml", ["Employee=300", "Department=12", "Project=9"]),
        ("zoo", ["Cat=40", "Bird=35", "Keeper=8"]),
    ]

    /// Every object of every concrete entity: key → attribute and relationship values, printed.
    static func dump(_ store: SQLStore) throws -> [String: [Int64: [String: String]]] {
        let context = Context(store: store)
        var result: [String: [Int64: [String: String]]] = [:]
        for entity in store.model.entities where !entity.isAbstract {
            var rows: [Int64: [String: String]] = [:]
            var request = FetchRequest(entity: entity.name)
            request.includesSubentities = false
            for object in try context.fetch(request) {
                var values: [String: String] = [:]
                for a in entity.allAttributes(in: store.model) where !a.isTransient { values[a.name] = "\(object[a.name] ?? .null)" }
                for r in entity.allRelationships(in: store.model) {
                    if r.isToMany {
                        let keys = object.objects(forKey: r.name).map { "\($0.objectID.entity)/\($0.objectID.primaryKey)" }
                        values[r.name] = (r.isOrdered ? keys : keys.sorted()).joined(separator: ",")
                    } else {
                        values[r.name] = object.object(forKey: r.name).map { "\($0.objectID.entity)/\($0.objectID.primaryKey)" } ?? "nil"
                    }
                }
                rows[object.objectID.primaryKey] = values
            }
            result[entity.name] = rows
        }
        return result
    }

    @Test(arguments: cases.indices)
    func theSameSeedAsACoreDataStoreHoldsTheSameObjectsAndKeepsItsInvariants(_ i: Int) throws {
        let (name, counts) = Self.cases[i]
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let modelPath: String
        if name.hasSuffix(".yaml") {
            modelPath = Self.examples + "/" + name
        } else {
            modelPath = folder + "/\(name).yaml"
            try Self.zoo.write(toFile: modelPath, atomically: true, encoding: .utf8)
        }
        let quarry = folder + "/quarry.sqlite", coreData = folder + "/coredata.sqlite"
        for (out, format) in [(quarry, "sqlite"), (coreData, "coredata")] {
            let outcome = FixturesCommand.run(model: modelPath, out: out, counts: counts, seed: 11, format: format)
            #expect(outcome.exitCode == 0, "\(format): \(outcome.stderr)")
        }
        // Nothing but the store: no partial file, no -wal or -shm left.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted().filter { !$0.hasSuffix(".yaml") }
                == ["coredata.sqlite", "quarry.sqlite"])

        let model = try ModelReader.read(from: modelPath)
        let opened = try CoreDataStore.open(path: coreData, model: model)
        defer { opened.store.database.close() }
        let expected = try Self.dump(try SQLStore(path: quarry, model: model))
        let actual = try Self.dump(opened.store)
        #expect(expected.values.map(\.count).reduce(0, +) > 50)
        for entity in expected.keys.sorted() {
            #expect(actual[entity]?.count == expected[entity]?.count, "\(entity)")
            for (key, values) in expected[entity]! where actual[entity]?[key] != values {
                Issue.record("\(entity)/\(key): Quarry store \(values), Core Data store \(actual[entity]?[key] ?? [:])")
                break
            }
        }
        // The metadata carries the model's version hashes.
        for (entity, outcome) in CoreDataVersionHash.entityHashes(model) {
            guard case .hash(let h) = outcome else { Issue.record("\(entity) not hashed"); continue }
            #expect(opened.metadata.versionHashes[entity] == h, "\(entity)")
        }

        // Core Data's invariants, by SQL on the file.
        let sql = try SQLiteConnection(path: coreData, options: .init(readOnly: true, create: false))
        defer { sql.close() }
        func ints(_ query: String) throws -> [Int64] { try sql.query(query).map { if case .int(let v) = $0[0] { v } else { -1 } } }
        #expect(try sql.query("PRAGMA integrity_check").first?.first == .string("ok"))
        let tables = try sql.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { if case .string(let s) = $0[0] { s } else { nil } }
        #expect(tables.allSatisfy { $0.hasPrefix("Z") }, "\(tables)")
        func root(_ entity: String) -> String { model.entity(named: entity)?.ancestors(in: model).last?.name ?? entity }
        let entities = try sql.query("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY")
        for row in entities {
            guard case .int = row[0], case .string(let entityName) = row[1], case .int(let parent) = row[2], case .int(let max) = row[3] else {
                Issue.record("unreadable Z_PRIMARYKEY row \(row)"); continue
            }
            let table = "Z" + root(entityName).uppercased()
            if parent == 0 {
                let keys = try ints("SELECT COALESCE(MAX(Z_PK), 0) FROM \(table)")
                #expect(max == keys.first, "\(entityName): Z_MAX \(max), highest key \(keys)")
                #expect(try ints("SELECT COUNT(*) FROM \(table) WHERE Z_OPT <> 1") == [0], "\(table): Z_OPT")
                let numbers = Set(try ints("SELECT DISTINCT Z_ENT FROM \(table)"))
                let family = Set(entities.compactMap { r -> Int64? in
                    guard case .int(let n) = r[0], case .string(let e) = r[1], root(e) == entityName else { return nil }
                    return n
                })
                #expect(numbers.isSubset(of: family) && !numbers.isEmpty, "\(table): Z_ENT \(numbers) not in \(family)")
            } else {
                #expect(max == 0, "\(entityName) is a sub-entity: its Z_MAX stays 0")
            }
        }
    }

    @Test func aModelItCannotWriteIsRefusedAndLeavesNoFile() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let modelPath = folder + "/derived.yaml"
        try """
        entities:
          Item:
            attributes:
              name: string
              shout: { type: string, derived: "uppercase:(name)" }
        """.write(toFile: modelPath, atomically: true, encoding: .utf8)
        let outcome = FixturesCommand.run(model: modelPath, out: folder + "/out.sqlite", counts: ["Item=5"], seed: 1, format: "coredata")
        #expect(outcome.exitCode == 1, "\(outcome)")
        #expect(outcome.stderr.contains("version hash"), "\(outcome.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["derived.yaml"])
    }
}

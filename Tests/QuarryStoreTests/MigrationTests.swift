// The migration matrix: each inferable change (and some pairs) applied to a
// populated store on every engine, then every object of the new model read
// back through the store and compared with what the change should have made
// of the old objects; each refused change leaves a SQLite file byte for byte
// as it was, and a PostgreSQL schema with the same tables and rows. On
// SQLite the migrated schema is also compared with a new store's.
import Foundation
import QuarryPostgres
import QuarryPostgresTestSupport
import Testing
@testable import QuarryStore

/// entity → "pk" → key → the value printed (to-one "Entity/pk", to-many a sorted list).
typealias StoreDump = [String: [String: [String: String]]]

/// A store at a location that can be reopened: a SQLite file or a PostgreSQL schema.
struct MigrationLocation {
    let engine: TestEngine
    let place: String

    static func fresh(_ engine: TestEngine) throws -> MigrationLocation {
        switch engine {
        case .sqlite:
            return MigrationLocation(engine: engine, place: NSTemporaryDirectory() + "quarry-migrate-\(getpid())-\(UInt32.random(in: 0 ... .max)).sqlite")
        case .postgres:
            var url = try PostgresTestEnvironment.requireURL()
            url.schema = PostgresTestEnvironment.freshSchemaName()
            return MigrationLocation(engine: engine, place: url.description)
        }
    }

    func open(_ model: Model, migration: MigrationPolicy = .none) throws -> SQLStore {
        switch engine {
        case .sqlite: return try SQLStore(path: place, model: model, migration: migration)
        case .postgres: return try SQLStore(postgres: place, model: model, migration: migration)
        }
    }

    /// What must not change when a migration is refused: the SQLite file's
    /// bytes, or the PostgreSQL tables and every row (read with `model`).
    func fingerprint(_ model: Model) throws -> String {
        switch engine {
        case .sqlite:
            return (try Data(contentsOf: URL(fileURLWithPath: place))).base64EncodedString()
        case .postgres:
            let store = try open(model)
            defer { store.database.close() }
            var text = try store.database.tableNames().sorted().joined(separator: ",") + "\n"
            for table in store.mapping.tableNames {
                text += table + ": " + (try store.database.rows("SELECT * FROM \(SQLIdentifier.quoted(table)) ORDER BY 1, 2")).map { "\($0)" }.joined(separator: ";") + "\n"
            }
            text += "\(try SQLStore.storedModel(in: store.database).map(ModelArchive.json) ?? "")"
            return text
        }
    }

    func remove() {
        if engine == .sqlite { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: place + suffix) } }
    }
}

enum MigrationData {
    /// Two departments, four employees (one without a department, two
    /// sharing a nickname), mentors.
    static func populate(_ store: SQLStore) throws {
        let sales = try store.insert("Department", ["name": .string("Sales")])
        let lab = try store.insert("Department", ["name": .string("Lab")])
        let ann = try store.insert("Employee", ["name": .string("Ann"), "age": .int(30), "nickname": .string("annie"), "rating": .double(1.5)],
                                   toOne: ["department": sales])
        let bob = try store.insert("Employee", ["name": .string("Bob"), "age": .int(40), "level": .int(3)], toOne: ["department": sales, "mentor": ann])
        _ = try store.insert("Employee", ["name": .string("Cy"), "nickname": .string("cy"), "rating": .double(2.25)], toOne: ["department": lab, "mentor": ann])
        _ = try store.insert("Employee", ["name": .string("Dee"), "age": .int(30), "nickname": .string("annie")], toOne: ["mentor": bob])
    }

    /// Every object of every concrete entity, read through the store.
    static func dump(_ store: SQLStore) throws -> StoreDump {
        store.forgetObjects()
        var out: StoreDump = [:]
        for entity in store.model.entities where !entity.isAbstract {
            var rows: [String: [String: String]] = [:]
            for object in try store.fetch(FetchRequest(entity: entity.name)) where object.entity == entity.name {
                var fields: [String: String] = [:]
                for a in entity.allAttributes(in: store.model) where !a.isTransient {
                    fields[a.name] = Printer.format(object.value(forKey: a.name) ?? .null)
                }
                for r in entity.allRelationships(in: store.model) { fields[r.name] = related(object.value(forKey: r.name)) }
                rows["\(object.id.primaryKey)"] = fields
            }
            out[entity.name] = rows
        }
        return out
    }

    static func related(_ value: Value?) -> String {
        switch value {
        case .object(let ref)?: return (ref.object as? StoredObject).map { "\($0.id.entity)/\($0.id.primaryKey)" } ?? "?"
        case .array(let items)?: return "[" + items.map { related($0) }.sorted().joined(separator: ", ") + "]"
        default: return "nil"
        }
    }

    // Expected edits of a dump.
    static func set(_ entity: String, _ key: String, _ f: @escaping @Sendable (String?) -> String) -> @Sendable (inout StoreDump) -> Void {
        { dump in for pk in dump[entity, default: [:]].keys { dump[entity]![pk]![key] = f(dump[entity]![pk]![key]) } }
    }
    static func rename(_ entity: String, _ from: String, _ to: String) -> @Sendable (inout StoreDump) -> Void {
        { dump in for pk in dump[entity, default: [:]].keys { dump[entity]![pk]![to] = dump[entity]![pk]!.removeValue(forKey: from) } }
    }
    static func remove(_ entity: String, _ key: String) -> @Sendable (inout StoreDump) -> Void {
        { dump in for pk in dump[entity, default: [:]].keys { dump[entity]![pk]!.removeValue(forKey: key) } }
    }
    static func renameEntity(_ from: String, _ to: String) -> @Sendable (inout StoreDump) -> Void {
        { dump in
            dump[to] = dump.removeValue(forKey: from)
            for (entity, rows) in dump {
                for (pk, fields) in rows {
                    for (key, value) in fields where value.contains(from + "/") {
                        dump[entity]![pk]![key] = value.replacingOccurrences(of: from + "/", with: to + "/")
                    }
                }
            }
        }
    }
    static let nothing: @Sendable (inout StoreDump) -> Void = { _ in }
    static let null = Printer.format(.null)
}

@Suite("Lightweight migration on every engine", .serialized)
struct MigrationTests {
    typealias M = MigrationModels
    typealias D = MigrationData

    static let inferable: [(String, [(String, String)], [@Sendable (inout StoreDump) -> Void])] = [
        ("optional attribute added", [M.addEmail], [D.set("Employee", "email") { _ in D.null }]),
        ("attribute with a default added", [M.addEmailDefault], [D.set("Employee", "email") { _ in "\"none\"" }]),
        ("required attribute with a default added", [M.addRequiredDefault], [D.set("Employee", "badge") { _ in "7" }]),
        ("attribute removed", [M.removeNickname], [D.remove("Employee", "nickname")]),
        ("attribute renamed", [M.renameNickname], [D.rename("Employee", "nickname", "alias")]),
        ("integer16 → integer64", [M.ageTo64], [D.nothing]),
        ("integer16 → double", [M.ageToDouble], [D.set("Employee", "age") { v in v == D.null ? D.null : Printer.format(.double(Double(v!)!)) }]),
        ("float → double", [M.ratingToDouble], [D.nothing]),
        ("optional → required with a default", [M.nicknameRequired], [D.set("Employee", "nickname") { v in v == D.null ? "\"?\"" : v! }]),
        ("required → optional", [M.levelOptional], [D.nothing]),
        ("default changed", [M.levelDefault], [D.nothing]),
        ("entity added", [M.addProject], [{ $0["Project"] = [:] }]),
        ("relationship removed", [M.removeMentor], [D.remove("Employee", "mentor")]),
        ("relationship renamed", [M.renameMentor], [D.rename("Employee", "mentor", "coach")]),
        ("to-one → to-many without inverse", [M.mentorToMany], [D.set("Employee", "mentor") { v in v == "nil" ? "[]" : "[\(v!)]" }]),
        ("to-one → to-many, many-to-many", [M.departmentToMany], [D.set("Employee", "department") { v in v == "nil" ? "[]" : "[\(v!)]" }]),
        ("index added", [M.indexName], [D.nothing]),
        ("uniqueness constraint added", [M.uniqueName], [D.nothing]),
        ("entity renamed", M.renameEmployee, [D.renameEntity("Employee", "Staff")]),
        ("relationship removed, integer widened", [M.removeMentor, M.ageTo64], [D.remove("Employee", "mentor")]),
        ("relationship renamed, required attribute added", [M.renameMentor, M.addRequiredDefault],
         [D.rename("Employee", "mentor", "coach"), D.set("Employee", "badge") { _ in "7" }]),
        ("entity renamed, attribute added", M.renameEmployee + [M.addEmail], [D.renameEntity("Employee", "Staff"), D.set("Staff", "email") { _ in D.null }]),
        ("attribute renamed and another removed", [M.renameNickname, ("      rating: float\n", "")],
         [D.rename("Employee", "nickname", "alias"), D.remove("Employee", "rating")]),
    ]

    static var matrix: [(TestEngine, Int)] { TestEngine.available.flatMap { e in inferable.indices.map { (e, $0) } } }

    @Test(arguments: matrix)
    func inferableChangeMigrates(engine: TestEngine, index: Int) throws {
        let (name, edits, expectations) = Self.inferable[index]
        let location = try MigrationLocation.fresh(engine)
        defer { location.remove() }
        let old = try M.model([]), new = try M.model(edits)
        let made = try location.open(old)
        try D.populate(made)
        var expected = try D.dump(made)
        made.database.close()
        for e in expectations { e(&expected) }

        let migrated = try location.open(new, migration: .automatic)
        #expect(try D.dump(migrated) == expected, "\(name)")
        #expect(try SQLStore.storedModel(in: migrated.database) == new, "\(name): the new model is saved")
        // The store works as a store of the new model.
        let added = try migrated.insert("Department", ["name": .string("Annex")])
        #expect(try migrated.fetch(FetchRequest(entity: "Department")).contains { $0.id == added })
        if engine == .sqlite { #expect(try Self.schema(of: migrated) == Self.schema(ofNew: new), "\(name): the schema a new store has") }
        migrated.database.close()
        // Reopened without migration: nothing left to do.
        let reopened = try location.open(new)
        reopened.database.close()
    }

    static let refused: [(String, [(String, String)])] = [
        ("required attribute without default", [M.addRequiredNoDefault]),
        ("integer16 → string", [M.ageToString]),
        ("float → integer32", [M.ratingToInteger]),
        ("optional → required without default", [M.nicknameRequiredNoDefault]),
        ("to-many → to-one", [M.employeesToOne]),
        ("parent changed", [M.employeeUnderPerson]),
        ("a uniqueness constraint the data violates", [M.uniqueNickname]),
        ("an inferable change with a refused one", [M.addEmailDefault, M.ageToString]),
    ]

    static var refusedMatrix: [(TestEngine, Int)] { TestEngine.available.flatMap { e in refused.indices.map { (e, $0) } } }

    @Test(arguments: refusedMatrix)
    func refusedChangeLeavesTheStoreAsItWas(engine: TestEngine, index: Int) throws {
        let (name, edits) = Self.refused[index]
        let location = try MigrationLocation.fresh(engine)
        defer { location.remove() }
        let old = try M.model([]), new = try M.model(edits)
        let made = try location.open(old)
        try D.populate(made)
        made.database.close()
        let before = try location.fingerprint(old)
        do {
            let store = try location.open(new, migration: .automatic)
            store.database.close()
            Issue.record("\(name): migrated")
        } catch let error as MigrationError {
            if name.contains("violates") {
                guard case .duplicates(_, "Employee", ["nickname"], let examples) = error else { Issue.record("\(error)"); return }
                #expect(examples.first?.contains("\"annie\"") == true, "\(examples)")
            } else {
                guard case .notInferable(_, let refusals) = error else { Issue.record("\(error)"); return }
                #expect(!refusals.isEmpty)
            }
            #expect(error.description.contains("nothing was changed"))
        }
        #expect(try location.fingerprint(old) == before, "\(name)")
    }

    @Test(arguments: TestEngine.available)
    func withoutMigrationTheStoreIsRefusedWithTheChanges(engine: TestEngine) throws {
        let location = try MigrationLocation.fresh(engine)
        defer { location.remove() }
        let made = try location.open(try M.model([]))
        try D.populate(made)
        made.database.close()
        let before = try location.fingerprint(try M.model([]))
        do {
            _ = try location.open(try M.model([M.addEmailDefault, M.renameMentor]))
            Issue.record("opened")
        } catch let error as StoreError {
            guard case .migrationNeeded(_, let changes) = error else { Issue.record("\(error)"); return }
            #expect(changes.count == 2)
            #expect(error.description.contains("Employee.email") && error.description.contains("quarry migrate"), "\(error)")
        }
        #expect(try location.fingerprint(try M.model([])) == before)
        // A change of metadata only opens as before.
        let opened = try location.open(try M.model([M.levelBounds]))
        opened.database.close()
    }

    @Test func thePlanIsSQLWithBoundValues() throws {
        let difference = ModelDifference(from: try M.model([]), to: try M.model([M.addEmailDefault, M.renameNickname]))
        let sqlite = try Migration(difference, dialect: .sqlite)
        #expect(sqlite.steps.map(\.description) == [
            #"ALTER TABLE "Employee" RENAME COLUMN "nickname" TO "alias""#,
            #"ALTER TABLE "Employee" ADD COLUMN "email" TEXT"#,
            #"UPDATE "Employee" SET "email" = ?  -- "none""#,
        ])
        let postgres = try Migration(ModelDifference(from: try M.model([]), to: try M.model([M.ageToDouble])), dialect: .postgres)
        #expect(postgres.steps.map(\.sql) == [#"ALTER TABLE "Employee" ALTER COLUMN "age" TYPE DOUBLE PRECISION USING "age"::DOUBLE PRECISION"#])
    }

    /// Tables, columns (name and declared type) and index names.
    static func schema(of store: SQLStore) throws -> [String] {
        var out: [String] = []
        for row in try store.database.rows("SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name") {
            out.append("\(row)")
            if case .string("table") = row[0], case .string(let table) = row[1] {
                for c in try store.database.rows("SELECT name, type FROM pragma_table_info(?) ORDER BY name", [.string(table)]) { out.append("  \(c)") }
            }
        }
        return out
    }

    static func schema(ofNew model: Model) throws -> [String] {
        let fresh = try SQLStore(path: ":memory:", model: model)
        return try schema(of: fresh)
    }
}

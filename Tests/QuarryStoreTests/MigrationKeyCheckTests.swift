// When a SQLite migration checks every foreign key before COMMIT
// (`PRAGMA foreign_key_check`, a read of every table with a key): only when
// a step could leave a link pointing at no object. A plan of column
// renames, plain added columns with their defaults and index changes skips
// it — on a 1M-row store it was nearly all of a rename's cost — and every
// other plan still runs it. Shown on a store whose one link was broken
// beforehand (written with foreign keys off): a rebuild of the table or a
// new to-one refuses to commit over it, a rename goes through and leaves
// the store as it found it (it broke nothing). A plan that checks no key
// also drops and copies no table, so it runs with foreign keys left on and
// without first giving an older store its row versions (the open does
// after): every case migrates a store from before row versions, which
// comes out with them, its rows intact and foreign keys on.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Migration: when every foreign key is checked")
struct MigrationKeyCheckTests {
    typealias M = MigrationModels

    /// (name, edits of the new model, whether the plan checks the keys).
    static let cases: [(String, [(String, String)], Bool)] = [
        ("attribute renamed", [M.renameNickname], false),
        ("attribute with a default added", [M.addEmailDefault], false),
        ("optional attribute added", [M.addEmail], false),
        ("optional attribute made required with a default", [M.nicknameRequired], false),
        ("index added", [M.indexName], false),
        ("uniqueness constraint added", [M.uniqueNickname], false),
        ("added attribute and rename together", [M.addEmailDefault, M.renameNickname], false),
        ("attribute removed (a rebuild)", [M.removeNickname], true),
        ("to-one removed", [M.removeMentor], true),
        ("to-one made to-many", [M.mentorToMany], true),
        ("entity added", [M.addProject], true),
        ("entity renamed", M.renameEmployee, true),
    ]

    @Test(arguments: cases.indices)
    func thePlanChecksKeysOnlyWhenAStepCouldBreakOne(_ i: Int) throws {
        let (name, edits, checks) = Self.cases[i]
        let difference = ModelDifference(from: try M.model([]), to: try M.model(edits))
        let migration = try Migration(difference, dialect: .sqlite)
        #expect(migration.checksKeys == checks, "\(name): \(migration.steps.map(\.sql))")
    }

    /// A store whose one employee's mentor points at no row.
    static func brokenStore() throws -> String {
        let path = NSTemporaryDirectory() + "quarry-keycheck-\(getpid())-\(UInt32.random(in: 0 ... .max)).sqlite"
        let store = try SQLStore(path: path, model: try M.model([]))
        let ann = try store.insert("Employee", ["name": "Ann", "nickname": "a"])
        try store.database.run("PRAGMA foreign_keys = OFF", [])
        try store.database.run(#"UPDATE "Employee" SET "mentor" = 999 WHERE "_pk" = ?"#, [.int(ann.primaryKey)])
        store.database.close()
        return path
    }

    @Test func aPlanThatCouldBreakKeysRefusesOverABrokenLink() throws {
        for edits in [[M.removeNickname], [M.addProject, M.addEmailDefault]] {
            let path = try Self.brokenStore()
            defer { try? FileManager.default.removeItem(atPath: path) }
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let error = try #require(throws: MigrationError.self) { try SQLStore(path: path, model: try M.model(edits), migration: .automatic) }
            #expect("\(error)".contains("foreign_key_check"), "\(error)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }
    }

    @Test func aRenameNeitherChecksNorRepairsWhatItDidNotBreak() throws {
        let path = try Self.brokenStore()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try SQLStore(path: path, model: try M.model([M.addEmailDefault, M.renameNickname]), migration: .automatic)
        let rows = try store.database.rows(#"SELECT "name", "alias", "email", "mentor" FROM "Employee""#)
        #expect(rows == [[.string("Ann"), .string("a"), .string("none"), .int(999)]])
    }

    @Test(arguments: cases.indices)
    func aStoreFromBeforeRowVersionsMigratesAndGetsThem(_ i: Int) throws {
        let (name, edits, _) = Self.cases[i]
        let path = NSTemporaryDirectory() + "quarry-noversions-\(getpid())-\(UInt32.random(in: 0 ... .max)).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        do {
            let store = try SQLStore(path: path, model: try M.model([]))
            let dept = try store.insert("Department", ["name": "R&D"])
            let ann = try store.insert("Employee", ["name": "Ann", "nickname": "a"], toOne: ["department": dept])
            _ = try store.insert("Employee", ["name": "Bob", "nickname": "b"], toOne: ["mentor": ann])
            for table in ["Department", "Employee"] {
                try store.database.run("ALTER TABLE \(SQLIdentifier.quoted(table)) DROP COLUMN \(SQLIdentifier.quoted(StoreMapping.versionColumn))", [])
            }
            store.database.close()
        }
        let migrated = try SQLStore(path: path, model: try M.model(edits), migration: .automatic)
        defer { migrated.database.close() }
        let columns = try SQLStore.columnsByTable(in: migrated.database)
        for table in Set(migrated.model.entities.compactMap { migrated.mapping.table(for: $0.name) }) {
            #expect(columns[table]?.contains(StoreMapping.versionColumn) == true, "\(name): \(table) has its row versions")
        }
        // "Staff" once the entity is renamed.
        let employeeTable = try #require(migrated.mapping.table(for: "Employee") ?? migrated.mapping.table(for: "Staff"))
        let count = try migrated.database.rows("SELECT count(*) FROM \(SQLIdentifier.quoted(employeeTable))")
        #expect(count == [[.int(2)]], "\(name)")
        #expect(try migrated.database.rows("PRAGMA foreign_keys") == [[.int(1)]], "\(name): foreign keys on after the migration")
    }
}

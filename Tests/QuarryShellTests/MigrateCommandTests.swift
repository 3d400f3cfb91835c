// `quarry migrate` and the shell's `--migrate`, through the executable as a
// user meets them: a store made with v1 is refused by the shell with v2 (the
// changes and the hint), `--dry-run` prints the plan and changes nothing,
// a refused plan exits 1 and changes nothing, the migration runs, the store
// then opens with its path alone and reads the new model's values; on
// PostgreSQL (when configured) the same command migrates a schema.
import Foundation
import QuarryPostgresTestSupport
import QuarryStore
import Testing
@testable import QuarryShell

@Suite("quarry migrate (the executable)", .serialized)
struct MigrateCommandTests {
    static let v1 = """
    entities:
      Employee:
        attributes:
          name: string
          nickname: string
          age: integer16

    """
    static let v2 = """
    entities:
      Employee:
        attributes:
          name: string
          alias: { type: string, userInfo: { renamingIdentifier: nickname } }
          age: integer64
          email: { type: string, default: none }

    """
    static let v3 = """
    entities:
      Employee:
        attributes:
          name: string
          nickname: string
          age: string
          badge: { type: integer32, optional: false }

    """

    static let plan = """
    3 changes
      attributeRenamed Employee.alias: renamed from nickname
      typeChanged Employee.age: integer16 → integer64
      attributeAdded Employee.email: string, optional, default none
    sql:
      ALTER TABLE "Employee" RENAME COLUMN "nickname" TO "alias"
      ALTER TABLE "Employee" ADD COLUMN "email" TEXT
      UPDATE "Employee" SET "email" = ?  -- "none"

    """

    /// The three model files in a fresh folder.
    static func folder() throws -> String {
        let dir = NSTemporaryDirectory() + "quarry-migrate-\(getpid())-\(UInt32.random(in: 0 ... .max))/"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, text) in [("v1", v1), ("v2", v2), ("v3", v3)] { try text.write(toFile: dir + name + ".yaml", atomically: true, encoding: .utf8) }
        return dir
    }

    func quarry(_ arguments: [String]) throws -> Transcript { try StoreModelCommandTests().quarry(arguments) }

    @Test(.enabled(if: REPLTerminalTests.binary != nil, "needs the built quarry executable"))
    func transcript() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = dir + "s.sqlite"
        let made = try quarry(["--store", store, "--model", dir + "v1.yaml", "-c", "INSERT Employee {name: 'Ann', nickname: 'annie', age: 30}",
                               "-c", "INSERT Employee {name: 'Bob'}"])
        #expect(made.status == 0, "\(made)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store))

        let refused = try quarry(["--store", store, "--model", dir + "v2.yaml", "-c", "COUNT Employee"])
        #expect(refused.status == 66 && refused.out.isEmpty, "\(refused)")
        #expect(refused.err.contains("needs a migration") && refused.err.contains("attributeAdded Employee.email")
                && refused.err.contains("quarry migrate --store") && refused.err.contains("--migrate"), "\(refused)")

        let dry = try quarry(["migrate", "--store", store, "--model", dir + "v2.yaml", "--dry-run"])
        #expect(dry == Transcript(out: "migrate \(store) to \(dir)v2.yaml: " + Self.plan + "dry run: nothing was changed\n", err: "", status: 0), "\(dry)")

        let notInferable = try quarry(["migrate", "--store", store, "--model", dir + "v3.yaml"])
        #expect(notInferable.status == 1, "\(notInferable)")
        #expect(notInferable.out.contains("! typeChanged Employee.age: integer16 → string — refused: "), "\(notInferable)")
        #expect(notInferable.err.hasPrefix("error: the store at \(store) cannot be migrated to this model: ") && notInferable.err.hasSuffix("nothing was changed\n"),
                "\(notInferable)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == bytes, "refusals and dry runs change nothing")

        let done = try quarry(["migrate", "--store", store, "--model", dir + "v2.yaml"])
        #expect(done == Transcript(out: "migrate \(store) to \(dir)v2.yaml: " + Self.plan + "migrated \(store)\n", err: "", status: 0), "\(done)")
        let read = try quarry(["--store", store, "--csv", "-c", "FETCH Employee SORT BY name"])
        #expect(read == Transcript(out: "name,alias,age,email\r\nAnn,annie,30,none\r\nBob,,,none\r\n", err: "", status: 0), "\(read)")
        let again = try quarry(["migrate", "--store", store, "--model", dir + "v2.yaml"])
        #expect(again.status == 0 && again.out.contains("nothing to migrate"), "\(again)")

        let usage = try quarry(["migrate", "--model", dir + "v2.yaml"])
        #expect(usage.status == 64, "\(usage)")
    }

    @Test(.enabled(if: REPLTerminalTests.binary != nil, "needs the built quarry executable"))
    func theShellMigratesOnOpenWithMigrate() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = dir + "s.sqlite"
        #expect(try quarry(["--store", store, "--model", dir + "v1.yaml", "-c", "INSERT Employee {name: 'Cy', nickname: 'c'}"]).status == 0)
        let t = try quarry(["--store", store, "--model", dir + "v2.yaml", "--migrate", "--csv", "-c", "FETCH Employee"])
        #expect(t == Transcript(out: "name,alias,age,email\r\nCy,c,,none\r\n",
                                err: "note: migrated the store to \(dir)v2.yaml (3 changes; `quarry migrate --dry-run` shows such a plan)\n", status: 0), "\(t)")
        let refused = try quarry(["--store", store, "--model", dir + "v3.yaml", "--migrate", "-c", "COUNT Employee"])
        #expect(refused.status == 66 && refused.err.contains("cannot migrate store") && refused.err.contains("refused")
                || refused.err.contains("cannot be migrated"), "\(refused)")
        #expect(try SQLStore.storedModel(at: store) == (try ModelReader.read(from: dir + "v2.yaml")))
    }

    /// A bundle of three versions: v2 renames `title` to `heading` (its
    /// Renaming ID), v3 adds `words` with a default and says nothing of the
    /// rename. Applied version by version the titles survive; straight from
    /// v1 to v3 they could not (nothing would say `heading` was `title`).
    static func bundle(in dir: String) throws -> String {
        let bundle = dir + "App.xcdatamodeld"
        let versions = [
            ("App", #"<attribute name="title" optional="YES" attributeType="String"/>"#),
            ("App 2", #"<attribute name="heading" optional="YES" attributeType="String" elementID="title"/>"#),
            ("App 3", #"<attribute name="heading" optional="YES" attributeType="String"/><attribute name="words" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>"#),
        ]
        for (name, attributes) in versions {
            let folder = bundle + "/\(name).xcdatamodel"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
                <entity name="Note" representedClassName="Note" syncable="YES">\(attributes)</entity>
            </model>
            """.write(toFile: folder + "/contents", atomically: true, encoding: .utf8)
        }
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>App 3.xcdatamodel</string></dict></plist>
        """.write(toFile: bundle + "/.xccurrentversion", atomically: true, encoding: .utf8)
        return bundle
    }

    @Test func theVersionsOfABundleApplyInOrder() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bundle = try Self.bundle(in: dir)
        let path = dir + "notes.sqlite"
        let store = try SQLStore(path: path, model: try ModelReader.read(from: bundle + "/App.xcdatamodel"))
        try store.insert("Note", ["title": .string("Shopping")])
        store.database.close()
        let outcome = MigrateCommand(store: path, postgres: nil, model: bundle, dryRun: false).run()
        #expect(outcome.exitCode == 0, "\(outcome)")
        #expect(outcome.stdout.contains("to version App 2 of \(bundle): 1 change\n  attributeRenamed Note.heading: renamed from title\n"), "\(outcome)")
        #expect(outcome.stdout.contains("to version App 3 of \(bundle): 1 change\n  attributeAdded Note.words: integer32, required, default 0\n"), "\(outcome)")
        let reopened = try SQLStore(path: path, model: try ModelReader.read(from: bundle))
        let note = try #require(try reopened.fetch(FetchRequest(entity: "Note")).first)
        #expect(note.value(forKey: "heading") == .string("Shopping") && note.value(forKey: "words") == .int(0))
    }

    @Test(.enabled(if: REPLTerminalTests.binary != nil, "needs the built quarry executable"))
    func theShellAppliesABundlesVersionsWithMigrate() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bundle = try Self.bundle(in: dir)
        let path = dir + "notes.sqlite"
        #expect(try quarry(["--store", path, "--model", bundle + "/App.xcdatamodel", "-c", "INSERT Note {title: 'Shopping'}"]).status == 0)
        let t = try quarry(["--store", path, "--model", bundle, "--migrate", "--csv", "-c", "FETCH Note"])
        #expect(t.status == 0 && t.out == "heading,words\r\nShopping,0\r\n" && t.err.contains("(2 changes;"), "\(t)")
    }

    @Test(.enabled(if: PostgresTestEnvironment.shouldRun))
    func migratesAPostgresSchema() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var url = try PostgresTestEnvironment.requireURL()
        url.schema = PostgresTestEnvironment.freshSchemaName()
        let store = try SQLStore(postgres: url.description, model: try ModelReader.read(from: dir + "v1.yaml"))
        try store.insert("Employee", ["name": .string("Ann"), "nickname": .string("annie"), "age": .int(30)])
        store.database.close()
        let outcome = MigrateCommand(store: nil, postgres: url.description, model: dir + "v2.yaml", dryRun: false).run()
        #expect(outcome.exitCode == 0 && outcome.out.contains("ALTER TABLE \"Employee\" RENAME COLUMN \"nickname\" TO \"alias\""), "\(outcome)")
        let reopened = try SQLStore(postgres: url.description, model: try ModelReader.read(from: dir + "v2.yaml"))
        defer { reopened.database.close() }
        let ann = try #require(try reopened.fetch(FetchRequest(entity: "Employee")).first)
        #expect(ann.value(forKey: "alias") == .string("annie") && ann.value(forKey: "email") == .string("none") && ann.value(forKey: "age") == .int(30))
    }
}

private extension CommandOutcome {
    var out: String { stdout }
}

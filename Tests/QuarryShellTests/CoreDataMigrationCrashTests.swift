// A Core Data store's migration is all or nothing even when its process
// dies: the built `quarry migrate` moves a 300k-row Core Data store to a
// model version that adds an entity sorting first (every entity number
// moves, so every row is copied into rebuilt tables) and an attribute with
// a default, and is killed (SIGKILL) at several moments. Every time the
// store passes `integrity_check` and reads either as the old version (its
// metadata hashes, every old value) or the new one (every row migrated).
import Foundation
import QuarryCoreData
import QuarrySQLite
import Testing
@testable import QuarryShell

@Suite("Crash safety of Core Data migrations", .serialized)
struct CoreDataMigrationCrashTests {
    static let rows = 300_000
    static let v1 = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Item">
            <attribute name="count" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
            <attribute name="name" optional="YES" attributeType="String"/>
        </entity>
    </model>
    """
    static let v2 = v1.replacingOccurrences(of: "    <entity name=\"Item\">", with: """
            <entity name="Aardvark">
                <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Item">
                <attribute name="rating" attributeType="Integer 16" defaultValueString="3" usesScalarValueType="YES"/>
        """)

    @Test(.enabled(if: REPLTerminalTests.binary != nil, "needs the built quarry executable"), arguments: [0.05, 0.2, 0.5, 1.0])
    func killedMigrationLeavesOldOrNew(delay: Double) throws {
        let dir = NSTemporaryDirectory() + "quarry-cd-migrate-crash-\(getpid())-\(Int(delay * 1000))/"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.v1.write(toFile: dir + "v1.xml", atomically: true, encoding: .utf8)
        try Self.v2.write(toFile: dir + "v2.xml", atomically: true, encoding: .utf8)
        let old = try ModelReader.read(from: dir + "v1.xml"), new = try ModelReader.read(from: dir + "v2.xml")
        #expect(new.entity(named: "Aardvark") != nil && new.entity(named: "Item")?.attributes.contains { $0.name == "rating" } == true)
        let path = dir + "App.sqlite"
        try CoreDataStore.create(model: old, at: path)
        do {
            let c = try SQLiteConnection(path: path, options: .init(create: false))
            try c.execute("""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(Self.rows))
                INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZCOUNT, ZNAME) SELECT i, 1, 1, i % 100, 'item ' || i FROM n
                """)
            try c.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Item'", [.int(Int64(Self.rows))])
            c.close()
        }
        let process = try KilledQuarry.run(["migrate", "--store", path, "--model", dir + "v2.xml", "--from", dir + "v1.xml"], killedAfter: delay)

        let check = try SQLiteConnection(path: path, options: .init(create: false))
        #expect(try check.query("PRAGMA integrity_check").first?.first == .string("ok"), "killed after \(delay) s")
        check.close()
        // The store reads as one version, and its metadata names that one.
        let opened = try (try? CoreDataStore.open(path: path, model: new)) ?? CoreDataStore.open(path: path, model: old)
        defer { opened.store.database.close() }
        let migrated = opened.store.model == new
        #expect(opened.metadata.versionHashes == CoreDataVersionHash.coveredHashes(migrated ? new : old),
                "killed after \(delay) s: the tables are the \(migrated ? "new" : "old") version's, the metadata not")
        func count(_ predicate: String) throws -> Int {
            try opened.store.count(FetchRequest(entity: "Item", predicate: try Parser.parsePredicate(predicate)))
        }
        #expect(try count("TRUEPREDICATE") == Self.rows, "killed after \(delay) s")
        #expect(try count(migrated ? "name BEGINSWITH 'item ' AND count < 100 AND rating == 3" : "name BEGINSWITH 'item ' AND count < 100") == Self.rows,
                "killed after \(delay) s (\(migrated ? "new" : "old") version): values")
        if process.terminationReason == .exit {
            #expect(process.terminationStatus == 0 && migrated, "finished before the kill after \(delay) s")
        }
        print("CORE-DATA-MIGRATION-CRASH \(process.terminationReason == .exit ? "exited before the kill at" : "killed after") \(delay) s: \(migrated ? "migrated" : "old version"), \(Self.rows) rows intact")
    }
}

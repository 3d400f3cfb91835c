// Issue 22 on Core Data stores: migrating a 1M-row store in Core Data's
// format (made by CoreDataStore.create, so its metadata carries the model's
// hashes; the rows inserted with plain SQL) to the next model version with
// `CoreDataStore.migrate` (QuarryCoreData/CoreDataMigration.swift), against
// the hand-written SQL a developer would run for the same change, in the
// same run, each iteration on a fresh copy (not measured):
//   CM1 an attribute added with a default (Item.rating, required, 3):
//       ALTER TABLE ZITEM ADD COLUMN ZRATING + UPDATE … SET ZRATING = 3 +
//       the new metadata, in one transaction;
//   CM2 an attribute renamed (Item.name → title, its elementID "name"):
//       ALTER TABLE ZITEM RENAME COLUMN ZNAME TO ZTITLE + the new metadata.
// The bar: within 1.5× of the hand-written SQL.
// QUARRY_COREDATA_ROWS sets the size (default 1,000,000).
import Benchmark
import Foundation
import QuarryCoreData
import QuarryModel
import QuarrySQLite

let rows = Int(ProcessInfo.processInfo.environment["QUARRY_COREDATA_ROWS"] ?? "") ?? 1_000_000
let folder = NSTemporaryDirectory() + "quarry-coredata-migration-\(getpid())/"

let version1 = """
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
    <entity name="Category">
        <attribute name="name" optional="YES" attributeType="String"/>
        <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="category" inverseEntity="Item"/>
    </entity>
    <entity name="Item">
        <attribute name="created" optional="YES" attributeType="Date"/>
        <attribute name="name" optional="YES" attributeType="String"/>
        <attribute name="price" optional="YES" attributeType="Double"/>
        <relationship name="category" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Category" inverseName="items" inverseEntity="Category"/>
    </entity>
</model>
"""
let added = version1.replacingOccurrences(of: "identifier=\"1\"", with: "identifier=\"2\"")
    .replacingOccurrences(of: "<attribute name=\"price\"", with: "<attribute name=\"rating\" attributeType=\"Integer 16\" defaultValueString=\"3\" usesScalarValueType=\"YES\"/>\n        <attribute name=\"price\"")
let renamed = version1.replacingOccurrences(of: "identifier=\"1\"", with: "identifier=\"2\"")
    .replacingOccurrences(of: "<attribute name=\"name\" optional=\"YES\" attributeType=\"String\"/>\n        <attribute name=\"price\"",
                          with: "<attribute name=\"title\" optional=\"YES\" attributeType=\"String\" elementID=\"name\"/>\n        <attribute name=\"price\"")

func file(_ name: String, _ text: String) -> String {
    let path = folder + name
    try! text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// The 1M-row store, closed and checkpointed.
let original: String = {
    try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "original.sqlite"
    try! CoreDataStore.create(model: try! ModelReader.read(xml: version1), at: path)
    let c = try! SQLiteConnection(path: path, options: .init(create: false))
    try! c.transaction {
        let category = try c.prepare("INSERT INTO ZCATEGORY (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, 1, 1, ?)")
        for i in 1...100 {
            try category.bind([.int(Int64(i)), .string("Category \(i)")])
            _ = try category.step()
            category.reset()
        }
        let item = try c.prepare("INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZCATEGORY, ZCREATED, ZPRICE, ZNAME) VALUES (?, 2, 1, ?, ?, ?, ?)")
        for i in 1...rows {
            try item.bind([.int(Int64(i)), .int(Int64(1 + i % 100)), .double(Double((i &* 7919) % 100_000_000)),
                           .double(Double((i &* 104_729) % 100_000) / 100), .string("item \((i &* 31) % rows)")])
            _ = try item.step()
            item.reset()
        }
        try c.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Item'", [.int(Int64(rows))])
        try c.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 100 WHERE Z_NAME = 'Category'")
    }
    try! c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    c.close()
    return path
}()
let scratch = folder + "store.sqlite"
let version1File = file("v1.xml", version1), addedFile = file("added.xml", added), renamedFile = file("renamed.xml", renamed)

func freshCopy() throws {
    for suffix in ["", "-wal", "-shm"] { unlink(scratch + suffix) }
    try FileManager.default.copyItem(atPath: original, toPath: scratch)
}

/// The metadata the hand-written side writes: what Quarry's migration
/// writes for the new model (taken from a migrated copy, outside the timing).
func metadata(after modelPath: String) throws -> [UInt8] {
    try freshCopy()
    try CoreDataStore.migrate(path: scratch, modelPath: modelPath, fromModelPath: version1File)
    let c = try SQLiteConnection(path: scratch, options: .init(readOnly: true, create: false))
    defer { c.close() }
    guard case .data(let bytes)? = try c.query("SELECT Z_PLIST FROM Z_METADATA").first?.first else { fatalError("no metadata") }
    return bytes
}

/// The hand-written side, in one transaction on the store itself.
func byHand(_ statements: [String], metadata: [UInt8]) throws {
    let c = try SQLiteConnection(path: scratch, options: .init(create: false))
    defer { c.close() }
    try c.transaction {
        for s in statements { try c.execute(s) }
        try c.execute("UPDATE Z_METADATA SET Z_PLIST = ?", [.data(metadata)])
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock], maxDuration: .seconds(60), maxIterations: 5)
    _ = original
    atexit { try? FileManager.default.removeItem(atPath: folder) }
    let addedMetadata = try! metadata(after: addedFile), renamedMetadata = try! metadata(after: renamedFile)

    Benchmark("CM1 quarry: migrate a 1M-row Core Data store, attribute added with a default") { benchmark in
        try freshCopy()
        benchmark.startMeasurement()
        try CoreDataStore.migrate(path: scratch, modelPath: addedFile, fromModelPath: version1File)
        benchmark.stopMeasurement()
    }
    Benchmark("CM1 baseline: ALTER TABLE ADD COLUMN + UPDATE by hand") { benchmark in
        try freshCopy()
        benchmark.startMeasurement()
        try byHand(["ALTER TABLE ZITEM ADD COLUMN ZRATING INTEGER", "UPDATE ZITEM SET ZRATING = 3"], metadata: addedMetadata)
        benchmark.stopMeasurement()
    }
    Benchmark("CM2 quarry: migrate a 1M-row Core Data store, attribute renamed") { benchmark in
        try freshCopy()
        benchmark.startMeasurement()
        try CoreDataStore.migrate(path: scratch, modelPath: renamedFile, fromModelPath: version1File)
        benchmark.stopMeasurement()
    }
    Benchmark("CM2 baseline: ALTER TABLE RENAME COLUMN by hand") { benchmark in
        try freshCopy()
        benchmark.startMeasurement()
        try byHand(["ALTER TABLE ZITEM RENAME COLUMN ZNAME TO ZTITLE"], metadata: renamedMetadata)
        benchmark.stopMeasurement()
    }
}

// Issue 21: reading an app's Core Data store through the translation layer
// (TEMP views in Quarry's layout over the Z-tables, QuarryCoreData) costs
// no more than hand-written SQL on the Z-tables. A 1M-row store in Core
// Data's layout (a hand-written schema: ZITEM with Z_PK, Z_ENT, Z_OPT, an
// indexed to-one ZCATEGORY, as Core Data makes it) is opened read-only;
// each scenario runs beside the same query hand-written on ZITEM, in the
// same run, both reading every selected row's values; target ≤ 1.10×.
//   C1 filter + sort, 1% of the rows:   price > 990 sorted by name
//   C2 filter + sort + limit 100:        price > 500 sorted by created
//   C3 count with a key path:            category.name == 'Category 7' AND price < 100
//   E1 export of the whole store into a new Quarry SQLite store
//      (StoreExport), beside the hand-written `INSERT … SELECT` from the
//      attached Z-tables into the same empty Quarry schema; target ≤ 1.5×.
// QUARRY_COREDATA_ROWS sets the size (default 1,000,000).
import Benchmark
import Foundation
import QuarryCoreData
import QuarrySQLite
import QuarryStore

let rows = Int(ProcessInfo.processInfo.environment["QUARRY_COREDATA_ROWS"] ?? "") ?? 1_000_000

let modelXML = """
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
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

/// The store, written as Core Data lays it out, then closed and checkpointed.
func makeStore() -> String {
    let path = NSTemporaryDirectory() + "quarry-coredata-bench-\(getpid()).sqlite"
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    let c = try! SQLiteConnection(path: path)
    try! c.executeScript("""
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        CREATE TABLE ZCATEGORY (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
        CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCATEGORY INTEGER, ZCREATED TIMESTAMP, ZPRICE FLOAT, ZNAME VARCHAR);
        CREATE INDEX ZITEM_ZCATEGORY_INDEX ON ZITEM (ZCATEGORY);
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Category', 0, 100), (2, 'Item', 0, \(rows));
        INSERT INTO Z_METADATA VALUES (1, 'B0000000-0000-4000-8000-000000000000', NULL);
        """)
    try! c.transaction {
        let category = try c.prepare("INSERT INTO ZCATEGORY VALUES (?, 1, 1, ?)")
        for i in 1...100 {
            try category.bind([.int(Int64(i)), .string("Category \(i)")])
            _ = try category.step()
            category.reset()
        }
        let item = try c.prepare("INSERT INTO ZITEM VALUES (?, 2, 1, ?, ?, ?, ?)")
        for i in 1...rows {
            try item.bind([.int(Int64(i)), .int(Int64(1 + i % 100)), .double(Double((i &* 7919) % 100_000_000)),
                           .double(Double((i &* 104_729) % 100_000) / 100), .string("item \((i &* 31) % rows)")])
            _ = try item.step()
            item.reset()
        }
    }
    try! c.execute("ANALYZE")
    try! c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    c.close()
    return path
}

let path = makeStore()
// The benchmark tool runs this program once per benchmark: each run removes
// its 50 MB store when it ends.
private let removeStore: Void = { atexit { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } } }()
nonisolated(unsafe) let store = try! CoreDataStore.open(path: path, model: try! ModelReader.read(xml: modelXML)).store
/// The hand-written side: its own read-only connection on the Z-tables.
nonisolated(unsafe) let handConnection = try! SQLiteConnection(path: "file:\(path)?immutable=1", options: .init(readOnly: true, create: false))

let scenarios: [(id: String, request: FetchRequest, handWritten: String, count: Bool)] = [
    ("C1", FetchRequest(entity: "Item", predicate: try! Parser.parsePredicate("price > 990"), sortDescriptors: [QuerySortDescriptor("name")]),
     "SELECT Z_PK, Z_ENT, ZNAME, ZPRICE, ZCREATED, ZCATEGORY FROM ZITEM WHERE ZPRICE > ? ORDER BY ZNAME", false),
    ("C2", FetchRequest(entity: "Item", predicate: try! Parser.parsePredicate("price > 500"), sortDescriptors: [QuerySortDescriptor("created")], fetchLimit: 100),
     "SELECT Z_PK, Z_ENT, ZNAME, ZPRICE, ZCREATED, ZCATEGORY FROM ZITEM WHERE ZPRICE > ? ORDER BY ZCREATED LIMIT 100", false),
    ("C3", FetchRequest(entity: "Item", predicate: try! Parser.parsePredicate("category.name == 'Category 7' AND price < 100")),
     "SELECT COUNT(*) FROM ZITEM t0 JOIN ZCATEGORY t1 ON t1.Z_PK = t0.ZCATEGORY WHERE t1.ZNAME = 'Category 7' AND t0.ZPRICE < ?", true),
]

func arguments(_ id: String) -> [Value] { id == "C1" ? [.double(990)] : id == "C2" ? [.double(500)] : [.double(100)] }

let benchmarks: @Sendable () -> Void = {
    _ = removeStore
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock], maxDuration: .seconds(10), maxIterations: 20)
    for s in scenarios {
        // Same answer, or the comparison means nothing.
        let hand = try! handConnection.query(s.handWritten, arguments(s.id))
        if s.count {
            precondition(.int(Int64(try! store.count(s.request))) == hand.first?.first, "\(s.id): Quarry and the hand-written SQL disagree")
            Benchmark("\(s.id) quarry: count") { _ in blackHole(try store.count(s.request)) }
        } else {
            store.forgetObjects()
            precondition(try! store.fetch(s.request).map(\.id.primaryKey) == hand.map { if case .int(let k) = $0[0] { return k } else { return -1 } },
                         "\(s.id): Quarry and the hand-written SQL disagree")
            Benchmark("\(s.id) quarry: fetch") { _ in
                store.forgetObjects()
                blackHole(try store.fetch(s.request))
            }
            // The view's cost alone: Quarry's planned SQL on the views, rows as values.
            let plan = try! store.explain(s.request)
            Benchmark("\(s.id) quarry SQL on the views: rows") { _ in blackHole(try store.database.rows(plan.sql.sql, plan.sql.arguments)) }
        }
        Benchmark("\(s.id) baseline: hand-written SQL on ZITEM") { _ in blackHole(try handConnection.query(s.handWritten, arguments(s.id))) }
    }
    // E1: each iteration writes a new file and removes it.
    let model = try! ModelReader.read(xml: modelXML)
    let exportConfiguration = Benchmark.Configuration(metrics: [.wallClock], maxDuration: .seconds(60), maxIterations: 5)
    Benchmark("E1 quarry: export to a new store", configuration: exportConfiguration) { _ in
        let out = path + ".export"
        defer { unlink(out) }
        blackHole(try StoreExport.copy(from: store, toFile: out))
    }
    Benchmark("E1 baseline: hand-written INSERT … SELECT", configuration: exportConfiguration) { _ in
        let out = path + ".hand"
        defer { unlink(out) }
        let schema = try SQLStore(path: out, model: model)
        schema.database.close()
        let c = try SQLiteConnection(path: out)
        defer { c.close() }
        try c.execute("PRAGMA journal_mode = OFF")
        try c.execute("PRAGMA synchronous = OFF")
        try c.execute("ATTACH DATABASE ? AS cd", [.string("file:\(path)?immutable=1")])
        try c.transaction {
            try c.execute("INSERT INTO main.\"Category\" (\"_pk\", \"_entity\", \"name\") SELECT Z_PK, 'Category', ZNAME FROM cd.ZCATEGORY ORDER BY Z_PK")
            try c.execute("INSERT INTO main.\"Item\" (\"_pk\", \"_entity\", \"created\", \"name\", \"price\", \"category\") SELECT Z_PK, 'Item', ZCREATED, ZNAME, ZPRICE, ZCATEGORY FROM cd.ZITEM ORDER BY Z_PK")
        }
    }
}

// How fast `StoreExport` copies a big Core Data store, beside the fastest
// hand-written copy: `INSERT INTO <Quarry table> SELECT … FROM ZITEM` from an
// attached database, in one transaction, into the same Quarry schema (same
// indexes, same foreign keys checked, no journal). Issue 21's target: within
// 1.5×. Runs only when QUARRY_EXPORT_ROWS is set (a size, e.g. 1000000), as
// it makes a store of that many rows; prints both times. The same store and
// scenario run as benchmark `CoreData` (E1) in Tests/Benchmarks.
import Foundation
import QuarryCoreData
import QuarryModel
import QuarrySQLite
import QuarryStore
import Testing

@Suite("Export speed")
struct ExportSpeedTests {
    static let rows = Int(ProcessInfo.processInfo.environment["QUARRY_EXPORT_ROWS"] ?? "") ?? 0

    static let modelXML = """
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

    /// A store in Core Data's layout with `rows` items in 100 categories.
    static func makeStore(_ path: String, rows: Int) throws {
        let c = try SQLiteConnection(path: path)
        try c.executeScript("""
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            CREATE TABLE ZCATEGORY (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
            CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCATEGORY INTEGER, ZCREATED TIMESTAMP, ZPRICE FLOAT, ZNAME VARCHAR);
            CREATE INDEX ZITEM_ZCATEGORY_INDEX ON ZITEM (ZCATEGORY);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Category', 0, 100), (2, 'Item', 0, \(rows));
            INSERT INTO Z_METADATA VALUES (1, 'B0000000-0000-4000-8000-000000000000', NULL);
            """)
        try c.transaction {
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
        try c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        c.close()
    }

    /// The hand-written copy into an empty Quarry store at `target`.
    static func handWrittenCopy(from source: String, to target: String, model: Model) throws {
        let schema = try SQLStore(path: target, model: model)
        schema.database.close()
        let c = try SQLiteConnection(path: target)
        try c.execute("PRAGMA journal_mode = OFF")
        try c.execute("PRAGMA synchronous = OFF")
        try c.execute("ATTACH DATABASE ? AS cd", [.string("file:\(source)?immutable=1")])
        try c.transaction {
            try c.execute("INSERT INTO main.\"Category\" (\"_pk\", \"_entity\", \"name\") SELECT Z_PK, 'Category', ZNAME FROM cd.ZCATEGORY ORDER BY Z_PK")
            try c.execute("""
                INSERT INTO main."Item" ("_pk", "_entity", "created", "name", "price", "category")
                SELECT Z_PK, 'Item', ZCREATED, ZNAME, ZPRICE, ZCATEGORY FROM cd.ZITEM ORDER BY Z_PK
                """)
        }
        c.close()
    }

    @Test(.enabled(if: rows > 0))
    func exportIsWithinOneAndAHalfTimesOfHandWrittenSQL() throws {
        let scratch = Scratch()
        let path = scratch.path("Big.sqlite")
        try Self.makeStore(path, rows: Self.rows)
        let model = try ModelReader.read(xml: Self.modelXML)
        let clock = ContinuousClock()
        var quarry: [Duration] = [], hand: [Duration] = []
        for round in 0..<3 {
            let source = try CoreDataStore.open(path: path, model: model).store
            let exportPath = scratch.path("export-\(round).sqlite")
            let q = try clock.measure { try StoreExport.copy(from: source, toFile: exportPath) }
            source.database.close()
            let handPath = scratch.path("hand-\(round).sqlite")
            let h = try clock.measure { try Self.handWrittenCopy(from: path, to: handPath, model: model) }
            quarry.append(q)
            hand.append(h)
            // The same rows either way.
            let a = try SQLStore(path: exportPath, model: model), b = try SQLStore(path: handPath, model: model)
            #expect(try a.count(FetchRequest(entity: "Item")) == Self.rows)
            #expect(try a.database.rows("SELECT * FROM \"Item\" ORDER BY \"_pk\" LIMIT 1000", [])
                    == (try b.database.rows("SELECT * FROM \"Item\" ORDER BY \"_pk\" LIMIT 1000", [])))
            a.database.close()
            b.database.close()
            try FileManager.default.removeItem(atPath: exportPath)
            try FileManager.default.removeItem(atPath: handPath)
        }
        let q = quarry.min()!, h = hand.min()!
        let ratio = Double(q.components.seconds * 1_000_000_000 + q.components.attoseconds / 1_000_000_000)
            / Double(h.components.seconds * 1_000_000_000 + h.components.attoseconds / 1_000_000_000)
        print("EXPORT SPEED \(Self.rows) rows: StoreExport \(q), hand-written INSERT … SELECT \(h), ratio \(String(format: "%.2f", ratio)) (best of 3)")
    }
}

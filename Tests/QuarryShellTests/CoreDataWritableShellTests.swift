// `quarry --store App.sqlite --writable` as a person runs it: the note says
// the store is opened writable, INSERT / UPDATE / DELETE write its Z-tables
// (checked by hand-written SQL: the key from Z_MAX, Z_ENT, Z_OPT), and
// without `--writable` the same script is refused with nothing written.
// The store is a small one made here in Core Data's layout, with its model
// as a bare `.xcdatamodel`.
import Foundation
import QuarrySQLite
import Testing

@Suite("quarry --writable on a Core Data store", .serialized)
struct CoreDataWritableShellTests {
    static let modelXML = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Tag">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="pinned" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
        </entity>
    </model>
    """

    /// A store with tags red (1) and blue (2), Z_MAX 2; and its model.
    static func make(in folder: ExportCommandTests.Folder) throws -> (store: String, model: String) {
        let store = folder.path("App.sqlite")
        let c = try SQLiteConnection(path: store)
        for s in ["CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
                  "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
                  "CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPINNED INTEGER, ZNAME VARCHAR)",
                  "INSERT INTO Z_PRIMARYKEY VALUES (1, 'Tag', 0, 2)",
                  "INSERT INTO Z_METADATA VALUES (1, 'D3A1F3E0-0000-4000-8000-000000000002', x'00')",
                  "INSERT INTO ZTAG VALUES (1, 1, 1, 0, 'red'), (2, 1, 1, 0, 'blue')"] {
            try c.execute(s)
        }
        c.close()
        let model = folder.path("Tags.xcdatamodel")
        try FileManager.default.createDirectory(atPath: model, withIntermediateDirectories: true)
        try modelXML.write(toFile: model + "/contents", atomically: true, encoding: .utf8)
        return (store, model)
    }

    static let script = "INSERT Tag {name: 'green', pinned: YES}; UPDATE Tag SET name = 'RED' WHERE name == 'red'; DELETE Tag WHERE name == 'blue'; FETCH Tag PROPERTIES name, pinned SORT BY name"

    @Test func writableWritesTheZTables() throws {
        let folder = ExportCommandTests.Folder()
        let (store, model) = try Self.make(in: folder)
        let r = try quarry(["--store", store, "--model", model, "--writable", "-c", Self.script])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("is a Core Data store, opened writable"), "\(r.err)")
        #expect(r.out == "inserted Tag/3\nupdated 1 object\ndeleted 1 object\n name  | pinned\n-------+--------\n RED   | false\n green | true\n(2 rows)\n", "\(r.out)")
        let z = try SQLiteConnection(path: store, options: .init(readOnly: true, create: false))
        defer { z.close() }
        #expect(try z.query("SELECT Z_PK, Z_ENT, Z_OPT, ZPINNED, ZNAME FROM ZTAG ORDER BY Z_PK")
                == [[.int(1), .int(1), .int(2), .int(0), .string("RED")], [.int(3), .int(1), .int(1), .int(1), .string("green")]])
        #expect(try z.query("SELECT Z_MAX FROM Z_PRIMARYKEY") == [[.int(3)]])
        #expect(try z.query("SELECT name FROM sqlite_master ORDER BY name").map { $0[0] } == [.string("ZTAG"), .string("Z_METADATA"), .string("Z_PRIMARYKEY")])
        #expect(try z.query("SELECT Z_PLIST FROM Z_METADATA") == [[.data([0])]])
    }

    /// BEGIN … COMMIT sent by the shell: each row written gets one Z_OPT
    /// more per statement that writes it (the raise at COMMIT adds nothing
    /// to rows already given a new version), a new row 1; a rolled-back
    /// transaction leaves Z_OPT as it was.
    @Test func transactionsKeepZOPT() throws {
        let folder = ExportCommandTests.Folder()
        let (store, model) = try Self.make(in: folder)
        let script = "BEGIN; UPDATE Tag SET pinned = YES WHERE name == 'red'; INSERT Tag {name: 'green'}; UPDATE Tag SET name = 'GREEN' WHERE name == 'green'; COMMIT; "
            + "BEGIN; UPDATE Tag SET name = 'x' WHERE name == 'blue'; ROLLBACK; UPDATE Tag SET pinned = YES WHERE name == 'blue'"
        let r = try quarry(["--store", store, "--model", model, "--writable", "-c", script])
        #expect(r.status == 0, "\(r.err)")
        let z = try SQLiteConnection(path: store, options: .init(readOnly: true, create: false))
        defer { z.close() }
        #expect(try z.query("SELECT Z_PK, Z_OPT, ZPINNED, ZNAME FROM ZTAG ORDER BY Z_PK")
                == [[.int(1), .int(2), .int(1), .string("red")], [.int(2), .int(2), .int(1), .string("blue")], [.int(3), .int(2), .null, .string("GREEN")]])
        #expect(try z.query("SELECT name FROM sqlite_master ORDER BY name").map { $0[0] } == [.string("ZTAG"), .string("Z_METADATA"), .string("Z_PRIMARYKEY")])
    }

    @Test func withoutWritableNothingIsWritten() throws {
        let folder = ExportCommandTests.Folder()
        let (store, model) = try Self.make(in: folder)
        let before = ["", "-wal", "-shm"].map { FileManager.default.contents(atPath: store + $0) }
        let r = try quarry(["--store", store, "--model", model, "-c", Self.script])
        #expect(r.status != 0)
        #expect(r.err.contains("opened read-only"), "\(r.err)")
        #expect(["", "-wal", "-shm"].map { FileManager.default.contents(atPath: store + $0) } == before)
    }
}

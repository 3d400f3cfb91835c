// `quarry --store App.sqlite --writable` on a Core Data store whose binary
// values are in external data files (CoreDataExternalSweep.swift): a
// DELETE or UPDATE that drops a file's reference removes the file once it
// committed — by itself, or at the COMMIT of a `BEGIN … COMMIT` — and a
// ROLLBACK keeps it. A small store made here in Core Data's layout, with
// each reference written as Core Data writes one (0x02, the UUID, a NUL).
import Foundation
import QuarrySQLite
import Testing

@Suite("quarry --writable removes a Core Data store's dropped external files", .serialized)
struct CoreDataExternalShellTests {
    static let modelXML = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Tag">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
        </entity>
    </model>
    """
    static let red = "B0000000-0000-4000-8000-000000000001"
    static let blue = "B0000000-0000-4000-8000-000000000002"
    static let green = "B0000000-0000-4000-8000-000000000003"

    static func reference(_ name: String) -> String {
        "x'02" + Array(name.utf8).map { String(format: "%02X", $0) }.joined() + "00'"
    }

    /// Tags red, blue, green with their photos in files; and the model.
    static func make(in folder: ExportCommandTests.Folder) throws -> (store: String, model: String, files: String) {
        let store = folder.path("App.sqlite")
        let c = try SQLiteConnection(path: store)
        for s in ["CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
                  "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
                  "CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZPHOTO BLOB)",
                  "INSERT INTO Z_PRIMARYKEY VALUES (1, 'Tag', 0, 3)",
                  "INSERT INTO Z_METADATA VALUES (1, 'D3A1F3E0-0000-4000-8000-000000000003', x'00')",
                  "INSERT INTO ZTAG VALUES (1, 1, 1, 'red', \(reference(red))), (2, 1, 1, 'blue', \(reference(blue))), (3, 1, 1, 'green', \(reference(green)))"] {
            try c.execute(s)
        }
        c.close()
        let files = folder.path(".App_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
        for name in [red, blue, green] { _ = FileManager.default.createFile(atPath: files + "/" + name, contents: Data(name.utf8)) }
        let model = folder.path("Tags.xcdatamodel")
        try FileManager.default.createDirectory(atPath: model, withIntermediateDirectories: true)
        try modelXML.write(toFile: model + "/contents", atomically: true, encoding: .utf8)
        return (store, model, files)
    }

    @Test(.enabled(if: REPLTerminalTests.binary != nil, "needs the built quarry executable"), arguments: [
        ("DELETE Tag WHERE name == 'red'", [red]),
        ("UPDATE Tag SET photo = nil WHERE name == 'green'", [green]),
        ("BEGIN; DELETE Tag WHERE name == 'blue'; ROLLBACK", []),
        ("BEGIN; DELETE Tag WHERE name == 'blue'; UPDATE Tag SET photo = nil WHERE name == 'red'; COMMIT", [blue, red]),
        ("BEGIN; SAVEPOINT s; DELETE Tag WHERE name == 'blue'; ROLLBACK TO s; DELETE Tag WHERE name == 'red'; COMMIT", [red]),
        ("BEGIN; DELETE Tag", []),   // left open: rolled back at the end
    ] as [(String, [String])])
    func committedShellWritesRemoveTheirFiles(script: String, removed: [String]) throws {
        let folder = ExportCommandTests.Folder()
        let (store, model, files) = try Self.make(in: folder)
        let r = try quarry(["--store", store, "--model", model, "--writable", "-c", script])
        #expect(r.status == 0 || script == "BEGIN; DELETE Tag", "\(r.err)")
        let left = Set((try? FileManager.default.contentsOfDirectory(atPath: files)) ?? [])
        #expect(left == Set([Self.red, Self.blue, Self.green]).subtracting(removed), "\(script): \(r.err)")
    }

    /// Without --writable nothing is written and no file goes.
    @Test(.enabled(if: REPLTerminalTests.binary != nil, "needs the built quarry executable"))
    func readOnlyRemovesNothing() throws {
        let folder = ExportCommandTests.Folder()
        let (store, model, files) = try Self.make(in: folder)
        let r = try quarry(["--store", store, "--model", model, "-c", "DELETE Tag"])
        #expect(r.status != 0)
        #expect(Set((try? FileManager.default.contentsOfDirectory(atPath: files)) ?? []) == [Self.red, Self.blue, Self.green])
    }
}

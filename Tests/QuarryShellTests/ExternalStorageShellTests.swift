// The shell over a YAML model with a binary attribute that allows external
// storage (threshold lowered to 16 bytes for the run), on SQLite and (when a
// server is configured) PostgreSQL, byte for byte the same output: INSERT
// with a long value given by `--arg` and by CAST, UPDATE, FETCH as a table
// and as NDJSON, WHERE comparing values (in memory) and testing nil (SQL),
// DELETE, a refused sort, a ROLLBACK and a failed statement inside BEGIN —
// and after each case the files on disk: exactly those the rows name
// (none on PostgreSQL, where values stay inline).
import Foundation
import QuarryPostgresTestSupport
import Testing
@testable import QuarryShell

@Suite("Shell: external binary storage", .serialized)
struct ExternalStorageShellTests {
    static let model = """
    entities:
      Item:
        attributes:
          name: { type: string }
          code: { type: string, unique: true }
          photo: { type: binary, externalStorage: true }
    """

    static let long: [UInt8] = Array("a photo longer than 16 bytes".utf8)

    static let setUp = """
    INSERT Item {name: 'a', photo: %@};
    INSERT Item {name: 'b', photo: CAST('c2hvcnQ=', 'NSData')};
    INSERT Item {name: 'c'};
    INSERT Item {name: 'd', photo: CAST('YW5vdGhlciBsb25nIHBob3RvIHZhbHVl', 'NSData')};
    """

    static let hexLong = "x'" + long.map { String(format: "%02x", $0) }.joined() + "'"
    static let hexOther = "x'" + Array("another long photo value".utf8).map { String(format: "%02x", $0) }.joined() + "'"
    static let hexShort = "x'73686f7274'"
    static let hexNew = "x'" + Array("a new long value for item b".utf8).map { String(format: "%02x", $0) }.joined() + "'"

    /// (statement, stdout, stderr, status, files on SQLite after it)
    static let cases: [(String, String, String, Int32, Int)] = [
        ("FETCH Item PROPERTIES name, photo WHERE photo != nil SORT BY name",
         table(["a": hexLong, "b": hexShort, "d": hexOther]), "", 0, 2),
        (".mode ndjson\nFETCH Item WHERE name == 'a'",
         "{\"name\":\"a\",\"code\":null,\"photo\":\"\(hexLong)\"}\n", "", 0, 2),
        ("FETCH Item PROPERTIES name WHERE photo == %@", " name\n------\n a\n(1 row)\n", "", 0, 2),
        ("COUNT Item WHERE photo == nil", count(1), "", 0, 2),
        ("UPDATE Item SET photo = CAST('YSBuZXcgbG9uZyB2YWx1ZSBmb3IgaXRlbSBi', 'NSData') WHERE name == 'b'; FETCH Item PROPERTIES name, photo WHERE name == 'b'",
         "updated 1 object\n" + table(["b": hexNew]).replacingOccurrences(of: "(1 rows)", with: "(1 row)"), "", 0, 3),
        ("UPDATE Item SET photo = nil WHERE name == 'd'", "updated 1 object\n", "", 0, 2),
        ("BEGIN; INSERT Item {name: 'e', photo: CAST('cm9sbGVkIGJhY2sgbG9uZyB2YWx1ZQ==', 'NSData')}; ROLLBACK; COUNT Item", "inserted Item/5\n" + count(4), "", 0, 2),
        ("DELETE Item WHERE photo == %@; COUNT Item", "deleted 1 object\n" + count(3), "", 0, 1),
        ("FETCH Item SORT BY photo", "",
         "1:1: error[B004]: cannot sort by 'photo': Item.photo allows external storage, and its column may hold a file's name instead of the bytes, which has no order\n    FETCH Item SORT BY photo\n    ^\nhelp: sort by another attribute, or sort the fetched objects yourself by the decoded value\n", 65, 1),
        // A refused statement leaves no file (a save refused in SQL after its files were written: ExternalBinaryStorageTests).
        ("UPDATE Item SET photo = CAST('cm9sbGVkIGJhY2sgbG9uZyB2YWx1ZQ==', 'NSData'), code = 'same'", "",
         "1:77: error[R007]: Item.code must be unique; the update would give 'same' to 3 objects\n    UPDATE Item SET photo = CAST('cm9sbGVkIGJhY2sgbG9uZyB2YWx1ZQ==', 'NSData'), code = 'same'\n                                                                                ^~~~\n", 1, 1),
        ("DELETE Item; COUNT Item", "deleted 3 objects\n" + count(0), "", 0, 0),
    ]

    static func table(_ rows: [String: String]) -> String {
        let width = max(5, rows.values.map(\.count).max() ?? 0)
        var text = " name | photo\n------+" + String(repeating: "-", count: width + 2) + "\n"
        for (name, hex) in rows.sorted(by: { $0.key < $1.key }) { text += " \(name)    | \(hex)\n" }
        return text + "(\(rows.count) rows)\n"
    }

    static func count(_ n: Int) -> String { " count\n-------\n     \(n)\n(1 row)\n" }

    static func files(_ folder: URL) -> Int {
        let path = folder.appendingPathComponent(".store_SUPPORT/_EXTERNAL_DATA").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).count
    }

    @Test(arguments: TranscriptTable.locations)
    func transcripts(location: String) throws {
        try TranscriptTable.withStore(at: location, model: Self.model) { folder, modelPath, store in
            ExternalBinaryStorage.$thresholdOverride.withValue(16) {
                let made = transcript([.command(Self.setUp)], store: store, modelPath: modelPath, arguments: [.data(Self.long)])
                #expect(made.status == 0, "\(made.err)")
                #expect(Self.files(folder) == (location == "sqlite" ? 2 : 0))
                for (script, out, err, status, files) in Self.cases {
                    let r = transcript([.command(script)], keepGoing: true, store: store, arguments: [.data(Self.long)])
                    #expect(r.out == out, "\(location): \(script)\n\(r.out)")
                    #expect(r.err == err, "\(location): \(script)\n\(r.err)")
                    #expect(r.status == status, "\(location): \(script)")
                    #expect(Self.files(folder) == (location == "sqlite" ? files : 0), "\(location): \(script)")
                }
            }
        }
    }
}

// The binary property list reader: a document made by another writer
// (Python's plistlib) reads back to its values, and damaged input —
// every truncation, and seeded byte flips of it and of the corpus stores'
// metadata — is an error or a value, never a crash or a hang.
import Foundation
import QuarryModel
import QuarrySQLite
import Testing
@testable import QuarryCoreData

@Suite struct PropertyListTests {
    /// plistlib.dumps({'a': [1, 'x', -5, 2.5, True], 'NSStoreModelVersionIdentifiers': ['2'], 'u': 'é'}, fmt=FMT_BINARY)
    static let sample: [UInt8] = [
        0x62,0x70,0x6c,0x69,0x73,0x74,0x30,0x30,0xd3,0x01,0x02,0x03,0x04,0x06,0x0c,0x5f,0x10,0x1e,0x4e,0x53,0x53,0x74,0x6f,0x72,
        0x65,0x4d,0x6f,0x64,0x65,0x6c,0x56,0x65,0x72,0x73,0x69,0x6f,0x6e,0x49,0x64,0x65,0x6e,0x74,0x69,0x66,0x69,0x65,0x72,0x73,
        0x51,0x61,0x51,0x75,0xa1,0x05,0x51,0x32,0xa5,0x07,0x08,0x09,0x0a,0x0b,0x10,0x01,0x51,0x78,0x13,0xff,0xff,0xff,0xff,0xff,
        0xff,0xff,0xfb,0x23,0x40,0x04,0x00,0x00,0x00,0x00,0x00,0x00,0x09,0x61,0x00,0xe9,0x08,0x0f,0x30,0x32,0x34,0x36,0x38,0x3e,
        0x40,0x42,0x4b,0x54,0x55,0x00,0x00,0x00,0x00,0x00,0x00,0x01,0x01,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x0d,0x00,0x00,0x00,
        0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x58,
    ]

    @Test func readsAnotherWritersDocument() throws {
        let value = try BinaryPropertyList.read(Self.sample)
        #expect(value["a"] == .array([.int(1), .string("x"), .int(-5), .real(2.5), .bool(true)]))
        #expect(value["NSStoreModelVersionIdentifiers"] == .array([.string("2")]))
        #expect(value["u"] == .string("é"))
    }

    @Test(arguments: [0, 8, 39, 40, 100, 132])
    func aTruncatedDocumentIsAnError(_ length: Int) {
        #expect(throws: PropertyListError.self) { _ = try BinaryPropertyList.read(Array(Self.sample.prefix(length))) }
    }

    /// Seeded byte flips: whatever they do, reading returns or throws.
    @Test func mutationsNeverCrash() throws {
        var random = SeededRandom(state: 21)
        var documents = [Self.sample]
        for s in CoreDataCorpus.stores.prefix(10) {
            let path = CoreDataCorpus.storesFolder.appendingPathComponent(s.store).path
            if let c = try? QuarrySQLite.SQLiteConnection(path: "file:\(path)?immutable=1", options: .init(readOnly: true, create: false)),
               case .data(let bytes)? = try? c.query("SELECT Z_PLIST FROM Z_METADATA").first?[0] {
                documents.append(bytes)
            }
        }
        var outcomes = (values: 0, errors: 0)
        for document in documents {
            for _ in 0..<400 {
                var bytes = document
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
                if (try? BinaryPropertyList.read(bytes)) != nil { outcomes.values += 1 } else { outcomes.errors += 1 }
            }
        }
        #expect(outcomes.values + outcomes.errors == documents.count * 400)
    }

    @Test func aDamagedCachedModelIsAClearError() {
        #expect(throws: CoreDataError.self) { _ = try CachedModelReader.read([0x01, 0x02, 0x03]) }
        #expect(Inflate.raw([0xFF, 0xFF, 0xFF]) == nil)
    }
}

// The keyed-archive writer (KeyedArchiveWriter.swift): what it writes reads
// back exactly with Quarry's reader (the one Core Data-format stores use)
// and with Foundation's own NSKeyedUnarchiver, including the values Linux's
// NSKeyedArchiver merged (`[1, true, 1.0]` came back as `[1, 1, 1]`), nils
// inside collections (NSNull), non-ASCII strings, and archives big enough
// to need two-byte references and offsets.
import Foundation
import QuarrySyntax
import Testing
@testable import QuarryModel

@Suite struct KeyedArchiveWriterTests {
    static let values: [Value] = [
        .array([.int(1), .bool(true), .double(1.0), .string("1"), .bool(false), .int(0)]),
        .array([.string("a"), .string("a"), .null]),
        .dictionary(["é": .string("Zoë 😀"), "n": .int(-5), "big": .int(Int64.max), "small": .int(Int64.min)]),
        .array((0..<600).map { .int(Int64($0) * 1000) }),
        .dictionary(["when": .date(-1.5), "id": .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!), "bytes": .data(Array(repeating: 7, count: 300))]),
        .orderedSet([.string("x"), .int(2)]),
        .string(String(repeating: "long text ", count: 100)),
        .double(-0.0),
    ]

    @Test(arguments: 0..<values.count)
    func quarrysReaderReadsWhatItWrote(index: Int) throws {
        let v = Self.values[index]
        #expect(try KeyedArchiveValues.decode(try KeyedArchiveValues.encode(v)) == v)
    }

    @Test func foundationsUnarchiverReadsWhatItWrote() throws {
        let bytes = try KeyedArchiveValues.encode(.dictionary(["list": .array([.int(1), .bool(true), .string("two")]), "when": .date(10)]))
        let object = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSDictionary.self, NSArray.self, NSString.self, NSNumber.self, NSDate.self],
                                                            from: Data(bytes))
        let d = try #require(object as? NSDictionary)
        let list = try #require(d["list"] as? NSArray)
        #expect(list.count == 3)
        #expect((list[0] as? NSNumber)?.intValue == 1)
        #expect((list[2] as? String) == "two")
        #expect((d["when"] as? Date)?.timeIntervalSinceReferenceDate == 10)
    }

    @Test func foundationsPropertyListReaderAcceptsTheBinaryPlist() throws {
        let bytes = BinaryPropertyListWriter.write(.dictionary(["a": .array([.int(300), .real(2.5), .string("ü")]), "b": .bool(true)]))
        let plist = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil)
        let d = try #require(plist as? [String: Any])
        #expect((d["b"] as? Bool) == true)
        #expect(((d["a"] as? [Any])?[2] as? String) == "ü")
    }
}

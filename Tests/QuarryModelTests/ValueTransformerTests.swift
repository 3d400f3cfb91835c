// Value transformers (ValueTransformerRegistry.swift, KeyedArchiveValues.swift):
// each built-in transformer gives back the value it was given, archives
// that Foundation's NSKeyedArchiver wrote (what Core Data stores in a
// transformable column) decode with Quarry's own reader, Codable values go
// through JSON, damaged bytes are errors, and an unknown transformer name
// is an error naming the closest registered one, at first use and when a
// model is checked.
import Foundation
import QuarrySyntax
import Testing
@testable import QuarryModel

@Suite struct ValueTransformerTests {
    static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    /// (transformer name, value) pairs that must round-trip exactly.
    static let roundTrips: [(String, Value)] = [
        ("NSSecureUnarchiveFromData", .string("Zoë 😀")),
        ("NSSecureUnarchiveFromData", .int(-42)),
        ("NSSecureUnarchiveFromData", .double(2.5)),
        ("NSSecureUnarchiveFromData", .bool(true)),
        ("NSSecureUnarchiveFromData", .date(123_456.5)),
        ("NSSecureUnarchiveFromData", .data([0, 1, 254, 255])),
        ("NSSecureUnarchiveFromData", .uuid(uuid)),
        ("NSSecureUnarchiveFromData", .array([.string("a"), .int(1), .array([.double(0.5)])])),
        ("NSSecureUnarchiveFromData", .dictionary(["tags": .array([.string("x"), .string("y")]), "n": .int(3), "when": .date(0)])),
        ("NSSecureUnarchiveFromData", .array([])),
        ("JSON", .dictionary(["a": .array([.int(1), .double(1.5), .bool(false), .null, .string("é")])])),
        ("JSON", .string("plain")),
        ("JSON", .int(Int64.max)),
        ("PropertyList", .dictionary(["d": .date(10), "b": .data([9]), "l": .array([.int(7), .string("s"), .bool(true)])])),
        ("PropertyList", .double(-0.25)),
    ]

    @Test(arguments: 0..<roundTrips.count)
    func builtInTransformersRoundTrip(index: Int) throws {
        let (name, value) = Self.roundTrips[index]
        let t = try ValueTransformerRegistry.shared.transformer(named: name)
        #expect(try t.decode(try t.encode(value)) == value)
    }

    @Test func setsComeBackAsSets() throws {
        let t = try ValueTransformerRegistry.shared.transformer(named: nil)
        guard case .set(let members) = try t.decode(try t.encode(.set([.int(1), .int(2)]))) else { Issue.record("not a set"); return }
        #expect(Set(members.map { "\($0)" }) == ["int(1)", "int(2)"])
    }

    @Test func foundationArchivesOfURLsAndNestedObjectsDecode() throws {
        let root: NSDictionary = ["home": NSURL(string: "https://example.com/a?b=1")!, "list": NSArray(array: [NSNumber(value: 1), NSString(string: "two")])]
        let bytes = [UInt8](try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false))
        #expect(try KeyedArchiveValues.decode(bytes) == .dictionary(["home": .string("https://example.com/a?b=1"),
                                                                      "list": .array([.int(1), .string("two")])]))
    }

    struct Settings: Codable, Equatable {
        var theme: String
        var sizes: [Int]
        var beta: Bool
    }

    @Test func codableValuesGoThroughJSON() throws {
        let s = Settings(theme: "dark", sizes: [12, 14], beta: true)
        let value = try JSONValueTransformer.encode(s)
        #expect(value == .dictionary(["theme": .string("dark"), "sizes": .array([.int(12), .int(14)]), "beta": .bool(true)]))
        #expect(try JSONValueTransformer.decode(Settings.self, from: value) == s)
        let t = try ValueTransformerRegistry.shared.transformer(named: "JSON")
        #expect(String(decoding: try t.encode(value), as: UTF8.self) == #"{"beta":true,"sizes":[12,14],"theme":"dark"}"#)
    }

    /// (transformer, bytes) that must be refused.
    static let damaged: [(String, [UInt8])] = [
        ("NSSecureUnarchiveFromData", Array("bplist00".utf8)),
        ("NSSecureUnarchiveFromData", []),
        ("JSON", Array("{nope".utf8)),
        ("PropertyList", [1, 2, 3]),
    ]

    @Test(arguments: 0..<damaged.count)
    func damagedBytesAreErrors(index: Int) throws {
        let (name, bytes) = Self.damaged[index]
        #expect(throws: (any Error).self) { try ValueTransformerRegistry.shared.transformer(named: name).decode(bytes) }
    }

    @Test func archivesOfUnknownClassesAreRefusedByName() throws {
        let bytes = [UInt8](try NSKeyedArchiver.archivedData(withRootObject: NSValue(range: NSRange(location: 1, length: 2)), requiringSecureCoding: false))
        let error = try #require(throws: ValueTransformerError.self) { try KeyedArchiveValues.decode(bytes) }
        guard case .unsupported(let what) = error else { Issue.record("\(error)"); return }
        #expect(what.hasPrefix("archived objects of class"))
    }

    @Test func unknownNamesAreErrorsAtFirstUseAndWhenAModelIsChecked() throws {
        let registry = ValueTransformerRegistry()
        let error = try #require(throws: ValueTransformerError.self) { try registry.transformer(named: "JSNO") }
        #expect(error.description == "no value transformer named 'JSNO' is registered; did you mean 'JSON'?")
        let model = Model(entities: [Entity(name: "Note", attributes: [
            Attribute(name: "tags", type: .transformable, valueTransformerName: "TagsTransformer"),
        ])])
        #expect(throws: ValueTransformerError.unknownTransformer("TagsTransformer", attribute: "Note.tags", suggestion: nil)) { try registry.check(model) }
        registry.register(ClosureTransformer(encode: { _ in [] }, decode: { _ in .array([]) }), name: "TagsTransformer")
        try registry.check(model)
        #expect(try registry.transformer(named: "TagsTransformer").decode([1]) == .array([]))
    }
}

// Value as Swift code uses it: literals, Hashable, Codable through generic
// encoders (lossless, in the machine interface's tagged form), and the
// Foundation bridges.
import Foundation
import Testing
@testable import QuarrySyntax

@Suite struct ValueSwiftAPITests {
    @Test func literalsMakeTheValuesTheySpell() {
        let s: Value = "Sales", i: Value = 50_000, d: Value = 2.5, b: Value = true
        let a: Value = [1, "two", 3.0], m: Value = ["name": "Zoë", "age": 30, "tags": ["a"]]
        #expect(s == .string("Sales"))
        #expect(i == .int(50_000))
        #expect(d == .double(2.5))
        #expect(b == .bool(true))
        #expect(a == .array([.int(1), .string("two"), .double(3)]))
        #expect(m == .dictionary(["name": .string("Zoë"), "age": .int(30), "tags": .array([.string("a")])]))
        let withDuplicate: Value = ["k": 1, "k": 2]
        #expect(withDuplicate == .dictionary(["k": .int(2)]))
    }

    @Test func hashingIsStructuralLikeEquality() {
        let values: [Value] = [.int(1), .double(1), .string("1"), .int(1), .null, .double(0), .double(-0.0),
                               .array([.int(1)]), .array([.int(1)]), .dictionary(["a": .null]), .decimal(1)]
        // .int(1) twice, .double(0)/-0.0 (equal doubles), the array twice.
        #expect(Set(values).count == values.count - 3)
        var counts: [Value: Int] = [:]
        for v in values { counts[v, default: 0] += 1 }
        #expect(counts[.int(1)] == 2)
        #expect(counts[.double(1)] == 1)
    }

    static let roundTrips: [Value] = [
        .null, .bool(false), .int(0), .int(.min), .int(.max), .double(2.5), .double(1), .double(-0.0), .double(.infinity),
        .double(-.infinity), .double(1e300), .decimal(Decimal(string: "3.14159265358979323846")!), .decimal(Decimal(string: "1e100")!),
        .string(""), .string("Zoë \u{1F600} \"q\""), .date(0), .date(-1.5), .date(788_918_400.25), .data([]), .data([0, 255, 7]),
        .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!), .array([]), .array([.int(1), .null, .array([.string("x")])]),
        .orderedSet([.int(2), .int(1)]), .set([.string("a")]), .dictionary([:]), .dictionary(["a": .int(1), "b": .date(3)]),
        .dictionary(["$date": .int(5)]), .dictionary(["$x": .null]), .dictionary(["$date": .int(1), "other": .int(2)]),
    ]

    @Test(arguments: roundTrips)
    func jsonEncoderRoundTripIsLossless(value: Value) throws {
        let data = try JSONEncoder().encode(value)
        let back = try JSONDecoder().decode(Value.self, from: data)
        #expect(back == value, "\(String(decoding: data, as: UTF8.self))")
    }

    @Test(arguments: roundTrips)
    func propertyListRoundTripIsLossless(value: Value) throws {
        // A property list has no null at the top level or in collections.
        guard !"\(value)".contains("null") else { return }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let back = try PropertyListDecoder().decode([Value].self, from: encoder.encode([value]))
        #expect(back == [value])
    }

    /// The machine interface's tagged objects read the same way here.
    @Test(arguments: [
        (#"{"$date": 5}"#, Value.date(5)), (#"{"$uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#, .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)),
        (#"{"$data": "AP8H"}"#, .data([0, 255, 7])), (#"{"$set": [1, 1, 2]}"#, .set([.int(1), .int(2)])),
        (#"{"$decimal": "0.1"}"#, .decimal(Decimal(string: "0.1")!)), (#"[1, 2.5, "x", true, null]"#, [1, 2.5, "x", true, .null]),
        (#"{"name": "Zoë", "n": 3}"#, ["name": "Zoë", "n": 3]),
    ] as [(String, Value)])
    func decodesTheMachineInterfaceForm(json: String, expected: Value) throws {
        #expect(try JSONDecoder().decode(Value.self, from: Data(json.utf8)) == expected)
    }

    @Test(arguments: [#"{"$uuid": "nope"}"#, #"{"$data": "%%%"}"#, #"{"$double": "x"}"#, #"{"$decimal": "abc"}"#])
    func malformedTagsAreDecodingErrors(json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Value.self, from: Data(json.utf8)) }
    }

    final class Host: KeyValueAccessible, @unchecked Sendable {
        func value(forKey key: String) -> Value? { nil }
    }

    @Test func aHostObjectIsNotEncodable() {
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(Value.object(ObjectReference(Host()))) }
    }

    @Test func foundationBridges() throws {
        let date = Date(timeIntervalSince1970: 1_000_000_000)
        #expect(Value(date) == .date(1_000_000_000 - Date.timeIntervalBetween1970AndReferenceDate))
        #expect(Value(date).dateValue == date)
        let uuid = UUID()
        #expect(Value(uuid).uuidValue == uuid)
        #expect(Value(Data([1, 2])).dataValue == Data([1, 2]))
        let url = try #require(URL(string: "https://example.com/a?b=1"))
        #expect(Value(url) == .string("https://example.com/a?b=1"))
        #expect(Value(url).urlValue == url)
        #expect(Value(Decimal(string: "0.1")!).decimalValue == Decimal(string: "0.1"))
        #expect(Value.double(0.1).decimalValue == Decimal(string: "0.1"))
        #expect(Value.double(3).int64Value == 3)
        #expect(Value.double(3.5).int64Value == nil)
        #expect(Value.double(1e300).int64Value == nil)
        #expect(Value.int(7).doubleValue == 7)
        #expect(Value.string("x").doubleValue == nil)
        #expect(Value.bool(true).boolValue == true)
        #expect(Value.int(1).boolValue == nil)
        #expect(Value.string("s").stringValue == "s")
    }
}

@Suite struct TreeDescriptionTests {
    @Test(arguments: [("a=1 and not b<2", "a == 1 AND NOT b < 2"), ("name beginswith[cd] 'jo'", #"name BEGINSWITH[cd] "jo""#),
                      ("ANY x.y IN {1,2}", "ANY x.y IN {1, 2}")])
    func predicatesDescribeThemselvesCanonically(input: String, expected: String) throws {
        let p = try Parser.parsePredicate(input)
        #expect("\(p)" == expected)
        #expect(p.description == Printer.format(p))
    }

    @Test func expressionsDescribeThemselvesCanonically() throws {
        let e = try Parser.parseExpression("1+2 * salary")
        #expect("\(e)" == "1 + 2 * salary")
    }
}

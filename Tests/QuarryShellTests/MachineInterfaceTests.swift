// The machine interface (`quarry eval --jsonl`): answers per request kind,
// located errors, never stopping on bad input, and the example files in
// Examples/Predicates against their expected output.
import Foundation
import Testing
@testable import QuarryShell

func answer(_ request: String) throws -> JSON {
    try JSON.parse(MachineInterface().answer(line: request))
}

@Suite("Machine interface")
struct MachineInterfaceTests {
    static let cases: [(String, String)] = [
        (#"{"id":1,"kind":"parse","format":"a = 1"}"#, #"{"id":1,"ok":true,"format":"a == 1"}"#),
        (#"{"id":"x","kind":"parse","format":"%K like %@","args":["name","Bob"]}"#, #"{"id":"x","ok":true,"format":"name LIKE \"Bob\""}"#),
        (#"{"id":2,"kind":"parse","as":"expression","format":"1+1"}"#, #"{"id":2,"ok":true,"format":"1 + 1"}"#),
        (#"{"id":3,"kind":"predicate","format":"age > 30","object":{"age":31}}"#, #"{"id":3,"ok":true,"result":true,"format":"age > 30"}"#),
        (#"{"id":4,"kind":"predicate","format":"age > 30","objects":[{"age":31},{"age":3},{}]}"#,
         #"{"id":4,"ok":true,"result":[true,false,false],"format":"age > 30"}"#),
        (#"{"id":5,"kind":"expression","format":"7 / 2"}"#, #"{"id":5,"ok":true,"result":3,"format":"7 / 2"}"#),
        (#"{"id":6,"kind":"expression","format":"7.0 / 2"}"#, #"{"id":6,"ok":true,"result":3.5,"format":"7.0 / 2"}"#),
        (#"{"id":7,"kind":"predicate","format":"d < %@","args":[{"$date":10}],"object":{"d":{"$date":5}}}"#,
         #"{"id":7,"ok":true,"result":true,"format":"d < CAST(10.0, \"NSDate\")"}"#),
        (#"{"id":8,"kind":"predicate","format":"$v IN %@","args":[{"$set":[1,2]}],"vars":{"v":2}}"#,
         #"{"id":8,"ok":true,"result":true,"format":"$v IN {1, 2}"}"#),
        (#"{"id":9,"kind":"expression","format":"CAST(0, 'NSDate')"}"#, #"{"id":9,"ok":true,"result":{"$date":0.0},"format":"CAST(0.0, \"NSDate\")"}"#),
        (#"{"id":10,"kind":"parse","format":"a =="}"#,
         #"{"id":10,"ok":false,"error":{"code":"P012","message":"expected a value after '==', found the end of the input","line":1,"column":5,"stage":"parse","hints":["the comparison needs a right-hand side, as in `a == %@`"]}}"#),
        (#"{"id":11,"kind":"predicate","format":"a == %@"}"#,
         #"{"id":11,"ok":false,"error":{"code":"A001","message":"no argument for %@ (argument 1); 0 arguments were given","line":1,"column":6,"stage":"input","hints":["pass one value per specifier, in order"]}}"#),
        (#"{"id":12,"kind":"predicate","format":"self == '%@'","args":["x"],"object":"%@"}"#, #"{"id":12,"ok":true,"result":true,"format":"SELF == \"%@\""}"#),
        (#"{"id":13,"kind":"shout","format":"a"}"#,
         #"{"id":13,"ok":false,"error":{"code":"A006","message":"unknown kind 'shout'; use parse, predicate or expression","line":1,"column":1,"stage":"input"}}"#),
        (#"{"id":14}"#, #"{"id":14,"ok":false,"error":{"code":"A006","message":"the request has no \"format\" string","line":1,"column":1,"stage":"input"}}"#),
        (#"not json"#, #"{"id":null,"ok":false,"error":{"code":"A006","message":"invalid JSON at byte 0: unexpected text","line":1,"column":1,"stage":"input"}}"#),
    ]

    @Test(arguments: cases)
    func answers(request: String, expected: String) {
        #expect(MachineInterface().answer(line: request) == expected)
    }

    @Test func evaluationErrorsAreLocated() throws {
        let a = try answer(#"{"kind":"expression","format":"1 + 1 / 0"}"#)
        #expect(a["ok"] == .bool(false))
        #expect(a["error"]?["stage"] == .string("evaluate"))
        #expect(a["error"]?["column"] == .int(5))
    }

    static var examplesFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/Predicates")
    }

    static let exampleFiles: [String] = (try? FileManager.default.contentsOfDirectory(atPath: examplesFolder.path))?
        .filter { $0.hasSuffix(".jsonl") && !$0.hasSuffix(".expected.jsonl") }.sorted() ?? []

    @Test func examplesExist() {
        #expect(MachineInterfaceTests.exampleFiles.contains("tour.jsonl"))
    }

    @Test(arguments: exampleFiles)
    func exampleMatchesItsExpectedOutput(file: String) throws {
        let input = try String(contentsOf: Self.examplesFolder.appendingPathComponent(file), encoding: .utf8)
        let expectedName = file.replacingOccurrences(of: ".jsonl", with: ".expected.jsonl")
        let expected = try String(contentsOf: Self.examplesFolder.appendingPathComponent(expectedName), encoding: .utf8)
        let interface = MachineInterface()
        let actual = input.split(separator: "\n").map { interface.answer(line: String($0)) }
        #expect(actual == expected.split(separator: "\n").map(String.init))
    }
}

@Suite("JSON")
struct JSONTests {
    @Test(arguments: [
        ("1", JSON.int(1)), ("1.0", .double(1)), ("-2.5e3", .double(-2500)), ("true", .bool(true)), ("null", .null),
        (#""a\u00e9\n""#, .string("aé\n")), (#""\ud83c\udf41""#, .string("🍁")), ("[1,[2]]", .array([.int(1), .array([.int(2)])])),
        (#"{"b":1,"a":2}"#, .object([("b", .int(1)), ("a", .int(2))])), ("9223372036854775808", .double(9223372036854775808)),
    ])
    func parses(text: String, expected: JSON) throws {
        #expect(try JSON.parse(text) == expected)
    }

    @Test(arguments: ["", "[", "{\"a\"}", "tru", "[1,]x", "\"abc", String(repeating: "[", count: 100_000)])
    func rejectsMalformedInput(text: String) {
        #expect(throws: JSONError.self) { try JSON.parse(text) }
    }

    @Test func valuesRoundTripThroughTheEncoding() throws {
        let values: [Value] = [.int(3), .double(3), .bool(false), .null, .date(12.5), .set([.int(1)]), .orderedSet([.string("a")]),
                               .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!), .data([1, 2, 3]),
                               .array([.dictionary(["k": .string("v")])])]
        for v in values {
            #expect(Value(json: try JSON.parse(v.json.serialized)) == v, "\(v)")
        }
    }
}

@Suite("Commands")
struct CommandTests {
    @Test func parsePrintsCanonicalForm() {
        let out = ParseCommand(format: "a=1", arguments: nil, asExpression: false, json: false).run()
        #expect(out == CommandOutcome(stdout: "a == 1", stderr: "", exitCode: 0))
    }

    @Test func parseErrorExitsWith65AndACaret() {
        let out = ParseCommand(format: "a ==", arguments: nil, asExpression: false, json: false).run()
        #expect(out.exitCode == 65)
        #expect(out.stderr.hasPrefix("1:5: error[P012]"))
        #expect(out.stderr.contains("\n        ^"))
    }

    @Test func parseJSONShowsTheTree() {
        let out = ParseCommand(format: "a == 1", arguments: nil, asExpression: false, json: true).run()
        #expect(out.stdout.hasPrefix(#"{"type":"comparison","operator":"==","left":{"type":"keyPath","path":["a"]"#))
    }

    @Test func commandLineValuesReadJSONOrStrings() {
        #expect(CommandLineValue.parse("30") == .int(30))
        #expect(CommandLineValue.parse("\"30\"") == .string("30"))
        #expect(CommandLineValue.parse("Bob") == .string("Bob"))
        #expect(CommandLineValue.parse("[1,2]") == .array([.int(1), .int(2)]))
    }

    @Test func evalPrintsTheResult() {
        let out = EvalCommand(format: "age > 30", asExpression: false, object: #"{"age": 40}"#, arguments: [], variables: []).run()
        #expect(out == CommandOutcome(stdout: "true", stderr: "", exitCode: 0))
        let e = EvalCommand(format: "$x * 2", asExpression: true, object: nil, arguments: [], variables: ["x=21"]).run()
        #expect(e.stdout == "42")
    }

    @Test func evalErrorsAreReported() {
        let bad = EvalCommand(format: "age >", asExpression: false, object: nil, arguments: [], variables: []).run()
        #expect(bad.exitCode == 65)
        let failing = EvalCommand(format: "1 / 0", asExpression: true, object: nil, arguments: [], variables: []).run()
        #expect(failing.exitCode == 1)
        #expect(failing.stderr.contains("error[E003]"))
    }
}

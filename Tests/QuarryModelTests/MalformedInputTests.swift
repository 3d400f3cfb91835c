// Malformed YAML, JSON and XML: an error with a location, never a crash.
// Also every prefix of a valid file (the shapes an interrupted write
// leaves), which must either read or fail with a ModelError.
import Foundation
import Testing
@testable import QuarryModel

struct MalformedCase: Sendable, CustomStringConvertible {
    var name: String
    var format: ErrorCase.Format
    var text: String
    var line: Int
    var message: String
    var description: String { name }
}

let malformedCases: [MalformedCase] = [
    MalformedCase(name: "unclosed flow mapping", format: .yaml, text: "entities:\n  E: { attributes: { a: string }\n  F: {}\n", line: 3, message: "malformed YAML"),
    MalformedCase(name: "bad indentation", format: .yaml, text: "entities:\n  E:\n    attributes:\n      a: string\n     b: string\n", line: 5, message: "malformed YAML"),
    MalformedCase(name: "tab indentation", format: .yaml, text: "entities:\n\tE: {}\n", line: 2, message: "malformed YAML"),
    MalformedCase(name: "unterminated quote", format: .yaml, text: "entities:\n  E:\n    attributes:\n      a: 'string\n", line: 5, message: "malformed YAML"),
    MalformedCase(name: "undefined alias", format: .yaml, text: "entities:\n  E: *nothing\n", line: 2, message: "malformed YAML"),
    MalformedCase(name: "document is a list", format: .yaml, text: "- entities\n- E\n", line: 1, message: "the model file should be a mapping"),
    MalformedCase(name: "empty file", format: .yaml, text: "", line: 1, message: "the model file is empty"),
    MalformedCase(name: "missing comma", format: .json, text: "{\n  \"entities\": {\n    \"E\": {}\n    \"F\": {}\n  }\n}\n", line: 4, message: "malformed JSON"),
    MalformedCase(name: "unclosed element", format: .xml, text: "<?xml version=\"1.0\"?>\n<model>\n    <entity name=\"E\">\n</model>\n", line: 4, message: "malformed XML"),
    MalformedCase(name: "unquoted attribute", format: .xml, text: "<?xml version=\"1.0\"?>\n<model>\n    <entity name=E/>\n</model>\n", line: 3, message: "malformed XML"),
    MalformedCase(name: "unknown entity reference", format: .xml, text: "<?xml version=\"1.0\"?>\n<model>\n    <fetchRequest name=\"a\" entity=\"E\" predicateString=\"a &gt b\"/>\n</model>\n", line: 3, message: "malformed XML"),
    MalformedCase(name: "not XML at all", format: .xml, text: "entities:\n  E: {}\n", line: 1, message: "malformed XML"),
    MalformedCase(name: "empty XML", format: .xml, text: "", line: 1, message: "malformed XML"),
    MalformedCase(name: "wrong root", format: .xml, text: "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>\n", line: 2, message: "root element is <plist>"),
]

@Suite struct MalformedInputTests {
    @Test(arguments: malformedCases)
    func malformed(_ c: MalformedCase) {
        do {
            switch c.format {
            case .yaml: _ = try ModelReader.read(yaml: c.text, file: "m.yaml")
            case .json: _ = try ModelReader.read(json: c.text, file: "m.json")
            case .xml: _ = try ModelReader.read(xml: c.text, file: "contents")
            }
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains(c.message), "\(error)")
            #expect(error.line == c.line, "\(error)")
            #expect(error.kind == .syntax || error.kind == .structure, "\(error)")
        }
    }

    @Test func everyPrefixOfAYAMLModelReadsOrFailsCleanly() throws {
        let text = Fixtures.inheritanceYAML
        var failures = 0
        for end in stride(from: 0, through: text.utf8.count, by: 3) {
            let prefix = String(decoding: text.utf8.prefix(end), as: UTF8.self)
            do { _ = try ModelReader.read(yaml: prefix) } catch {
                failures += 1
                #expect(error.line != nil || error.kind == .structure, "\(error)")
            }
        }
        #expect(failures > 0)
    }

    @Test func everyPrefixOfAnXMLModelReadsOrFailsCleanly() throws {
        let text = Fixtures.inheritanceXML
        var failures = 0
        for end in stride(from: 0, through: text.utf8.count, by: 5) {
            let prefix = String(decoding: text.utf8.prefix(end), as: UTF8.self)
            do { _ = try ModelReader.read(xml: prefix) } catch {
                failures += 1
                #expect(error.line != nil, "\(error)")
            }
        }
        #expect(failures > 0)
    }

    @Test func deeplyNestedYAMLDoesNotCrash() {
        let text = "entities:\n  E: " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + "\n"
        #expect(throws: ModelError.self) { try ModelReader.read(yaml: text) }
    }
}

// Names a store cannot take (issue 19) and nesting no reader may follow:
// entity and property names SQLite or PostgreSQL would refuse or confuse are
// model errors (kind invalidName) with the place in the file, and nesting
// deep enough to exhaust the stack is a located syntax error in YAML, JSON
// and XML models alike.
import Foundation
import Testing
@testable import QuarryModel

@Suite struct StorageNameTests {
    static let badModels: [(String, String, String)] = [
        ("quote in an entity name", "entities:\n  'Em\"p': {}\n", "cannot contain '\"'"),
        ("backslash in an entity name", "entities:\n  'Em\\p': {}\n", "cannot contain '\\'"),
        ("NUL in an entity name", "entities:\n  \"Em\\0p\": {}\n", "NUL"),
        ("Quarry's metadata table", "entities:\n  _quarry_metadata: {}\n", "reserved for Quarry"),
        ("a join table's name", "entities:\n  _E_items: {}\n", "reserved for Quarry's own tables"),
        ("SQLite's prefix", "entities:\n  sqlite_stat1: {}\n", "SQLite reserves"),
        ("Quarry's prefix on a property", "entities:\n  E:\n    attributes:\n      _quarryRow: string\n", "reserved for Quarry"),
        ("entities differing in case", "entities:\n  Employee: {}\n  EMPLOYEE: {}\n", "differ only in case"),
        ("properties differing in case", "entities:\n  E:\n    attributes:\n      name: string\n      Name: string\n", "differ only in case"),
        ("an inherited property differing in case", """
            entities:
              P:
                attributes: { name: string }
              E:
                parent: P
                attributes: { NAME: string }
            """, "differ only in case"),
        ("a comma in an entity name", "entities:\n  'A,B': {}\n", "cannot contain ','"),
        ("a name PostgreSQL would cut", "entities:\n  \(String(repeating: "E", count: 64)): {}\n", "at most 63 bytes"),
    ]

    /// Models built in code meet the same checks (a file reader refuses
    /// some of these names earlier, as not names at all).
    static let badInCode: [(Model, String)] = [
        (Model(entities: [Entity(name: "E", attributes: [Attribute(name: "a\nb", type: .string)])]), "control character U+000A"),
        (Model(entities: [Entity(name: "")]), "cannot be empty"),
        (Model(entities: [Entity(name: "E", relationships: [Relationship(name: "Ré\"l", destination: "E")])]), "cannot contain '\"'"),
    ]

    @Test(arguments: badInCode)
    func badNamesInCodeAreModelErrors(model: Model, message: String) {
        let errors = model.validationErrors().filter { $0.kind == .invalidName }
        #expect(errors.count == 1)
        #expect(errors.first?.message.contains(message) == true, "\(errors)")
    }

    @Test(arguments: badModels)
    func badNamesAreModelErrors(name: String, yaml: String, message: String) {
        do {
            _ = try ModelReader.read(yaml: yaml)
            Issue.record("\(name): accepted")
        } catch {
            #expect(error.kind == .invalidName, "\(name): \(error)")
            #expect(error.message.contains(message), "\(name): \(error.message)")
            #expect(error.line != nil, "\(name): no line")
        }
    }

    static let goodModels = [
        "entities:\n  Employee:\n    attributes: { name: string, xmin: double, _pk: integer64 }\n",
        "entities:\n  Émployé:\n    attributes: { prénom: string }\n",
        "entities:\n  \(String(repeating: "E", count: 63)): {}\n",
    ]

    @Test(arguments: goodModels)
    func ordinaryNamesPass(yaml: String) throws {
        _ = try ModelReader.read(yaml: yaml)
    }

    @Test(arguments: [10_000, 100_000])
    func deeplyNestedYAMLAndJSONAreLocatedErrors(depth: Int) {
        let flow = "entities:\n  E: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"
        let dashes = "entities:\n  E:\n    " + String(repeating: "- ", count: depth) + "x\n"
        let json = "{\"entities\": {\"E\": " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}}"
        for (text, isJSON) in [(flow, false), (dashes, false), (json, true)] {
            do {
                _ = isJSON ? try ModelReader.read(json: text) : try ModelReader.read(yaml: text)
                Issue.record("accepted")
            } catch {
                #expect(error.kind == .syntax)
                #expect(error.message.contains("deeper than"), "\(error.message)")
                #expect(error.line != nil && error.column != nil)
            }
        }
    }

    @Test func nestingWithinTheLimitStillReads() {
        // 50 levels of flow nesting is more than a model needs and reads to a structure error, not a syntax one.
        let text = "entities:\n  E: " + String(repeating: "[", count: 50) + String(repeating: "]", count: 50) + "\n"
        #expect(throws: ModelError.self) { try ModelReader.read(yaml: text) }
        #expect(YAMLNesting.check(text) == nil)
        // Brackets a quoted scalar balances do not count; unbalanced ones
        // do (the check cannot be sure the quote is one: YAMLNestingGuard.swift).
        #expect(YAMLNesting.check("a: '" + String(repeating: "[]", count: 150) + "'\n") == nil)
        #expect(YAMLNesting.check("a: '" + String(repeating: "[", count: 150) + "'\n") != nil)
        #expect(YAMLNesting.check("a: x # [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n") == nil)
    }

    @Test(arguments: [200, 10_000])
    func deeplyNestedXMLIsALocatedError(depth: Int) {
        let xml = #"<?xml version="1.0"?><model type="com.apple.IDECoreDataModeler.DataModel">"#
            + String(repeating: "<entity name=\"E\">", count: depth) + String(repeating: "</entity>", count: depth) + "</model>"
        do {
            _ = try ModelReader.read(xml: xml)
            Issue.record("accepted")
        } catch {
            #expect(error.kind == .syntax, "\(error)")
            #expect(error.line != nil)
        }
    }
}

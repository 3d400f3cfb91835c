// A store's saved JSON model is read without libyaml at every open
// (QuarryModel/YAMLModelReader+SavedJSON.swift): these tests hold it to
// reading exactly what `ModelReader.read(json:)` reads — the same model, or
// the same error — for every model Quarry saves (the examples, and every
// model of the corpus as ModelArchive writes it), and for texts on the edge
// between JSON and YAML; and they check that the fast path is taken where it
// should be, so that agreement is not won by always falling back.
// Without the corpus its part is skipped and says so on the console.
import Foundation
import Testing
@testable import QuarryModel
@testable import QuarryStore

@Suite struct SavedModelReadingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL
    static let corpus = root.appendingPathComponent("../shared/corpus/models").standardizedFileURL

    /// Both readers on one text: the same model or the same error message.
    static func expectAgreement(_ text: String, _ label: String) {
        let composed = Result { () throws(ModelError) in try ModelReader.read(json: text, file: "saved") }
        let saved = Result { () throws(ModelError) in try ModelReader.read(savedJSON: text, file: "saved") }
        switch (composed, saved) {
        case (.success(let a), .success(let b)): #expect(a == b, "\(label): the models differ")
        case (.failure(let a), .failure(let b)): #expect(a.description == b.description, "\(label)")
        default: Issue.record("\(label): read(json:) gives \(composed), read(savedJSON:) gives \(saved)")
        }
    }

    @Test(arguments: ["Company.yaml", "Books.yaml", "Tasks.yaml", "Company.xcdatamodeld"])
    func everyExampleModelReadsAlikeWithoutYAML(_ name: String) throws {
        let model = try ModelReader.read(from: Self.root.appendingPathComponent("Examples/Models/\(name)").path)
        let text = ModelArchive.json(model)
        Self.expectAgreement(text, name)
        let fast = try #require(ModelReader.readComposingJSON(text, file: "saved"), "\(name): the saved text should not need libyaml")
        #expect(fast == model)
    }

    @Test func everyCorpusModelReadsAlikeWithoutYAML() throws {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: Self.corpus.path) else {
            print("SKIPPED SavedModelReadingTests.everyCorpusModelReadsAlikeWithoutYAML: \(Self.corpus.path) is absent")
            return
        }
        var read = 0, fast = 0
        // Every fourth model (in name order): all 376 take 18 s in a debug
        // build. The fuzz target `yaml-model` compares the readers on any text.
        for (i, name) in names.filter({ $0.hasSuffix(".xml") }).sorted().enumerated() where i % 4 == 0 {
            guard let model = try? ModelReader.read(from: Self.corpus.appendingPathComponent(name).path) else { continue }
            let text = ModelArchive.json(model)
            Self.expectAgreement(text, name)
            read += 1
            if ModelReader.readComposingJSON(text, file: "saved") != nil { fast += 1 }
        }
        #expect(read >= 75, "the corpus had 376 models, most of them readable, when this test was written")
        // Models whose names or values are not plain JSON for both parsers
        // (a `\u` escape, a tab) go the ordinary way; nearly all do not.
        #expect(fast * 10 >= read * 9, "\(fast) of \(read) corpus models were read without libyaml")
    }

    /// (label, text, whether the fast path takes it).
    static let edges: [(String, String, Bool)] = [
        ("plain", #"{"entities": {"A": {"attributes": {"x": {"type": "string", "optional": false}}}}}"#, true),
        ("non-ASCII value", #"{"entities": {"A": {"attributes": {"x": {"type": "string", "default": "café 😀"}}}}}"#, true),
        ("escapes", #"{"entities": {"A": {"userInfo": {"k": "a\"b\\c\/d\ne\tf\r\b\f"}, "attributes": {"x": "string"}}}}"#, true),
        ("an escaped backslash before u", #"{"entities": {"A": {"userInfo": {"k": "\\u0041"}, "attributes": {"x": "string"}}}}"#, true),
        ("a \\u escape", #"{"entities": {"A": {"userInfo": {"k": "\u00e9\ud83d\ude00"}, "attributes": {"x": "string"}}}}"#, false),
        ("a lone surrogate", #"{"entities": {"A": {"userInfo": {"k": "\ud800"}, "attributes": {"x": "string"}}}}"#, false),
        ("numbers as written", #"{"entities": {"A": {"attributes": {"d": {"type": "double", "default": -0.5e1, "min": -10, "max": 1E2}, "n": {"type": "decimal", "default": 123456789012345678901234567890.25}}}}}"#, true),
        ("a tab between tokens", "{\"entities\":\t{\"A\": {\"attributes\": {\"x\": \"string\"}}}}", false),
        ("a raw control character in a string", "{\"entities\": {\"A\": {\"userInfo\": {\"k\": \"a\u{1}b\"}, \"attributes\": {\"x\": \"string\"}}}}", false),
        ("a raw line break in a string", "{\"entities\": {\"A\": {\"userInfo\": {\"k\": \"a\nb\"}, \"attributes\": {\"x\": \"string\"}}}}", false),
        ("DEL", "{\"entities\": {\"A\": {\"userInfo\": {\"k\": \"a\u{7F}b\"}, \"attributes\": {\"x\": \"string\"}}}}", false),
        ("a C1 control", "{\"entities\": {\"A\": {\"userInfo\": {\"k\": \"a\u{85}\u{9F}b\"}, \"attributes\": {\"x\": \"string\"}}}}", false),
        ("a repeated key", #"{"entities": {"A": {"attributes": {"x": "string"}}, "A": {"attributes": {"y": "string"}}}}"#, false),
        ("a trailing comma", #"{"entities": {"A": {"attributes": {"x": "string"},}}}"#, false),
        ("null", "null", false),
        ("an empty object", "{}", false),
        ("entities as a list", #"{"entities": []}"#, false),
        ("text after the value", #"{"entities": {"A": {"attributes": {"x": "string"}}}} x"#, false),
        ("an unknown type", #"{"entities": {"A": {"attributes": {"x": "strnig"}}}}"#, false),
        ("a null value", #"{"entities": {"A": {"attributes": {"x": {"type": "string", "default": null}}}}}"#, true),
        ("relationships and inverses", #"{"entities": {"A": {"relationships": {"bs": {"to": "B", "many": true, "inverse": "a"}}}, "B": {"relationships": {"a": {"to": "A", "inverse": "bs"}}}}}"#, true),
        ("a bad predicate", #"{"entities": {"A": {"attributes": {"x": "string"}}}, "fetchRequests": {"f": {"entity": "A", "predicate": "x ==="}}}"#, false),
    ]

    @Test(arguments: edges.indices)
    func textsOnTheEdgeReadAlike(_ index: Int) {
        let (label, text, fast) = Self.edges[index]
        Self.expectAgreement(text, label)
        #expect((ModelReader.readComposingJSON(text, file: "saved") != nil) == fast, "\(label): fast path taken should be \(fast)")
    }
}

// Reading a model a store saved as JSON, at every open of the store, without
// libyaml: `ModelReader.read(json:)` parses JSON with the YAML parser for
// its line and column marks, and that parse was a third of reading a saved
// model (the biggest single cost of opening a store that migrates).
//
// Here QuarrySyntax's JSON reader composes the same nodes the YAML parser
// would (strings double-quoted, numbers, booleans and null as the plain
// text written), the document reader then runs unchanged, and the result is
// the same model. Where the two parsers could disagree, or the nodes would
// lack what an error or a warning must show (their marks), the text goes
// the ordinary way instead, so a caller sees exactly what
// `read(json:)` gives, errors and all:
//   - any character YAML does not print (controls, DEL, C1), or a tab,
//     which `read(json:)` turns into a space;
//   - a `\u` escape (libyaml and RFC 8259 differ on lone surrogates);
//   - anything the strict JSON reader refuses, and any error or warning
//     the model itself has (a derived attribute no store can keep too: a
//     store opened with this model reports it, at its line).
// QuarryStoreTests/SavedModelReadingTests and the `yaml-model` fuzz target
// check agreement.
import QuarrySyntax
import Yams

extension ModelReader {
    /// Reads a model saved as Quarry's JSON format (a store's
    /// `_quarry_metadata` row): the model `read(json:file:)` reads from the
    /// same text, with the same errors, faster when the text is plain JSON.
    public static func read(savedJSON text: String, file: String) throws(ModelError) -> Model {
        if let model = readComposingJSON(text, file: file) { return model }
        return try read(json: text, file: file)
    }

    /// The model read without libyaml, or nil where `read(savedJSON:)`
    /// goes the ordinary way.
    static func readComposingJSON(_ text: String, file: String) -> Model? {
        guard YAMLModelReader.composesAlike(text), let value = try? JSON.parse(text, verbatim: true),
              let root = YAMLModelReader.node(value, tag: Tag.implicit) else { return nil }
        var reader = YAMLModelReader(nodes: YAMLNodes(file: file, text: text), map: SourceMap(file: file))
        guard let model = try? reader.model(from: root), model.warnings.isEmpty, model.derivationError() == nil else { return nil }
        return model
    }
}

extension YAMLModelReader {
    /// Whether the text has nothing on which libyaml and the JSON reader
    /// could differ (see the top of the file).
    static func composesAlike(_ text: String) -> Bool {
        var previous: UInt8 = 0
        var ascii = true
        for byte in text.utf8 {
            switch byte {
            case 0x0A, 0x0D, 0x20...0x7E: break
            case 0x80...: ascii = false
            default: return false
            }
            if previous == UInt8(ascii: "\\") && byte == UInt8(ascii: "u") { return false }
            // An escaped backslash is not the start of an escape.
            previous = previous == UInt8(ascii: "\\") ? 0 : byte
        }
        if ascii { return true }
        // YAML's printable set beyond ASCII (YAML 1.1, 5.1).
        return text.unicodeScalars.allSatisfy { s in
            switch s.value {
            case 0x0A, 0x0D, 0x20...0x7E, 0x85, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
            default: false
            }
        }
    }

    /// The node libyaml composes for a JSON value, without marks; nil for
    /// an empty document (`null`), which `read(json:)` reports.
    static func node(_ value: JSON, tag: Tag) -> Node? {
        func make(_ value: JSON) -> Node {
            switch value {
            case .null: .scalar(Node.Scalar("null", tag, .plain))
            case .bool(let b): .scalar(Node.Scalar(b ? "true" : "false", tag, .plain))
            case .number(let text): .scalar(Node.Scalar(text, tag, .plain))
            // `verbatim` gives every number as `.number`; these two cannot occur.
            case .int(let i): .scalar(Node.Scalar(String(i), tag, .plain))
            case .double(let d): .scalar(Node.Scalar(String(d), tag, .plain))
            case .string(let s): .scalar(Node.Scalar(s, tag, .doubleQuoted))
            case .array(let items): .sequence(Node.Sequence(items.map(make), tag, .flow))
            case .object(let members): .mapping(Node.Mapping(members.map { (make(.string($0.0)), make($0.1)) }, tag, .flow))
            }
        }
        if case .null = value { return nil }
        return make(value)
    }
}

// Lints the predicates stored in a model: fetch request templates (against
// their entity), fetched properties (against their destination) and
// derivation expressions (against their entity). Each finding is placed on
// the character of the XML attribute value it is about, by decoding the
// value's entities (`&lt;`, `&quot;`, …) with the file offset of each byte.

import Foundation
import QuarryModel
import QuarrySyntax

enum ModelLinter {
    static func lint(_ model: Model, models: ModelSet) -> [Finding] {
        let path = model.file
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: path))).map { Array($0) } ?? []
        let file = SourceFile(path: path, bytes: bytes, language: .objectiveC)
        var values = AttributeValues(bytes: bytes)
        var findings: [Finding] = []

        func run(_ text: String, attribute: String, kind: FormatKind, entity: Entity) {
            let checker = FormatChecker(text: text, kind: kind, arguments: nil, entity: entity, model: model)
            let raws = checker.check()
            guard !raws.isEmpty else { return }
            let located = values.next(attribute, decodingTo: text)
            for raw in raws {
                var offset = 0
                if let located, case .format(let index) = raw.place { offset = located.sourceOffset(of: index) }
                let (line, column) = file.location(of: offset)
                findings.append(Finding(raw.rule, raw.message, file: path, line: line, column: column, hints: raw.hints))
            }
        }
        for template in model.fetchRequestTemplates {
            guard let format = template.predicateFormat, let entity = model.entity(named: template.entity) else { continue }
            run(format, attribute: "predicateString", kind: .predicate, entity: entity)
        }
        for entity in model.entities {
            for fetched in entity.fetchedProperties {
                guard let format = fetched.predicateFormat, let destination = model.entity(named: fetched.destination) else { continue }
                run(format, attribute: "predicateString", kind: .predicate, entity: destination)
            }
            for attribute in entity.attributes {
                guard let derivation = attribute.derivation else { continue }
                run(derivation, attribute: "derivationExpression", kind: .expression, entity: entity)
            }
        }
        return findings
    }
}

/// The values of one XML attribute name in a file, decoded, each with the
/// file offset of every byte.
struct AttributeValues {
    let bytes: [UInt8]
    private var used: Set<Int> = []

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The first not yet used `name="…"` whose decoded value is `text`.
    mutating func next(_ name: String, decodingTo text: String) -> DecodedLiteral? {
        let needle = Array((name + "=\"").utf8)
        var i = 0
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0], Array(bytes[i..<i + needle.count]) == needle, !used.contains(i) {
                let value = decode(from: i + needle.count)
                if value.text == text {
                    used.insert(i)
                    return value
                }
            }
            i += 1
        }
        return nil
    }

    private func decode(from start: Int) -> DecodedLiteral {
        var literal = DecodedLiteral(start: start)
        let entities: [String: String] = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]
        var p = start
        while p < bytes.count && bytes[p] != UInt8(ascii: "\"") {
            if bytes[p] == UInt8(ascii: "&"), let semicolon = bytes[p..<min(bytes.count, p + 10)].firstIndex(of: UInt8(ascii: ";")) {
                let name = String(decoding: bytes[p + 1..<semicolon], as: UTF8.self)
                var scalar: Unicode.Scalar?
                if let s = entities[name] { scalar = s.unicodeScalars.first }
                else if name.hasPrefix("#x") { scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init) }
                else if name.hasPrefix("#") { scalar = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init) }
                if let scalar {
                    literal.append(scalar: scalar, from: p)
                    p = semicolon + 1
                    continue
                }
            }
            literal.append(bytes[p], from: p)
            p += 1
        }
        literal.offsets.append(p)
        return literal
    }
}

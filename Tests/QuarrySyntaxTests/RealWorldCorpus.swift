// Reading ../shared/corpus/real-world-predicates.jsonl (format strings from
// public apps, see that folder's README) for CorpusStringTests. The corpus
// lives beside the project, never inside it: a clone elsewhere has none, and
// the tests that need it say loudly that they skipped.
//
// Records are chosen and filled in exactly as `shared/tools/conformance.py
// corpus` does, so the figures agree: interpolated (`\(…)`) and concatenated
// strings are left out (they are not literal formats), and each specifier
// gets a stand-in argument of its guessed type.
import Foundation
import QuarrySyntax

enum RealWorldCorpus {
    /// ../shared/corpus, found from this file's path (three levels up is the package root).
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/corpus").standardizedFileURL

    static var file: URL { directory.appendingPathComponent("real-world-predicates.jsonl") }

    static var available: Bool { FileManager.default.fileExists(atPath: file.path) }

    struct Record: Sendable, CustomStringConvertible {
        var line: Int
        var format: String
        var isExpression: Bool
        var arguments: [Value]
        var origin: String
        var description: String { "line \(line) (\(origin)): \(format)" }
    }

    /// Every literal record, in file order; empty when the corpus is absent.
    static func records() -> [Record] {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return [] }
        var out: [Record] = []
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            guard let json = try? JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)),
                  case .object(let r) = json, case .string(let format)? = r["format"],
                  case .string(let kind)? = r["kind"], kind == "predicate" || kind == "expression" else { continue }
            if r["interpolated"] == .bool(true) || r["concatenated"] == .bool(true) { continue }
            var arguments: [Value] = []
            if case .array(let args)? = r["args"] {
                arguments = args.map(standIn)
            }
            var origin = ""
            if case .string(let repo)? = r["repo"] { origin = repo }
            out.append(Record(line: i + 1, format: format, isExpression: kind == "expression",
                              arguments: arguments, origin: origin))
        }
        return out
    }

    /// The argument conformance.py sends for one `args` entry: the literal
    /// when the source had one, else a value of the guessed type (an object
    /// has no literal form, so a string stands in for it).
    static func standIn(_ arg: JSONValue) -> Value {
        guard case .object(let a) = arg else { return .string("x") }
        let type: String
        if case .string(let t)? = a["type"] { type = t } else { type = "unknown" }
        if let value = a["value"], type != "object" { return value.value }
        switch type {
        case "keypath": return .string("name")
        case "number": return .int(1)
        case "date": return .date(0)
        case "array": return .array([.int(1), .int(2)])
        case "bool": return .bool(true)
        case "null": return .null
        default: return .string("x")
        }
    }
}

/// Just enough JSON, telling `1` from `true` (JSONDecoder does; Linux's
/// JSONSerialization does not).
enum JSONValue: Decodable, Equatable, Sendable {
    case null, bool(Bool), int(Int64), double(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Int64.self) { self = .int(n) }
        else if let d = try? c.decode(Double.self) { self = .double(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    /// The predicate-language value, as `quarry eval --jsonl` reads JSON.
    var value: Value {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let n): return .int(n)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .array(let a): return .array(a.map(\.value))
        case .object(let o):
            if case .double(let d)? = o["$date"] { return .date(d) }
            if case .int(let n)? = o["$date"] { return .date(Double(n)) }
            return .dictionary(o.mapValues(\.value))
        }
    }
}

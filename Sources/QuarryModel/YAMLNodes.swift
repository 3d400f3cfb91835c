// Small helpers over Yams' composed nodes for the YAML/JSON model reader:
// typed access to scalars, mappings and sequences that turn every shape
// mistake into a ModelError at the node's line and column, never a crash.
//
// Yams keeps mapping pairs in file order and does not reject duplicate keys,
// so `pairs` does both: order is what makes entities come out in file order,
// and a repeated key (two entities named alike) is almost always a mistake.
import QuarrySyntax
import Yams

struct YAMLNodes {
    let file: String
    private let text: Lines

    init(file: String, text: String) {
        self.file = file
        self.text = Lines(text)
    }

    /// The text's lines, split when first asked for (only a text value's
    /// location needs them; splitting by Character was a tenth of reading a
    /// store's saved model at every open).
    var lines: [Substring] { text.lines }

    private final class Lines {
        let text: String
        init(_ text: String) { self.text = text }
        // `\r\n` is one Character in Swift, so split on any line break, as
        // libyaml counts lines.
        lazy var lines: [Substring] = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    }

    func location(_ node: Node) -> ModelLocation {
        guard let mark = node.mark else { return ModelLocation(line: 1, column: 1) }
        return ModelLocation(line: mark.line, column: mark.column)
    }

    func error(_ kind: ModelErrorKind, _ message: String, at node: Node, suggestion: String? = nil) -> ModelError {
        let l = location(node)
        return ModelError(kind, message, file: file, line: l.line, column: l.column, suggestion: suggestion)
    }

    /// A plain `~`, `null` or empty value: the key is there but says nothing.
    func isNull(_ node: Node) -> Bool {
        guard case .scalar(let s) = node, s.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(s.string)
    }

    /// The key/value pairs of a mapping, in file order; a null node is an
    /// empty mapping. Keys must be scalars and must not repeat.
    func pairs(_ node: Node, _ what: String) throws(ModelError) -> [(key: String, keyNode: Node, value: Node)] {
        if isNull(node) { return [] }
        guard case .mapping(let mapping) = node else {
            throw error(.structure, "\(what) should be a mapping (key: value lines), found \(kind(of: node))", at: node)
        }
        var result: [(key: String, keyNode: Node, value: Node)] = []
        var seen: Set<String> = []
        for (k, v) in mapping {
            guard case .scalar(let s) = k else {
                throw error(.structure, "a key in \(what) should be a plain name, found \(kind(of: k))", at: k)
            }
            guard seen.insert(s.string).inserted else {
                throw error(.duplicateName, "'\(s.string)' appears twice in \(what)", at: k)
            }
            result.append((s.string, k, v))
        }
        return result
    }

    /// Rejects keys outside `allowed`, suggesting the closest one.
    func checkKeys(_ pairs: [(key: String, keyNode: Node, value: Node)], allowed: [String], in what: String) throws(ModelError) {
        for pair in pairs where !allowed.contains(pair.key) {
            throw error(.structure, "unknown key '\(pair.key)' in \(what) (expected one of: \(allowed.joined(separator: ", ")))",
                        at: pair.keyNode, suggestion: Suggestions.closest(to: pair.key, among: allowed))
        }
    }

    func sequence(_ node: Node, _ what: String) throws(ModelError) -> [Node] {
        if isNull(node) { return [] }
        guard case .sequence(let s) = node else {
            throw error(.structure, "\(what) should be a list, found \(kind(of: node))", at: node)
        }
        return Array(s)
    }

    func string(_ node: Node, _ what: String) throws(ModelError) -> String {
        guard case .scalar(let s) = node else {
            throw error(.structure, "\(what) should be a single value, found \(kind(of: node))", at: node)
        }
        return s.string
    }

    /// A name (entity, property): a non-empty scalar without spaces.
    func name(_ node: Node, _ what: String) throws(ModelError) -> String {
        let s = try string(node, what)
        guard !s.isEmpty, !s.contains(where: \.isWhitespace) else {
            throw error(.structure, "\(what) should be a name, found '\(s)'", at: node)
        }
        return s
    }

    func bool(_ node: Node, _ what: String) throws(ModelError) -> Bool {
        let s = try string(node, what)
        guard let b = AttributeValues.bool(s) else {
            throw error(.structure, "\(what) should be true or false, found '\(s)'", at: node)
        }
        return b
    }

    func int(_ node: Node, _ what: String) throws(ModelError) -> Int {
        let s = try string(node, what)
        guard let n = Int(s), n >= 0 else {
            throw error(.structure, "\(what) should be a whole number ≥ 0, found '\(s)'", at: node)
        }
        return n
    }

    func userInfo(_ node: Node) throws(ModelError) -> [String: String] {
        var info: [String: String] = [:]
        for pair in try pairs(node, "userInfo") { info[pair.key] = try string(pair.value, "userInfo value '\(pair.key)'") }
        return info
    }

    /// The location of a text value, with the file column of each of its
    /// characters when the value sits verbatim on one line (plain, or quoted
    /// without escapes), so errors inside a predicate can point into it.
    func textLocation(_ node: Node) -> ModelLocation {
        var l = location(node)
        guard case .scalar(let s) = node, let column = l.column, l.line <= lines.count,
              !s.string.contains("\n") else { return l }
        let offset: Int
        switch s.style {
        case .plain: offset = 0
        case .singleQuoted, .doubleQuoted: offset = 1
        default: return l
        }
        let line = Array(lines[l.line - 1])
        let value = Array(s.string)
        let start = column - 1 + offset
        guard start >= 0, start + value.count <= line.count, Array(line[start..<start + value.count]) == value else { return l }
        l.textColumns = (0..<value.count).map { column + offset + $0 }
        return l
    }

    private func kind(of node: Node) -> String {
        switch node {
        case .scalar(let s): return "'\(s.string)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        }
    }
}

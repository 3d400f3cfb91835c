// Renders a diagnostic the way compilers do:
//
//     queries.qry:3:41: error[P012]: expected a value after '>', found 'AND'
//         FETCH Employee WHERE salary > AND name == 'x';
//                                       ^~~
//     help: did you mean `salary > %@`?
//
// and as the JSON object of `--error-format json`.

extension Diagnostic {
    /// Line and column where the diagnostic points.
    public func location(in source: SourceText) -> SourceLocation {
        source.location(of: span.start)
    }

    /// The multi-line human form. `file` prefixes the location when given.
    public func rendered(in source: SourceText, file: String? = nil) -> String {
        let loc = location(in: source)
        var out = ""
        if let file { out += "\(file):" }
        out += "\(loc.line):\(loc.column): error[\(code.rawValue)]: \(message)\n"
        let (lineText, lineStart) = source.line(containing: span.start)
        out += "    " + lineText.replacingTabs() + "\n"
        let caretColumn = source.characterCount(from: lineStart, to: span.start)
        let lineEnd = lineStart + lineText.utf8.count
        let width = Swift.max(1, source.characterCount(from: span.start, to: Swift.min(span.end, lineEnd)))
        out += "    " + String(repeating: " ", count: caretColumn) + "^" + String(repeating: "~", count: width - 1)
        for hint in hints { out += "\nhelp: \(hint)" }
        return out
    }

    /// The fields of `--error-format json` / the eval protocol, as a JSON object text.
    public func jsonObject(in source: SourceText, file: String? = nil) -> String {
        let loc = location(in: source)
        var fields: [(String, String)] = [
            ("code", JSONText.quote(code.rawValue)),
            ("message", JSONText.quote(message)),
        ]
        if let file { fields.append(("file", JSONText.quote(file))) }
        fields += [
            ("line", String(loc.line)),
            ("column", String(loc.column)),
            ("length", String(Swift.max(1, source.characterCount(from: span.start, to: span.end)))),
            ("stage", JSONText.quote(stage.rawValue)),
            ("hints", "[" + hints.map(JSONText.quote).joined(separator: ",") + "]"),
        ]
        return "{" + fields.map { "\(JSONText.quote($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }
}

extension String {
    // Tabs would misalign the caret; show them as single spaces.
    fileprivate func replacingTabs() -> String {
        String(self.map { $0 == "\t" ? " " : $0 })
    }
}

/// Minimal JSON string quoting shared by the syntax layer's JSON output.
public enum JSONText {
    /// `s` as a JSON string.
    public static func quote(_ s: String) -> String { quote(s, escapingDelete: false) }

    /// `escapingDelete`: DEL as `\u007f` too, for JSON a YAML parser must
    /// read (YAML does not allow it raw; a store's saved model,
    /// QuarryStore/ModelArchive.swift).
    public static func quote(_ s: String, escapingDelete: Bool) -> String {
        // Most strings need no escape: copied whole (a store writes its
        // layout and model with this at every migration).
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || (escapingDelete && $0 == 0x7F) }) {
            return "\"" + s + "\""
        }
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (escapingDelete && scalar.value == 0x7F):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

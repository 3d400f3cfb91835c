// Writing findings out: `text` like a compiler (with the source line and a
// caret), `json` (one array), `sarif` (2.1.0, the minimal valid log that
// code-scanning tools read) and `github` (workflow annotation commands).

import Foundation

public enum LintFormat: String, Sendable, CaseIterable {
    case text, json, sarif, github
}

public enum LintReporter {
    public static func render(_ findings: [Finding], as format: LintFormat) -> String {
        switch format {
        case .text: return text(findings)
        case .json: return json(findings)
        case .sarif: return sarif(findings)
        case .github: return github(findings)
        }
    }

    static func text(_ findings: [Finding]) -> String {
        var out = ""
        var lines: [String: [Substring]] = [:]
        for f in findings {
            out += "\(f.file):\(f.line):\(f.column): \(f.severity.rawValue): \(f.message) [\(f.rule.rawValue)]\n"
            var sourceLine = f.sourceLine
            if sourceLine == nil {
                if lines[f.file] == nil {
                    let text = (try? String(contentsOfFile: f.file, encoding: .utf8)) ?? ""
                    lines[f.file] = text.split(separator: "\n", omittingEmptySubsequences: false)
                }
                if let source = lines[f.file], f.line >= 1, f.line <= source.count { sourceLine = String(source[f.line - 1]) }
            }
            if let sourceLine {
                let line = sourceLine.replacingOccurrences(of: "\r", with: "")
                out += line + "\n"
                // Tabs kept as tabs so the caret lines up in a terminal.
                let pad = line.prefix(max(0, f.column - 1)).map { $0 == "\t" ? "\t" : " " }.joined()
                out += pad + "^\n"
            }
            for hint in f.hints { out += "  hint: \(hint)\n" }
        }
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.filter { $0.severity == .warning }.count
        if !findings.isEmpty { out += "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")\n" }
        return out
    }

    static func json(_ findings: [Finding]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(findings)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func sarif(_ findings: [Finding]) -> String {
        func level(_ s: LintSeverity) -> String {
            switch s { case .error: return "error"; case .warning: return "warning"; case .info, .off: return "note" }
        }
        let rules: [[String: Any]] = LintRule.allCases.map {
            ["id": $0.rawValue, "shortDescription": ["text": $0.summary],
             "defaultConfiguration": ["level": level($0.defaultSeverity)]]
        }
        let results: [[String: Any]] = findings.map { f in
            let hints = f.hints.isEmpty ? "" : " (" + f.hints.joined(separator: "; ") + ")"
            return ["ruleId": f.rule.rawValue, "level": level(f.severity),
                    "message": ["text": f.message + hints],
                    "locations": [["physicalLocation": [
                        "artifactLocation": ["uri": f.file],
                        "region": ["startLine": max(1, f.line), "startColumn": max(1, f.column)],
                    ]]]]
        }
        let log: [String: Any] = [
            "version": "2.1.0",
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "runs": [["tool": ["driver": ["name": "quarry-lint", "informationUri": "https://github.com/quarry/quarry", "rules": rules]],
                      "results": results]],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: log, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// `::error file=…,line=…,col=…,title=QL001::message`; property values
    /// and messages escaped as the Actions toolkit does.
    static func github(_ findings: [Finding]) -> String {
        func escapeData(_ s: String) -> String {
            s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
                .replacingOccurrences(of: "\n", with: "%0A")
        }
        func escapeProperty(_ s: String) -> String {
            escapeData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
        }
        return findings.map { f in
            let command: String
            switch f.severity { case .error: command = "error"; case .warning: command = "warning"; case .info, .off: command = "notice" }
            let hints = f.hints.isEmpty ? "" : "\n" + f.hints.map { "hint: \($0)" }.joined(separator: "\n")
            return "::\(command) file=\(escapeProperty(f.file)),line=\(f.line),col=\(f.column),title=\(f.rule.rawValue)::\(escapeData(f.message + hints))"
        }.joined(separator: "\n") + (findings.isEmpty ? "" : "\n")
    }
}

// `.quarry-lint.yml`: per-rule severities, `off` to disable a rule.
//
//     rules:
//       QL009: off        # interpolated strings: do not report
//       QL006: warning    # to-many comparisons: warn only
//     disabled: [QL011]   # same as `off`

import Yams

public struct LintConfig: Sendable, Equatable {
    public var severities: [LintRule: LintSeverity] = [:]

    public init(severities: [LintRule: LintSeverity] = [:]) { self.severities = severities }

    public func severity(of rule: LintRule) -> LintSeverity { severities[rule] ?? rule.defaultSeverity }

    /// Reads the YAML text; throws a message naming what is wrong.
    public init(yaml: String) throws(LintError) {
        let node: Any?
        do { node = try Yams.load(yaml: yaml) } catch { throw LintError.usage("config: not valid YAML: \(error)") }
        guard let node else { return }
        guard let root = node as? [String: Any] else { throw LintError.usage("config: expected a mapping with 'rules' and/or 'disabled'") }
        for key in root.keys where key != "rules" && key != "disabled" {
            throw LintError.usage("config: unknown key '\(key)' (expected 'rules' or 'disabled')")
        }
        if let rules = root["rules"] {
            guard let map = rules as? [String: Any] else { throw LintError.usage("config: 'rules' must map rule ids to severities") }
            for (id, value) in map {
                let rule = try Self.rule(id)
                // YAML reads a bare `off` as the boolean false.
                let word = (value as? Bool).map { $0 ? "error" : "off" } ?? "\(value)"
                guard let severity = LintSeverity(rawValue: word.lowercased()) else {
                    throw LintError.usage("config: severity of \(id) must be error, warning, info or off, not '\(word)'")
                }
                severities[rule] = severity
            }
        }
        if let disabled = root["disabled"] {
            guard let list = disabled as? [Any] else { throw LintError.usage("config: 'disabled' must be a list of rule ids") }
            for id in list { severities[try Self.rule("\(id)")] = .off }
        }
    }

    private static func rule(_ id: String) throws(LintError) -> LintRule {
        guard let rule = LintRule(rawValue: id) else {
            throw LintError.usage("config: no rule '\(id)' (rules are \(LintRule.allCases.first!.rawValue)…\(LintRule.allCases.last!.rawValue))")
        }
        return rule
    }
}

/// Why a lint run could not start: bad usage (exit 64) or an unreadable input (exit 66).
public enum LintError: Error, Sendable, Equatable, CustomStringConvertible {
    case usage(String)
    case unreadable(String)

    public var exitCode: Int32 {
        switch self {
        case .usage: return 64
        case .unreadable: return 66
        }
    }

    public var description: String {
        switch self {
        case .usage(let m), .unreadable(let m): return m
        }
    }
}

// Tab completion: what the word under the cursor could become. Dot-commands
// at the start of a line; `$variables`; key paths (`department.na` →
// `department.name`), walked through the model's relationships from the
// statement's entity; otherwise statement and clause words, the language's
// keywords, entity names and the statement entity's properties; right after
// the entity, only the clauses that statement takes. A dot-command's
// argument completes from what it takes: modes, engines, on|off, file names.
// Pure (but for reading folders), so tests call it directly; the line
// reader hands it readline's buffer.

import Foundation

public enum Completion {
    static let words = StatementParser.verbs + TransactionStatement.verbs + ["DISTINCT", "PROPERTIES", "WHERE", "GROUP BY", "HAVING", "SORT BY", "LIMIT",
                                                "OFFSET", "BATCH", "AS", "ASC", "DESC", "BY", "INTO", "FROM"]
        + Keyword.allCases.map(\.rawValue)

    /// Completions of `word`, the text before the cursor back to a word break;
    /// `line` is the whole line so far.
    public static func candidates(line: String, word: String, model: Model?, variables: [String] = []) -> [String] {
        let before = line.prefix(while: { $0 == " " || $0 == "\t" })
        if word.hasPrefix("."), line.dropFirst(before.count).hasPrefix(word) {
            return ShellSession.dotCommands.map { String($0.0.split(separator: " ")[0]) }.filter { $0.hasPrefix(word.lowercased()) }
        }
        // `.watch SECTIONS …` completes as the statement it holds.
        if line.dropFirst(before.count).hasPrefix("."), !line.dropFirst(before.count).lowercased().hasPrefix(".watch ") { return dotArgument(line: String(line.dropFirst(before.count)), word: word) }
        if let model, let clauses = clauseWordsAfterEntity(line: line, word: word, model: model) {
            let lower = word.lowercased()
            let lowercase = !word.isEmpty && word == lower
            return clauses.filter { $0.lowercased().hasPrefix(lower) }.map { lowercase ? $0.lowercased() : $0 }
        }
        if word.hasPrefix("$") {
            return variables.sorted().map { "$" + $0 }.filter { $0.hasPrefix(word) }
        }
        let entity = model.flatMap { statementEntity(line, model: $0) }
        if let dot = word.lastIndex(of: "."), let model {
            let path = word[..<dot].split(separator: ".").map(String.init)
            let partial = String(word[word.index(after: dot)...])
            guard var current = entity else { return [] }
            for component in path {
                guard let r = current.relationship(named: component, in: model), let next = model.entity(named: r.destination) else { return [] }
                current = next
            }
            return current.allProperties(in: model).map(\.name).filter { $0.lowercased().hasPrefix(partial.lowercased()) }
                .sorted().map { word[...dot] + $0 }
        }
        let lower = word.lowercased()
        let lowercase = !word.isEmpty && word == lower
        var result = words.filter { $0.lowercased().hasPrefix(lower) }.map { lowercase ? $0.lowercased() : $0 }
        // Names are case-sensitive in Core Data, so they complete only from
        // their own case (`dep` → department, `Dep` → Department).
        if let model {
            result += model.entityNames.filter { $0.hasPrefix(word) }
            if let entity {
                result += entity.allProperties(in: model).map(\.name).filter { $0.hasPrefix(word) }
            }
        }
        var seen = Set<String>()
        return result.filter { seen.insert($0).inserted }.sorted()
    }

    /// Whether `match` (a completed key path) ends at a to-one relationship
    /// of the statement's entity: the key path usually goes on
    /// (`department` → `department.name`), so no space follows it.
    public static func endsAtToOne(line: String, match: String, model: Model?) -> Bool {
        guard let model, var current = statementEntity(line, model: model) else { return false }
        let path = match.split(separator: ".").map(String.init)
        for (i, component) in path.enumerated() {
            guard let r = current.relationship(named: component, in: model), !r.isToMany,
                  let next = model.entity(named: r.destination) else { return false }
            if i == path.count - 1 { return true }
            current = next
        }
        return false
    }

    /// The clause words that can follow a statement's entity, when `word` is
    /// the first word after it (`FETCH Employee W` → WHERE).
    static func clauseWordsAfterEntity(line: String, word: String, model: Model) -> [String]? {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        if !word.isEmpty { guard words.last == word else { return nil }; words.removeLast() }
        if words.count == 3, words[1].uppercased() == "DISTINCT" || words[1].uppercased() == "FROM" || words[1].uppercased() == "INTO" {
            words.remove(at: 1)
        }
        guard words.count == 2, model.entity(named: words[1]) != nil else { return nil }
        switch words[0].uppercased() {
        case "FETCH": return ["PROPERTIES", "WHERE", "GROUP BY", "HAVING", "SORT BY", "LIMIT", "OFFSET", "BATCH"]
        case "COUNT", "DELETE": return ["WHERE"]
        case "UPDATE": return ["SET"]
        case "SECTIONS": return ["BY"]
        default: return nil
        }
    }

    /// Arguments of dot-commands: modes, engines, on|off, file names.
    static func dotArgument(line: String, word: String) -> [String] {
        let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        let command = parts.first.map { $0.lowercased() } ?? ""
        let argument = parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : ""
        // Only the first argument completes (a line ending in a space starts it).
        guard parts.count > 1 || line.hasSuffix(" ") else { return [] }
        let options: [String]
        switch command {
        case ".mode": options = OutputMode.allCases.map(\.rawValue)
        case ".engine": options = ["sql", "memory"]
        case ".timer", ".explain", ".bail", ".echo", ".headers", ".header", ".pager": options = ["on", "off"]
        case ".expanded": options = ["on", "off", "auto"]
        case ".read", ".open", ".output", ".once", ".model": return fileNames(argument: argument, word: word)
        default: return []
        }
        return options.filter { $0.hasPrefix(word.lowercased()) }
    }

    /// Entries of the argument's folder that complete it; each as the rest
    /// of `word` (readline breaks words at '/' and '-', so `word` may be only
    /// the end of the argument). Folders end in '/'.
    static func fileNames(argument: String, word: String) -> [String] {
        let slash = argument.lastIndex(of: "/")
        let folder = slash.map { String(argument[...$0]) } ?? ""
        let fragment = slash.map { String(argument[argument.index(after: $0)...]) } ?? argument
        guard fragment.hasSuffix(word) else { return [] }
        let lead = fragment.dropLast(word.count)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        return entries.filter { $0.hasPrefix(fragment) && ($0.first != "." || fragment.hasPrefix(".")) }.sorted().map { name in
            var isDirectory: ObjCBool = false
            let directory = FileManager.default.fileExists(atPath: folder + name, isDirectory: &isDirectory) && isDirectory.boolValue
            return String(name.dropFirst(lead.count)) + (directory ? "/" : "")
        }
    }

    /// The entity the line's statement is about: the word after its verb.
    static func statementEntity(_ line: String, model: Model) -> Entity? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        for (i, w) in words.enumerated() where StatementParser.verbs.contains(w.uppercased()) && w.uppercased() != "EXPLAIN" {
            var j = i + 1
            while j < words.count, ["DISTINCT", "FROM", "INTO"].contains(words[j].uppercased()) { j += 1 }
            if j < words.count, let e = model.entity(named: words[j]) { return e }
        }
        return nil
    }
}

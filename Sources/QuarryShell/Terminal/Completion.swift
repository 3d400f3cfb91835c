// Tab completion: what the word under the cursor could become. Dot-commands
// at the start of a line; `$variables`; key paths (`department.na` →
// `department.name`), walked through the model's relationships from the
// statement's entity; otherwise statement and clause words, the language's
// keywords, entity names and the statement entity's properties. Pure, so
// tests call it directly; the line reader hands it readline's buffer.

public enum Completion {
    static let words = StatementParser.verbs + ["DISTINCT", "PROPERTIES", "WHERE", "GROUP BY", "HAVING", "SORT BY", "LIMIT",
                                                "OFFSET", "BATCH", "AS", "ASC", "DESC", "BY", "INTO", "FROM"]
        + Keyword.allCases.map(\.rawValue)

    /// Completions of `word`, the text before the cursor back to a word break;
    /// `line` is the whole line so far.
    public static func candidates(line: String, word: String, model: Model?, variables: [String] = []) -> [String] {
        let before = line.prefix(while: { $0 == " " || $0 == "\t" })
        if word.hasPrefix("."), line.dropFirst(before.count).hasPrefix(word) {
            return ShellSession.dotCommands.map { String($0.0.split(separator: " ")[0]) }.filter { $0.hasPrefix(word.lowercased()) }
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

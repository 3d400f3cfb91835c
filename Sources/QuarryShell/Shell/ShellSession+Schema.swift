// `.schema [Entity]`: the model as the shell sees it — each entity with its
// attributes (type, required, default) and relationships (destination,
// to-one or to-many, inverse, delete rule), inherited ones included.

extension ShellSession {
    func schemaText(_ only: String?, span: SourceSpan) throws(ShellError) -> String {
        let model = try currentModel()
        var entities = model.entities
        if let only {
            guard let e = model.entity(named: only) else {
                let hint = Suggestions.closest(to: only, among: model.entityNames).map { ["did you mean '\($0)'?"] } ?? []
                throw ShellError(.badDotArgument, "unknown entity '\(only)'", at: span, hints: hint)
            }
            entities = [e]
        }
        var out = ""
        for e in entities {
            if !out.isEmpty { out += "\n" }
            out += "entity \(e.name)" + (e.parent.map { " : \($0)" } ?? "") + (e.isAbstract ? " (abstract)" : "") + "\n"
            var lines: [(String, String)] = []
            for a in e.allAttributes(in: model) {
                var notes = [a.type.yamlName]
                if !a.isOptional { notes.append("required") }
                if let d = a.defaultValue { notes.append("default \(Printer.format(d))") }
                if a.isTransient { notes.append("transient") }
                lines.append((a.name, notes.joined(separator: ", ")))
            }
            for r in e.allRelationships(in: model) {
                var notes = ["-> \(r.destination)" + (r.isToMany ? " (to-many)" : "")]
                if let inverse = r.inverse { notes.append("inverse \(inverse)") }
                notes.append(r.deleteRule.yamlName)
                lines.append((r.name, notes.joined(separator: ", ")))
            }
            let width = lines.map(\.0.count).max() ?? 0
            for (name, notes) in lines { out += "  " + name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + notes + "\n" }
        }
        return out
    }
}

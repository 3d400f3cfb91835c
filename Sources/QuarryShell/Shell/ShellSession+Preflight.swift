// Preflight: before a file (or the `-c` statements) runs, every statement is
// parsed and bound against the model — entity names, key paths in WHERE,
// SORT BY, PROPERTIES and GROUP BY, `$variables` — so a typo in the tenth
// statement fails the run (exit 65, at its line and column) before the
// first nine write anything.
//
// What preflight cannot know it does not guess: after `.open` or `.model`
// the model may change, so checking stops there (the rest is checked as it
// runs); `.read` files are checked when they are read. `SET $x = …` is
// evaluated as it will be, so later statements bind with `$x`; a value that
// fails to evaluate binds as NULL (its error comes when it runs). Only bind
// and parse errors (exit 65) fail a preflight: whatever can go wrong only
// when running (a division by zero, a constraint) is left to the run.
import Foundation

/// Where preflight stopped checking a text.
enum PreflightOutcome {
    case passed
    /// Reached a dot-command that changes the model or the store.
    case stopped
    case failed(ShellError)
}

extension ShellSession {
    /// Checks the statements of `text` with `variables` (updated by its SETs).
    func preflight(_ text: String, variables: inout [String: Value]) -> PreflightOutcome {
        let saved = self.variables
        let savedEngine = engine
        self.variables = variables
        defer {
            variables = self.variables
            self.variables = saved
            engine = savedEngine
        }
        for item in ScriptSplitter.split(SourceText(text)) {
            switch item.kind {
            case .dotCommand:
                let command = item.text.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map { $0.lowercased() } ?? ""
                if [".open", ".model", ".quit", ".exit"].contains(command) { return .stopped }
                // The statements after `.engine memory` are checked as that
                // engine runs them (a transient attribute is no error there).
                if command == ".engine", let e = item.text.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first
                    .flatMap({ FetchEngine(rawValue: $0.lowercased()) }) { engine = e }
            case .statement:
                do throws(ShellError) {
                    try preflight(parseStatement(item.text))
                } catch {
                    guard error.exitCode == ExitStatus.badInput else { continue }
                    return .failed(error.located ? error.shifted(by: item.offset) : error)
                }
            }
        }
        return .passed
    }

    private func preflight(_ statement: Statement) throws(ShellError) {
        // The memory engine binds as it evaluates; only names are checked for it.
        let planned = engine == .sql
        switch statement {
        case .fetchTemplate:
            // Resolved when parsed (ShellSession+Templates.swift); here only if built by hand.
            try preflight(resolvingTemplates(statement))
        case .fetch(let f):
            _ = try entity(f.entity)
            var request = FetchRequest(entity: f.entity.text, predicate: try substitute(f.predicate),
                                       sortDescriptors: sortDescriptors(f.sort))
            request.includesSubentities = !f.only
            guard planned else { return }
            // PROPERTIES naming a fetched property run through a context (ShellSession+FetchedProperties.swift).
            if !f.properties.isEmpty || !f.groupBy.isEmpty, !readsFetchedProperty(f, try entity(f.entity), try currentModel()) {
                try fillDictionaryRequest(&request, f)
                let r = request
                _ = try storeCall { s in try SQLPlanner.planDictionaries(r, mapping: s.mapping, now: s.now()) }
            } else {
                let r = request
                _ = try storeCall { s in try s.explain(r) }
            }
        case .count(let name, let predicate, _), .delete(let name, let predicate):
            _ = try entity(name)
            let p = try substitute(predicate)
            guard planned else { return }
            _ = try storeCall { s in try SQLPlanner.planKeys(entity: name.text, predicate: p, mapping: s.mapping, now: s.now()) }
        case .update(let name, _, let predicate):
            // The assignments are checked as the statement runs (their rules
            // are the write path's); the WHERE binds here.
            _ = try entity(name)
            let p = try substitute(predicate)
            guard planned else { return }
            _ = try storeCall { s in try SQLPlanner.planKeys(entity: name.text, predicate: p, mapping: s.mapping, now: s.now()) }
        case .sections(let name, _, let predicate, let sort):
            _ = try entity(name)
            let r = FetchRequest(entity: name.text, predicate: try substitute(predicate), sortDescriptors: sortDescriptors(sort))
            guard planned else { return }
            _ = try storeCall { s in try s.explain(r) }
        case .insert(let name, _):
            _ = try entity(name)
        case .eval(let e):
            do { _ = try e.substituting(variables) } catch { throw ShellError(error) }
        case .evalPredicate(let p):
            _ = try substitute(p)
        case .set(let name, let value):
            variables[name.text] = (try? constant(value)) ?? .null
        case .explain(let inner):
            try preflight(inner)
        case .transaction:
            break
        }
    }
}

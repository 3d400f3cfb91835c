// The `.watch` dot-command: `.watch SECTIONS Entity BY keyPath [WHERE p]
// SORT BY ...` prints the sections once and keeps them live; after every
// later INSERT, UPDATE or DELETE the change set is printed (Watch.swift,
// WatchChangeText.swift). `.watch` alone says what is watched; `.watch off`
// or `.unwatch` stops; opening another store (`.open`, `.model`) stops it
// too. One watch at a time: a new `.watch SECTIONS ...` replaces the old.
//
// The statement after `.watch` is parsed and checked like any statement, so
// its errors are the statement's own, pointing into the dot-command's line.
// Only a SECTIONS statement can be watched; it is checked as SECTIONS
// checks it (`checkSectioned`): SORT BY (a fetched-results controller keeps
// its objects in that order), known one-valued keys, and sections
// contiguous in that order.
import Foundation

extension ShellSession {
    static let watchUsage = ".watch SECTIONS Employee BY department.name SORT BY department.name, name"

    /// `.watch [off | SECTIONS ...]`; `line` is the whole dot-command line,
    /// `command` the span of `.watch` in it.
    func watchCommand(_ line: String, command: SourceSpan) throws(ShellError) {
        let bytes = Array(line.utf8)
        var start = command.end
        while start < bytes.count, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        var end = bytes.count
        // A `;` at the end is the habit of statements; the line ends the command anyway.
        while end > start, [0x20, 0x09, 0x0D, 0x3B].contains(bytes[end - 1]) { end -= 1 }
        let rest = String(decoding: bytes[start..<end], as: UTF8.self)
        switch rest.lowercased() {
        case "":
            output(watch.map { "watching: \($0.statement) (\(count($0.sectionCount, "section")), \(count($0.objectCount, "object")))\n" }
                   ?? "not watching; start with \(Self.watchUsage)\n")
        case "off":
            stopWatch(because: nil)
        default:
            do throws(ShellError) { try startWatch(rest) } catch {
                throw error.located ? error.shifted(by: start) : error
            }
        }
    }

    /// Stops the watch, saying so (and why, when it is not `.watch off`).
    func stopWatch(because reason: String?) {
        guard let watch else {
            if reason == nil { output("not watching\n") }
            return
        }
        self.watch = nil
        output("stopped watching: \(watch.statement)" + (reason.map { " (\($0))" } ?? "") + "\n")
    }

    /// Parses and starts watching `text` (spans relative to it).
    private func startWatch(_ text: String) throws(ShellError) {
        let statement = try parseStatement(text)
        guard case .sections(let name, let keyPath, let predicate, let sort) = statement else {
            let first = text.prefix { !$0.isWhitespace }
            throw ShellError(.badDotArgument, "only SECTIONS statements can be watched, not \(statement.verb)",
                             at: SourceSpan(start: 0, end: first.utf8.count), hints: ["as in \(Self.watchUsage)"])
        }
        let e = try entity(name)
        let end = text.utf8.count
        let firstSort = try checkSectioned(e, keyPath: keyPath, sort: sort, noSort: ShellError(
            .badDotArgument, "a watched SECTIONS statement needs SORT BY: the watch keeps its objects in that order",
            at: SourceSpan(start: end, end: end), hints: ["add SORT BY \(keyPath.text), ... (the section key first)"]))
        // Checked and fetched as SECTIONS does, so a bad predicate fails
        // here with SECTIONS' own located error.
        _ = try sections(name, keyPath, predicate, sort)
        let request = FetchRequest(entity: name.text, predicate: try substitute(predicate, entity: name.text), sortDescriptors: sortDescriptors(sort))
        let key: CompiledExpression
        do { key = try Evaluator.compile(Parser.parseExpression(keyPath.text)) } catch { throw ShellError(error).shifted(by: keyPath.span.start) }
        let columns = try defaultColumns(e)
        let printed = StatementPrinter.format(statement)
        let started = try storeCall { s throws in
            do {
                return try Watch(statement: printed, store: s, request: request, keyPath: keyPath.text, key: key, columns: columns)
            } catch let e as FetchedResultsError {
                throw ShellError(.badDotArgument, e.description, at: firstSort.span)
            }
        }
        watch = started
        write(.sections(columns: columns, started.resultSections()))
    }

    /// After a statement that wrote: the watch's change sets, in the mode's form.
    func reportWatchChanges() {
        guard let watch else { return }
        let reports = watch.takeReports()
        switch mode {
        case .json, .ndjson: output(WatchChangeText.json(reports, statement: watch.statement))
        default: output(WatchChangeText.text(reports))
        }
    }

    /// What a fetched-results controller asks of a sectioned fetch, checked
    /// before it runs (SECTIONS and `.watch` alike): SORT BY, and section and
    /// sort keys that name one value per object. Returns the first sort item
    /// (where a "sections not contiguous" error points).
    func checkSectioned(_ e: Entity, keyPath: Name, sort: [SortItem], noSort: @autoclosure () -> ShellError) throws(ShellError) -> SortItem {
        guard let firstSort = sort.first else { throw noSort() }
        try checkKeyPath(keyPath.text, keyPath.span, of: e, sorting: false)
        for item in sort { try checkKeyPath(item.keyPath, item.span, of: e, sorting: true) }
        return firstSort
    }

    /// A section or sort key must be attributes reached through to-one
    /// relationships (a section key may also end at a to-one relationship,
    /// sectioning by object): B002, B003 or B005 otherwise.
    private func checkKeyPath(_ path: String, _ span: SourceSpan, of entity: Entity, sorting: Bool) throws(ShellError) {
        let model = try currentModel()
        var current = entity
        let components = path.split(separator: ".").map(String.init)
        for (i, key) in components.enumerated() {
            func fail(_ code: DiagnosticCode, _ message: String, hints: [String] = []) -> ShellError {
                var error = ShellError(.badDotArgument, message, at: span, hints: hints)
                error.code = code.rawValue
                error.stage = "bind"
                return error
            }
            if current.attribute(named: key, in: model) != nil {
                guard i == components.count - 1 else {
                    throw fail(.keyAfterAttribute, "'\(key)' is an attribute of \(current.name); '\(components[i + 1])' cannot follow it")
                }
                return
            }
            guard let r = current.relationship(named: key, in: model), let next = model.entity(named: r.destination) else {
                let names = current.allProperties(in: model).map(\.name)
                throw fail(.unknownKeyInModel, "\(current.name) has no attribute or relationship '\(key)'",
                           hints: Suggestions.closest(to: key, among: names).map { ["did you mean '\($0)'?"] } ?? ["\(current.name) has: " + names.joined(separator: ", ")])
            }
            guard !r.isToMany else {
                throw fail(.toManyWithoutQuantifier, "'\(key)' is a to-many relationship: a section or sort key reads one value per object")
            }
            if sorting && i == components.count - 1 {
                throw fail(.toManyWithoutQuantifier, "cannot sort by '\(path)': sort keys are attributes reached through to-one relationships")
            }
            current = next
        }
    }

    private func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}

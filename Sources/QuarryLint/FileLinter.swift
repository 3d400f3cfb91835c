// Lints one source file: finds the format calls, works out each one's
// entity, runs the checks, places every finding at its line and column in
// the file, and drops what `quarry-lint:disable…` comments switch off.

import QuarryModel
import QuarrySyntax

/// The models a run checks against, loaded once and shared by all files.
public struct ModelSet: Sendable {
    public var models: [Model]
    public init(_ models: [Model]) { self.models = models }

    /// The first model with an entity of that name.
    func entity(named name: String) -> (Entity, Model)? {
        for model in models { if let e = model.entity(named: name) { return (e, model) } }
        return nil
    }

    var entityNames: [String] { models.flatMap(\.entityNames) }
}

enum FileLinter {
    /// Files larger than this are reported and skipped: no source file is this big.
    static let maximumBytes = 8 << 20

    static func lint(_ file: SourceFile, models: ModelSet) -> [Finding] {
        if file.bytes.count > maximumBytes {
            return [Finding(.unreadable, "file is \(file.bytes.count) bytes; files over \(maximumBytes) bytes are not linted",
                            file: file.path, line: 1, column: 1)]
        }
        if file.bytes.prefix(8192).contains(0) {
            return [Finding(.unreadable, "binary file (contains NUL bytes): not linted", file: file.path, line: 1, column: 1)]
        }
        let scanned = Scanner.scan(file)
        let finder = CallFinder(file: file, scanned: scanned)
        let calls = finder.calls()
        guard !calls.isEmpty else { return [] }
        let variables = models.models.isEmpty ? [] : finder.fetchRequestVariables()
        var findings: [Finding] = []
        for call in calls {
            let found = lint(call, in: file, finder: finder, variables: variables, models: models)
            findings += suppress(found, callLine: file.line(of: call.start), directives: scanned.directives)
        }
        return findings
    }

    private static func lint(_ call: FormatCall, in file: SourceFile, finder: CallFinder,
                             variables: [(token: Int, variable: String, entity: EntityHint)], models: ModelSet) -> [Finding] {
        func at(_ offset: Int, _ rule: LintRule, _ message: String, _ hints: [String] = []) -> Finding {
            let (line, column) = file.location(of: offset)
            var finding = Finding(rule, message, file: file.path, line: line, column: column, hints: hints)
            finding.sourceLine = file.lineText(line)
            return finding
        }
        var out: [Finding] = []
        var entity: (Entity, Model)?
        if !models.models.isEmpty, let hint = finder.entity(for: call, variables: variables) {
            entity = models.entity(named: hint.name)
            if entity == nil && hint.isEntityName {
                let suggestion = Suggestions.closest(to: hint.name, among: models.entityNames)
                out.append(at(hint.offset, .unknownEntity, "no entity named '\(hint.name)' in the model",
                              suggestion.map { ["did you mean '\($0)'?"] } ?? []))
            }
        }
        if call.kind == .blockPredicate {
            // Only a block predicate handed to a fetch request is a problem.
            if finder.entity(for: call, variables: variables) != nil || assignedToPredicate(call, finder) {
                out.append(at(call.start, .sqliteUnsupported, "a block predicate cannot run in a SQLite fetch (Core Data throws)",
                              ["write the condition as a format string, or filter the results in memory"]))
            }
            return out
        }
        guard let literal = call.format else { return out }
        if let problem = literal.problem {
            out.append(at(literal.start, .unreadable, "\(problem): the format string is not checked"))
            return out
        }
        if let reason = literal.notConstant {
            out.append(at(literal.start, .notConstant, "format string is not constant (\(reason)): not checked",
                          ["build the predicate from a constant format with %@ / %K arguments, or NSCompoundPredicate"]))
            return out
        }
        let checker = FormatChecker(text: literal.text, kind: call.kind == .expression ? .expression : .predicate,
                                    arguments: call.arguments, entity: entity?.0, model: entity?.1)
        for raw in checker.check() {
            let offset: Int
            switch raw.place {
            case .format(let index): offset = literal.sourceOffset(of: index)
            case .source(let o): offset = o
            }
            out.append(at(offset, raw.rule, raw.message, raw.hints))
        }
        return out
    }

    /// `x.predicate = NSPredicate { … }` or `predicate: NSPredicate(block:)`.
    private static func assignedToPredicate(_ call: FormatCall, _ finder: CallFinder) -> Bool {
        let i = call.tokenIndex
        return (finder.isPunct(i - 1, "=") && finder.isIdent(i - 2, "predicate"))
            || (finder.isPunct(i - 1, ":") && (finder.isIdent(i - 2, "predicate") || finder.isIdent(i - 2, "setPredicate")))
    }

    /// Drops findings switched off by `disable` (that line), `disable-next-line`
    /// (the line after the comment) and `disable-file` comments. A finding
    /// inside a multi-line literal also counts as on its call's line, so one
    /// comment at the call covers the whole string.
    static func suppress(_ findings: [Finding], callLine: Int, directives: [Directive]) -> [Finding] {
        guard !directives.isEmpty else { return findings }
        func covers(_ d: Directive, _ f: Finding) -> Bool {
            d.words.isEmpty || d.words.contains(f.rule.rawValue)
        }
        return findings.filter { f in
            !directives.contains { d in
                switch d.kind {
                case .disable: return (d.line == f.line || d.line == callLine) && covers(d, f)
                case .disableNextLine: return (d.line + 1 == f.line || d.line + 1 == callLine) && covers(d, f)
                case .disableFile: return covers(d, f)
                case .entity: return false
                }
            }
        }
    }
}

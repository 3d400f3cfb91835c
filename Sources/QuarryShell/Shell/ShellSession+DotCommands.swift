// Dot-commands: the shell's own commands, one line each, as in sqlite3.
// `.open`, `.model` and `.read` touch files; `.mode`, `.timer`, `.explain`
// and `.engine` change how statements run and print; `.schema`, `.vars`,
// `.tokens` and `.ast` show state; `.watch` keeps a SECTIONS statement live
// (ShellSession+Watch.swift). Errors point at the command or argument.
import Foundation

extension ShellSession {
    static let dotCommands: [(String, String)] = [
        (".help", "show this help"),
        (".quit", "leave the shell (also Ctrl-D); a transaction left open is rolled back"),
        (".exit [N]", "leave the shell with exit status N (default 0)"),
        (".open PATH|URL", "open or create a SQLite store (:memory: for a new in-memory one) or a PostgreSQL one (postgres://...); its own model, or --model M"),
        (".model PATH", "read a model (YAML, JSON, .xcdatamodeld) and reopen the store with it"),
        (".schema [ENTITY]", "show the model's entities, attributes and relationships"),
        (".mode [MODE]", "output mode: " + OutputMode.allCases.map(\.rawValue).joined(separator: ", ")),
        (".timer on|off", "print how long each statement took"),
        (".explain on|off", "print the plan before each FETCH and COUNT"),
        (".engine sql|memory", "where predicates run: lowered to SQL, or evaluated in memory"),
        (".read FILE", "run the statements of a file (checked first, as quarry FILE does)"),
        (".tables", "list the model's entities"),
        (".bail on|off", "stop at the first error (default: on in files and -c, off in the REPL)"),
        (".echo on|off", "print each statement before its result"),
        (".headers on|off", "print column names (and the row count under a table)"),
        (".nullvalue TEXT", "print NULL as TEXT in the text modes"),
        (".expanded on|off|auto", "table results one column per line (as psql's \\x; line mode); auto: when wider than the terminal"),
        (".pager on|off", "show results taller than the terminal through $PAGER (default less -FRX; on a terminal only)"),
        (".width N ...", "minimum widths of the table columns, in order (.width alone resets)"),
        (".output [FILE]", "send results to FILE (created or emptied); .output alone: back to stdout"),
        (".once FILE", "send the next statement's results to FILE"),
        (".print TEXT", "print TEXT"),
        (".show", "show the current settings"),
        (".vars", "show the $variables set with SET"),
        (".tokens", "show the tokens of the last statement"),
        (".ast", "show the syntax tree of the last statement"),
        (".watch SECTIONS ...", "keep a SECTIONS statement live: print its changes after each INSERT, UPDATE, DELETE"),
        (".unwatch", "stop watching (also .watch off; .watch alone shows what is watched)"),
        (".history [since TOKEN]", "show the store's persistent history after TOKEN, one row per change (.history on|off: record it or not)"),
    ]

    func runDotCommand(_ line: String, file: String?) throws(ShellError) {
        // Words and their spans within the line.
        var words: [(String, SourceSpan)] = []
        var start: Int?
        let bytes = Array(line.utf8)
        for i in 0...bytes.count {
            let space = i == bytes.count || bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0D
            if space, let s = start {
                words.append((String(decoding: bytes[s..<i], as: UTF8.self), SourceSpan(start: s, end: i)))
                start = nil
            } else if !space && start == nil { start = i }
        }
        let (command, commandSpan) = words[0]
        let arguments = words.dropFirst().map(\.0)
        func argument(_ usage: String) throws(ShellError) -> String {
            guard let a = arguments.first else {
                throw ShellError(.badDotArgument, "\(command) needs an argument: \(usage)", at: commandSpan)
            }
            return a
        }
        func flag() throws(ShellError) -> Bool {
            let a = try argument("\(command) on|off")
            switch a.lowercased() {
            case "on", "yes", "1", "true": return true
            case "off", "no", "0", "false": return false
            default: throw ShellError(.badDotArgument, "\(command) takes on or off, not '\(a)'", at: words[1].1)
            }
        }
        switch command.lowercased() {
        case ".help":
            let width = Self.dotCommands.map(\.0.count).max()!
            var text = Self.dotCommands.map { $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 }.joined(separator: "\n")
            text += "\n\nStatements end with ';' (see Grammar/statements.ebnf):\n"
            text += "  FETCH [DISTINCT] [ONLY] Entity [PROPERTIES ...] [WHERE p] [GROUP BY ...] [HAVING p] [SORT BY k [DESC], ...] [LIMIT n] [OFFSET n] [BATCH n]\n"
            text += "  FETCH FROM TEMPLATE name [WITH $variable = value, ...]    (ONLY: without sub-entities)\n"
            text += "  COUNT [ONLY] Entity [WHERE p]    EVAL expression    SET $name = value    EXPLAIN statement\n"
            text += "  INSERT Entity {key: value, ...}    UPDATE Entity SET key = value, ... [WHERE p]    DELETE Entity [WHERE p]\n"
            text += "  SECTIONS Entity BY keyPath [WHERE p] [SORT BY ...]\n"
            text += "  BEGIN    COMMIT    ROLLBACK    SAVEPOINT name    RELEASE name    ROLLBACK TO name\n"
            output(text)
        case ".quit":
            quitRequested = true
        case ".exit":
            if let a = arguments.first {
                guard let n = Int32(a), (0...255).contains(n) else {
                    throw ShellError(.badDotArgument, ".exit takes an exit status 0...255, not '\(a)'", at: words[1].1)
                }
                exitStatus = n
            }
            quitRequested = true
        case ".open":
            let path = try argument(".open PATH|URL [--model MODEL]")
            try refuseInTransaction(command, at: commandSpan)
            // The store's own model, or the one given here (ShellSession.reopen).
            let modelArgument = arguments.count >= 3 && arguments[1] == "--model" ? resolve(arguments[2], file: file) : nil
            do throws(ShellError) { try reopen(path, modelPath: modelArgument) } catch {
                var located = error
                located.located = true
                located.span = words[1].1
                throw located
            }
            stopWatch(because: "another store was opened")
        case ".model":
            let path = resolve(try argument(".model PATH"), file: file)
            try refuseInTransaction(command, at: commandSpan)
            do {
                model = try ModelReader.read(from: path)
                modelPath = path
                reportWarnings(of: model)
            } catch {
                let missing = !FileManager.default.fileExists(atPath: path)
                throw ShellError(missing ? .cannotOpen : .badDotArgument, missing ? "cannot open model '\(path)': no such file" : "\(error)",
                                 at: words[1].1, exitCode: missing ? ExitStatus.cannotOpen : ExitStatus.badInput)
            }
            openStore = nil
            if case .defaultStore = location { location = .sqlite(":memory:") }
            stopWatch(because: "the store was reopened with another model")
            _ = try store()
        case ".schema":
            output(try schemaText(arguments.first, span: words.count > 1 ? words[1].1 : commandSpan))
        case ".mode":
            guard let a = arguments.first else { output(mode.rawValue + "\n"); return }
            guard let m = OutputMode(rawValue: a.lowercased()) else {
                let hint = Suggestions.closest(to: a, among: OutputMode.allCases.map(\.rawValue)).map { ["did you mean '\($0)'?"] } ?? []
                throw ShellError(.badDotArgument, "unknown mode '\(a)'; use " + OutputMode.allCases.map(\.rawValue).joined(separator: ", "),
                                 at: words[1].1, hints: hint)
            }
            mode = m
        case ".timer": timer = try flag()
        case ".explain": explain = try flag()
        case ".engine":
            let a = try argument(".engine sql|memory")
            guard let e = FetchEngine(rawValue: a.lowercased()) else {
                throw ShellError(.badDotArgument, "unknown engine '\(a)'; use sql or memory", at: words[1].1)
            }
            engine = e
        case ".read":
            let path = resolve(try argument(".read FILE"), file: file)
            guard readDepth < 16 else { throw ShellError(.badDotArgument, ".read is nested too deeply", at: words[1].1) }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ShellError(.cannotOpen, "cannot open '\(path)': no such file", at: words[1].1, exitCode: ExitStatus.cannotOpen)
            }
            readDepth += 1
            defer { readDepth -= 1 }
            // As for a file on the command line: a typo anywhere fails it before anything runs.
            let text = String(decoding: data, as: UTF8.self)
            // It stops at its first error, whatever `.bail` says outside it.
            var vars = variables
            if case .failed(let error) = preflight(text, variables: &vars) {
                report(error, source: SourceText(text), file: path)
                throw ShellError.reported(error.exitCode)
            }
            let outerBail = bail
            bail = true
            defer { bail = outerBail }
            let status = run(text, file: path, stopOnError: true)
            if status != 0 { throw ShellError.reported(status) }
        case ".vars":
            output(variables.keys.sorted().map { "$\($0) = \(Printer.format(variables[$0]!))\n" }.joined())
        case ".tokens":
            guard let text = lastStatement else { output("(no statement yet)\n"); return }
            output(tokenListing(text))
        case ".ast":
            guard let text = lastStatement else { output("(no statement yet)\n"); return }
            output(try parseStatement(text).json.serialized + "\n")
        case ".bail": bail = try flag()
        case ".echo": echo = try flag()
        case ".headers", ".header": presentation.headers = try flag()
        case ".expanded":
            let a = try argument(".expanded on|off|auto").lowercased()
            guard let e = Expanded(rawValue: a == "on" || a == "off" || a == "auto" ? a : (try? flag()).map { $0 ? "on" : "off" } ?? "") else {
                throw ShellError(.badDotArgument, ".expanded takes on, off or auto, not '\(arguments[0])'", at: words[1].1)
            }
            presentation.expanded = e
        case ".pager": route.paging = try flag()
        case ".nullvalue":
            presentation.nullText = try argument(".nullvalue TEXT")
        case ".width":
            var widths: [Int] = []
            for (w, span) in words.dropFirst() {
                guard let n = Int(w), n >= 0 else { throw ShellError(.badDotArgument, ".width takes whole numbers, not '\(w)'", at: span) }
                widths.append(n)
            }
            presentation.widths = widths
        case ".output", ".once":
            if command.lowercased() == ".output" && arguments.isEmpty { route.close(); return }
            let path = resolve(try argument("\(command) FILE"), file: nil)
            do throws(ShellError) { try route.redirect(to: path, once: command.lowercased() == ".once") } catch {
                var located = error
                located.span = words[1].1
                throw located
            }
        case ".print":
            // The rest of the line as typed, after one space.
            output(String(line.dropFirst(command.utf8.count).drop(while: { $0 == " " || $0 == "\t" })) + "\n")
        case ".tables":
            output(try currentModel().entityNames.sorted().joined(separator: "  ") + "\n")
        case ".show":
            output(settingsText())
        case ".watch":
            try watchCommand(line, command: commandSpan)
        case ".unwatch":
            stopWatch(because: nil)
        case ".history":
            try historyCommand(words, command: commandSpan)   // ShellSession+History.swift
        default:
            let names = Self.dotCommands.map { String($0.0.split(separator: " ")[0]) } + [".exit"]
            let hint = Suggestions.closest(to: command, among: names).map { ["did you mean '\($0)'?"] } ?? ["type .help for the list"]
            throw ShellError(.unknownDotCommand, "unknown command '\(command)'", at: commandSpan, hints: hint)
        }
    }

    /// `.open` and `.model` would leave the open transaction on the old store.
    func refuseInTransaction(_ command: String, at span: SourceSpan) throws(ShellError) {
        guard inTransaction else { return }
        throw ShellError(.badDotArgument, "\(command) inside a transaction", at: span,
                         hints: ["COMMIT or ROLLBACK first"])
    }

    /// `.show`: the settings, one per line, as sqlite3 shows them.
    func settingsText() -> String {
        func onOff(_ b: Bool) -> String { b ? "on" : "off" }
        let rows: [(String, String)] = [
            ("store", location.displayName), ("mode", mode.rawValue), ("engine", engine.rawValue),
            ("headers", onOff(presentation.headers)), ("nullvalue", presentation.nullText.map { "\"\($0)\"" } ?? "NULL"),
            ("expanded", presentation.expanded.rawValue),
            ("pager", route.paging ? route.pagerCommand.map { "on (\($0))" } ?? "on (no terminal or no pager)" : "off"),
            ("width", presentation.widths.map(String.init).joined(separator: " ")),
            ("output", route.path ?? "stdout"), ("bail", onOff(bail)), ("echo", onOff(echo)), ("timer", onOff(timer)),
            ("explain", onOff(explain)), ("transaction", inTransaction ? "open" : "none"),
        ]
        return rows.map { $0.0.padding(toLength: 12, withPad: " ", startingAt: 0) + $0.1 + "\n" }.joined()
    }

    /// A path as given, or else relative to the directory of the running file.
    func resolve(_ path: String, file: String?) -> String {
        if path.hasPrefix("/") || FileManager.default.fileExists(atPath: path) { return path }
        guard let file, file.contains("/") else { return path }
        let candidate = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(path).path
        return FileManager.default.fileExists(atPath: candidate) ? candidate : path
    }

    func tokenListing(_ text: String) -> String {
        let source = SourceText(text)
        guard let lexed = try? Lexer.tokenize(source) else { return "(the statement does not lex)\n" }
        var out = ""
        for t in lexed.tokens {
            let loc = source.location(of: t.span.start)
            let spelled = String(decoding: source.utf8[t.span.start..<t.span.end], as: UTF8.self)
            let kind: String
            switch t.kind {
            case .end: kind = "end"
            case .identifier: kind = "identifier"
            case .escapedIdentifier: kind = "escaped-identifier"
            case .keyword: kind = "keyword"
            case .integer: kind = "integer"
            case .double: kind = "double"
            case .string: kind = "string"
            case .variable: kind = "variable"
            case .specifier: kind = "specifier"
            case .punctuation: kind = "punctuation"
            }
            out += "\(loc.line):\(loc.column)\t\(kind)\t\(spelled)\n"
        }
        return out
    }
}

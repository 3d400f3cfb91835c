// What the REPL has been typed so far, and when some of it can run: lines
// are collected until they hold complete items (statements with their `;`,
// or dot-command lines); those run, and an unfinished statement stays for
// the next line (ScriptSplitter.ready). Kept apart from the REPL's terminal
// handling so the rule is tested without a terminal.

public struct StatementCollector {
    /// The unfinished statement, if any.
    public private(set) var pending = ""

    public init() {}

    /// True while a statement continues (the prompt is `   ...> `).
    public var continuing: Bool { !pending.isEmpty }

    /// Adds a typed line; returns the text that is ready to run, if any.
    public mutating func add(_ line: String) -> String? {
        if pending.isEmpty && line.allSatisfy(\.isWhitespace) { return nil }
        let text = pending.isEmpty ? line : pending + "\n" + line
        let (ready, rest) = ScriptSplitter.ready(text)
        pending = rest
        return ready.allSatisfy(\.isWhitespace) ? nil : ready
    }

    /// Drops the unfinished statement (Ctrl-C).
    public mutating func clear() { pending = "" }
}

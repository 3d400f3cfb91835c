// The interactive shell: prompts `quarry> ` (`quarry*> ` inside a
// transaction) and `   ...> ` while a statement continues. A statement ends
// only at its `;`, as in sqlite3 and psql, so a statement typed or pasted
// over several lines runs whole, and pasted text with several statements
// runs them in order; a dot-command is one line, where a statement could
// start. Errors do not end the shell (unless `.bail on`); Ctrl-C stops the
// running statement (or drops the line being typed, and any input typed
// ahead) and prints `interrupted`; Ctrl-D or `.quit` leaves, rolling back a
// transaction left open.
import Foundation

public struct REPL {
    public static let prompt = "quarry> "
    public static let transactionPrompt = "quarry*> "
    public static let continuation = "   ...> "
    let session: ShellSession

    public init(session: ShellSession) { self.session = session }

    public func run() -> Int32 {
        let session = self.session
        let interrupts = InterruptWatch(cancellation: session.cancellation)
        session.colour = isatty(2) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
        session.onStoreOpened = { store in interrupts.watch(store.database.interrupter) }
        if let store = session.openStore { interrupts.watch(store.database.interrupter) }
        let reader = LineReader(interrupts: interrupts, complete: { line, word in
            Completion.candidates(line: line, word: word, model: session.model ?? (try? session.currentModel()),
                                  variables: Array(session.variables.keys))
        }, continues: { line, match in
            Completion.endsAtToOne(line: line, match: match, model: session.model ?? (try? session.currentModel()))
        })
        if !session.quiet {
            print("Quarry: Core Data's query language. \(session.storeDescription).")
            print("Statements end with ';'. Type .help for help, Ctrl-D to leave.")
        }
        fflush(nil)
        var collector = StatementCollector()
        while !session.quitRequested {
            let prompt = collector.continuing ? Self.continuation : session.inTransaction ? Self.transactionPrompt : Self.prompt
            switch reader.read(prompt: prompt) {
            case .end:
                if collector.continuing { session.reportNote("(the unfinished statement was not run)") }
                session.finish()
                return session.exitStatus
            case .interrupt:
                collector.clear()
            case .line(let line):
                guard let ready = collector.add(line) else { continue }
                reader.remember(ready.trimmingCharacters(in: .whitespacesAndNewlines))
                session.forgetInterrupts()
                let status = session.run(ready, file: nil, stopOnError: true)
                fflush(nil)
                if status == ExitStatus.interrupted {
                    // Whatever was typed or pasted after the interrupted
                    // statement is dropped with it.
                    tcflush(0, TCIFLUSH)
                    collector.clear()
                }
            }
        }
        session.finish()
        return session.exitStatus
    }
}

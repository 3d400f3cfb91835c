// The interactive shell: prompts `quarry> ` and `   ...> ` (an unfinished
// statement continues on the next line), runs each complete statement or
// dot-command as soon as it is typed, keeps going after errors, keeps the
// shell alive on Ctrl-C (cancelling the running statement, or the line being
// typed), and leaves on Ctrl-D or `.quit`.
import Foundation

public struct REPL {
    public static let prompt = "quarry> "
    public static let continuation = "   ...> "
    let session: ShellSession

    public init(session: ShellSession) { self.session = session }

    public func run() -> Int32 {
        let interrupts = InterruptWatch()
        let session = self.session
        session.colour = isatty(2) != 0
        session.onStoreOpened = { store in interrupts.watch(store.database.interrupter) }
        if let store = session.openStore { interrupts.watch(store.database.interrupter) }
        let reader = LineReader(interrupts: interrupts) { line, word in
            Completion.candidates(line: line, word: word, model: session.model ?? (try? session.currentModel()),
                                  variables: Array(session.variables.keys))
        }
        print("Quarry: Core Data's query language. \(session.storeDescription).")
        print("Statements end with ';' or a complete line. Type .help for help, Ctrl-D to leave.")
        fflush(nil)
        var buffer = ""
        while !session.quitRequested {
            switch reader.read(prompt: buffer.isEmpty ? Self.prompt : Self.continuation) {
            case .end:
                return 0
            case .interrupt:
                buffer = ""
            case .line(let line):
                if buffer.isEmpty && line.allSatisfy(\.isWhitespace) { continue }
                buffer += (buffer.isEmpty ? "" : "\n") + line
                let trimmed = buffer.drop(while: { $0 == " " || $0 == "\t" })
                if trimmed.hasPrefix(".") || !ScriptSplitter.needsMoreInput(buffer) {
                    reader.remember(buffer)
                    session.run(buffer, file: nil, stopOnError: false)
                    fflush(nil)
                    buffer = ""
                }
            }
        }
        return 0
    }
}

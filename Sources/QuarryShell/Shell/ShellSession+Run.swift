// Running script text — the statements and dot-commands of a file, a `-c`,
// or what the REPL collected — in order. Each item's errors are reported
// where they stand in the text; the first one ends the run when the caller
// asks to stop on errors and `.bail` is on. A Ctrl-C (the session's
// `cancellation`) ends the run at once: `interrupted` is printed, the rest
// of the items are dropped, and the status is 130, as a shell's. A pager
// quit before the end of an item's output (Pager.swift) drops only the rest
// of that output.
import Foundation

extension ExitStatus {
    /// A run ended by Ctrl-C (128 + SIGINT, as shells report it).
    public static let interrupted: Int32 = 130
}

extension ShellSession {
    /// Runs script text; returns 0, or the exit status of the first error.
    /// With `stopOnError` (and `.bail` on, the default outside the REPL),
    /// the first error ends the run.
    @discardableResult
    public func run(_ text: String, file: String? = nil, stopOnError: Bool) -> Int32 {
        let source = SourceText(text)
        var status: Int32 = 0
        for item in ScriptSplitter.split(source) {
            if quitRequested { break }
            if cancellation.isInterrupted { return interrupted() }
            // Each item's output is paged on its own (Pager.swift), and a
            // pager quit early discards only that item's output.
            defer {
                route.itemDone()
                releaseParked()
            }
            if echo { output(item.text.trimmingCharacters(in: .whitespacesAndNewlines) + (item.kind == .statement ? ";\n" : "\n")) }
            let started = DispatchTime.now()
            let wasInTransaction = openStore?.database.isInTransaction ?? false
            do throws(ShellError) {
                switch item.kind {
                case .dotCommand:
                    do throws(ShellError) { try runDotCommand(item.text, file: file) } catch {
                        throw error.located ? error.shifted(by: item.offset) : error
                    }
                case .statement:
                    lastStatement = item.text
                    do throws(ShellError) {
                        try execute(parseStatement(item.text))
                    } catch {
                        throw error.located ? error.shifted(by: item.offset) : error
                    }
                }
            } catch {
                InterruptTrace.mark("the statement's error reached the run loop")
                if cancellation.isInterrupted { return interrupted(wasInTransaction: wasInTransaction) }
                if item.kind == .statement { route.statementDone() }
                // Stopped because its reader quit: not an error.
                if cancellation.isCancelled { cancellation.endDiscarding(); continue }
                report(error, source: source, file: file)
                if status == 0 { status = error.exitCode }
                if stopOnError && bail { return status }
                continue
            }
            // Printing may have been cut short without an error.
            if cancellation.isInterrupted { return interrupted(wasInTransaction: wasInTransaction) }
            cancellation.endDiscarding()
            if item.kind == .statement { route.statementDone() }
            if timer && item.kind == .statement {
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
                output(String(format: "Run Time: %.6f s\n", seconds))
            }
        }
        return status
    }

    /// Before the REPL runs new input: earlier Ctrl-Cs are spent, in the
    /// shell and in the store (whose interrupt request would otherwise stop
    /// the next statement's first check).
    func forgetInterrupts() {
        cancellation.reset()
        InterruptTrace.reset()
        openStore?.database.clearInterruptRequest()
    }

    /// After a Ctrl-C: says so (once), and whether the store threw away an
    /// open transaction (SQLite rolls back the whole transaction when a write
    /// in it is interrupted).
    func interrupted(wasInTransaction: Bool = false) -> Int32 {
        // A pager showing the output is waited for before the message.
        route.itemDone()
        route.statementDone()
        if cancellation.shouldReport() {
            errors("interrupted\n")
            InterruptTrace.mark("'interrupted' printed")
            if wasInTransaction && !(openStore?.database.isInTransaction ?? false) {
                errors("the open transaction was rolled back\n")
            }
        }
        return ExitStatus.interrupted
    }
}

// `.history [since TOKEN]` and `.history on|off`: the store's persistent
// history (QuarryStore's SQLStore+History.swift) as a result — one row per
// change, with its transaction's token, time, author, context and kind — so
// it prints in every output mode (a table, NDJSON for scripts) as
// statements' results do. `on` and `off` turn recording on or off for the
// store (kept in the store, for every process that opens it).
import Foundation

extension ShellSession {
    static let historyColumns = ["token", "timestamp", "author", "context", "kind", "change", "object", "keys", "tombstone"]

    func historyCommand(_ words: [(String, SourceSpan)], command: SourceSpan) throws(ShellError) {
        let arguments = words.dropFirst().map(\.0)
        let usage = ".history [since TOKEN] | .history on|off"
        var after: HistoryToken?
        switch arguments.map({ $0.lowercased() }) {
        case []:
            break
        case ["on"], ["off"]:
            try refuseInTransaction(".history \(arguments[0])", at: command)
            let store = try store()
            do { try store.setHistoryTracking(arguments[0].lowercased() == "on") } catch { throw Self.historyFailure(error, from: store.database) }
            output("history \(store.recordsHistory ? "on" : "off")\n")
            return
        case let a where a.count == 2 && a[0] == "since":
            guard let n = Int64(arguments[1]) else {
                throw ShellError(.badDotArgument, ".history since takes a token (a whole number), not '\(arguments[1])'", at: words[2].1)
            }
            after = HistoryToken(n)
        default:
            throw ShellError(.badDotArgument, "usage: \(usage)", at: words.count > 1 ? words[1].1 : command)
        }
        let transactions: [HistoryTransaction]
        let store = try store()
        do { transactions = try store.history(after: after) } catch { throw Self.historyFailure(error, from: store.database) }
        var rows: [[Value]] = []
        for t in transactions {
            let head: [Value] = [.int(t.token.value), .date(t.timestamp.timeIntervalSinceReferenceDate),
                                 t.author.map { .string($0) } ?? .null, t.contextName.map { .string($0) } ?? .null, .string(t.kind.rawValue)]
            for change in t.changes {
                rows.append(head + [.string(change.type.rawValue), .string(change.objectID.description),
                                    change.changedKeys.isEmpty ? .null : .string(change.changedKeys.joined(separator: ",")),
                                    change.tombstone.isEmpty ? .null : .dictionary(change.tombstone)])
            }
        }
        write(.rows(ResultSet(columns: Self.historyColumns, rows: rows)))
    }

    /// A store's refusal (no history kept, a read-only store) as the shell reports it.
    static func historyFailure(_ error: any Error, from database: any SQLDatabase) -> ShellError {
        if let quarry = error as? any QuarryError, quarry.report.code == "R004" { return .failed("\(error)", code: .notSupported) }
        return .failed(databaseMessage(error, from: database))
    }
}

// `.history` in the shell, on SQLite and (when a server is configured)
// PostgreSQL, byte for byte the same once the timestamps — the only column
// that differs between runs — are masked: turned on, each write prints as
// its changes, `since TOKEN` shows only what came after, NDJSON for
// scripts, and the errors (history never turned on, a bad token).
import Foundation
import QuarryPostgresTestSupport
import Testing
@testable import QuarryShell

@Suite("Shell: .history", .serialized)
struct HistoryShellTests {
    static let model = """
    entities:
      Department:
        attributes:
          name: { type: string, preserveAfterDeletion: true }
        relationships:
          employees: { to: Employee, many: true, inverse: department }
      Employee:
        attributes:
          name: string
          salary: integer64
        relationships:
          department: { to: Department, inverse: employees }
    """

    static let setUp = """
    INSERT Department {name: 'Sales'};
    INSERT Employee {name: 'Ann', salary: 100, department: 'Department/1'};
    """

    /// What differs between runs masked: timestamps (and the width of
    /// their column, which follows their length), and the store's location.
    static func masked(_ text: String, store: String) -> String {
        text.replacingOccurrences(of: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z *"#, with: "<time> ", options: .regularExpression)
            .replacingOccurrences(of: #"timestamp +\|"#, with: "timestamp |", options: .regularExpression)
            .replacingOccurrences(of: #"(?m)^[-+]+$"#, with: "<rule>", options: .regularExpression)
            .replacingOccurrences(of: store, with: "<store>")
    }

    static let table = """
     token | timestamp | author | context | kind        | change | object       | keys       | tombstone
    <rule>
         1 | <time> | NULL   | NULL    | batchUpdate | update | Employee/1   | salary     | NULL
         2 | <time> | NULL   | NULL    | save        | insert | Employee/2   | NULL       | NULL
         3 | <time> | NULL   | NULL    | batchDelete | update | Employee/1   | department | NULL
         3 | <time> | NULL   | NULL    | batchDelete | delete | Department/1 | NULL       | {name: Sales}
    (4 rows)

    """

    static let cases: [(String, String, String, Int32)] = [
        (".history", "", "error[R004]: the store at <store> has no persistent history: it was never turned on (`store.setHistoryTracking(true)`, or `.history on` in the shell)\n", 1),
        (".history on", "history on\n", "", 0),
        ("UPDATE Employee SET salary = salary + 1;\nINSERT Employee {name: 'Bob', salary: 5};\nDELETE Department WHERE name == 'Sales';\n.history",
         "updated 1 object\ninserted Employee/2\ndeleted 1 object\n" + table, "", 0),
        (".history since 2", table.replacingOccurrences(of: "(4 rows)", with: "(2 rows)").split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated().filter { ![2, 3].contains($0.offset) }.map(\.element).joined(separator: "\n"), "", 0),
        (".history since x", "", "1:16: error[S011]: .history since takes a token (a whole number), not 'x'\n    .history since x\n                   ^\n", 65),
        (".mode ndjson\nUPDATE Employee SET salary = 7 WHERE name == 'Bob';\n.history since 3",
         "{\"updated\":1}\n{\"token\":4,\"timestamp\":\"<time> \",\"author\":null,\"context\":null,\"kind\":\"batchUpdate\",\"change\":\"update\",\"object\":\"Employee/2\",\"keys\":\"salary\",\"tombstone\":null}\n", "", 0),
        (".history off\nUPDATE Employee SET salary = 8;\n.mode csv\n.history since 3", "history off\nupdated 2 objects\ntoken,timestamp,author,context,kind,change,object,keys,tombstone\r\n4,<time> ,,,batchUpdate,update,Employee/2,salary,\r\n", "", 0),
        (".history since", "", "", 65),
        ("BEGIN;\n.history on", "", "2:1: error[S011]: .history on inside a transaction\n    .history on\n    ^~~~~~~~\nhelp: COMMIT or ROLLBACK first\nrolled back the open transaction (no COMMIT before the end)\n", 65),
    ]

    @Test(arguments: TranscriptTable.locations)
    func transcripts(location: String) throws {
        try TranscriptTable.withStore(at: location, model: Self.model) { _, modelPath, store in
            #expect(transcript([.command(Self.setUp)], store: store, modelPath: modelPath).status == 0)
            for (script, out, err, status) in Self.cases {
                let r = transcript([.command(script)], store: store)
                let shown = store.displayName
                #expect(Self.masked(r.out, store: shown) == out, "\(location): \(script)\n\(Self.masked(r.out, store: shown))")
                #expect(err.isEmpty ? r.err.isEmpty || status != 0 : Self.masked(r.err, store: shown) == err, "\(location): \(script)\n\(r.err.debugDescription)")
                #expect(r.status == status, "\(location): \(script)")
            }
        }
    }
}

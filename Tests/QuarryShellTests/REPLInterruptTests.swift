// Ctrl-C, Ctrl-D and pasting in the real REPL on a pseudo-terminal, on a
// store big enough that each phase of a statement takes a while: the SQL,
// reading its rows, and printing them. After Ctrl-C the output must stop
// (the next thing on the screen is `interrupted`, then the prompt), and it
// must do so quickly: the time from the Ctrl-C to `interrupted`, and to the
// prompt after it, is printed for the record. The 100 ms rule itself is
// asserted only when the measurement is asked for (QUARRY_INTERRUPT_TRIES
// set: timings on a shared machine are not a unit test). With
// QUARRY_BIG_EMPLOYEES=500000 and QUARRY_INTERRUPT_TRIES=20 (and
// QUARRY_BIG_STORE=PATH to reuse a store made by `quarry fixtures` with
// those counts) it is the issue's measurement.
import Foundation
import Testing
@testable import QuarryShell
#if canImport(Glibc)
import Glibc
#endif

/// A company store with many employees, made once by `quarry fixtures`.
enum BigStore {
    /// `QUARRY_BIG_EMPLOYEES=500000` for the issue's measurement.
    static let employees = ProcessInfo.processInfo.environment["QUARRY_BIG_EMPLOYEES"].flatMap(Int.init) ?? 100_000
    /// `QUARRY_BIG_STORE=PATH`: an existing store made the same way (it is only read).
    static let given = ProcessInfo.processInfo.environment["QUARRY_BIG_STORE"]
    static let path = given ?? NSTemporaryDirectory() + "quarry-big-\(getpid()).sqlite"
    static let model = packageRoot.appendingPathComponent("Examples/Models/Company.yaml").path
    static let made: Bool = {
        if given != nil { return FileManager.default.fileExists(atPath: path) }
        guard let binary = REPLTerminalTests.binary else { return false }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = ["fixtures", "--model", model, "--out", path, "--count", "Employee=\(employees)", "--count", "Department=50",
                       "--count", "Project=10", "--seed", "7"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }()
}

@Suite("REPL interrupts and input", .serialized)
struct REPLInterruptTests {
    static var environment: [String: String] {
        ["QUARRY_HISTORY": NSTemporaryDirectory() + "quarry-int-history-\(getpid())", "TERM": "xterm", "PAGER": "",
         "HOME": NSTemporaryDirectory(), "PATH": "/usr/bin:/bin"]
    }

    /// (phase, statement, what to wait for before Ctrl-C, extra delay; a
    /// negative delay sweeps: the tries' Ctrl-Cs are spread from 1 s to 8 s)
    static let phases: [(String, String, String?, Double)] = [
        // SQL: a correlated SUBQUERY keeps SQLite busy long before any row.
        ("sql", "COUNT Employee WHERE SUBQUERY(department.employees, $e, $e.salary > salary).@count > 100000;", nil, 0.5),
        // Decoding: rows are being read into objects (nothing printed yet).
        ("decoding", "FETCH Employee SORT BY name;", nil, 0.3),
        // Printing: the table is on its way to the screen.
        ("printing", "FETCH Employee SORT BY name;", "-+-", 0.05),
        ("printing csv", ".mode csv\rFETCH Employee BATCH 1000;", "\r\n", 0.05),
        ("printing 100k", "FETCH Employee SORT BY name LIMIT 100000;", "-+-", 0.05),
        // Table mode streams BATCH n batch by batch: the first rows come at once.
        ("printing table batch", "FETCH Employee SORT BY name BATCH 1000;", "-+-", 0.05),
        // SECTIONS: the fetch and sectioning (no output yet), then its printing.
        ("sections building", "SECTIONS Employee BY department.name SORT BY department.name, name;", nil, 1.5),
        ("sections printing", "SECTIONS Employee BY department.name SORT BY department.name, name;", "-+-", 0.05),
        // ...and every moment before its output: the end of SQLite's sort,
        // reading the rows into the context, sectioning, building the rows.
        ("sections sweep", "SECTIONS Employee BY department.name SORT BY department.name, name;", nil, -1),
    ]

    /// `QUARRY_INTERRUPT_PHASE=printing` runs only that phase (a long measurement).
    static let onlyPhase = ProcessInfo.processInfo.environment["QUARRY_INTERRUPT_PHASE"]

    static let tries = ProcessInfo.processInfo.environment["QUARRY_INTERRUPT_TRIES"].flatMap(Int.init) ?? 2
    /// The latency limit is checked only in a measurement run.
    static let measuring = ProcessInfo.processInfo.environment["QUARRY_INTERRUPT_TRIES"] != nil

    @Test(.enabled(if: REPLTerminalTests.binary != nil && BigStore.made, "needs the built quarry executable"), arguments: phases)
    func ctrlCStopsTheStatement(phase: String, statement: String, marker: String?, delay: Double) throws {
        if let only = Self.onlyPhase, only != phase { return }
        let repl = try #require(PTYProcess(REPLTerminalTests.binary!, arguments: ["--store", BigStore.path, "--model", BigStore.model],
                                           environment: Self.environment))
        try #require(repl.wait(for: "quarry> "), "\(repl.screen.suffix(300).debugDescription)")
        var latencies: [Double] = []
        var toPrompt: [Double] = []
        for attempt in 1...Self.tries {
            repl.type(statement + "\r")
            if let marker {
                // Table mode measures every row before the first line: minutes for 500 000 rows in a debug build.
                #expect(repl.waitAfter(statement.components(separatedBy: "\r").last!, for: marker, seconds: 600), "\(phase) #\(attempt)")
            }
            let pause = delay >= 0 ? delay : 1 + 7 * Double(attempt - 1) / Double(max(Self.tries - 1, 1))
            _ = repl.wait(for: "\u{0}", seconds: pause) // let it run a little, reading as it goes
            // Only what comes after the Ctrl-C is searched (searching megabytes
            // of rows on every read would make the reader the bottleneck).
            repl.screen = ""
            let sent = Date()
            repl.type("\u{03}")
            #expect(repl.wait(for: "interrupted", seconds: 10), "\(repl.screen.suffix(300).debugDescription)")
            latencies.append(Date().timeIntervalSince(sent))
            // After `interrupted`: only the prompt, no more rows.
            #expect(repl.waitAfter("interrupted", for: "quarry> "))
            toPrompt.append(Date().timeIntervalSince(sent))
            _ = repl.wait(for: "\u{0}", seconds: 0.3)
            guard let interrupted = repl.screen.range(of: "interrupted", options: .backwards) else {
                Issue.record("\(phase) #\(attempt): no `interrupted` on the screen")
                break
            }
            let after = repl.screen[interrupted.upperBound...]
            #expect(after.contains("quarry> ") && after.components(separatedBy: "\r\n").count <= 3 && !after.contains(" | "),
                    "\(after.debugDescription)")
            repl.screen = "" // the next try looks at its own output
            if statement.hasPrefix(".mode") {
                repl.type(".mode table\r")
                #expect(repl.wait(for: "quarry> ", seconds: 5))
            }
        }
        let worst = latencies.max() ?? 0
        print("Ctrl-C latency (\(phase), \(BigStore.employees) rows, \(latencies.count) tries): worst \(Int(worst * 1000)) ms, "
              + "median \(Int(latencies.sorted()[latencies.count / 2] * 1000)) ms; to the prompt: worst \(Int((toPrompt.max() ?? 0) * 1000)) ms, "
              + "all \(latencies.map { Int($0 * 1000) })")
        if Self.measuring { #expect(worst < 0.1, "\(phase): worst \(worst) s") }
        // A second Ctrl-C at the prompt is harmless; the shell still works.
        repl.type("\u{03}")
        #expect(repl.wait(for: "^C"))
        repl.type("COUNT Department;\r")
        #expect(repl.wait(for: "    50\r\n"), "\(repl.screen.suffix(300).debugDescription)")
        #expect(repl.waitAfter("    50\r\n", for: "quarry> "))
        repl.type("\u{04}")
        #expect(repl.finish() == 0)
    }

    @Test(.enabled(if: REPLTerminalTests.binary != nil, "needs the built quarry executable"))
    func pastedStatementsRunWholeAndInOrder() throws {
        let gone = Int(run("COUNT Employee WHERE age > 60", mode: .csv).out.split(separator: "\r\n")[1])!
        // csv's CRLF reaches the screen as CR CR LF (the terminal adds a CR).
        let kept = 200 - gone
        let repl = try #require(PTYProcess(REPLTerminalTests.binary!, environment: Self.environment))
        #expect(repl.wait(for: "quarry> "))
        // One write: the paste of the issue, then two statements on one line.
        repl.type("DELETE Employee\r  WHERE age > 60;\r.mode csv\rCOUNT Employee; EVAL 'second';\r")
        #expect(repl.wait(for: "second\r\r\n"), "\(repl.screen.suffix(300).debugDescription)")
        #expect(repl.screen.contains("deleted \(gone) objects"))
        #expect(repl.screen.contains("count\r\r\n\(kept)\r\r\n"), "\(repl.screen.suffix(400).debugDescription)")
        #expect(!repl.screen.contains("S001"))
        #expect(repl.screen.contains("   ...> "))
        #expect(repl.waitAfter("second\r\r\n", for: "quarry> "))
        repl.type("\u{04}")
        #expect(repl.finish() == 0)
    }

    @Test(.enabled(if: REPLTerminalTests.binary != nil, "needs the built quarry executable"))
    func ctrlDRollsBackAnOpenTransaction() throws {
        let path = try companyFile("ctrl-d")
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        let before = bytes(path)
        let repl = try #require(PTYProcess(REPLTerminalTests.binary!, arguments: ["--store", path], environment: Self.environment))
        #expect(repl.wait(for: "quarry> "))
        repl.type("BEGIN;\rDELETE Employee;\r")
        #expect(repl.wait(for: "deleted 200 objects"))
        #expect(repl.waitAfter("deleted 200 objects", for: "quarry*> "))
        // An unfinished statement at Ctrl-D is not run.
        repl.type("COUNT Employee\r")
        #expect(repl.wait(for: "   ...> "))
        repl.type("\u{04}")
        #expect(repl.finish() == 0)
        #expect(repl.screen.contains("(the unfinished statement was not run)"))
        #expect(repl.screen.contains("rolled back the open transaction"))
        #expect(bytes(path) == before)
    }

    @Test(.enabled(if: REPLTerminalTests.binary != nil, "needs the built quarry executable"))
    func completionFitsThePlace() throws {
        let repl = try #require(PTYProcess(REPLTerminalTests.binary!, environment: Self.environment))
        #expect(repl.wait(for: "quarry> "))
        repl.type(".mode mark\t")
        #expect(repl.wait(for: "markdown"))
        repl.type("\r.bail of\t")
        #expect(repl.wait(for: "off"))
        repl.type("\rFETCH Department SO\t")
        #expect(repl.wait(for: "SORT BY"), "\(repl.screen.suffix(200).debugDescription)")
        repl.type("\u{03}")
        #expect(repl.wait(for: "^C"))
        // The terminal echoes ^C before the shell has dropped the line: a
        // Ctrl-D typed before the fresh prompt would edit the old line.
        #expect(repl.waitAfter("^C", for: "quarry> "))
        repl.type("\u{04}")
        #expect(repl.finish() == 0)
    }
}

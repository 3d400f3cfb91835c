// The `quarry` command line as a process: the sqlite3/psql-style flags
// (`--version`, `--help`, `-`, `-f`, `-o`, `--csv`..., `-1`), a store file
// named like a query file, which `-c` an error is in, and Ctrl-C (SIGINT)
// in `-c` mode: exit 130, the interrupted write rolled back.
import Foundation
import Testing
@testable import QuarryShell
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `quarry` with `arguments` and `input` on stdin.
func quarry(_ arguments: [String], input: String = "", interruptAfter: Double? = nil) throws -> (out: String, err: String, status: Int32) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: REPLTerminalTests.binary!)
    p.arguments = arguments
    let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
    p.standardInput = stdin
    p.standardOutput = stdout
    p.standardError = stderr
    try p.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    // Read both pipes while it runs (a full pipe would block it).
    final class Box: @unchecked Sendable { var out = Data(); var err = Data() }
    let box = Box()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async { box.out = stdout.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    group.enter()
    DispatchQueue.global().async { box.err = stderr.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    if let interruptAfter {
        Thread.sleep(forTimeInterval: interruptAfter)
        kill(p.processIdentifier, SIGINT)
    }
    p.waitUntilExit()
    group.wait()
    return (String(decoding: box.out, as: UTF8.self), String(decoding: box.err, as: UTF8.self), p.terminationStatus)
}

@Suite("quarry command line", .serialized, .enabled(if: REPLTerminalTests.binary != nil, "needs the built quarry executable"))
struct ShellCommandLineTests {
    /// (arguments, stdin, stdout, a stderr fragment, exit status)
    static let cases: [([String], String, String, String, Int32)] = [
        (["--version"], "", "quarry 0.1.0\n", "", 0),
        (["-"], "COUNT Department;\nEVAL 2", " count\n-------\n    10\n(1 row)\n 2\n---\n 2\n(1 row)\n", "", 0),
        (["--csv", "-f", "-"], "EVAL 2;", "2\r\n2\r\n", "", 0),
        (["--json", "-c", "EVAL 2"], "", "[\n{\"2\":2}\n]\n", "", 0),
        (["--line", "-c", "EVAL 2"], "", "2 = 2\n", "", 0),
        (["--echo", "--csv", "-c", "EVAL 2"], "", "EVAL 2;\n2\r\n2\r\n", "", 0),
        (["-c", "EVAL 1", "-c", "FETCH Employee WHERE salry > 1"], "", "", "-c #2:1:22: error[B002]", 65),
        (["-c", "EVAL 1", "-c", ".exit 7", "-c", "EVAL 3"], "", " 1\n---\n 1\n(1 row)\n", "", 7),
        // Piped stdin keeps going after an error, unless --bail; `-` is a file, which stops.
        ([], "EVAL 1/0; EVAL 2;", " 2\n---\n 2\n(1 row)\n", "error[E003]", 1),
        (["-"], "EVAL 1/0; EVAL 2;", "", "<stdin>:1:6: error[E003]", 1),
        (["--bail"], "EVAL 1/0; EVAL 2;", "", "error[E003]", 1),
    ]

    @Test(arguments: cases)
    func commandLine(arguments: [String], input: String, out: String, err: String, status: Int32) throws {
        let r = try quarry(arguments, input: input)
        #expect(r.out == out, "\(r.out.debugDescription) \(r.err)")
        #expect(err.isEmpty ? r.err.isEmpty : r.err.contains(err), "\(r.err)")
        #expect(r.status == status)
    }

    @Test func helpListsOptionsWithExamples() throws {
        let r = try quarry(["--help"])
        #expect(r.status == 0)
        for option in ["--single-transaction", "--bail", "--keep-going", "-o FILE", "-f FILE", "--csv", "--echo", "EXAMPLES"] {
            #expect(r.out.contains(option), "\(option)")
        }
    }

    @Test func aStoreFileNamedAsAQueryFileOpensAsTheStore() throws {
        let path = try companyFile("header")
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        let r = try quarry([path, "-c", "COUNT Department", "--csv"])
        #expect(r.out == "count\r\n10\r\n")
        #expect(r.err.contains("opening '\(path)' as a SQLite store"))
        #expect(r.status == 0)
    }

    @Test func outputFile() throws {
        let path = NSTemporaryDirectory() + "quarry-o-\(getpid()).txt"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try quarry(["-o", path, "--csv", "-c", "EVAL 3"])
        #expect(r.out.isEmpty)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "3\r\n3\r\n")
    }

    @Test func singleTransactionIsAllOrNothing() throws {
        let path = try companyFile("single")
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        let before = bytes(path)
        let failed = try quarry(["--store", path, "-1", "-c", "DELETE Employee", "-c", "EVAL 1/0"])
        #expect(failed.status == 1)
        #expect(failed.out == "deleted 200 objects\n")
        #expect(bytes(path) == before)
        let ok = try quarry(["--store", path, "--single-transaction", "-c", "DELETE Employee WHERE age > 60", "-c", "COUNT Employee WHERE age > 60"])
        #expect(ok.status == 0)
        #expect(ok.out.hasSuffix("     0\n(1 row)\n"), "\(ok.out)")
    }

    @Test(.enabled(if: BigStore.made, "needs the big store"))
    func sigintEndsARunWith130AndRollsBack() throws {
        // A copy, so the other suites' store is never written.
        let path = NSTemporaryDirectory() + "quarry-sigint-\(getpid()).sqlite"
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: BigStore.path, toPath: path)
        let before = bytes(path)
        let started = Date()
        // A write whose WHERE takes the database a long while.
        let r = try quarry(["--store", path, "--model", BigStore.model, "-c",
                            "UPDATE Employee SET salary = 1 WHERE SUBQUERY(department.employees, $e, $e.salary > salary).@count > 100000",
                            "-c", "EVAL 'never'"], interruptAfter: 0.8)
        #expect(r.status == 130, "\(r.err)")
        #expect(r.err.contains("interrupted"))
        #expect(!r.out.contains("never"))
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(bytes(path) == before)
        // Printing is interrupted too.
        let printing = try quarry(["--store", path, "--model", BigStore.model, "--csv", "-c", "FETCH Employee"], interruptAfter: 0.8)
        #expect(printing.status == 130)
        #expect(printing.err.contains("interrupted"))
    }
}

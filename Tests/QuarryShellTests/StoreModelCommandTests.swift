// The same promises through the `quarry` executable, as a user meets them:
// a store made by `quarry fixtures` or by the shell with `--model` (YAML or
// a Core Data bundle) answers `quarry --store PATH` with no model; fixtures
// refuse to replace it without `--force`; `random()` differs between runs
// unless `--seed` is given.
import Foundation
import Testing
@testable import QuarryShell

@Suite("Stores carry their model (the executable)", .serialized)
struct StoreModelCommandTests {
    /// Runs `quarry` with `arguments`; its stdout, stderr and status.
    func quarry(_ arguments: [String]) throws -> Transcript {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: REPLTerminalTests.binary!)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Transcript(out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self), status: process.terminationStatus)
    }

    static func freshPath(_ name: String) -> String {
        NSTemporaryDirectory() + "quarry-cli-\(name)-\(getpid())-\(UInt32.random(in: 0 ... .max)).sqlite"
    }

    @Test(.enabled(if: REPLTerminalTests.binary != nil, "needs the built quarry executable"),
          arguments: ["fixtures", StoreModelTests.company, StoreModelTests.companyBundle])
    func madeStoresOpenWithTheirPathAlone(maker: String) throws {
        let path = Self.freshPath("model")
        let made = maker == "fixtures"
            ? try quarry(["fixtures", "--model", StoreModelTests.company, "--out", path, "--count", "Employee=3", "--seed", "1"])
            : try quarry(["--store", path, "--model", maker, "-c", "INSERT Department {name: 'Annex'}", "-c", "INSERT Employee {name: 'A', department: 1}",
                          "-c", "INSERT Employee {name: 'B', department: 'Department/1'}", "-c", "INSERT Employee {name: 'C'}"])
        #expect(made.status == 0, "\(made)")
        let count = try quarry(["--store", path, "--mode", "csv", "-c", "COUNT Employee"])
        #expect(count == Transcript(out: "count\r\n3\r\n", err: "", status: 0), "\(count)")
        if maker == "fixtures" {
            let again = try quarry(["fixtures", "--model", StoreModelTests.company, "--out", path, "--seed", "1"])
            #expect(again.status == 1 && again.err.contains("--force"), "\(again)")
        }
    }

    @Test(.enabled(if: REPLTerminalTests.binary != nil, "needs the built quarry executable"))
    func randomIsFreshUnlessSeeded() throws {
        let args = ["--mode", "csv", "-c", "EVAL random()"]
        #expect(try quarry(args).out != quarry(args).out)
        #expect(try quarry(["--seed", "9"] + args).out == quarry(["--seed", "9"] + args).out)
    }
}

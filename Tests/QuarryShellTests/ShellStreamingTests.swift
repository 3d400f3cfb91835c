// `FETCH … BATCH n` streams: each batch is printed as it is read (the output
// sink is called batch by batch), and what is printed is byte for byte what
// the same FETCH without BATCH prints, in every output mode, for every batch
// size — also for to-one relationships that need a query to print (the
// non-owning side of a one-to-one, a destination with sub-entities).
import Foundation
import Testing
@testable import QuarryShell

@Suite("Shell: FETCH … BATCH streams")
struct ShellStreamingTests {
    static let statements = [
        "FETCH Employee SORT BY name, salary",
        "FETCH Employee WHERE salary > 100000 SORT BY salary DESC, name LIMIT 25 OFFSET 3",
        "FETCH Department SORT BY name",
        "FETCH Employee WHERE name == 'nobody'",
        "FETCH Employee WHERE salary ** 2 > 10000000000 SORT BY name",
    ]

    @Test(arguments: OutputMode.allCases, statements)
    func batchedOutputIsTheUnbatchedOutput(mode: OutputMode, statement: String) {
        let whole = run(statement, mode: mode)
        #expect(whole.status == 0 && whole.err.isEmpty)
        for batch in [1, 7, 1000] {
            let streamed = run(statement + " BATCH \(batch)", mode: mode)
            #expect(streamed.out == whole.out, "BATCH \(batch)")
            #expect(streamed.err.isEmpty && streamed.status == 0)
        }
    }

    /// Each write the session makes, separately.
    func writes(_ script: String, mode: OutputMode) -> [String] {
        final class Box: @unchecked Sendable { var writes: [String] = [] }
        let box = Box()
        let session = ShellSession(mode: mode, output: { box.writes.append($0) }, errors: { _ in })
        _ = session.run(script, stopOnError: true)
        return box.writes
    }

    @Test(arguments: [OutputMode.csv, .ndjson, .table])
    func eachBatchIsWrittenAsItComes(mode: OutputMode) {
        let whole = writes("FETCH Employee SORT BY name", mode: mode)
        let streamed = writes("FETCH Employee SORT BY name BATCH 7", mode: mode)
        // The whole result is printed in chunks too (so Ctrl-C can stop it), but fewer.
        #expect(whole.count > 1 && whole.count < streamed.count, "\(whole.count) writes")
        // 200 employees, 7 a batch: 29 batches, plus the head and tail a mode has.
        #expect(streamed.count >= 29, "\(streamed.count) writes")
        #expect(streamed.joined() == whole.joined())
    }

    @Test func theMemoryEngineAndPropertiesPrintAsBefore() {
        let memory = run(".engine memory\nFETCH Employee WHERE salary > 120000 SORT BY name BATCH 5")
        let sql = run("FETCH Employee WHERE salary > 120000 SORT BY name")
        #expect(memory.out == sql.out && memory.status == 0)
        let properties = run("FETCH Employee PROPERTIES name, salary WHERE salary > 120000 SORT BY name BATCH 5")
        #expect(properties.out == run("FETCH Employee PROPERTIES name, salary WHERE salary > 120000 SORT BY name").out)
    }

    static let shapes = """
    entities:
      Animal:
        abstract: true
        attributes: { name: string }
        relationships:
          owner: { to: Owner, inverse: pet }
      Dog:
        parent: Animal
        attributes: { barks: boolean }
      Cat:
        parent: Animal
        attributes: { lives: integer16 }
      Owner:
        attributes: { name: string }
        relationships:
          pet: { to: Animal, inverse: owner }
          mascot: { to: Animal }
    """

    @Test(arguments: [OutputMode.table, .json])
    func toOnesThatNeedAQueryPrintTheSame(mode: OutputMode) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = folder.appendingPathComponent("shapes.yaml").path
        try Self.shapes.write(toFile: model, atomically: true, encoding: .utf8)
        let store = folder.appendingPathComponent("shapes.sqlite").path
        var setUp = ""
        for i in 1...9 { setUp += "INSERT \(i % 2 == 0 ? "Dog" : "Cat") {name: 'Pet \(i)'};\n" }
        for i in 1...9 {
            setUp += "INSERT Owner {name: 'Owner \(i)'" + (i % 3 == 0 ? "" : ", pet: '\(i % 2 == 0 ? "Dog" : "Cat")/\(i)'")
                + (i % 4 == 0 ? "" : ", mascot: '\(i % 2 == 0 ? "Dog" : "Cat")/\(10 - i)'") + "};\n"
        }
        let made = transcript([.command(setUp)], store: .sqlite(store), modelPath: model)
        #expect(made.status == 0, "\(made.err)")
        for statement in ["FETCH Owner SORT BY name", "FETCH Animal SORT BY name", "FETCH Dog WHERE owner != nil SORT BY name"] {
            let whole = transcript([.command(statement)], mode: mode, store: .sqlite(store))
            #expect(whole.status == 0 && whole.out.contains("/"), "\(whole.err)")
            for batch in [1, 4] {
                let streamed = transcript([.command(statement + " BATCH \(batch)")], mode: mode, store: .sqlite(store))
                #expect(streamed.out == whole.out, "\(statement) BATCH \(batch)")
            }
        }
    }
}

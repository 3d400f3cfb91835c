// `FETCH … BATCH n` streams: each batch is printed as it is read (the output
// sink is called batch by batch), and what is printed is byte for byte what
// the same FETCH without BATCH prints, in every output mode, for every batch
// size — also for to-one relationships that need a query to print (the
// non-owning side of a one-to-one, a destination with sub-entities) —
// except that `table` aligns each batch on its own (psql's FETCH_COUNT): the
// same cells, the columns of each batch lined up, and byte for byte the
// unbatched text when one batch holds everything.
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
            Self.expectSame(streamed.out, whole.out, mode: mode, batch: batch)
            #expect(streamed.err.isEmpty && streamed.status == 0)
        }
    }

    /// The streamed text is the whole text; in table mode, the same cells
    /// with each batch aligned on its own (the whole text when one batch
    /// holds every row).
    static func expectSame(_ streamed: String, _ whole: String, mode: OutputMode, batch: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let rows = whole.split(separator: "\n").count - 3
        guard mode == .table && batch < rows else {
            #expect(streamed == whole, "BATCH \(batch)", sourceLocation: sourceLocation)
            return
        }
        #expect(cells(streamed) == cells(whole), "BATCH \(batch)", sourceLocation: sourceLocation)
        // Rows of a batch line up: their '|' at the same display columns.
        let lines = streamed.split(separator: "\n").dropFirst(2).dropLast().map(String.init)
        for start in stride(from: 0, to: lines.count, by: batch) {
            let bars = Set(lines[start..<min(start + batch, lines.count)].map(barColumns))
            #expect(bars.count == 1, "BATCH \(batch) rows \(start)...: \(bars)", sourceLocation: sourceLocation)
        }
    }

    /// Each line's cells, trimmed; separator lines dropped.
    static func cells(_ text: String) -> [[String]] {
        text.split(separator: "\n").filter { !$0.allSatisfy { $0 == "-" || $0 == "+" } }
            .map { $0.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// Where the column bars of a table line are, in terminal columns.
    static func barColumns(_ line: String) -> [Int] {
        var width = 0
        var bars: [Int] = []
        for ch in line {
            if ch == "|" { bars.append(width) }
            width += DisplayWidth.of(ch)
        }
        return bars
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
        Self.expectSame(streamed.joined(), whole.joined(), mode: mode, batch: 7)
        // Table mode: the head and the first batch come before any other batch is read.
        if mode == .table { #expect(streamed[0].hasPrefix(" name ") && streamed[1].split(separator: "\n").count == 7, "\(streamed.prefix(2))") }
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
                Self.expectSame(streamed.out, whole.out, mode: mode, batch: batch)
            }
        }
    }
}

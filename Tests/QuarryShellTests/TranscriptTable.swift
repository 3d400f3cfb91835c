// A shell transcript as a table: write a YAML model, run a set-up script on
// a fresh store (a SQLite file, or a fresh PostgreSQL schema), then each
// (statement, stdout, stderr, exit status) case against it through an
// in-process shell session (`transcript`), as `quarry` would print them.
// The suites for inheritance, derived attributes, fetched properties,
// external storage and history share it (`withStore` alone where a suite
// checks more than the output); each keeps only its model and its cases.
import Foundation
import Testing
import QuarryPostgresTestSupport
@testable import QuarryShell

enum TranscriptTable {
    /// Where the table runs: SQLite always, PostgreSQL when a server is there.
    static var locations: [String] { PostgresTestEnvironment.shouldRun ? ["sqlite", "postgres"] : ["sqlite"] }

    /// A scratch folder holding `model` as `model.yaml`, and a fresh store
    /// at `location` (a SQLite file in the folder, or a fresh PostgreSQL
    /// schema); the folder is removed when `body` returns.
    static func withStore<T>(at location: String, model: String,
                             _ body: (_ folder: URL, _ modelPath: String, _ store: StoreLocation) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-transcript-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let modelPath = folder.appendingPathComponent("model.yaml").path
        try model.write(toFile: modelPath, atomically: true, encoding: .utf8)
        let store: StoreLocation
        if location == "postgres" {
            var url = try PostgresTestEnvironment.requireURL()
            url.schema = PostgresTestEnvironment.freshSchemaName()
            store = .postgres(url.description)
        } else {
            store = .sqlite(folder.appendingPathComponent("store.sqlite").path)
        }
        return try body(folder, modelPath, store)
    }

    /// Runs the cases; `then` gets the store for checks of its own.
    static func run(at location: String, model: String, setUp: String, cases: [(String, String, String, Int32)],
                    then: (StoreLocation) -> Void = { _ in }) throws {
        try withStore(at: location, model: model) { _, modelPath, store in
            let made = transcript([.command(setUp)], store: store, modelPath: modelPath)
            #expect(made.status == 0, "\(made.err)")
            for (script, out, err, status) in cases {
                let r = transcript([.command(script)], store: store)
                #expect(r.out == out, "\(location): \(script)\n\(r.out)")
                #expect(r.err == err, "\(location): \(script)\n\(r.err)")
                #expect(r.status == status, "\(location): \(script)")
            }
            then(store)
        }
    }
}

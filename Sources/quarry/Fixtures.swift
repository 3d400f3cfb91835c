// `quarry fixtures --model PATH (--out PATH | --postgres URL) [--count Entity=N]...
//  [--seed N] [--factories PATH] [--format sqlite|json|ndjson|csv|sql|coredata] [--edge-cases] [--force | --append]`:
// deterministic test data from a model (the work is QuarryFixtures').
import ArgumentParser
import Foundation
import QuarryFixtures
import QuarryPostgres

struct Fixtures: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixtures",  // named, so ArgumentParser need not derive it from the type
        abstract: "Generate deterministic test data from a model.",
        discussion: "Factories files are documented in Examples/Fixtures/README.md.")

    @Option(help: "The model file (YAML, JSON or .xcdatamodeld).") var model: String
    @Option(help: "Where to write (the format follows the extension unless --format says).") var out: String?
    @Option(help: "A PostgreSQL store to fill (postgres://...?schema=name); its rows are replaced in one transaction.") var postgres: String?
    @Option(name: .customLong("count"), help: "How many objects of an entity, as Entity=N (repeatable).") var counts: [String] = []
    @Option(help: "The seed; the same seed gives the same bytes.") var seed: UInt64?
    @Option(help: "A factories file (YAML).") var factories: String?
    @Option(help: "sqlite, json, ndjson, csv, sql, or coredata (a new Core Data store of the model).") var format: String?
    @Flag(name: .customLong("edge-cases"), help: "Values that break naive predicate implementations.") var edgeCases = false
    @Flag(help: "Replace the data already at --out or in the --postgres store (refused without it).") var force = false
    @Flag(help: "Add to the store at --out (SQLite) or --postgres, which must have the same model.") var append = false

    func validate() throws {
        if postgres != nil && out != nil { throw ValidationError("give --out PATH or --postgres URL, not both") }
        if postgres == nil && out == nil { throw ValidationError("give --out PATH or --postgres URL") }
        if postgres != nil && format != nil { throw ValidationError("--format is for --out; --postgres writes a store") }
    }

    func run() throws {
        let target: FixturesCommand.Target
        if let postgres {
            let name = (try? PostgresURL(postgres).redacted) ?? "the PostgreSQL store"
            target = .store(description: name) { model, file in try SQLStore(postgres: postgres, model: model, modelFile: file) }
        } else {
            target = .file(out!, format: format)
        }
        let outcome = FixturesCommand.run(model: model, target: target, counts: counts, seed: seed, factories: factories,
                                          edgeCases: edgeCases, force: force, append: append, progress: isatty(2) != 0)
        if !outcome.stdout.isEmpty { FileHandle.standardOutput.write(outcome.stdout.data(using: .utf8)!) }
        if !outcome.stderr.isEmpty { FileHandle.standardError.write(outcome.stderr.data(using: .utf8)!) }
        if outcome.exitCode != 0 { throw ExitCode(outcome.exitCode) }
    }
}

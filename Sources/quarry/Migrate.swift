// `quarry migrate (--store PATH | --postgres URL) --model M [--from OLD] [--dry-run]`:
// migrates a Quarry store, or a Core Data store, made with an earlier
// version of a model (the work is QuarryShell's MigrateCommand).
import ArgumentParser
import Foundation
import QuarryShell

struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a Quarry or Core Data store to a newer version of its model (lightweight migration, as Core Data infers it).")

    @Option(help: "The SQLite store to migrate.") var store: String?
    @Option(help: "The PostgreSQL store to migrate: postgres://...?schema=name.") var postgres: String?
    @Option(help: "The new model (.xcdatamodeld — its versions applied in order —, .xcdatamodel, YAML or JSON).") var model: String
    @Option(help: "A Core Data store's own model version, when neither the store caches it nor --model is a .xcdatamodeld holding it.") var from: String?
    @Flag(help: "Print the plan (changes and SQL) without changing the store.") var dryRun = false

    func run() throws {
        let outcome = MigrateCommand(store: store, postgres: postgres, model: model, from: from, dryRun: dryRun).run()
        if !outcome.stdout.isEmpty { FileHandle.standardOutput.write(outcome.stdout.data(using: .utf8)!) }
        if !outcome.stderr.isEmpty { FileHandle.standardError.write(outcome.stderr.data(using: .utf8)!) }
        if outcome.exitCode != 0 { throw ExitCode(outcome.exitCode) }
    }
}

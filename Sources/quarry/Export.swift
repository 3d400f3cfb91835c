// `quarry export --store App.sqlite [--model M] --to data.sqlite|postgres://… [--force]`:
// copies a Core Data store (or any store Quarry opens) into a new Quarry
// store (the work is QuarryShell's ExportCommand).
import ArgumentParser
import Foundation
import QuarryShell

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Copy a Core Data store (or any store Quarry opens) into a new Quarry SQLite store or a PostgreSQL schema.")

    @Option(help: "The store to read: an app's Core Data store (never written) or a Quarry store.") var store: String
    @Option(help: "The model (.xcdatamodeld, .xcdatamodel, YAML or JSON); default: the one cached or saved in the store.") var model: String?
    @Option(help: "Where to write: a SQLite file path or postgres://...?schema=name.") var to: String
    @Flag(help: "Replace the data already at --to (refused without it).") var force = false

    func run() throws {
        let outcome = ExportCommand(store: store, model: model, to: to, force: force, progress: isatty(2) != 0).run()
        if !outcome.stdout.isEmpty { FileHandle.standardOutput.write(outcome.stdout.data(using: .utf8)!) }
        if !outcome.stderr.isEmpty { FileHandle.standardError.write(outcome.stderr.data(using: .utf8)!) }
        if outcome.exitCode != 0 { throw ExitCode(outcome.exitCode) }
    }
}

// The `quarry` executable: argument parsing only. Every command's work lives
// in QuarryShell so tests can drive it without a process.
import ArgumentParser
import QuarryShell

@main
struct Quarry: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quarry",
        abstract: "Core Data's predicate and expression language on Linux.",
        subcommands: [Parse.self, Eval.self]
    )
}

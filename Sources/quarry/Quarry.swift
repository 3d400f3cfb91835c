// The `quarry` executable: argument parsing only. Every command's work lives
// in QuarryShell so tests can drive it without a process. With no subcommand
// (`quarry FILE...`, `quarry -c ...`, plain `quarry`) it is the shell, and
// a plain shell command line is read without ArgumentParser (ShellOptions).
import ArgumentParser
import Foundation
import QuarryShell

@main
enum Main {
    static func main() {
        if let options = ShellOptions(commandLine: CommandLine.arguments) { exit(options.run()) }
        Quarry.main()
    }
}

struct Quarry: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quarry",
        abstract: "Core Data's predicate and expression language on Linux.",
        subcommands: [Shell.self, Parse.self, Eval.self, Fixtures.self, Export.self, Migrate.self, Lint.self],
        defaultSubcommand: Shell.self
    )
}

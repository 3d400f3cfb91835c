// `quarry parse [--json] [--expression] FORMAT [ARG...]`: print the canonical
// form (or the tree as JSON), or the located diagnostic with exit code 65.
import ArgumentParser
import QuarryShell

struct Parse: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",  // named, so ArgumentParser need not derive it from the type
        abstract: "Parse a predicate (or expression) and print its canonical form.",
        discussion: """
        Each ARG fills one specifier in order. An ARG that is valid JSON is read as JSON \
        (30 is an integer, '"30"' a string, '[1,2]' an array, '{"$date": 0}' a date); \
        anything else is a string. With no ARG at all, specifiers stay as placeholders.
        """
    )

    @Flag(help: "Print the syntax tree as JSON.") var json = false
    @Flag(help: "Parse an expression instead of a predicate.") var expression = false
    @Option(name: .customLong("error-format"), help: "Diagnostics as 'human' or 'json'.") var errorFormat = "human"
    @Argument(help: "The format string.") var format: String
    @Argument(help: "Values for %@, %K, %d ... in order.") var args: [String] = []

    func run() throws {
        let command = ParseCommand(format: format, arguments: args.isEmpty ? nil : args.map(CommandLineValue.parse),
                                   asExpression: expression, json: json, jsonErrors: errorFormat == "json")
        let outcome = command.run()
        if !outcome.stdout.isEmpty { print(outcome.stdout) }
        if !outcome.stderr.isEmpty { printError(outcome.stderr) }
        if outcome.exitCode != 0 { throw ExitCode(outcome.exitCode) }
    }
}

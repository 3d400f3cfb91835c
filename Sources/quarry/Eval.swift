// `quarry eval --jsonl` (the machine interface) and
// `quarry eval FORMAT [--object JSON] [--arg VALUE]...` for people.
import ArgumentParser
import QuarryShell
import Foundation

struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",  // named, so ArgumentParser need not derive it from the type
        abstract: "Evaluate a predicate or expression, or serve the JSON Lines machine interface.")

    @Flag(help: "Read JSON Lines requests on stdin and answer one line each.") var jsonl = false
    @Flag(help: "Evaluate an expression instead of a predicate.") var expression = false
    @Option(help: "The object SELF stands for, as JSON.") var object: String?
    @Option(name: .customLong("arg"), help: "A value for the next specifier (JSON, or a plain string).") var args: [String] = []
    @Option(name: .customLong("var"), help: "A variable binding NAME=VALUE (VALUE as for --arg).") var vars: [String] = []
    @Argument(help: "The format string.") var format: String?

    func validate() throws {
        if jsonl && format != nil { throw ValidationError("--jsonl reads requests from stdin; give no FORMAT") }
        if !jsonl && format == nil { throw ValidationError("give a FORMAT to evaluate, or --jsonl") }
        for v in vars where !v.contains("=") { throw ValidationError("--var takes NAME=VALUE, got '\(v)'") }
    }

    func run() throws {
        if jsonl {
            MachineInterface().serveStandardInput()
            return
        }
        let outcome = EvalCommand(format: format!, asExpression: expression, object: object,
                                  arguments: args.map(CommandLineValue.parse), variables: vars).run()
        if !outcome.stdout.isEmpty { print(outcome.stdout) }
        if !outcome.stderr.isEmpty { printError(outcome.stderr) }
        if outcome.exitCode != 0 { throw ExitCode(outcome.exitCode) }
    }
}

func printError(_ text: String) {
    var stderr = StandardError()
    print(text, to: &stderr)
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandle.standardError.write(string.data(using: .utf8)!)
    }
}

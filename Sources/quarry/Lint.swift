// `quarry lint [PATH...] [--model M]... [--format text|json|sarif|github] [--config FILE]`:
// checks the format strings in Swift/Objective-C sources (and the models'
// own predicates). Exit 0 clean, 1 findings at error level, 64 usage, 66 a
// file or model that cannot be read. The work is in QuarryLint.
import ArgumentParser
import Foundation
import QuarryLint

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check NSPredicate/NSExpression format strings in Swift and Objective-C sources.",
        discussion: """
        Directories are walked for .swift, .m, .mm and .h files. With --model, key paths are \
        checked against the entity a fetch request names (or a `// quarry-lint:entity Name` \
        comment). `// quarry-lint:disable QL004` on a line (or disable-next-line, disable-file) \
        switches a rule off there; --config reads rule severities from YAML.
        """
    )

    @Option(name: .customLong("model"), help: "A model (.xcdatamodeld, .xcdatamodel, YAML, JSON); repeatable.")
    var models: [String] = []
    @Option(help: "Output: text, json, sarif or github.") var format = "text"
    @Option(help: "A .quarry-lint.yml with rule severities (default: ./.quarry-lint.yml when present).")
    var config: String?
    @Argument(help: "Files or directories to lint (default: the current directory).") var paths: [String] = []

    func run() throws {
        var hasErrors = false
        do throws(LintError) {
            guard let output = LintFormat(rawValue: format) else {
                throw LintError.usage("unknown format '\(format)' (expected text, json, sarif or github)")
            }
            let configuration = try readConfig()
            let (loaded, modelFindings) = try Linter.loadModels(models)
            let files = try Linter.sourceFiles(paths.isEmpty ? ["."] : paths)
            let findings = try Linter.lint(files: files, models: loaded, config: configuration)
                + Linter.apply(configuration, to: modelFindings)
            print(LintReporter.render(findings, as: output), terminator: "")
            hasErrors = findings.contains(where: { $0.severity == .error })
        } catch {
            FileHandle.standardError.write(Data("quarry lint: \(error)\n".utf8))
            throw ExitCode(error.exitCode)
        }
        if hasErrors { throw ExitCode(1) }
    }

    private func readConfig() throws(LintError) -> LintConfig {
        let path = config ?? (FileManager.default.fileExists(atPath: ".quarry-lint.yml") ? ".quarry-lint.yml" : nil)
        guard let path else { return LintConfig() }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw LintError.unreadable("cannot read config \(path)")
        }
        return try LintConfig(yaml: text)
    }
}

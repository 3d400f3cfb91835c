// The work `quarry lint DIR --model M` does, as a small program linked
// against a release build of QuarryLint alone (Scripts/lint-benchmark.sh
// builds it): a release build of the whole `quarry` executable takes most of
// an hour on a shared two-core machine, this one minutes. Same calls as the
// subcommand (Sources/quarry/Lint.swift): models, files, lint, text output.
import Foundation
import QuarryLint

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: lint-bench DIR MODEL\n".utf8))
    exit(64)
}
do {
    let (models, modelFindings) = try Linter.loadModels([arguments[2]])
    let files = try Linter.sourceFiles([arguments[1]])
    let findings = try Linter.lint(files: files, models: models) + modelFindings
    FileHandle.standardOutput.write(Data(LintReporter.render(findings, as: .text).utf8))
    exit(findings.contains { $0.severity == .error } ? 1 : 0)
} catch {
    FileHandle.standardError.write(Data("lint-bench: \(error)\n".utf8))
    exit(error.exitCode)
}

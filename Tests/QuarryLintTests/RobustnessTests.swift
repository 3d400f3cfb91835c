// Bad input never crashes or hangs: unterminated literals of every kind,
// binary files, deep nesting, huge files and random bytes each give a clear
// finding or nothing at all.
import Foundation
import QuarryLint
import Testing

@Suite struct LintRobustnessTests {
    @Test(arguments: [
        ("a.swift", "let p = NSPredicate(format: \"\"\"\n    name == 1\n"),   // multi-line never closed
        ("a.swift", "let p = NSPredicate(format: #\"name == 1\"\n"),        // raw string missing its #
        ("a.swift", "let p = NSPredicate(format: \"name \\u{ZZ} == 1\")"),   // malformed \u{}
        ("a.m", "[NSPredicate predicateWithFormat:@\"name == 1"),             // unterminated at the end of the file
        ("a.m", "[NSPredicate predicateWithFormat:@\"a\" \"b"),               // second adjacent literal unterminated
    ])
    func unterminatedLiteralsAreReported(_ file: String, _ source: String) {
        let findings = Linter.lint(source: source, path: file)
        #expect(findings.map(\.rule) == [.unreadable], "\(findings)")
        #expect(findings.first?.line == 1)
    }

    @Test func binaryFileIsSkippedWithAFinding() {
        let source = "NSPredicate(format: \"a ==\")\u{0}\u{1}"
        #expect(Linter.lint(source: source, path: "b.swift").map(\.rule) == [.unreadable])
    }

    @Test func deepNestingDoesNotOverflow() {
        let deep = String(repeating: "(", count: 50_000) + "NSPredicate(format: \"a == \")" + String(repeating: ")", count: 50_000)
        let findings = Linter.lint(source: deep, path: "d.swift")
        #expect(findings.map(\.rule) == [.parseError])
        let predicate = String(repeating: "(", count: 5_000) + "a == 1" + String(repeating: ")", count: 5_000)
        let nested = Linter.lint(source: "let p = NSPredicate(format: \"\(predicate)\")", path: "n.swift")
        #expect(nested.map(\.rule) == [.parseError])  // the parser's nesting limit, reported, not a crash
    }

    @Test func unclosedCallsAndCommentsEndAtTheFile() {
        for source in ["NSPredicate(format: \"a == %@\", x", "NSPredicate(format:", "NSPredicate(", "/* NSPredicate(format: \"a\"",
                       "[NSPredicate predicateWithFormat:", "NSPredicate(format: \"a == %@\" + "] {
            _ = Linter.lint(source: source, path: "u.swift")
            _ = Linter.lint(source: source, path: "u.m")
        }
    }

    @Test func randomBytesNeverCrash() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("NSPredicate(format:\"\\#@%K,)[]{} \n\"\"\"predicateWithFormat:u{}".utf8)
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 0..<400, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let text = String(decoding: bytes, as: UTF8.self)
            _ = Linter.lint(source: text, path: "r.swift")
            _ = Linter.lint(source: text, path: "r.m")
        }
    }
}

@Suite struct LintConfigTests {
    @Test func severitiesAndDisabledRules() throws {
        let config = try LintConfig(yaml: "rules:\n  QL006: warning\n  QL009: off\ndisabled: [QL011]\n")
        #expect(config.severity(of: .toManyUnquantified) == .warning)
        #expect(config.severity(of: .notConstant) == .off)
        #expect(config.severity(of: .unknownEntity) == .off)
        #expect(config.severity(of: .parseError) == .error)
    }

    @Test(arguments: ["rules:\n  QL999: error\n", "rules:\n  QL001: loud\n", "colour: red\n", "rules: [QL001]\n"])
    func badConfigIsAUsageError(_ yaml: String) {
        #expect(throws: LintError.self) { try LintConfig(yaml: yaml) }
    }

    @Test func configAppliesToFileRuns() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try #"let p = NSPredicate(format: "a == \(x)") + NSPredicate(format: "b ==")"#
            .write(to: dir.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
        try "not source".write(to: dir.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let files = try Linter.sourceFiles([dir.path])
        #expect(files == [dir.path + "/A.swift"])
        let all = try Linter.lint(files: files, models: [])
        #expect(all.map(\.rule) == [.notConstant, .parseError])
        let quiet = try Linter.lint(files: files, models: [], config: LintConfig(severities: [.notConstant: .off, .parseError: .warning]))
        #expect(quiet.map(\.rule) == [.parseError])
        #expect(quiet.first?.severity == .warning)
        #expect(throws: LintError.unreadable("no such file or directory: /nonexistent/quarry")) {
            try Linter.sourceFiles(["/nonexistent/quarry"])
        }
    }
}

@Suite struct LintReporterTests {
    let findings = [Finding(.parseError, "bad, really: 100%", file: "A,b.swift", line: 3, column: 7, hints: ["fix it"])]

    @Test func github() {
        #expect(LintReporter.render(findings, as: .github)
            == "::error file=A%2Cb.swift,line=3,col=7,title=QL001::bad, really: 100%25%0Ahint: fix it\n")
    }

    @Test func text() {
        #expect(LintReporter.render(findings, as: .text).hasPrefix("A,b.swift:3:7: error: bad, really: 100% [QL001]\n"))
    }

    @Test func jsonAndSarifAreValidJSON() throws {
        let json = try JSONSerialization.jsonObject(with: Data(LintReporter.render(findings, as: .json).utf8)) as? [[String: Any]]
        #expect(json?.first?["rule"] as? String == "QL001")
        #expect(json?.first?["line"] as? Int == 3)
        let sarif = try JSONSerialization.jsonObject(with: Data(LintReporter.render(findings, as: .sarif).utf8)) as? [String: Any]
        #expect(sarif?["version"] as? String == "2.1.0")
        let run = (sarif?["runs"] as? [[String: Any]])?.first
        let result = (run?["results"] as? [[String: Any]])?.first
        #expect(result?["ruleId"] as? String == "QL001")
        #expect(result?["level"] as? String == "error")
        let region = (((result?["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"] as? [String: Any])
        #expect(region?["startLine"] as? Int == 3)
        #expect(region?["startColumn"] as? Int == 7)
    }
}

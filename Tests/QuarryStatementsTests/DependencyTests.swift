// QuarryStatements exists so that a tool reading statements (the linter,
// an editor plugin) does not pull in readline, the stores or PostgreSQL.
// This reads Package.swift and the module's sources and fails when the
// module depends — directly, or through another target — on anything
// past QuarrySyntax and QuarryModel, or imports anything else.
import Foundation
import Testing

@Suite("QuarryStatements dependencies")
struct DependencyTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let allowed: Set<String> = ["QuarrySyntax", "QuarryModel"]
    /// What the module exists to keep out (checked through the whole graph).
    static let forbidden: Set<String> = ["QuarryShell", "CReadline", "QuarryPostgres", "PostgresNIO", "QuarryStore", "QuarrySQLite",
                                         "CSQLite", "QuarrySQL", "QuarryEvaluation", "QuarryCoreData"]

    /// Every target of the manifest and the names in its `dependencies:`
    /// list (plain names and `.product(name:…)`), read from the text.
    static func targets(in manifest: String) -> [String: [String]] {
        var result: [String: [String]] = [:]
        let text = manifest.split(separator: "\n").map { line in
            // Comments may name targets; drop them.
            line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
        }.joined(separator: "\n")
        let declaration = /\.(?:target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([^"]+)"/
        for match in text.matches(of: declaration) {
            let name = String(match.1)
            // The target's own arguments: up to the `(` that opened it closing.
            var depth = 1
            var end = match.range.upperBound
            while end < text.endIndex, depth > 0 {
                if text[end] == "(" { depth += 1 } else if text[end] == ")" { depth -= 1 }
                end = text.index(after: end)
            }
            let arguments = text[match.range.upperBound..<end]
            guard let list = arguments.firstMatch(of: /dependencies:\s*\[([^\]]*)\]/) else { result[name] = []; continue }
            var names: [String] = []
            for dep in list.1.matches(of: /\.product\(\s*name:\s*"([^"]+)"[^)]*\)|"([^"]+)"/) {
                names.append(String(dep.1 ?? dep.2!))
            }
            result[name] = names
        }
        return result
    }

    @Test func manifestDependenciesAreSyntaxAndModelOnly() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let graph = Self.targets(in: manifest)
        // The reader found the manifest's shape (so a pass below means something).
        #expect(graph["QuarryShell"]?.contains("CReadline") == true)
        let direct = try #require(graph["QuarryStatements"], "no QuarryStatements target in Package.swift")
        #expect(Set(direct).isSubset(of: Self.allowed), "QuarryStatements depends on \(direct)")
        // Transitively: nothing of the shell, the stores or the drivers.
        var seen: Set<String> = []
        var queue = direct
        while let next = queue.popLast() {
            guard seen.insert(next).inserted else { continue }
            queue += graph[next] ?? []
        }
        #expect(seen.isDisjoint(with: Self.forbidden), "QuarryStatements reaches \(seen.intersection(Self.forbidden).sorted())")
        // And the shell gets its statements from here.
        #expect(graph["QuarryShell"]?.contains("QuarryStatements") == true)
    }

    @Test func sourcesImportSyntaxAndModelOnly() throws {
        let folder = Self.root.appendingPathComponent("Sources/QuarryStatements")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(files.contains("StatementParser.swift"))
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                guard let m = line.wholeMatch(of: /\s*(?:@_exported\s+|@testable\s+)?import\s+(?:[a-z]+\s+)?([A-Za-z_][A-Za-z0-9_]*).*/) else { continue }
                #expect(Self.allowed.contains(String(m.1)), "\(file): \(line)")
            }
        }
    }

    /// The manifest reader itself, on a small manifest.
    @Test func readsTargets() {
        let graph = Self.targets(in: """
            .target(name: "A", dependencies: ["B", .product(name: "P", package: "p")]), // "Z"
            .target(name: "B"),
            .testTarget(
                name: "T",
                dependencies: ["A"]
            ),
            """)
        #expect(graph["A"] == ["B", "P"])
        #expect(graph["B"] == [])
        #expect(graph["T"] == ["A"])
    }
}
